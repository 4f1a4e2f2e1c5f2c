#!/bin/bash
# test_lttng_ust_symbols.sh - ltt's liblttng-ust.so.1,
# liblttng-ust-common.so.1 and liblttng-ust-tracepoint.so.1 export
# exactly the names of LTTng-UST 2.16's libraries (Debian sid's: 2.13's
# and lttng_ust_safe_close_range_fd, which 2.16's fd helper calls; their
# .sym lists, and Debian 12's own, 2.13, when installed), with no version
# node: a program linked against ltt's runs on LTTng's and the other way
# round.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

command -v objdump >/dev/null || skip_all "objdump is not installed (binutils)"
test_init
plan 13

LIBS="$LTT_TOP_BUILDDIR/src/lttng-ust/.libs"
SYMS="$LTT_TOP_SRCDIR/src/lttng-ust"
DEBIAN=/usr/lib/x86_64-linux-gnu

# exported LIB: the names LIB defines, sorted, one a line.
exported() {
	objdump -T "$1" | awk '$2 ~ /g/ && $4 != "*UND*" { print $NF }' | sort
}

total=0
for pair in liblttng-ust.so.1:ust liblttng-ust-common.so.1:common \
	liblttng-ust-tracepoint.so.1:tracepoint; do
	lib=${pair%%:*} sym=${pair#*:}
	exported "$LIBS/$lib" >"$TEST_TMP/$sym.ltt"
	diff <(sort "$SYMS/$sym.sym") "$TEST_TMP/$sym.ltt" >"$TEST_TMP/$sym.diff"
	ok $? "$lib exports exactly the names of $sym.sym" || diag "$(cat "$TEST_TMP/$sym.diff")"
	is "$(objdump -T "$LIBS/$lib" | awk '$2 ~ /g/ && $4 != "*UND*"' | grep -vc ' Base ')" 0 \
		"$lib: every exported name is Base (unversioned)"
	readelf -V "$LIBS/$lib" | grep -q "Version definition"
	is $? 1 "$lib has no version definition"
	total=$((total + $(wc -l <"$TEST_TMP/$sym.ltt")))
	if [ -e "$DEBIAN/$lib" ]; then
		# LTTng-UST 2.16's names beside 2.13's
		diff <({ exported "$DEBIAN/$lib"; [ "$sym" != common ] ||
			echo lttng_ust_safe_close_range_fd; } | sort) "$TEST_TMP/$sym.ltt" >/dev/null
		ok $? "$lib: the names of Debian's $lib, and those LTTng-UST 2.16 added"
	else
		skip 1 "Debian's $lib is not installed"
	fi
done
is "$total" 127 "127 names in all (70, 42 and 15)"
done_testing
