#!/bin/bash
# test_ust_app_guard.sh - the tests' guard (timeout(1) around ust_app, see
# ust_guard in ust-lib.sh) never tears an event.  A program the guard ends
# while it records stops between two events: everything it emitted is
# recorded or counted discarded, and no event is torn (a torn event is
# counted lost and missing from the trace, which made a slow program look
# like one that died mid-event).  And the guard encloses the program's
# own wait for its event (-e): it is longer than that wait.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 8

is "$(ust_guard -n 5 -e 7 -t 2)" $((TEST_TIMEOUT + 7)) "the guard encloses the program's -e wait"
is "$(ust_guard -n 5 -t 2)" "$TEST_TIMEOUT" "without -e, the guard is TEST_TIMEOUT"

T=2 N=50000000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
# small sub-buffers and the consumer stopped: what is recorded stays
# small, the rest is counted discarded as the program emits
lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-channel -u channel0 --subbuf-size 4K --num-subbuf 4 &&
	lttctl -q enable-event -u ltt_test:seq -c channel0 &&
	lttctl -q start || { echo "Bail out! session"; exit 1; }
ust_app_bg -w "$TEST_TMP/ready" -e "$TEST_TIMEOUT" -s "$TEST_TMP/go" -t $T -n $N -r g \
	2>"$TEST_TMP/app.err"
bg=$BG_PID
wait_ready $ready || { echo "Bail out! the program did not register"; exit 1; }
app=$READY_PIDS
consumer=$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)
[[ $consumer =~ ^[0-9]+$ ]] || { echo "Bail out! no single consumer: $consumer"; exit 1; }
kill -STOP "$consumer"
echo go >&$go
# it emits: its buffers are full and it counts discarded events (bounded wait)
end=$((SECONDS + TEST_TIMEOUT))
until [ "$(list_lost_events s)" -gt 0 ] || [ $SECONDS -ge $end ]; do :; done
ok "$([ "$(list_lost_events s)" -gt 0 ]; echo $?)" "the program emits (its full buffers discard)"
# what the guard does when it fires, the consumer reading again (the
# program's events get slots again: the signal may come inside one)
kill -CONT "$consumer"
kill -TERM "$app"
wait "$bg"
is $? $((128 + 15)) "SIGTERM ends the program"
emitted=$(sed -n 's/^ust_app: stopped by SIGTERM after \([0-9]*\) events$/\1/p' "$TEST_TMP/app.err")
ok "$([[ $emitted =~ ^[0-9]+$ ]] && [ "$emitted" -gt 0 ]; echo $?)" \
	"it stopped between two events and says how many it emitted (${emitted:-none})"
lttctl -q stop s
disc=$(list_lost_events s)
bt "$TEST_TMP/s" "$TEST_TMP/s.out"
is "$?:$(grep -c -i error "$TEST_TMP/s.out.err")" "0:0" "the trace reads whole"
rec=$(grep -c ' ltt_test:seq: ' "$TEST_TMP/s.out")
is "$(grep -c 'ltt_ust:torn' "$TEST_TMP/s.out")" 0 "no event torn"
is "$((rec + disc))" "${emitted:-x}" "recorded ($rec) + discarded ($disc) = emitted"
lttctl -q destroy s
done_testing
