#!/bin/bash
# A relay that stops answering (SIGSTOP) never costs the shared consumer
# daemon its life: a program registering while the relay is stalled gets
# its local session recorded in full and its streamed sessions added
# without the consumer waiting on the relay; destroy --no-wait of a
# streamed session returns at once; the stalled relay is then given up
# (list: lost, timed out) and the consumer goes on.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
N=2000

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

# session NAME OUTPUT-OPTIONS...: created, the test's events enabled, started.
session() {
	local name=$1
	shift
	lttctl -q create "$name" "$@" &&
		lttctl -q enable-event -u 'ltt_test:*' -s "$name" &&
		lttctl -q start "$name"
}

# ms: a monotonic-enough clock in milliseconds.
ms() { echo $(($(date +%s%N) / 1000000)); }
# "at once": well under the relay's 10 s stall deadline; a sanitizer build
# runs slower (scripts/sanitize.sh sets LTT_TEST_TIME_SCALE)
soon=$((2500 * ${LTT_TEST_TIME_SCALE:-1}))

ok_cmd "a local session" session loc -o "$TEST_TMP/local"
ok_cmd "a streamed session" session s -U "net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "another streamed session" session s2 -U "net://127.0.0.1:$CPORT:$DPORT"
kill -STOP "$RELAYD_PID"
ok $? "the relay is stopped (SIGSTOP)"

# The program registers: the consumer adds its traces, channels and
# streams for the three sessions; the relay answers none of it.
t0=$(ms)
ust_app -n "$N" >/dev/null
ok $? "the program ran, the relay stalled"
t1=$(ms)
ok "$([ $((t1 - t0)) -lt $soon ]; echo $?)" "without waiting on the relay: $((t1 - t0)) ms (< $soon ms)"
unlike "$(cat "$SESSIOND_LOG")" "ADD_TRACE failed|ADD_STREAM failed|ADD_CHANNEL failed" \
	"no consumer command failed"
cpid=$(consumer_pid)
ok "$([ -n "$cpid" ]; echo $?)" "the consumer daemon is alive (pid $cpid)"
unlike "$(cat "$SESSIOND_LOG")" "considered dead" "the session daemon never took it for dead"

# destroy --no-wait of a streamed session with the relay stalled: at once
t0=$(ms)
run lttctl destroy s2 --no-wait
t1=$(ms)
is "$RC" 0 "destroy --no-wait of a streamed session while the relay is stalled: exit 0"
ok "$([ $((t1 - t0)) -lt $soon ]; echo $?)" "and it returned in $((t1 - t0)) ms (< $soon ms)"
is "$(consumer_pid)" "$cpid" "the same consumer daemon goes on"

# the local session has everything
ok_cmd "stop the local session" lttctl stop loc
bt "$TEST_TMP/local" "$TEST_TMP/local.txt"
is "$(count_events "$TEST_TMP/local.txt" ltt_test:seq)" "$N" "the local session recorded all $N events"
run lttctl list loc
unlike "$STDOUT" "[1-9][0-9]* (events )?(lost|discarded)" "list loc: nothing lost"

# the stalled relay is given up after LTT_RLINK_STALL_MS (10 s)
coproc TAILP { exec timeout 30 tail -n +1 -F "$SESSIOND_LOG" 2>/dev/null; }
tailp_pid=$TAILP_PID  # bash unsets TAILP_PID once the coprocess is reaped
coproc_hold TAILP tailp_out tailp_in
grep -q -m 1 "relay session s at .*: connection lost: Connection timed out" <&"$tailp_out"
ok $? "the consumer gives the stalled relay up (its log says so)"
kill "$tailp_pid" 2>/dev/null
exec {tailp_out}<&- {tailp_in}>&-
run lttctl list s
like "$STDOUT" "Relay connection \(user space\): lost \(Connection timed out\)" \
	"list s: the stalled relay is given up (timed out)"
is "$(consumer_pid)" "$cpid" "the consumer daemon lives on"
t0=$(ms)
run lttctl destroy s
t1=$(ms)
ok "$([ $((t1 - t0)) -lt $soon ]; echo $?)" "destroy of the session with the lost relay: $((t1 - t0)) ms (< $soon ms)"
unlike "$(cat "$SESSIOND_LOG")" "considered dead" "the consumer was never taken for dead"
lttctl -q destroy loc
kill -CONT "$RELAYD_PID"
done_testing
