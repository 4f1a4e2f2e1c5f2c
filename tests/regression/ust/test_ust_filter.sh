#!/bin/bash
# test_ust_filter.sh - filters end to end: lttctl enable-event --filter,
# the session daemon compiling each rule's expression for the program's
# events and sending EVENT_FILTER, libltt-ust validating and running them
# before reserving.  Exact counts: an integer comparison, a string glob,
# two rules with different filters on one event (any accepts), and a
# filter on context fields pushed to a program already registered.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 16

N=100
OUTDIR="$TEST_TMP/trace"

ok_cmd "create" lttctl create s1 -o "$OUTDIR"
ok_cmd "seq > 10" lttctl enable-event -u ltt_test:seq --filter 'seq > 10 && role == "main"'
ok_cmd "a string glob on types" lttctl enable-event -u ltt_test:types --filter 'str == "al*"'
ok_cmd "crit: i < 3" lttctl enable-event -u ltt_test:crit --filter 'i < 3'
ok_cmd "crit: i >= 97, a second rule" lttctl enable-event -u ltt_test:crit --filter 'i >= 97'
ok_cmd "start" lttctl start

# Registered and waiting: a rule on a context field reaches it now.
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -T -L
app=$BG_PID
wait_ready $ready
ok $? "the program registered"
pid=$READY_PIDS
ok_cmd "debug: \$ctx.vpid == $pid, pushed to the running program" \
	lttctl enable-event -u ltt_test:debug --filter "\$ctx.vpid == $pid && \$ctx.procname == \"ust_app\""

echo go >&$go
wait $app
is $? 0 "the program ran to completion"
ok_cmd "stop" lttctl stop s1

bt "$OUTDIR" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
is "$(count_events "$TEST_TMP/out" ltt_test:seq)" 89 "seq > 10: 89 of $N"
is "$(grep ' ltt_test:seq: ' "$TEST_TMP/out" | grep -vc 'seq = \(1[1-9]\|[2-9][0-9]\) }')" 0 \
	"each recorded seq is above 10"
is "$(count_events "$TEST_TMP/out" ltt_test:types)" 25 "str == \"al*\": the 25 \"alpha\" of $N"
is "$(count_events "$TEST_TMP/out" ltt_test:crit)" 6 "crit: two rules, any accepts: 6 of $N"
is "$(count_events "$TEST_TMP/out" ltt_test:debug)" $N "\$ctx.vpid and procname of the program: all $N"
