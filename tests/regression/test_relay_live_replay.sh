#!/bin/bash
# test_relay_live_replay.sh - a real ltt trace through the live port: a
# local session records the test program, relay_client streams that trace
# to ltt-relayd as a live session (the consumer's relay sink will do the
# same), babeltrace2 -i lttng-live reads it while the session is open and
# must print exactly what babeltrace2 prints of the local trace.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

RELAYD="$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd"
RCLIENT="$LTT_TOP_BUILDDIR/tests/regression/relay_client"

ust_setup
for b in "$RELAYD" "$RCLIENT"; do
	[ -x "$b" ] || { echo "Bail out! $b not built"; exit 1; }
done

N=50
OUTDIR="$TEST_TMP/trace"
TRACE="$OUTDIR/ust/uid/$(id -u)/64-bit"
lttctl create s1 -o "$OUTDIR" >/dev/null && lttctl enable-event -u 'ltt_test:*' >/dev/null &&
	lttctl start >/dev/null && ust_app -n $N && lttctl stop >/dev/null &&
	lttctl destroy >/dev/null
ok $? "a local session records the test program"
bt "$OUTDIR" "$TEST_TMP/local.out"
is "$(count_events "$TEST_TMP/local.out" ltt_test:seq)" $N "the local trace holds the $N events"

LOG="$TEST_TMP/relayd.log"
"$RELAYD" -b -v -p "$TEST_TMP/relayd.pid" -o "$TEST_TMP/out" \
	-C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 2>"$LOG"
ok $? "ltt-relayd starts"
RELAYD_PID=$(cat "$TEST_TMP/relayd.pid")
trap 'kill -KILL $RELAYD_PID 2>/dev/null; _cleanup' EXIT
LIVE=$(cat "$LTT_RUNDIR/relayd-live.port")

# wait_for FILE REGEX: until FILE holds a line matching REGEX (bounded).
wait_for() {
	timeout "$TEST_TIMEOUT" bash -c \
		'tail -n +1 -F "$1" 2>/dev/null | grep -E -m 1 -- "$2" | wc -l' _ "$1" "$2" |
		grep -qx 1
}

# The trace goes to the relay as a live session kept open until the
# client's stdin closes.
mkfifo "$TEST_TMP/rc.in"
"$RCLIENT" --host tracedhost --session s1 --live-timer 100000 --keep-open replay \
	"$(cat "$LTT_RUNDIR/relayd-control.port")" "$(cat "$LTT_RUNDIR/relayd-data.port")" \
	"$TRACE" <"$TEST_TMP/rc.in" >"$TEST_TMP/rc.out" 2>&1 &
RC_PID=$!
exec {rcin}>"$TEST_TMP/rc.in"
wait_for "$TEST_TMP/rc.out" "^WAITING"
ok $? "the trace is on the relay, its session still open"

timeout "$TEST_TIMEOUT" babeltrace2 -i lttng-live "net://127.0.0.1:$LIVE/host/tracedhost/s1" \
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
