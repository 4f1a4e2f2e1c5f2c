#!/bin/bash
# test_ust_meta_stalled.sh - event rules enabled while a per-UID session's
# consumer is stopped: their metadata reaches the trace once the consumer
# runs again, before the trace is read.  The first new event class is sent
# and its reply waited for 1 s (sent whole, the consumer writes it in
# order when it runs); the next finds the consumer owing that reply, is
# not sent, and waits in the daemon (its log says so) until the consumer
# answers: the rotation thread's tick, or stop, sends it.  Before, it was
# dropped ("metadata not written") and babeltrace2 refused the trace.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 13
N=1000

lttctl -q create u -o "$TEST_TMP/u" && lttctl -q enable-channel -u c &&
	lttctl -q enable-event -u ltt_test:seq -c c && lttctl -q start ||
	{ echo "Bail out! the session could not be set up"; exit 1; }
cpid=$(consumer_pid)
ok "$([ -n "$cpid" ]; echo $?)" "the session has a consumer (pid $cpid)"

open_fifo ready "$TEST_TMP/ready"
open_fifo done "$TEST_TMP/done"
mkfifo "$TEST_TMP/rounds"
ust_app_bg -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -p "$TEST_TMP/rounds" -n $N -T -L -r p
app=$BG_PID
wait_ready $ready
ok $? "a program registers"
exec {rounds}>"$TEST_TMP/rounds"
echo round >&$rounds
wait_done $done
ok $? "its first round: ltt_test:seq only"

stop_proc "$cpid"
ok_cmd "with the consumer stopped, enable ltt_test:types (sent, answered late)" \
	lttctl enable-event -u ltt_test:types -c c
ok_cmd "and ltt_test:crit (the consumer owes a reply: not sent)" \
	lttctl enable-event -u ltt_test:crit -c c
grep -q "metadata waits for its stalled consumer daemon" "$SESSIOND_LOG"
ok $? "the daemon keeps the metadata the consumer could not be sent"

echo round >&$rounds
wait_done $done
ok $? "the second round: seq, types and crit"
kill -CONT "$cpid"
close_fd $rounds
wait $app
is $? 0 "the program ends"

ok_cmd "stop" lttctl stop u
lost=$(list_lost_events u)
bt "$TEST_TMP/u" "$TEST_TMP/u.out"
is "$?" 0 "babeltrace2 reads the trace (every event class described)"
is "$(count_events "$TEST_TMP/u.out" ltt_test:seq):$lost" "$((2 * N)):0" \
	"ltt_test:seq: both rounds, nothing discarded"
is "$(count_events "$TEST_TMP/u.out" ltt_test:types)/$(count_events "$TEST_TMP/u.out" ltt_test:crit)" \
	"$N/$N" "ltt_test:types and ltt_test:crit: the second round's"
is "$(count_events "$TEST_TMP/u.out" ltt_test:debug)" 0 "ltt_test:debug: never enabled"
lttctl -q destroy u
done_testing
