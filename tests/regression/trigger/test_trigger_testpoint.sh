#!/bin/bash
# LTTng's test points in ltt-sessiond (src/common/base/testpoint.h), as
# lttng-tools' notification tests drive them: with LTTNG_TESTPOINT_ENABLE=1
# and a library defining __testpoint_sessiond_handle_notifier_event_pipe
# LD_PRELOADed (testpoint_pause.c), the daemon asks it before it reads a
# program's notifications, and reads none while it says "paused"
# (notifier_consumption_paused, which the daemon exports).  A program that
# notifies flat out against a paused daemon fills its socket: what did not
# fit is counted dropped, and the count reaches the daemon when the
# program exits (its last message, the count, gets room made for it):
# fired + dropped = the events emitted, exactly, paused or not.  The
# consumer's point (ltt-consumerd, which inherits the library) stops its
# reading: a stream fills, usage-ge fires, and usage-le, which looks at the
# fullest stream as LTTng's, fires once it drained, after the stop.
# Without the variable, the library is never called.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

TP_LIB="$LTT_TOP_BUILDDIR/tests/regression/trigger/.libs/testpoint_pause.so"
test_init
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
[ -f "$TP_LIB" ] || { echo "Bail out! $TP_LIB not built"; exit 1; }
plan 26

# what the library reads and writes: the daemon's threads run as nobody
# (a root daemon gives up root's rights)
TP="$TEST_TMP/tp"
mkdir "$TP" && chmod 1777 "$TP"
PAUSE="$TP/pause"
# tp_sessiond CALLS [VAR=VALUE...]: the daemon with the library preloaded,
# its calls told to CALLS (a sanitizer's runtime need not come first:
# the library uses none of it; but `timeout` is no sanitized program, so
# only the daemon and what it starts get it)
tp_sessiond() {
	local calls=$1
	shift
	(
		close_fifos
		exec timeout "$TEST_TIMEOUT" env LD_PRELOAD="$TP_LIB" LTT_TEST_TP_CALLS="$calls" \
			LTT_TEST_TP_PAUSE="$PAUSE" LTT_TEST_TP_CONSUMER_PAUSE="$TP/consumer-pause" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@" \
			"$SESSIOND" --daemonize --rundir "$LTT_RUNDIR" --no-kernel
	) || { echo "Bail out! the session daemon did not start"; exit 1; }
}
add_trigger() {
	ok_cmd "add trigger $1" lttctl add-trigger --name "$1" --condition=event-rule-matches \
		--type=user --name=ltt_test:seq --action=notify
}
# emit N: a program emits N events, says done, and lives on until end_app
NAPP=0
emit() {
	NAPP=$((NAPP + 1))
	open_fifo ROUNDS "$TEST_TMP/rounds.$NAPP"
	open_fifo DONE "$TEST_TMP/done.$NAPP"
	ust_app_bg -e "$TEST_TIMEOUT" -n "$1" -p "$TEST_TMP/rounds.$NAPP" -k "$TEST_TMP/done.$NAPP"
	echo go >&"$ROUNDS"
	wait_done "$DONE"
}
# end_app: the program exits; returns its status once the daemon read what
# it left (a second program registers after the first one's end: the one
# app thread handled that end first, its socket drained)
end_app() {
	local rc
	close_fd "$ROUNDS"
	wait "$BG_PID"
	rc=$?
	ust_app -e "$TEST_TIMEOUT" -n 0 || return
	return $rc
}

open_fifo CALLS "$TP/calls"
chmod 666 "$TP/calls"
tp_sessiond "$TP/calls" LTTNG_TESTPOINT_ENABLE=1
add_trigger paused

# --- paused from the start: the program's socket fills, the rest is counted dropped
: >"$PAUSE"
emit 20000
is $? 0 "a program emitted 20000 events, the daemon paused"
read_line "$CALLS"
is "$LINE" call "the daemon asked the test point before it read the program's notifications"
is "$(trigger_count paused fired)" 0 "nothing fired while the program lived, paused"
end_app
is $? 0 "the program exited"
fired=$(trigger_count paused fired)
dropped=$(trigger_count paused dropped)
is "$((fired + dropped))" 20000 "fired ($fired) + dropped ($dropped) = the 20000 events"
ok "$([ "$dropped" -gt 0 ] && [ "$fired" -gt 0 ]; echo $?)" \
	"what the socket held was read when the program went, the rest counted dropped"
like "$(lttctl list-triggers)" "  condition: event rule matches
    rule: ltt_test:seq \(type: user tracepoint\)
    errors:
      discarded tracer messages: $dropped
  actions:" "list-triggers: an event rule's lost notifications are its condition's, LTTng's words"

# --- resumed: the next program's events are read again, every one counted
rm -f "$PAUSE"
emit 1000
is $? 0 "a program emitted 1000 events once the pause was over"
end_app
is $? 0 "the program exited"
fired2=$(trigger_count paused fired)
dropped2=$(trigger_count paused dropped)
is "$((fired2 + dropped2 - fired - dropped))" 1000 \
	"fired + dropped grew by the 1000 events ($((fired2 - fired)) fired)"

# --- the consumer's point (consumerd_thread_data_poll, in every data
# thread): paused, it reads nothing and one CPU's stream fills while the
# others stay empty.  channel-buffer-usage-le looks at the fullest stream,
# as LTTng's: it holds again only once that one drained, and a stopped
# session's buffers are still looked at, so it fires after the stop.
CPAUSE="$TP/consumer-pause"
CAP=16384
: >"$CPAUSE"
# no notifier on ltt_test:seq: the program's -e then waits for lo's channel
ok_cmd "remove trigger paused" lttctl remove-trigger paused
ok_cmd "create session lo" lttctl create lo -o "$TEST_TMP/lo"
lttctl -q enable-channel -u small -s lo --subbuf-size 4k --num-subbuf 4 &&
	lttctl -q enable-event -u ltt_test:seq -s lo -c small && lttctl -q start lo
ok $? "lo records ltt_test:seq into 16 KiB streams"
lttctl -q add-trigger --name low --condition=channel-buffer-usage-le --session=lo \
	--channel=small -u --threshold-ratio=0.25 --action=notify
open_fifo WH "$TEST_TMP/wh"
lttctl -q add-trigger --name high --condition=channel-buffer-usage-ge --session=lo \
	--channel=small -u --threshold-ratio=0.5 --action=notify &&
	lttctl wait-trigger high --timeout "$TEST_TIMEOUT" >/dev/null 2>&"$WH" &
WAITER=$!
wait_for_waiter "$WH"
(taskset -pc 0 $BASHPID >/dev/null && ust_app -e "$TEST_TIMEOUT" -n 5000)
is $? 0 "a program on CPU 0 emitted 5000 events, the consumer paused"
wait $WAITER
is $? 0 "usage >= 50% notified: the paused consumer read nothing"
open_fifo WL "$TEST_TMP/wl"
lttctl wait-trigger low --timeout "$TEST_TIMEOUT" >"$TEST_TMP/low.out" 2>&"$WL" &
WAITER=$!
wait_for_waiter "$WL"
ok_cmd "stop lo without waiting" lttctl stop --no-wait lo
rm -f "$CPAUSE"
wait $WAITER
is $? 0 "usage <= 25% notified once the stopped session's full stream drained"
usage_at_most_ok lo "$TEST_TMP/low.out" $((CAP / 4)) "with the fullest stream's bytes, at most 25% of $CAP"
lost=$(list_lost_events lo)
ok "$([ "$lost" -gt 0 ]; echo $?)" "the full stream's writer discarded $lost events meanwhile"
ok_cmd "destroy lo" lttctl destroy lo
stop_sessiond || { echo "Bail out! the session daemon did not stop"; exit 1; }

# --- not enabled: the library, preloaded all the same, is never called
: >"$PAUSE"
tp_sessiond "$TP/calls.off"
add_trigger plain
emit 1000
is $? 0 "a program emitted 1000 events, LTTNG_TESTPOINT_ENABLE unset"
end_app
is $? 0 "the program exited"
ok "$([ ! -e "$TP/calls.off" ]; echo $?)" "the test point was never called"
fired=$(trigger_count plain fired)
dropped=$(trigger_count plain dropped)
is "$((fired + dropped))" 1000 "fired ($fired) + dropped ($dropped) = the 1000 events, nothing paused"
stop_sessiond
