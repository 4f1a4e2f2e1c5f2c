#!/bin/bash
# test_ust_consumer_stuck.sh - a slow consumer is not a dead one.  With the
# consumer stopped (SIGSTOP) longer than the daemon's deadline for it:
# a program records into its buffers unharmed, a command that needs the
# consumer fails after its deadline without killing it, 'lttctl list'
# answers at once (its counters come from shared memory), and after
# SIGCONT the same consumer writes everything: nothing is lost.  While
# the consumer owes a reply, further calls fail at once or are not made
# (a new program's trace waits in the daemon, the program records); the
# ADD_TRACE that timed out and ran late is undone, leaving no empty trace
# directory.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 25

N=20000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
open_fifo go2 "$TEST_TMP/go2"
open_fifo go3 "$TEST_TMP/go3"

ok_cmd "create s" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start s" lttctl start s
# A per-PID session, started while the consumer runs (its output checked):
# each program that registers needs a new trace of it from the consumer.
lttctl -q create s2 -o "$TEST_TMP/s2"
lttctl -q enable-channel -u channel0 --buffers-pid -s s2
lttctl -q enable-event -u ltt_test:seq -s s2
ok_cmd "start s2" lttctl start s2
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r stalled
wait_ready $ready
APP=$BG_PID
cons=$(consumer_pid)
ok "$([ -n "$cons" ]; echo $?)" "a consumer runs (pid ${cons:-none})"
stop_proc "$cons"

# A second program: its trace of s2 needs the consumer, which does not
# answer.  The call waits for the daemon's deadline, longer than the 5 s
# stall of the issue, and the consumer is left alone.
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go2" -n 10 -r other
wait_ready $ready
OTHER=$BG_PID
# (the registration goes on meanwhile: wait for the log line, bounded)
timeout "$TEST_TIMEOUT" grep -E -m1 -q 'did not answer ADD_TRACE within .* alive but stalled' \
	<(tail -n +1 -f "$SESSIOND_LOG")
ok $? "the daemon's call to the stopped consumer timed out"
ok "$(proc_alive "$cons"; echo $?)" "the stalled consumer was not killed"
# (the first program exits only now: its own trace's flush then fails at
# once, and the call that timed out stays the ADD_TRACE)
echo go >&$go
wait $APP
is $? 0 "a program records its $N events while its consumer is stopped"
# starting a session needs the consumer (the output's check): refused
lttctl -q create s3 -o "$TEST_TMP/s3"
lttctl -q enable-event -u ltt_test:seq -s s3
run lttctl start s3
like "$ERR" "consumer daemon is running but did not answer in time" \
	"start s3 fails: the consumer is stalled (not the output's fault)"

# A third program registering now needs a trace of s2 too: it gets its
# buffers from the daemon at once, and the trace waits in the daemon for
# the consumer, which still owes ADD_TRACE's reply: no call waits for
# another deadline (holding the session lock), and the program records.
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go3" -n 10 -r third
wait_ready $ready
echo go >&$go3
wait $BG_PID
is $? 0 "a program registering while the consumer is stalled runs"
is "$(grep -c 'did not answer .* within' "$SESSIOND_LOG")" 1 \
	"no call waited for a second deadline (the consumer owes a reply: it is not asked)"

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
# it still owes ADD_TRACE's reply: stalled, the flush is not even sent
ok "$(grep -q 'still owes the reply to an earlier command: it is alive but stalled; FLUSH_CHANNEL failed at once' "$SESSIOND_LOG"; echo $?)" \
	"a call while a reply is owed fails at once, without its own deadline"
ok "$(proc_alive "$cons"; echo $?)" "the consumer is still there"

kill -CONT "$cons"
echo go >&$go2
wait $OTHER
run lttctl list s
like "$STDOUT" "discarded events: 0" "after SIGCONT: nothing counted lost"
is "$(consumer_pid)" "$cons" "the same consumer did the work"
ok_cmd "destroy all (the final flush)" lttctl destroy -a
# The ADD_TRACE that timed out ran after SIGCONT: the daemon, told it
# failed, had the consumer destroy it; no empty trace is left behind.
ok "$(grep -q 'ADD_TRACE [0-9]* succeeded after it had failed here (timed out): undone' "$SESSIOND_LOG"; echo $?)" \
	"the late ADD_TRACE was undone"
is "$(find "$TEST_TMP/s2" -name metadata -size 0 2>/dev/null)" "" \
	"no trace directory with an empty metadata file is left"
ok "$(grep -q 'closed before any metadata: its empty directory removed' "$SESSIOND_LOG"; echo $?)" \
	"the consumer removed the directory it had created"
bt "$TEST_TMP/s" "$TEST_TMP/out"
is "$(seq_check "$TEST_TMP/out" stalled 1 $N)" "" "all $N events recorded, once each: nothing lost"
bt "$TEST_TMP/s2" "$TEST_TMP/out2"
is "$(seq_check "$TEST_TMP/out2" third 1 10)" "" \
	"s2: the third program's 10 events, recorded while its trace waited for the consumer"
done_testing
