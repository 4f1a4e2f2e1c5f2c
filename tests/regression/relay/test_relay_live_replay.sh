#!/bin/bash
# test_relay_live_replay.sh - a real ltt trace through the live port: a
# local session records the test program, relay_client streams that trace
# to ltt-relayd as a live session (the consumer's relay sink will do the
# same), babeltrace2 -i lttng-live reads it while the session is open and
# must print exactly what babeltrace2 prints of the local trace.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

ust_setup
live_init

# 50 events: one packet per stream, so that attaching at the newest
# packet (babeltrace2's SEEK_LAST) sees them all.
N=50
TRACE=$(make_local_trace "$TEST_TMP/trace" $N)
ok $? "a local session records the test program"
bt "$TRACE" "$TEST_TMP/local.out"
is "$(count_events "$TEST_TMP/local.out" ltt_test:seq)" $N "the local trace holds the $N events"

LOG=$RELAYD_LOG
start_relayd -o "$TEST_TMP/out"
ok $? "ltt-relayd starts"

# The trace goes to the relay as a live session kept open until the
# client's stdin closes.
mkfifo "$TEST_TMP/rc.in"
timeout "$TEST_TIMEOUT" "$RELAY_CLIENT" --host tracedhost --session s1 --live-timer 100000 \
	--keep-open replay "$CPORT" "$DPORT" "$TRACE" <"$TEST_TMP/rc.in" >"$TEST_TMP/rc.out" 2>&1 &
RC_PID=$!
exec {rcin}>"$TEST_TMP/rc.in"
wait_for "$TEST_TMP/rc.out" "^WAITING"
ok $? "the trace is on the relay, its session still open"

timeout "$TEST_TIMEOUT" babeltrace2 -i lttng-live "net://127.0.0.1:$LPORT/host/tracedhost/s1" \
	>"$TEST_TMP/live.out" 2>"$TEST_TMP/live.err" {rcin}>&- &
BT_PID=$!
wait_for "$LOG" "attached session"
ok $? "babeltrace2 attaches to the live session"
exec {rcin}>&-
wait $RC_PID
ok $? "the relay client closes its streams and leaves"
wait $BT_PID
is $? 0 "babeltrace2 ends cleanly once the session is gone"
is "$(count_events "$TEST_TMP/live.out" ltt_test:seq)" $N "it printed the $N events"
if cmp -s "$TEST_TMP/local.out" "$TEST_TMP/live.out"; then
	ok 0 "live output equals the local trace's, timestamps and values included"
else
	ok 1 "live output equals the local trace's, timestamps and values included"
	diag "$(diff "$TEST_TMP/local.out" "$TEST_TMP/live.out" | head -10)"
fi
done_testing
