#!/bin/bash
# test_build_trixie.sh [clang] - ltt on Debian 13 (trixie): the tree, as
# git has it, builds in a trixie root (scripts/debian-root.sh, with the
# build dependencies by Debian 13's names) with its gcc 14, warnings as
# errors (configure --enable-werror, the project's builds), and none;
# the unit tests pass there, and user-space sessions record and are read
# by its babeltrace2 2.1 (a regression subset).  With "clang" (run so by
# test_build_trixie_clang.sh, each under the suite's wall bound): the
# same build with its clang 19, no test.  Skipped where the root can't be
# made, and in a sanitizer build (the plain pass runs it: it builds a
# tree of its own).
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

test_init
# the tree's own makes: none of the suite's make (its TESTS, its jobserver)
unset MAKEFLAGS MFLAGS MAKELEVEL
[[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") != *-fsanitize=* ]] ||
	skip_all "a sanitizer build: the plain pass builds the tree in the trixie root"
root_or_skip trixie "$ROOT_BUILD_PKGS"
CC_NAME=${1:-gcc}
case $CC_NAME in
gcc) plan 7 ;;
clang) plan 4 ;;
*) echo "Bail out! test_build_trixie.sh: gcc or clang, not $CC_NAME"; exit 1 ;;
esac

# the source tree: what git tracks (and what it does not ignore), as it is now
S=$TEST_TMP/src
mkdir -p "$S"
if git -C "$LTT_TOP_SRCDIR" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$LTT_TOP_SRCDIR" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
		tar --null -cf - -T -) | tar -xf - -C "$S"
else
	cp -a "$LTT_TOP_SRCDIR/." "$S/"
fi
ok $? "the source tree copied"
run in_root sh -c 'cd "$1" && ./bootstrap >/dev/null 2>&1 && "$2" --version | head -n 1' \
	sh "$S" "$CC_NAME"
like "$STDOUT" "^(gcc \\(Debian 14\\.|Debian clang version 19\\.)" \
	"bootstrapped in the root, whose $CC_NAME is Debian 13's ($STDOUT)" || diag "$ERR"

# build CC DIR [CFLAGS]: configure --enable-werror --without-kmod and
# make, in the root
build() {
	in_root sh -c 'mkdir -p "$2" && cd "$2" && "$1/configure" --quiet --enable-werror \
		--without-kmod CC="$3" ${4:+CFLAGS="$4"} && make -j"$(nproc)"' sh "$S" "$2" "$1" "${3:-}" \
		>"$2.log" 2>&1
}
B=$TEST_TMP/b-$CC_NAME
# clang warns from its front end, whatever the optimization (gcc's
# flow warnings need -O2, its default): clang's build at -O0 without
# debug information finds the same, in less than half the time
flags=
[ "$CC_NAME" = clang ] && flags="-O0 -g0"
build "$CC_NAME" "$B" "$flags"
ok $? "$CC_NAME builds the tree, every warning an error" || tail -n 20 "$B.log" | sed 's/^/# /'
is "$(grep -c 'warning:' "$B.log")" 0 "  without a warning"
if [ "$CC_NAME" != gcc ]; then
	done_testing
	exit
fi

# the unit tests, then user-space sessions end to end, in the gcc build
# the suite's unit tests, as its Makefile lists them
in_root sh -c 'cd "$1" && make -j"$(nproc)" check TESTS="$(make -s --no-print-directory \
	--eval "ltt-units: ; @echo \$(filter tests/unit/%,\$(TESTS))" ltt-units)"' sh "$B" \
	>"$TEST_TMP/units.log" 2>&1
ok $? "the unit tests pass in the root" ||
	grep -E '^(FAIL|ERROR)' "$TEST_TMP/units.log" | head -n 8 | sed 's/^/# /'
n=$(grep -c '^PASS' "$TEST_TMP/units.log")
ok "$([ "$n" -gt 500 ]; echo $?)" "  $n checks of them"
in_root sh -c 'cd "$1" && make check TESTS="$2"' sh "$B" \
	"tests/regression/ust/test_ust_basic.sh tests/regression/ust/test_ust_per_channel.sh tests/regression/cli/test_cli_sessions.sh" \
	>"$TEST_TMP/reg.log" 2>&1
ok $? "user-space sessions record there, read by its babeltrace2 2.1 (test_ust_basic, test_ust_per_channel, test_cli_sessions)" ||
	grep -E '^(FAIL|ERROR)' "$TEST_TMP/reg.log" | head -n 8 | sed 's/^/# /'
done_testing
