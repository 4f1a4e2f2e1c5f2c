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
# fired + dropped = the events emitted, exactly, paused or not.  Without
# the variable, the library is never called.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

TP_LIB="$LTT_TOP_BUILDDIR/tests/regression/trigger/.libs/testpoint_pause.so"
test_init
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
[ -f "$TP_LIB" ] || { echo "Bail out! $TP_LIB not built"; exit 1; }
plan 14

# what the library reads and writes: the daemon's threads run as nobody
# (a root daemon gives up root's rights)
TP="$TEST_TMP/tp"
mkdir "$TP" && chmod 1777 "$TP"
PAUSE="$TP/pause"
# tp_sessiond CALLS [VAR=VALUE...]: the daemon with the library preloaded,
# its calls told to CALLS (a sanitizer's runtime need not come first:
# the library uses none of it)
tp_sessiond() {
	local calls=$1
	shift
	(
		close_fifos
		exec env LD_PRELOAD="$TP_LIB" LTT_TEST_TP_CALLS="$calls" LTT_TEST_TP_PAUSE="$PAUSE" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@" \
			timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$LTT_RUNDIR" --no-kernel
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
end_app() {
	close_fd "$ROUNDS"
	wait "$BG_PID"
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
stop_sessiond || { echo "Bail out! the session daemon did not stop"; exit 1; }

# --- not enabled: the library, preloaded all the same, is never called
: >"$PAUSE"
tp_sessiond "$TP/calls.off"
add_trigger plain
emit 1000
is $? 0 "a program emitted 1000 events, LTTNG_TESTPOINT_ENABLE unset"
end_app
ok "$([ ! -e "$TP/calls.off" ]; echo $?)" "the test point was never called"
fired=$(trigger_count plain fired)
dropped=$(trigger_count plain dropped)
is "$((fired + dropped))" 1000 "fired ($fired) + dropped ($dropped) = the 1000 events, nothing paused"
stop_sessiond
