#!/bin/bash
# test_relay_consumer_takeover.sh - a streamed session whose consumer is
# killed (SIGKILL): the new consumer re-creates the relay session, in a
# directory of its own (SESSION-DATE-1: the relay never writes over a
# trace), and streams from the ring buffers' read positions: the events
# still in the buffers and those recorded after the death reach the
# relay, stop succeeds and list shows the new connection.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
plan 12

# Fewer events than a sub-buffer holds: they stay in the open packet until
# stop, so the consumer that dies has sent none of them.
N=2000

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

ok_cmd "a streamed session" lttctl create st -U "net://127.0.0.1:$CPORT:$DPORT"
lttctl -q enable-event -u ltt_test:seq -s st
ok_cmd "start" lttctl start st
ust_app -n $N -r before
is $? 0 "a program records $N events"
c1=$(consumer_pid)
kill -KILL "$c1"
c2=$(new_consumer "$c1")
ok $? "the killed consumer was replaced (pid $c2)"
ust_app -n $N -r after
is $? 0 "a program records $N events after the death"
run lttctl stop st
is "$RC" 0 "stop succeeds"

host=$(hostname)
dirs=("$RELAY_OUT/$host"/st-*)
is "${#dirs[@]}" 2 "the relay has two directories for the session"
second=$(ls -d "$RELAY_OUT/$host"/st-*-1 2>/dev/null)
ok "$([ -n "$second" ] && [ -f "$second/ust/uid/$(id -u)/64-bit/metadata" ]; echo $?)" \
	"the re-created relay session's trace is in ${second##*/}"
bt "$second" "$TEST_TMP/out"
is "$(seq_check "$TEST_TMP/out" before 1 $N)" "" \
	"the events still in the buffers at the death reached the relay, once each"
is "$(seq_check "$TEST_TMP/out" after 1 $N)" "" "so did every event recorded after it"
run lttctl list st
like "$STDOUT" "connected, [0-9]+ packets sent .*, 0 lost" "list: the new relay connection, nothing lost"
like "$STDOUT" "written by the relay in .*/st-[0-9]+-[0-9]+-1" "list: in the re-created session's directory"
done_testing
