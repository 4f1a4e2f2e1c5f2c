#!/bin/bash
# test_ust_own_stalled.sh - a user's own commands on a session whose
# consumer is stopped (SIGSTOP): each ends within its deadline with the
# consumer's stall in its exit status and message (CONSUMERD_STALLED),
# and leaves the session consistent: stop stops it (its data waits in
# the buffers), start, rotate and clear change nothing, destroy keeps
# the session (stopped) rather than drop what its consumer has not
# written; list answers all along and says what state it is in.  Once
# the consumer runs again the session records: committed = recorded +
# discarded.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 21

start_sessiond
stalled='did not answer in time'
lttctl -q create s -o "$TEST_TMP/s" && lttctl -q enable-channel -u chan -s s &&
	lttctl -q enable-event -u ltt_test:seq -c chan -s s
ok_cmd "the session starts" lttctl start s
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
N=3000
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r p1
APP=$BG_PID
wait_ready $ready
ok $? "a program registered"
c=$(consumer_pid)
stop_proc "$c"

run lttctl stop s
like "$RC:$OUT" "^1:.*$stalled" "stop: exit 1, the consumer did not answer"
like "$(lttctl list s)" '\[inactive\]' "list answers: the session is stopped"
run lttctl start s
like "$RC:$OUT" "^1:.*$stalled" "start: exit 1, the consumer did not answer"
like "$(lttctl list s)" '\[inactive\]' "the session is still stopped"
chunk=$(lttctl list s | sed -n 's/^Trace chunk: \([0-9]*\).*/\1/p')
run lttctl rotate s
like "$RC:$OUT" "^1:.*$stalled" "rotate: exit 1, the consumer did not answer"
is "$(lttctl list s | sed -n 's/^Trace chunk: \([0-9]*\).*/\1/p')" "$chunk" "the trace chunk did not change"
run lttctl clear s
like "$RC:$OUT" "^1:.*$stalled" "clear: exit 1, the consumer did not answer"
run lttctl enable-event -u other -c chan -s s
is "$RC" 0 "enable-event needs no consumer: done"
stat=$(ps -o stat= -p "$c")
is "${stat:0:1}" T "the consumer was stopped all along"

kill -CONT "$c"
ok_cmd "once the consumer runs, start works" lttctl start s
echo go >&$go
wait $APP
is $? 0 "the program ran"
ok_cmd "stop works" lttctl stop s

# destroy on a stalled consumer: the session is kept, stopped.
ok_cmd "start for destroy" lttctl start s
stop_proc "$c"
run lttctl destroy s
like "$RC:$OUT" "^1:.*$stalled" "destroy: exit 1, the consumer did not answer"
like "$(lttctl list s)" '\[inactive\]' "the session is still there, stopped"
kill -CONT "$c"
bt "$TEST_TMP/s" "$TEST_TMP/bt.out"
got=$(grep ' ltt_test:seq: ' "$TEST_TMP/bt.out" | grep -c 'role = "p1"')
lost=$(list_lost_events s)
is "$((got + lost))" $N "recorded ($got) + discarded ($lost) = committed ($N)"
ok "$([ "$got" -gt 0 ]; echo $?)" "events recorded ($got)"
ok_cmd "destroy once the consumer runs" lttctl destroy s
run lttctl list s
is "$RC" 1 "the session is gone"
done_testing
