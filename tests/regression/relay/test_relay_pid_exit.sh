#!/bin/bash
# A per-PID channel streamed to a relay whose program exits before the
# relay took its streams (lttng-tools' clear/test_ust, per-PID: a program
# of 3 events, its channel removed while ADD_STREAM was unanswered): the
# consumer's removal of the channel waits for the relay (2 s at most) and
# writes the last packets, not "counted lost".  The relay is stopped
# (SIGSTOP) while the program runs and exits, continued once the removal
# waits.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
N=30
plan 6

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
lttctl -q create s -U "net://127.0.0.1:$CPORT:$DPORT" &&
	lttctl -q enable-channel -u --buffers-pid -s s cp &&
	lttctl -q enable-event -u ltt_test:seq -s s -c cp &&
	lttctl -q start s || { echo "Bail out! session s"; exit 1; }

kill -STOP "$RELAYD_PID"
ust_app -n "$N" >/dev/null
ok $? "the program ran and exited, the relay stopped"
# the program's channel is removed; its streams wait for the relay
timeout 10 bash -c 'tail -n +1 -F "$1" 2>/dev/null |
	grep -m1 -E "channel cp: its removal waits for [0-9]+ stream" | wc -l' _ "$SESSIOND_LOG" |
	grep -qx 1
ok $? "the removal of the exited program's channel waits for its streams"
kill -CONT "$RELAYD_PID"
ok_cmd "stop" lttctl -q stop s
ok_cmd "destroy" lttctl -q destroy s
bt "$RELAY_OUT" "$TEST_TMP/out"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/out")" "$N" "the relay wrote every event of the exited program"
unlike "$(cat "$SESSIOND_LOG")" "counted lost|closed anyway" "nothing counted lost, no stream closed before it wrote"
done_testing
