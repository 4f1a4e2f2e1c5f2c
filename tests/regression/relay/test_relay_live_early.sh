#!/bin/bash
# test_relay_live_early.sh - the consumer sends a live session's events
# between its live ticks (issue 60): it looks at a live relay's streams 8
# times per live period and sends the events of a stream that has some at
# the next look, not at the next tick.  A live session with a 16 s timer
# (a look every 2 s) records one program's 10 events; the relay has them
# indexed, and babeltrace2's lttng-live prints them, within 12 s of
# `start`, before the session's first live tick could have come.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

ust_setup --log
relayd_init
OUT="$TEST_TMP/relay-out"
VIEWER=
trap '[ -n "$VIEWER" ] && kill -KILL "$VIEWER" 2>/dev/null; _relayd_cleanup; _cleanup' EXIT
start_relayd -o "$OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

ok_cmd "a live session, 16 s live timer" \
	lttctl -q create S --live=16000000 --set-url "net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "its events enabled" lttctl -q enable-event -u 'ltt_test:*' -s S
ok_cmd "started" lttctl -q start S
START=$SECONDS
# a viewer attached from the start prints what it is sent
timeout 60 stdbuf -oL babeltrace2 -i lttng-live \
	"net://127.0.0.1:$LPORT/host/$(hostname)/S" >"$TEST_TMP/view" 2>"$TEST_TMP/view.err" &
VIEWER=$!
ust_app -n 10
ok $? "the program records 10 events and exits"

# the index of a data stream with an entry (72 bytes after the 16-byte header)
timeout 12 bash -c '
	until [ -n "$(find "$0" -path "*/index/channel0_*" -size +16c -print -quit 2>/dev/null)" ]; do
		:
	done' "$OUT"
ok $? "the relay has their packet indexed before the first live tick"
timeout $((12 - (SECONDS - START) > 1 ? 12 - (SECONDS - START) : 1)) bash -c '
	until [ "$(grep -c "ltt_test:seq" "$0")" -ge 10 ]; do :; done' "$TEST_TMP/view"
ok $? "and the live viewer printed the 10 events ($((SECONDS - START)) s after start)"
is "$(grep -c "ltt_test:seq" "$TEST_TMP/view")" 10 "exactly those 10"
ok_cmd "destroy" lttctl -q destroy S
done_testing
