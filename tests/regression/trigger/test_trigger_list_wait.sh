#!/bin/bash
# list-triggers first has the app thread read what programs sent, and
# waits for it (1 s at most): it runs on its user's worker, as every
# command that may wait does, never on the client thread, whose other
# clients and notification subscribers it would stall.  The app thread is
# held in LTTng's test point (testpoint_pause.c, LTT_TEST_TP_HOLD) while a
# LIST_TRIGGERS waits for it; another client's HELLO and LIST_SESSIONS are
# answered meanwhile, the LIST_TRIGGERS reply still to come.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

TP_LIB="$LTT_TOP_BUILDDIR/tests/regression/trigger/.libs/testpoint_pause.so"
test_init
need_proto_client
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
[ -f "$TP_LIB" ] || { echo "Bail out! $TP_LIB not built"; exit 1; }
plan 8

# the daemon's threads may run as nobody: the FIFOs are everyone's
TP="$TEST_TMP/tp"
mkdir "$TP" && chmod 1777 "$TP"
open_fifo CALLS "$TP/calls" && chmod 666 "$TP/calls"
open_fifo HOLD "$TP/hold" && chmod 666 "$TP/hold"
(
	close_fifos
	exec timeout "$TEST_TIMEOUT" env LD_PRELOAD="$TP_LIB" LTTNG_TESTPOINT_ENABLE=1 \
		LTT_TEST_TP_CALLS="$TP/calls" LTT_TEST_TP_HOLD="$TP/hold" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$SESSIOND" --daemonize --rundir "$LTT_RUNDIR" --no-kernel
) || { echo "Bail out! the session daemon did not start"; exit 1; }
sock="$LTT_RUNDIR/client.sock"

ok_cmd "add trigger t" lttctl add-trigger --name t --condition=event-rule-matches \
	--type=user --name=ltt_test:seq --action=notify
ust_app -e "$TEST_TIMEOUT" -n 1
is $? 0 "a program emitted one event that the trigger matches"
read_line "$CALLS"
is "$LINE" call "the app thread reached the test point, where it is held"

# A: LIST_TRIGGERS sent whole, then paused; B then, on its own connection
d="$TEST_TMP/a"
mkdir "$d" && mkfifo "$d/in" "$d/out"
"$PROTO_CLIENT" "$sock" hello "send LIST_TRIGGERS" pause pending reply <"$d/in" >"$d/out" &
A_PID=$!
exec {A_IN}>"$d/in" {A_OUT}<"$d/out"
read -t "$TEST_TIMEOUT" -r -u "$A_OUT" LINE && read -t "$TEST_TIMEOUT" -r -u "$A_OUT" LINE
is "$LINE" PAUSED "client A sent LIST_TRIGGERS"
out=$(timeout "$TEST_TIMEOUT" "$PROTO_CLIENT" "$sock" hello "req LIST_SESSIONS")
like "$out" "^HELLO OK .*
LIST_SESSIONS OK len=[0-9]* count=0" "client B's HELLO and LIST_SESSIONS answered"
echo go >&"$A_IN"
read -t "$TEST_TIMEOUT" -r -u "$A_OUT" LINE
is "$LINE" PENDING "... while A's LIST_TRIGGERS still waited for the held app thread"
# the app thread goes on; A's reply comes (after its 1 s wait at most)
close_fd "$HOLD"
read -t "$TEST_TIMEOUT" -r -u "$A_OUT" LINE
like "$LINE" "^LIST_TRIGGERS OK len=" "A's LIST_TRIGGERS answered"
exec {A_IN}>&- {A_OUT}<&-
wait "$A_PID"
is "$(trigger_count t fired)" 1 "the event the held thread read fired the trigger once"
stop_sessiond
