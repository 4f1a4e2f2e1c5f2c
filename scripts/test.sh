#!/bin/sh
# The whole test suite from a fresh Debian 12 machine: install what is
# missing, build, run 'make check', and end with one line
# "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LTT_BUILDDIR:-$top/build}

# --kernel: QEMU and the Debian kernel packages, for tests/kernel.
"$top/scripts/deps.sh" --kernel || exit 1
# The Debian roots the tests use (debootstrap, apt: the network and the
# disk), made while the tree builds (the CPUs)
roots_log=$(mktemp) || exit 1
"$top/scripts/debian-roots.sh" >"$roots_log" 2>&1 &
roots=$!
# (a failed build leaves them to end: they are cached for the next run)
"$top/scripts/build.sh" || exit 1
begin=$(date +%s)
wait "$roots"
cat "$roots_log"
rm -f "$roots_log"
echo "test.sh: the roots were ready $(($(date +%s) - begin)) s after the build"
cd "$build" || exit 1
make -j"$(nproc)" check
status=$?
# where the time went
"$top/scripts/slowest.sh" "$build"
log=test-suite.log
count() { sed -n "s/^# $1: *//p" "$log" | head -n 1; }
if [ -f "$log" ]; then
	pass=$(($(count PASS) + $(count XFAIL)))
	fail=$(($(count FAIL) + $(count XPASS) + $(count ERROR)))
	skip=$(count SKIP)
	# Show what failed, so a CI log says why without digging.
	[ "$fail" = 0 ] || grep -E '^(FAIL|ERROR|XPASS|not ok)' "$log" | head -50
	[ "$fail" = 0 ] || "$top/scripts/failed-logs.sh" "$build"
else
	pass=0 fail=1 skip=0
fi
[ "$status" = 0 ] || [ "$fail" != 0 ] || fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
