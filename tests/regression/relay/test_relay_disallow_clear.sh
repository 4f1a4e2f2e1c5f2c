#!/bin/bash
# ltt-relayd --disallow-clear and LTTNG_RELAYD_DISALLOW_CLEAR (LTTng's
# option and variable, lttng-tools' clear/test_ust): a clear of a session
# streamed there is refused before anything moves, and its trace at the
# relay stays whole; a value of the variable that is neither yes nor no
# keeps the relay from starting; 0 allows clears.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
N=50
plan 11

# streamed OUT NAME: a session streamed to the relay, N events recorded.
streamed() {
	lttctl -q create "$2" -U "net://127.0.0.1:$CPORT:$DPORT" &&
		lttctl -q enable-event -u ltt_test:seq -s "$2" &&
		lttctl -q start "$2" && ust_app -n "$N" >/dev/null ||
		{ echo "Bail out! session $2"; exit 1; }
}

start_relayd -o "$TEST_TMP/r1" --disallow-clear || { echo "Bail out! ltt-relayd did not start"; exit 1; }
streamed "$TEST_TMP/r1" s1
run lttctl clear s1
like "$RC:$ERR" "^1:Error: .*relay daemon refuses clears" "--disallow-clear: the clear is refused, saying why"
ok_cmd "the session goes on: stop" lttctl -q stop s1
ok_cmd "destroy" lttctl -q destroy s1
bt "$TEST_TMP/r1" "$TEST_TMP/r1.out"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/r1.out")" "$N" "its trace at the relay holds every event: nothing cleared"
stop_relayd

LTTNG_RELAYD_DISALLOW_CLEAR=yes start_relayd -o "$TEST_TMP/r2" ||
	{ echo "Bail out! ltt-relayd did not start"; exit 1; }
streamed "$TEST_TMP/r2" s2
run lttctl clear s2
like "$RC:$ERR" "^1:Error: .*relay daemon refuses clears" "LTTNG_RELAYD_DISALLOW_CLEAR=yes: the clear is refused"
lttctl -q destroy s2
bt "$TEST_TMP/r2" "$TEST_TMP/r2.out"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/r2.out")" "$N" "  its trace holds every event"
stop_relayd

run env LTTNG_RELAYD_DISALLOW_CLEAR=maybe "$RELAYD" -o "$TEST_TMP/r3" -C tcp://127.0.0.1:0 \
	-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0
like "$RC:$ERR" "^[1-9][0-9]*:.*LTTNG_RELAYD_DISALLOW_CLEAR=maybe: give yes" \
	"LTTNG_RELAYD_DISALLOW_CLEAR=maybe: the relay does not start, saying what to give"
ok $([ ! -e "$TEST_TMP/r3" ]; echo $?) "  and creates nothing"
run env LTTNG_RELAYD_DISALLOW_CLEAR=1x "$RELAYD" -o "$TEST_TMP/r3" -C tcp://127.0.0.1:0 \
	-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0
like "$RC:$ERR" "^[1-9][0-9]*:.*LTTNG_RELAYD_DISALLOW_CLEAR=1x: give yes" \
	"LTTNG_RELAYD_DISALLOW_CLEAR=1x (a number with more after it): refused the same way"

LTTNG_RELAYD_DISALLOW_CLEAR=0 start_relayd -o "$TEST_TMP/r4" ||
	{ echo "Bail out! ltt-relayd did not start"; exit 1; }
streamed "$TEST_TMP/r4" s4
ok_cmd "LTTNG_RELAYD_DISALLOW_CLEAR=0: the clear is taken" lttctl -q clear s4
lttctl -q destroy s4
bt "$TEST_TMP/r4" "$TEST_TMP/r4.out"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/r4.out")" 0 "  the relay deleted what was recorded"
stop_relayd
done_testing
