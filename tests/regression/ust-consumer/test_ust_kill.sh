#!/bin/bash
# test_ust_kill.sh - a program killed with SIGKILL once it has emitted:
# every event it committed is in the trace after stop, with per-UID
# buffers (shared: a program running after it records normally too) and
# with per-PID buffers (its trace is closed when it dies).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 22

T=4 N=3000
open_fifo ready "$TEST_TMP/ready"
open_fifo done "$TEST_TMP/done"

# kill_after_emit ROLE: run ust_app -k, wait for its "done", SIGKILL it.
kill_after_emit() {
	ust_app_bg -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -t $T -n $N -r "$1"
	wait_ready $ready
	ok $? "$1: registered"
	KILLED=$READY_PIDS
	wait_done $done
	ok $? "$1: emitted everything, waiting to be killed"
	kill -KILL "$KILLED"
	{ wait $BG_PID; } 2>/dev/null	# no "Killed" notice
	is $? $((128 + 9)) "$1: killed by SIGKILL"
}

for mode in uid pid; do
	ok_cmd "$mode: create" lttctl create $mode -o "$TEST_TMP/$mode"
	ok_cmd "$mode: channel0, per-$mode buffers" lttctl enable-channel -u channel0 --buffers-$mode
	ok_cmd "$mode: enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
	ok_cmd "$mode: start" lttctl start
	kill_after_emit killed
	ust_app -t $T -n $N -r after
	is $? 0 "$mode: a program run after the kill"
	ok_cmd "$mode: stop" lttctl stop
	bt "$TEST_TMP/$mode" "$TEST_TMP/out.$mode"
	is "$(seq_check "$TEST_TMP/out.$mode" killed $T $N)" "" \
		"$mode: the killed program's $T x $N events, once each"
	is "$(seq_check "$TEST_TMP/out.$mode" after $T $N)$(wc -l <"$TEST_TMP/out.$mode")" \
		$((2 * T * N)) "$mode: the next program's $T x $N events, nothing else"
	lttctl destroy $mode >/dev/null
done
done_testing
