#!/bin/bash
# test_ust_reuse_output.sh - a trace is never written over: a second
# session given the same output directory writes its trace beside the
# first one's (ust/uid/UID/64-bit-1), and both read back whole.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 6

N=100
for s in one two; do
	lttctl -q create $s -o "$TEST_TMP/out"
	lttctl -q enable-event -u ltt_test:seq
	lttctl -q start
	ust_app -n $N -r $s
	lttctl -q stop
	lttctl -q destroy
done
uid=$(id -u)
ok "$([ -f "$TEST_TMP/out/ust/uid/$uid/64-bit/metadata" ]; echo $?)" "the first trace is in 64-bit"
ok "$([ -f "$TEST_TMP/out/ust/uid/$uid/64-bit-1/metadata" ]; echo $?)" "the second beside it, in 64-bit-1"
bt "$TEST_TMP/out/ust/uid/$uid/64-bit" "$TEST_TMP/first"
is "$(seq_check "$TEST_TMP/first" one 1 $N)" "" "the first trace still holds the first session's events"
is "$(count_events "$TEST_TMP/first" ltt_test:seq)" $N "and only them"
bt "$TEST_TMP/out/ust/uid/$uid/64-bit-1" "$TEST_TMP/second"
is "$(seq_check "$TEST_TMP/second" two 1 $N)" "" "the second trace holds the second session's events"
is "$(count_events "$TEST_TMP/second" ltt_test:seq)" $N "and only them"
done_testing
