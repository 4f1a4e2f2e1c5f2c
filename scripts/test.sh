#!/bin/sh
# The whole test suite from a fresh Debian 12 machine: install what is
# missing, build, run 'make check', and end with one line
# "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LTT_BUILDDIR:-$top/build}

# --kernel: QEMU and the Debian kernel packages, for tests/kernel.
"$top/scripts/deps.sh" --kernel || exit 1
"$top/scripts/build.sh" || exit 1
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
