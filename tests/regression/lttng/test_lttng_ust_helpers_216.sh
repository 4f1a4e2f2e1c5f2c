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
[[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") != *-fsanitize=* ]] ||
	skip_all "a sanitizer build: the programs that load the LTTng-UST compatible libraries are not instrumented (the plain pass runs this test)"
root_or_skip sid
plan 12
H=/usr/lib/x86_64-linux-gnu

# ltt's LTTng-UST libraries, where the root's programs find them
LIB=$TEST_TMP/ltt-lib
mkdir -p "$LIB"
cp -L "$LTT_TOP_BUILDDIR"/src/lttng-ust/.libs/liblttng-ust{,-tracepoint,-common}.so.1 \
	"$LTT_TOP_BUILDDIR"/src/ust/.libs/libltt-ust.so.0 "$LIB/"
B=$TEST_TMP/build
mkdir -p "$B"
cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{helper_app.c,helper_lib.c} "$B/"
in_root sh -c 'cd "$1" && cc -finstrument-functions -Wl,--build-id -o helper_app helper_app.c -ldl -lpthread &&
	cc -g -fPIC -shared -Wl,--build-id -o helper_lib.so helper_lib.c &&
	objcopy --only-keep-debug helper_lib.so helper_lib.debug &&
	objcopy --strip-debug --add-gnu-debuglink=helper_lib.debug helper_lib.so' sh "$B" >"$B/build.log" 2>&1
ok $? "helper_app and its library built in the sid root (-finstrument-functions, build ids, a debug link)" ||
	diag "$(cat "$B/build.log")"

PRELOAD1="$H/liblttng-ust-libc-wrapper.so.1:$H/liblttng-ust-pthread-wrapper.so.1:$H/liblttng-ust-cyg-profile.so.1:$H/liblttng-ust-dl.so.1:$H/liblttng-ust-fd.so.1:$H/liblttng-ust-fork.so.1"
PRELOAD2="$H/liblttng-ust-cyg-profile-fast.so.1"
ARGS1=close ARGS2=	# closing every fd needs the fd helper
EVENTS='lttng_ust_libc:* lttng_ust_pthread:* lttng_ust_cyg_profile:* lttng_ust_cyg_profile_fast:* lttng_ust_dl:* lttng_ust_lib:*'

# --- ltt: the root's programs on ltt's liblttng-ust.so.1, as ltt-run runs them
runs=0
for k in 1 2; do
	lttctl create h$k -o "$TEST_TMP/ltt$k" >/dev/null || break
	for e in $EVENTS; do
		lttctl enable-event -u "$e" -s h$k >/dev/null || break 2
	done
	lttctl start h$k >/dev/null || break
	pre=PRELOAD$k
	args=ARGS$k
	# shellcheck disable=SC2086 # ARGSk: a word or none
	in_root env LTT_HOME="$LTT_HOME" LTT_RUNDIR="$LTT_RUNDIR" LTT_UST_REGISTER_TIMEOUT=5000 \
		LD_LIBRARY_PATH="$LIB" LD_PRELOAD="${!pre}" "$B/helper_app" "$B/helper_lib.so" ${!args} \
		>"$TEST_TMP/ltt$k.out" 2>"$TEST_TMP/ltt$k.err" || break
	lttctl stop h$k >/dev/null && lttctl destroy h$k >/dev/null || break
	runs=$((runs + 1))
done
is "$runs" 2 "ltt: sid's helpers preloaded, on ltt's liblttng-ust.so.1, both runs" ||
	diag "$(cat "$TEST_TMP/ltt$k.err")"

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
