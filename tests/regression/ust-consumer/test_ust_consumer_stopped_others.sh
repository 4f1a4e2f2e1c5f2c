#!/bin/bash
# test_ust_consumer_stopped_others.sh - a user who stops (SIGSTOP) their
# own consumer delays only their own sessions.  User A (root) and user B
# (nobody) each have an active session of the root daemon, both per-PID,
# so every program that registers needs a new trace in each session, from
# each owner's consumer.  With B's consumer stopped, A's programs register
# and record everything, and A's start, stop and list complete long
# before the consumer's 5 s deadline (each command is given 2 s:
# lttctl --timeout 2; each program 3 s with a registration wait of 60 s,
# so a registration held up by B's consumer would be killed).  B's
# consumer stays stopped meanwhile.  Once B's consumer runs again, B's
# session records: committed = recorded + discarded.  Last, B's own stop
# waits for B's stopped consumer while A's start and stop complete (each
# user's commands run on a worker of their own).
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
can_switch_user || skip_all "needs root, setpriv and the user nobody"
plan 28

root_sessiond --member-reach=all  # B's sessions record root's programs too
nobody_home
# a_ctl ARGS...: lttctl as user A (root), 2 s for the command
a_ctl() {
	timeout 10 "$LTTCTL_BIN" --timeout 2 "$@"
}
# a_app ARGS...: one of A's programs, 3 s in all, waiting for its
# registration as long as it takes (60 s)
a_app() {
	(
		close_fifos
		export LTT_UST_REGISTER_TIMEOUT=60000
		exec timeout 3 "$UST_APP" "$@"
	)
}
# count DIR ROLE: ltt_test:seq events of ROLE in the trace(s) under DIR
count() {
	bt "$1" "$TEST_TMP/bt.out"
	grep ' ltt_test:seq: ' "$TEST_TMP/bt.out" | grep -c "role = \"$2\""
}
discarded() {
	"$@" | sed -n 's/.*discarded events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

lttctl -q create a -o "$TEST_TMP/a" && lttctl -q enable-channel -u --buffers-pid chan -s a &&
	lttctl -q enable-event -u ltt_test:seq -c chan -s a
ok_cmd "A starts a per-PID session" lttctl start a
b_ctl create b -o "$nhome/b" >/dev/null && b_ctl enable-channel -u --buffers-pid chan >/dev/null &&
	b_ctl enable-event -u ltt_test:seq -c chan >/dev/null
ok_cmd "B starts a per-PID session" b_ctl start b
cb=$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)
ok "$([ -n "$cb" ]; echo $?)" "B has a consumer of its own (pid $cb)"

kill -STOP "$cb"
N=2000
run a_app -n $N -r a1
is "$RC" 0 "with B's consumer stopped, A's program registers and runs within 3 s"
run a_app -n $N -r a2
is "$RC" 0 "and another one"
run a_ctl list a
is "$RC" 0 "A's list completes within 2 s"
run a_ctl stop a
is "$RC:$ERR" "0:" "A's stop completes within 2 s, without a warning"
is "$(count "$TEST_TMP/a" a1)/$(count "$TEST_TMP/a" a2)" "$N/$N" \
	"a recorded every event of both programs"
is "$(discarded lttctl list a)" 0 "a lost nothing"
run a_ctl start a
is "$RC" 0 "A's start completes within 2 s"
run a_app -n $N -r a3
is "$RC" 0 "A's program after the start registers and runs within 3 s"
run a_ctl stop a
is "$RC:$ERR" "0:" "A's second stop completes within 2 s"
is "$(count "$TEST_TMP/a" a3)" $N "a recorded every event of the third program"
stat=$(ps -o stat= -p "$cb")
is "${stat:0:1}" T "B's consumer was stopped all along"

# B's consumer runs again: B's session records, and counts what it lost.
kill -CONT "$cb"
K=3000
run b_ctl stop b
is "$RC" 0 "B's stop succeeds once its consumer runs again"
ok_cmd "B starts again" b_ctl start b
ust_app -n $K -r b1 >/dev/null
ok_cmd "B stops" b_ctl stop b
got=$(count "$nhome/b" b1)
lost=$(discarded b_ctl list b)
is "$((got + lost))" $K "b: recorded ($got) + discarded ($lost) = committed ($K)"
ok "$([ "$got" -gt 0 ]; echo $?)" "b records again ($got events)"
is "$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)" "$cb" \
	"B's consumer, stopped, was never taken for dead"

# B's own command waits for B's stopped consumer: it holds B's commands
# only.  A program of A's (registered first: its per-PID traces give b
# something to flush) waits; B's consumer is stopped afresh; B's stop
# runs until its FLUSH_CHANNEL is queued on the stopped consumer's socket
# (its receive queue grows: seen with ss, bounded), and then waits for
# the consumer's 5 s deadline.  Meanwhile A's start and stop complete.
ino=$(cmd_sock_ino "$cb")
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ok_cmd "B starts b again" b_ctl start b
ok_cmd "A starts a again" a_ctl start a
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r a4
wait_ready $ready
APP=$BG_PID
kill -STOP "$cb"
q0=$(sock_recvq "$ino")
( b_ctl stop b >"$TEST_TMP/bstop.out" 2>&1; echo $? >"$TEST_TMP/bstop.rc" ) &
BSTOP=$!
wait_recvq "$ino" "${q0:-0}"
ok $? "B's stop is waiting for B's stopped consumer (its command queued: $(sock_recvq "$ino") bytes)"
run a_ctl stop a
is "$RC:$ERR" "0:" "meanwhile A's stop completes within 2 s"
run a_ctl start a
is "$RC" 0 "and A's start"
ok "$([ ! -e "$TEST_TMP/bstop.rc" ]; echo $?)" "while B's stop still waits"
kill -CONT "$cb"
echo go >&$go
wait $APP
wait $BSTOP
brc=$(cat "$TEST_TMP/bstop.rc")
ok "$([ "$brc" = 0 ] || [ "$brc" = 1 ]; echo $?)" \
	"B's stop returns (status $brc: done once its consumer ran, or its deadline passed)"
run a_ctl stop a
is "$(count "$TEST_TMP/a" a4)" $N "a recorded every event of A's program"
b_ctl destroy b >/dev/null
lttctl -q destroy a
done_testing
