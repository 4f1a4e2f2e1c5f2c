#!/bin/bash
# test_ust_list_stalled.sh - `lttctl list SESSION` never waits for a
# stalled consumer.  User B (nobody) has a per-PID session of the root
# daemon whose consumer B stopped (SIGSTOP); a program registers, so B's
# owner thread creates the program's trace in b with the stopped consumer
# (ADD_TRACE, a 5 s deadline) holding b's lock.  Meanwhile B's `list b`,
# root's `list b` and root's `list a` answer (b's channel and rule, from
# the view the daemon kept of b), before the daemon gives up on the
# ADD_TRACE (its log line), not after.  The program got its buffers at
# once and records before B's consumer runs again, which then takes the
# trace with what it holds: committed = recorded + discarded in both
# sessions.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
can_switch_user || skip_all "needs root, setpriv and the user nobody"
plan 15

root_sessiond
nobody_home
# count DIR ROLE: ltt_test:seq events of ROLE in the trace(s) under DIR
count() {
	bt "$1" "$TEST_TMP/bt.out"
	grep ' ltt_test:seq: ' "$TEST_TMP/bt.out" | grep -c "role = \"$2\""
}
lost() {
	"$@" | sed -n 's/.*discarded events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}
gave_up() {
	grep -c 'did not answer ADD_TRACE' "$SESSIOND_LOG"
}

lttctl -q create a -o "$TEST_TMP/a" && lttctl -q enable-channel -u chan -s a &&
	lttctl -q enable-event -u ltt_test:seq -c chan -s a
ok_cmd "A starts a session" lttctl start a
b_ctl create b -o "$nhome/b" >/dev/null && b_ctl enable-channel -u --buffers-pid bchan >/dev/null &&
	b_ctl enable-event -u ltt_test:seq -c bchan >/dev/null
ok_cmd "B starts a per-PID session" b_ctl start b
cb=$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)
ok "$([ -n "$cb" ]; echo $?)" "B has a consumer of its own (pid $cb)"
ino=$(cmd_sock_ino "$cb")

stop_proc "$cb"
q0=$(sock_recvq "$ino")
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
N=2000
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r p1
APP=$BG_PID
wait_recvq "$ino" "${q0:-0}"
ok $? "the program's trace in b waits for B's stopped consumer (queued: $(sock_recvq "$ino") bytes)"

run b_ctl list b
like "$RC:${OUT//$'\n'/ }" '^0:.*bchan.*ltt_test:seq' "B's list b answers, with b's channel and rule"
run lttctl list b
like "$RC:${OUT//$'\n'/ }" '^0:.*bchan' "root's list b answers"
run lttctl list a
like "$RC:${OUT//$'\n'/ }" '^0:.*chan' "root's list a answers"
is "$(gave_up)" 0 "all before the daemon gave up waiting for the consumer's ADD_TRACE"

wait_ready $ready
ok $? "the program registers"
timeout "$TEST_TIMEOUT" bash -c 'until grep -q "did not answer ADD_TRACE" "$1"; do :; done' bash "$SESSIOND_LOG"
ok $? "the daemon gave up waiting for ADD_TRACE (the program's trace in b has no consumer yet)"
stat=$(ps -o stat= -p "$cb")
is "${stat:0:1}" T "B's consumer was stopped all along"
kill -CONT "$cb"
echo go >&$go
wait $APP
is $? 0 "the program ran"
ok_cmd "A stops" lttctl stop a
is "$(count "$TEST_TMP/a" p1)" $N "a recorded every event"
b_ctl stop b >/dev/null
got=$(count "$nhome/b" p1)
dropped=$(lost b_ctl list b)
is "$((got + dropped))" $N "b: recorded ($got) + discarded ($dropped) = committed ($N)"
b_ctl destroy b >/dev/null
lttctl -q destroy a
done_testing
