#!/bin/bash
# test_build_trixie.sh - ltt on Debian 13 (trixie) with its clang 19:
# the tree, as git has it, builds in a trixie root (scripts/debian-root.sh,
# with the build dependencies by Debian 13's names), warnings as errors
# (configure --enable-werror, the project's builds), and none.  Debian
# 13's gcc 14 builds the tree in test_deb_trixie.sh (its packages, with
# no warning; the unit tests and a regression subset in that build).
# Skipped where the root can't be made, and in a sanitizer build (the
# plain pass runs it: it builds a tree of its own).
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

test_init
# the tree's own makes: none of the suite's make (its TESTS, its jobserver)
unset MAKEFLAGS MFLAGS MAKELEVEL
[[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") != *-fsanitize=* ]] ||
	skip_all "a sanitizer build: the plain pass builds the tree in the trixie root"
root_or_skip trixie "$ROOT_BUILD_PKGS"
plan 4

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
run in_root sh -c 'cd "$1" && ./bootstrap >/dev/null 2>&1 && clang --version | head -n 1' sh "$S"
like "$STDOUT" "^Debian clang version 19\\." \
	"bootstrapped in the root, whose clang is Debian 13's ($STDOUT)" || diag "$ERR"

# configure --enable-werror --without-kmod and make, in the root; clang
# warns from its front end, whatever the optimization (gcc's flow
# warnings need -O2): at -O0 without debug information it finds the
# same, in less than half the time
B=$TEST_TMP/b-clang
in_root sh -c 'mkdir -p "$2" && cd "$2" && "$1/configure" --quiet --enable-werror \
	--without-kmod CC=clang CFLAGS="-O0 -g0" && make -j"$(nproc)"' sh "$S" "$B" \
	>"$B.log" 2>&1
ok $? "clang builds the tree, every warning an error" || tail -n 20 "$B.log" | sed 's/^/# /'
is "$(grep -c 'warning:' "$B.log")" 0 "  without a warning"
done_testing
