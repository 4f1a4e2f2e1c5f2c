#!/bin/bash
# test_ust_consumer_stuck.sh - a slow consumer is not a dead one.  With the
# consumer stopped (SIGSTOP) longer than the daemon's deadline for it:
# a program records into its buffers unharmed, a command that needs the
# consumer fails after its deadline without killing it, 'lttctl list'
# answers at once (its counters come from shared memory), and after
# SIGCONT the same consumer writes everything: nothing is lost.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 17

N=20000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
open_fifo go2 "$TEST_TMP/go2"

ok_cmd "create s" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start s" lttctl start s
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r stalled
wait_ready $ready
APP=$BG_PID
cons=$(consumer_pid)
ok "$([ -n "$cons" ]; echo $?)" "a consumer runs (pid ${cons:-none})"
stop_proc "$cons"
echo go >&$go
wait $APP
is $? 0 "a program records its $N events while its consumer is stopped"

# A second program and a per-PID session: starting it needs the consumer
# (the output's check, a new trace), which does not answer.  The command waits for the
# daemon's deadline, longer than the 5 s stall of the issue, and the
# consumer is left alone.
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go2" -n 10 -r other
wait_ready $ready
OTHER=$BG_PID
lttctl -q create s2 -o "$TEST_TMP/s2"
lttctl -q enable-channel -u channel0 --buffers-pid -s s2
lttctl -q enable-event -u ltt_test:seq -s s2
run lttctl start s2
like "$ERR" "consumer daemon is running but did not answer in time" \
	"start s2 fails: the consumer is stalled (not the output's fault)"
ok "$(grep -Eq 'did not answer (PROBE_OUTPUT|ADD_TRACE) within .* alive but stalled' "$SESSIOND_LOG"; echo $?)" \
	"the daemon's call to the stopped consumer timed out"
ok "$(proc_alive "$cons"; echo $?)" "the stalled consumer was not killed"

# list never waits for the consumer: bounded well under its deadline
run timeout 4 "$LTTCTL_BIN" list s
is "$RC" 0 "list answers while the consumer is stopped"
like "$STDOUT" "discarded events: 0" "list shows the counters (from shared memory)"
is "$(cut -d' ' -f3 "/proc/$cons/stat")" T "the consumer is still stopped, still there"

# stop must have the consumer write the buffers: it fails after its
# deadline (5 s for these buffers) with a clear error, and kills nothing
run lttctl stop s
is "$RC" 1 "stop while the consumer is stopped fails"
like "$ERR" "consumer daemon is running but did not answer in time" "and says why"
ok "$(proc_alive "$cons"; echo $?)" "the consumer is still there"

kill -CONT "$cons"
echo go >&$go2
wait $OTHER
run lttctl list s
like "$STDOUT" "discarded events: 0" "after SIGCONT: nothing counted lost"
ok_cmd "destroy all (the final flush)" lttctl destroy -a
is "$(consumer_pid)" "$cons" "the same consumer did the work"
bt "$TEST_TMP/s" "$TEST_TMP/out"
is "$(seq_check "$TEST_TMP/out" stalled 1 $N)" "" "all $N events recorded, once each: nothing lost"
done_testing
