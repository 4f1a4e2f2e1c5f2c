#!/bin/bash
# test_ust_start_order.sh - what is recorded depends on when tracing is
# active, not on when a program started: a program registered before the
# session even exists records everything once started; one started after
# start too; one that ran before start or after stop records nothing; a
# rule enabled while the session is active reaches a running program.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 26

N=300
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# A program registered before the session exists, waiting.
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r before
before=$BG_PID
wait_ready $ready
ok $? "a program registered before the session was created"

ok_cmd "create" lttctl create s1 -o "$TEST_TMP/trace"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq

ust_app -n $N -r early
is $? 0 "a program ran entirely before start"

ok_cmd "start" lttctl start
echo go >&$go
wait $before
is $? 0 "the waiting program, released after start, ran"

ust_app -n $N -r after
is $? 0 "a program started after start ran"

# A running program (registered, waiting) gets a rule enabled while the
# session is active.
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -L -r live
live=$BG_PID
wait_ready $ready
ok $? "a program registered while the session is active"
ok_cmd "enable ltt_test:crit while active" lttctl enable-event -u ltt_test:crit
echo go >&$go
wait $live
is $? 0 "that program, released, ran"

ok_cmd "stop" lttctl stop
ust_app -n $N -L -r late
is $? 0 "a program ran after stop"

bt "$TEST_TMP/trace" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
is "$(cat "$TEST_TMP/out.err")" "" "babeltrace2: no warning"
is "$(seq_check "$TEST_TMP/out" before 1 $N)" "" "registered before create: all $N events"
is "$(seq_check "$TEST_TMP/out" after 1 $N)" "" "started after start: all $N events"
is "$(seq_check "$TEST_TMP/out" live 1 $N)" "" "running while a rule was enabled: all $N ltt_test:seq"
is "$(grep -c 'role = "early"' "$TEST_TMP/out")" 0 "ran before start: nothing"
is "$(grep -c 'role = "late"' "$TEST_TMP/out")" 0 "ran after stop: nothing"
is "$(count_events "$TEST_TMP/out" ltt_test:crit)" $N "the rule enabled while active: $N ltt_test:crit"
is "$(grep ' ltt_test:crit: ' "$TEST_TMP/out" | sed 's/.*{ i = \([0-9]*\) }$/\1/' | sort -n | uniq | wc -l)" $N \
	"ltt_test:crit: i = 0..$((N - 1)), once each"
is "$(count_events "$TEST_TMP/out" ltt_test:debug)" 0 "ltt_test:debug was never enabled: none"
is "$(wc -l <"$TEST_TMP/out")" $((4 * N)) "nothing else"

# Start again: the program of a new run is recorded, the old ones stay.
ok_cmd "start again" lttctl start
ust_app -n $N -r again
ok_cmd "stop again" lttctl stop
bt "$TEST_TMP/trace" "$TEST_TMP/out2"
is "$(seq_check "$TEST_TMP/out2" again 1 $N)$(wc -l <"$TEST_TMP/out2")" "$((5 * N))" \
	"started again: the new program's $N events, and the $((4 * N)) before"
done_testing
