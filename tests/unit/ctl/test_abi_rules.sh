#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# test_abi_rules.sh - the rules of doc/libltt-ctl.md that the compiler
# can't check:
#  - libltt-ctl exports exactly the functions <ltt/ltt-ctl.h> (its area
#    headers, ltt-ctl-*.h) and <ltt/ltt-error.h> declare, each with the symbol version LTT_CTL_1 (or a
#    later node, LTT_CTL_1.1, for functions added since), and
#    its soname is libltt-ctl.so.1;
#  - the daemons and the common code never name a public struct of
#    <ltt/ltt-ctl.h> (they use the internal types of src/common/model/model.h);
#    src/common/model/convert.[ch] is the one crossing.
set -u
top_src=${LTT_TOP_SRCDIR:-$(cd "$(dirname "$0")/../../.." && pwd)}
top_build=${LTT_TOP_BUILDDIR:-$top_src}
lib=$top_build/src/lib/ltt-ctl/.libs/libltt-ctl.so
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-test-abi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }

# Functions declared: "type name(" at the start of a line of the headers.
sed -n 's/^[a-z][a-z0-9_ *]*[ *]\(ltt_[a-z0-9_]*\)(.*/\1/p' \
	"$top_src"/include/ltt/ltt-ctl*.h "$top_src/include/ltt/ltt-error.h" |
	sort -u >"$tmp/declared"
check "the headers declare functions ($(wc -l <"$tmp/declared"))" \
	test "$(wc -l <"$tmp/declared")" -ge 30

# Exported: defined dynamic symbols, but the version node itself.
nm -D --defined-only --with-symbol-versions "$lib" >"$tmp/nm" 2>"$tmp/nm.err"
check "nm reads $lib" test -s "$tmp/nm"
awk '$3 !~ /^LTT_CTL_1(\.[0-9]+)?$/ { sub(/@.*/, "", $3); print $3 }' "$tmp/nm" | sort -u >"$tmp/exported"
if diff "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
	ok "exported symbols = declared functions"
else
	not_ok "exported symbols = declared functions"
	sed 's/^/# /' "$tmp/diff"	# < declared not exported, > exported not declared
fi
awk '$3 !~ /^LTT_CTL_1(\.[0-9]+)?$/ && $3 !~ /@@?LTT_CTL_1(\.[0-9]+)?$/ { print "# unversioned: " $3; bad = 1 }
     END { exit bad }' "$tmp/nm"
check "every exported symbol has a version LTT_CTL_1 or a later LTT_CTL_1.N" test $? -eq 0
# a function kept in an older version for the programs linked to it
# (name@LTT_CTL_1.N) has a default one too (name@@LTT_CTL_1.M), which
# programs built now get
awk '$3 ~ /[^@]@LTT_CTL_1/ { old[substr($3, 1, index($3, "@") - 1)] = 1 }
     $3 ~ /@@LTT_CTL_1/ { def[substr($3, 1, index($3, "@") - 1)] = 1 }
     END { for (f in old) if (!(f in def)) { print "# no default version: " f; bad = 1 }; exit bad }' "$tmp/nm"
check "every function kept in an older version has a default one" test $? -eq 0

# <ltt/ltt-ctl.h> names the versions it exports: LTT_CTL_1 to the last node
last=$(sed -n 's/^\(LTT_CTL_1[.0-9]*\) {.*/\1/p' "$top_src/src/lib/ltt-ctl/libltt-ctl.sym" | tail -n 1)
check "<ltt/ltt-ctl.h> says the versions are LTT_CTL_1 to $last, libltt-ctl.sym's last node" \
	grep -q "symbol versions LTT_CTL_1 to $last " "$top_src/include/ltt/ltt-ctl.h"

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
check "soname libltt-ctl.so.1 (got '$soname')" test "$soname" = libltt-ctl.so.1

# Public structs named outside the library's boundary.
structs='ltt_session_attr|ltt_channel_attr|ltt_event_rule_attr|ltt_session_info|ltt_channel_info|ltt_event_rule_info|ltt_relay_info|ltt_session_detail|ltt_field_info|ltt_tracepoint_info|ltt_context|ltt_context_info'
for dir in sessiond consumerd relayd common; do
	[ -d "$top_src/src/$dir" ] || continue
	find "$top_src/src/$dir" -name '*.[ch]' ! -name convert.c ! -name convert.h |
		xargs grep -nE "struct ($structs)\b" >"$tmp/uses" 2>/dev/null
	if [ -s "$tmp/uses" ]; then
		not_ok "src/$dir uses no public struct of <ltt/ltt-ctl.h>"
		sed "s|^$top_src/|# |" "$tmp/uses"
	else
		ok "src/$dir uses no public struct of <ltt/ltt-ctl.h>"
	fi
done

echo "1..$n"
[ "$fails" -eq 0 ]
