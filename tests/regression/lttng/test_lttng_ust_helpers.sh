#!/bin/bash
# test_lttng_ust_helpers.sh - Debian's LTTng-UST helper libraries, as
# Debian ships them, preloaded into lttng-ust/helper_app.c (built with
# -finstrument-functions and a build id; it dlopen()s a library with a
# build id and a .gnu_debuglink, and forks) under ltt-run record what
# Debian's LTTng records of the same runs: the libc and pthread wrappers,
# cyg-profile, dl, fd and fork in one run, cyg-profile-fast in another.
# The wrappers see the tracer's own mallocs and mutexes too, so the
# events compared are the program's: its sizes (1001 to 1004, 2000 in
# the forked child), its mutex, its functions (addresses replaced by
# their names), its library (the dl helper's events, and the
# lttng_ust_lib:* events its lttng_ust_dl_update() calls record).  With
# the fd helper, the program's closing every fd leaves the tracer's
# sockets and eventfds open.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
command -v babeltrace >/dev/null || skip_all "babeltrace (1) is not installed"
lttng_can_run || skip_all "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
H=/usr/lib/x86_64-linux-gnu
for h in libc-wrapper pthread-wrapper cyg-profile cyg-profile-fast dl fd fork; do
	[ -e "$H/liblttng-ust-$h.so.1" ] || skip_all "$H/liblttng-ust-$h.so.1 is not installed (Debian's liblttng-ust1)"
done
ust_setup
plan 14

B="$TEST_TMP/build"
mkdir -p "$B"
helper_build "$B"
ok $? "the program builds with -finstrument-functions, its library with a build id and a debug link" ||
	diag "$(cat "$B/build.log")"
helper_runs "$H"

# --- ltt, through ltt-run ---
# run13 PRELOAD PROGRAM ARGS...: under ltt-run, the helpers preloaded
run13() { LD_PRELOAD=$1 compat_run -p "${@:2}"; }
helper_ltt "$B" run13
is "$HELPER_RUNS" 2 "ltt: the program runs with the helpers preloaded, under ltt-run, both runs" ||
	diag "$(cat "$TEST_TMP/app.err")"

# --- LTTng, Debian's own ---
export B PRELOAD1 PRELOAD2 ARGS1 ARGS2 EVENTS
lttng_run '
	for k in 1 2; do
		lttng create h$k -o "$TEST_TMP/lttng$k" >/dev/null || exit 1
		for e in $EVENTS; do
			lttng enable-event -u "$e" -s h$k >/dev/null || exit 1
		done
		lttng start h$k >/dev/null || exit 1
		pre=PRELOAD$k
		args=ARGS$k
		LD_PRELOAD=${!pre} timeout "$TEST_TIMEOUT" "$B/helper_app" "$B/helper_lib.so" \
			${!args} >"$TEST_TMP/lttng$k.out" || exit 1
		lttng stop h$k >/dev/null && lttng destroy h$k >/dev/null || exit 1
	done'
ok $? "LTTng: the same runs" || diag "$(cat "$TEST_TMP/lttng.log")"

for t in ltt lttng; do
	for k in 1 2; do
		bt1 "$TEST_TMP/$t$k" "$TEST_TMP/$t$k.txt"
	done
done

for t in ltt lttng; do
	for k in 1 2; do
		helper_program "$TEST_TMP/$t$k.out" "$TEST_TMP/$t$k.txt" >"$TEST_TMP/$t$k.prog"
	done
done
is "$(event_names "$TEST_TMP/ltt1.txt")" "$(event_names "$TEST_TMP/lttng1.txt")" \
	"the helpers' events: the names LTTng records, none other"
is "$(event_names "$TEST_TMP/ltt2.txt")" "lttng_ust_cyg_profile_fast:func_entry lttng_ust_cyg_profile_fast:func_exit " \
	"cyg-profile-fast's events: its two names"
diff "$TEST_TMP/lttng1.prog" "$TEST_TMP/ltt1.prog" >"$TEST_TMP/diff1"
ok $? "libc, pthread, cyg-profile, dl, fd and fork helpers: the program's events as LTTng records them" ||
	diag "$(head -20 "$TEST_TMP/diff1")"
is "$(wc -l <"$TEST_TMP/ltt1.prog")" 39 "... all 39 of them (20 functions, 6 allocations, 5 mutex calls, the library's 8)"
is "$(grep -c '^lttng_ust_dl:' "$TEST_TMP/ltt1.prog")" 4 "dl: the library's dlopen, build_id, debug_link and dlclose"
is "$(grep '^lttng_ust_lib:' "$TEST_TMP/ltt1.prog" | cut -d: -f1-2 | tr '\n' ' ')" \
	"lttng_ust_lib:load lttng_ust_lib:build_id lttng_ust_lib:debug_link lttng_ust_lib:unload " \
	"dl's state dump update: the library's load, build_id, debug_link, then its unload"
grep '^lttng_ust_dl:debug_link:' "$TEST_TMP/ltt1.prog" | grep -q 'filename = "helper_lib.debug"'
ok $? "dl: its debug link's file name"
grep -q '^lttng_ust_libc:malloc: { size = 2000,' "$TEST_TMP/ltt1.prog"
ok $? "fork: the child's malloc is recorded"
grep -q '^lttng_ust_libc:malloc: { size = 1005,' "$TEST_TMP/ltt1.prog"
ok $? "fd: the malloc after the program closed every fd is recorded"
[ "$(helper_kept sockets "$TEST_TMP/ltt1.out")" -ge 1 ] && [ "$(helper_kept eventfds "$TEST_TMP/ltt1.out")" -ge 1 ] &&
	[ "$(helper_kept sockets "$TEST_TMP/lttng1.out")" -ge 1 ]
ok $? "fd: closing every fd leaves the tracer's session daemon socket open, and ltt's eventfds, as LTTng's are left" ||
	diag "ltt: $(grep '^kept' "$TEST_TMP/ltt1.out" | tr '\n' ' ') LTTng: $(grep '^kept' "$TEST_TMP/lttng1.out" | tr '\n' ' ')"
diff "$TEST_TMP/lttng2.prog" "$TEST_TMP/ltt2.prog" >"$TEST_TMP/diff2"
ok $? "cyg-profile-fast: the program's events as LTTng records them" ||
	diag "$(head -20 "$TEST_TMP/diff2")"
done_testing
