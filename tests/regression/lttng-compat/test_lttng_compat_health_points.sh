#!/bin/bash
# test_lttng_compat_health_points.sh - LTTng's test points in ltt's
# loops (ltt_evloop_set_points()), as lttng-tools' health tests use them
# (tools/health/test_thread_stall, test_tp_fail): a library of point
# functions (lttng_health_points.c) LD_PRELOADed, LTTNG_TESTPOINT_ENABLE=1,
# a delta of 300 ms (LTT_*_HEALTH_DELTA_MS), asked by the client built
# against Debian's liblttng-ctl:
# - ltt-sessiond --lttng-compat, its program thread stuck in LTTng's
#   application manager's point: that one slot (1) in bad health, not the
#   three others the thread stands for (2, 6, 7), and the daemon still
#   serves commands (its client thread is another);
# - a second daemon whose hash table cleanup point fails (the program
#   thread's last): its loop ends in error, slot 5 in bad health at once
#   and still on the next query, the daemon still answering;
# - the kernel thread (tracefs' backend), whose point runs once the daemon
#   has started (ltt_kabi_run_points()): stuck there, the daemon starts
#   and only slot 3 is in bad health; failing, slot 3 for good, a kernel
#   session's start refused, and SIGTERM still stops the daemon;
# - ltt-relayd --lttng-compat stuck in the listener's point: slot 2 only
#   of its one thread's 6; failing the live worker's: the relay ends in
#   error, saying which point.
# As root in its own mount namespace, as test_lttng_compat_health.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
test_init
plan 18

health_client_build
POINTS="$TEST_TMP/libpoints.so"
cc -shared -fPIC -o "$POINTS" "$LTT_TOP_SRCDIR/tests/regression/lttng-compat/lttng_health_points.c" \
	2>"$TEST_TMP/points-cc.err"
ok $? "the test point library builds" || diag "$(cat "$TEST_TMP/points-cc.err")"
export LTTNG_TESTPOINT_ENABLE=1 LTT_SESSIOND_HEALTH_DELTA_MS=300 LTT_RELAYD_HEALTH_DELTA_MS=300

# sessiond_start LOG VAR=VALUE [OPTION...]: a session daemon with the
# library and that point's variable
sessiond_start() {
	env LD_PRELOAD="$POINTS" "$2" timeout "$TEST_TIMEOUT" "$SESSIOND" --background \
		--rundir "$LTT_RUNDIR" -vvv --lttng-compat "${@:3}" </dev/null >/dev/null 2>"$1"
}

# --- a stalled point: only its slot
sessiond_start "$TEST_TMP/sessiond1.log" LTT_TEST_POINT_STALL=sessiond_thread_manage_apps
ok $? "a daemon starts, its program thread stuck in LTTng's application manager's point"
is "$(health until-bad 5000)" "query 0 state -1 threads 12 bad 1:Session daemon application manager" \
	"past the delta: that one slot in bad health, not the program thread's 3 others"
ok_cmd "the daemon still serves commands (lttctl list)" lttctl list
S1=$(sessiond_pid)
kill -KILL "$S1"
wait_pid_exit "$S1"

# --- a failed point: its loop ends in error, the slot reported for good
sessiond_start "$TEST_TMP/sessiond2.log" LTT_TEST_POINT_FAIL=sessiond_thread_ht_cleanup
ok $? "a second daemon starts, LTTng's hash table cleanup's point failing"
is "$(health until-bad 5000)" "query 0 state -1 threads 12 bad 5:Session daemon hash table cleanup" \
	"the program thread's loop ended in error: slot 5 in bad health"
like "$(cat "$TEST_TMP/sessiond2.log")" \
	"test point sessiond_thread_ht_cleanup returned 1: this thread's loop ends in error" \
	"... the log says which point ended which loop"
is "$(health once)" "query 0 state -1 threads 12 bad 5:Session daemon hash table cleanup" \
	"asked again: the same (an ended thread is not healthy)"
S2=$(sessiond_pid)
kill -KILL "$S2"
wait_pid_exit "$S2"

# --- the kernel thread (tracefs' backend): its point runs once the daemon has started
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
if [ ! -d "${tfs:-/sys/kernel/tracing}/events" ]; then
	skip 7 "no tracefs: no kernel thread to stall"
else
	sessiond_start "$TEST_TMP/sessiond3.log" LTT_TEST_POINT_STALL=sessiond_thread_manage_kernel \
		--kernel-backend=tracefs
	ok $? "a daemon starts, its kernel thread stuck in LTTng's kernel thread's point (the start does not wait on it)"
	is "$(health until-bad 5000)" "query 0 state -1 threads 12 bad 3:Session daemon kernel" \
		"past the delta: the kernel slot alone in bad health"
	S3=$(sessiond_pid)
	kill -KILL "$S3"
	wait_pid_exit "$S3"

	sessiond_start "$TEST_TMP/sessiond4.log" LTT_TEST_POINT_FAIL=sessiond_thread_manage_kernel \
		--kernel-backend=tracefs
	ok $? "a daemon starts, LTTng's kernel thread's point failing"
	is "$(health until-bad 5000)" "query 0 state -1 threads 12 bad 3:Session daemon kernel" \
		"the kernel slot in bad health, the others good"
	lttctl create k4 --no-output >/dev/null 2>&1
	lttctl enable-event -k -s k4 sched_switch >/dev/null 2>&1
	out=$(lttctl start k4 2>&1)
	rc=$?
	like "$rc $out" "^1 Error: session 'k4': the tracer could not apply the change" \
		"starting a kernel session is refused: the kernel thread serves no more"
	like "$(cat "$TEST_TMP/sessiond4.log")" \
		"kernel thread: LTTng's test point failed: the kernel tracer's requests are refused" \
		"... the log says why"
	S4=$(sessiond_pid)
	kill -TERM "$S4"
	wait_pid_exit "$S4"
	ok $? "... and SIGTERM stops the daemon (no call waits on the ended thread)"
fi

# --- the relay: its one thread stuck in the listener's point
mkdir -p "$TEST_TMP/relay-out"
# relay_start VAR=VALUE: ltt-relayd --lttng-compat on loopback ports 0, in the background
relay_start() {
	env LD_PRELOAD="$POINTS" "$1" LTTNG_RELAYD_HEALTH="$TEST_TMP/relay-health" \
		timeout "$TEST_TIMEOUT" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat -b \
		-C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 -o "$TEST_TMP/relay-out" \
		--pidfile "$TEST_TMP/relayd.pid" </dev/null >/dev/null 2>>"$TEST_TMP/relayd.log"
}
relay_start LTT_TEST_POINT_STALL=relayd_thread_listener
is "$(health "relayd=$TEST_TMP/relay-health" until-bad 5000)" \
	"query 0 state -1 threads 6 bad 2:Relay daemon listener" \
	"the relay stuck in LTTng's listener's point: slot 2 only of its thread's 6"
R1=$(cat "$TEST_TMP/relayd.pid")
kill -KILL "$R1"
wait_pid_exit "$R1"
rm -f "$TEST_TMP/relay-health"
relay_start LTT_TEST_POINT_FAIL=relayd_thread_live_worker
R2=$(cat "$TEST_TMP/relayd.pid")
wait_pid_exit "$R2"
like "$(cat "$TEST_TMP/relayd.log")" \
	"test point relayd_thread_live_worker returned 1: this thread's loop ends in error" \
	"the relay's live worker point failing: its loop ends in error, the log says which"
done_testing
