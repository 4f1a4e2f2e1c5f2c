#!/bin/bash
# Every event a program committed into a streamed session is in the
# relay's trace or counted lost: the relay is killed (SIGKILL) in the
# middle of a session while the buffers hold events it never got; after
# stop, the events in the relay's trace plus the lost events `lttctl
# list` reports equal the events the program emitted, exactly, and both
# are above zero.
#
# This test kills the relay when nothing is in flight (packets in flight
# at the kill: test_relay_kill_burst.sh): after a stop that waited for the relay to have the first
# run's events (phase 1), and with the second run's events still in the
# ring buffers (phase 2: fewer than one sub-buffer per stream).  The
# consumer then reads those packets at stop, cannot send them, and counts
# their events in the channel's lost events.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
N1=20000	# phase 1: streamed while the relay lives, flat out
N2=1500		# phase 2: ~70 KB, less than one 512 KiB sub-buffer

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

ok_cmd "a streamed session" lttctl -q create s -U "net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "its events enabled" lttctl -q enable-event -u 'ltt_test:*' -s s
ok_cmd "started" lttctl -q start s
ok_cmd "phase 1: the program emits $N1 events" ust_app -n "$N1"
ok_cmd "stop: waits until the relay has them" lttctl -q stop s
ok_cmd "started again" lttctl -q start s
ok_cmd "phase 2: the program emits $N2 more" ust_app -n "$N2"

# SIGKILL, then wait until the consumer saw the connection go (its log),
# so that nothing is handed to a socket nobody reads any more.
coproc TAILP { exec timeout "$TEST_TIMEOUT" tail -n +1 -F "$SESSIOND_LOG" 2>/dev/null; }
tailp_pid=$TAILP_PID  # bash unsets TAILP_PID once the coprocess is reaped
coproc_hold TAILP tailp_out tailp_in
kill -KILL "$RELAYD_PID"
wait_pid_exit "$RELAYD_PID"
ok $? "the relay is killed with the second run's events still in the buffers"
grep -q -m 1 "relay session s at .*: connection lost" <&"$tailp_out"
ok $? "the consumer sees the connection go (its log says so)"
kill "$tailp_pid" 2>/dev/null
exec {tailp_out}<&- {tailp_in}>&-

run lttctl stop s
is "$RC" 1 "stop after the relay died: exit 1"
like "$ERR" "channel 'channel0' of session 's' lost [1-9][0-9]* events: its buffers were full, or the relay daemon did not receive their packets" \
	"stop says events were lost, and why they may have been"
LOST=$(list_lost_events s)
run lttctl list s
like "$STDOUT" "lost packets: [1-9]" "list: packets lost"
like "$STDOUT" "Relay connection \(user space\): lost" "list: the relay connection is lost"

dir=
for d in "$RELAY_OUT"/*/s-*; do [ -d "$d" ] && dir=$d; done
ok "$([ -n "$dir" ]; echo $?)" "the relay wrote the session's trace ($dir)"
bt "$dir" "$TEST_TMP/s.txt"
ok $? "babeltrace2 reads it"
GOT=$(count_events "$TEST_TMP/s.txt" ltt_test:seq)
diag "in the relay's trace: $GOT events; counted lost: $LOST; emitted: $((N1 + N2))"
ok "$([ "$GOT" -gt 0 ]; echo $?)" "the relay's trace has events ($GOT)"
ok "$([ "$LOST" -ge "$N2" ]; echo $?)" "at least the second run's $N2 events are counted lost ($LOST)"
is "$((GOT + LOST))" "$((N1 + N2))" "recorded + counted lost == emitted, exactly"
ok_cmd "destroy" lttctl -q destroy s
done_testing
