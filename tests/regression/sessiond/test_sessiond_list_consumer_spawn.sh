#!/bin/bash
# test_sessiond_list_consumer_spawn.sh - `lttctl list s` while s's consumer is
# being spawned answers, and the daemon is not wedged after it.
#
# s records a program's events; then its consumer is killed, and the
# daemon's consumers stop on their HELLO from then on ("$TEST_TMP/fault",
# LTT_FAULT, ltt-consumerd(8)).  The takeover locks s and spawns the next
# consumer, which stops there, so the takeover waits for the HELLO's reply
# (its deadline) with the supervisor's lock held.  Meanwhile `list s`
# reads s, whose tree asks that supervisor whether s's consumer stalls.
# Before, the HELLO's wait gave s's state lock back; list took it, then
# waited for the supervisor's lock, while the takeover waited to take
# the state lock back: both forever, and every later command on s or
# with that supervisor with them.  Now the spawn keeps its session's
# state lock (ltt_session_pin()): list waits for the HELLO at most, then
# answers.  Afterwards s records a second program's events, and the
# trace holds each program's: recorded + discarded = committed.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 9

export LTT_FAULT="stop HELLO $TEST_TMP/fault"
start_sessiond
out="$TEST_TMP/s"
N=500
{
	lttctl -q create s -o "$out" && lttctl -q enable-channel -u chan -s s &&
	lttctl -q enable-event -u ltt_test:seq -c chan -s s && lttctl -q start s
} || { echo "Bail out! the session could not be set up"; exit 1; }
ust_app -n $N -r p1 >/dev/null
ok $? "a program recorded $N events"
c1=$(consumer_pid)

: >"$TEST_TMP/fault"
kill -KILL "$c1"
# the next consumer removed the file and stopped itself on its HELLO
# (the stop follows the file's removal at once: no event tells it)
wait_fs "$TEST_TMP/fault" -- bash -c '[ ! -e "$0" ]' "$TEST_TMP/fault" &&
	timeout "$TEST_TIMEOUT" bash -c '
	until c=$(pgrep -x ltt-consumerd -P "$0") && [ "$(cut -d" " -f3 /proc/$c/stat)" = T ]; do :; done' \
	"$(sessiond_pid)"
ok $? "the consumer spawned to take over stopped on its HELLO"
c2=$(consumer_pid)

run timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" list s
like "$RC:${OUT//$'\n'/ }" '^0:.*chan.*ltt_test:seq' "list s answers while the takeover's consumer is stopped on its HELLO"
run timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" list
like "$RC:$OUT" '^0:.*s ' "list answers too"
[ -n "$c2" ] && kill -CONT "$c2" 2>/dev/null
# whatever became of that consumer, the daemon answers and s records on
run timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" list s
is "$RC" 0 "list s answers once the consumer runs again"
ust_app -n $N -r p2 >/dev/null
ok $? "a second program recorded $N events"
ok_cmd "stop" lttctl stop s
lost=$(list_lost_events s)
got1=$(role_count "$out" p1) got2=$(role_count "$out" p2)
diag "recorded $got1 + $got2, discarded $lost"
is "$((got1 + got2 + lost))" $((2 * N)) "recorded ($got1 + $got2) + discarded ($lost) = committed ($((2 * N)))"
is "$got2" $N "the second program's events are all in the trace"
lttctl -q destroy s
done_testing
