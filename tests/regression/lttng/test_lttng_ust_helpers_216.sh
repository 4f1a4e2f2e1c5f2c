#!/bin/bash
# test_lttng_ust_helpers_216.sh - LTTng-UST 2.16's helper libraries as
# Debian sid ships them (liblttng-ust1t64 in a root made by
# scripts/debian-root.sh), preloaded into lttng-ust/helper_app.c (built
# there with -finstrument-functions and a build id; it dlopen()s a
# library with a build id and a .gnu_debuglink, and forks), record into
# ltt through its liblttng-ust.so.1 what LTTng 2.16 records of the same
# runs with its own daemons in the same root: the libc and pthread
# wrappers, cyg-profile, dl, fd and fork in one run, cyg-profile-fast in
# another; babeltrace2 2.1 reads both tracers' traces.  The events
# compared are the program's (test_lttng_ust_helpers.sh says which), so
# the wrappers' sight of each tracer's own mallocs and mutexes does not
# count.  test_lttng_ust_helpers.sh does the same with Debian 12's 2.13.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

ust_setup
unsanitized_or_skip
root_or_skip sid
plan 12
H=/usr/lib/x86_64-linux-gnu

# ltt's LTTng-UST libraries, where the root's programs find them
ltt_ust_lib
B=$TEST_TMP/build
mkdir -p "$B"
helper_build "$B" in_root
ok $? "helper_app and its library built in the sid root (-finstrument-functions, build ids, a debug link)" ||
	diag "$(cat "$B/build.log")"
helper_runs "$H"

# --- ltt: the root's programs on ltt's liblttng-ust.so.1, as ltt-run runs them
# run16 PRELOAD PROGRAM ARGS...: in the root on ltt's libraries, the helpers preloaded
run16() { in_root_ltt LD_PRELOAD="$1" "${@:2}" 2>"$TEST_TMP/ltt.err"; }
helper_ltt "$B" run16
is "$HELPER_RUNS" 2 "ltt: sid's helpers preloaded, on ltt's liblttng-ust.so.1, both runs" ||
	diag "$(cat "$TEST_TMP/ltt.err")"

# --- LTTng 2.16, its own daemons in the root
ROOT_RUN=$TEST_TMP/lttng-run in_root env PRELOAD1="$PRELOAD1" PRELOAD2="$PRELOAD2" ARGS1="$ARGS1" \
	ARGS2="$ARGS2" EVENTS="$EVENTS" bash -c 'export HOME="$1" LTTNG_UST_REGISTER_TIMEOUT=-1
	lttng-sessiond -b --no-kernel >/dev/null 2>&1 || exit 1
	runs=0
	for k in 1 2; do
		lttng create h$k -o "$1/lttng$k" >/dev/null || break
		for e in $EVENTS; do
			lttng enable-event -u "$e" -s h$k >/dev/null || break 2
		done
		lttng start h$k >/dev/null || break
		pre=PRELOAD$k
		args=ARGS$k
		LD_PRELOAD=${!pre} "$2/helper_app" "$2/helper_lib.so" ${!args} >"$1/lttng$k.out" || break
		lttng stop h$k >/dev/null && lttng destroy h$k >/dev/null || break
		runs=$((runs + 1))
	done
	rc=$((runs != 2))
	kill "$(cat /run/lttng/lttng-sessiond.pid)" 2>/dev/null
	exit $rc' sh "$TEST_TMP" "$B" >"$TEST_TMP/lttng.log" 2>&1
ok $? "LTTng 2.16: the same runs" || diag "$(cat "$TEST_TMP/lttng.log")"

for t in ltt lttng; do
	for k in 1 2; do
		bt21 "$TEST_TMP/$t$k" "$TEST_TMP/$t$k.raw"
		norm "$TEST_TMP/$t$k.raw" >"$TEST_TMP/$t$k.txt"
		helper_program "$TEST_TMP/$t$k.out" "$TEST_TMP/$t$k.txt" >"$TEST_TMP/$t$k.prog"
	done
done
is "$(event_names "$TEST_TMP/ltt1.txt")" "$(event_names "$TEST_TMP/lttng1.txt")" \
	"the helpers' events: the names LTTng 2.16 records, none other"
is "$(event_names "$TEST_TMP/ltt2.txt")" "lttng_ust_cyg_profile_fast:func_entry lttng_ust_cyg_profile_fast:func_exit " \
	"cyg-profile-fast's events: its two names"
diff "$TEST_TMP/lttng1.prog" "$TEST_TMP/ltt1.prog" >"$TEST_TMP/diff1"
ok $? "libc, pthread, cyg-profile, dl, fd and fork helpers: the program's events as LTTng 2.16 records them" ||
	diag "$(head -20 "$TEST_TMP/diff1")"
is "$(wc -l <"$TEST_TMP/ltt1.prog")" 39 "... all 39 of them (20 functions, 6 allocations, 5 mutex calls, the library's 8)"
is "$(grep -c '^lttng_ust_dl:' "$TEST_TMP/ltt1.prog")" 4 "dl: the library's dlopen, build_id, debug_link and dlclose"
grep -q '^lttng_ust_libc:malloc: { size = 2000,' "$TEST_TMP/ltt1.prog"
ok $? "fork: the child's malloc is recorded"
grep -q '^lttng_ust_libc:malloc: { size = 1005,' "$TEST_TMP/ltt1.prog"
ok $? "fd: the malloc after the program closed every fd is recorded"
[ "$(helper_kept sockets "$TEST_TMP/ltt1.out")" -ge 1 ] && [ "$(helper_kept eventfds "$TEST_TMP/ltt1.out")" -ge 1 ]
ok $? "fd: closing every fd leaves the tracer's socket and eventfds open" ||
	diag "ltt: $(grep '^kept' "$TEST_TMP/ltt1.out" | tr '\n' ' ')"
diff "$TEST_TMP/lttng2.prog" "$TEST_TMP/ltt2.prog" >"$TEST_TMP/diff2"
ok $? "cyg-profile-fast: the program's events as LTTng 2.16 records them" ||
	diag "$(head -20 "$TEST_TMP/diff2")"
done_testing
