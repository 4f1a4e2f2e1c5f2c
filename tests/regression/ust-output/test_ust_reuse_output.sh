#!/bin/bash
# test_ust_reuse_output.sh - an old trace is written over, as LTTng's: a
# second session given the same output directory, once the first one is
# destroyed, writes its trace in its place (ust/uid/UID/64-bit), the old
# trace's files gone; a trace being written is never written over: a
# session started while another writes there puts its trace beside it
# (64-bit-1), and both read back whole.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 8

N=100
uid=$(id -u)
T=$TEST_TMP/out/ust/uid/$uid
for s in one two; do
	lttctl -q create $s -o "$TEST_TMP/out"
	lttctl -q enable-channel -u ch_$s
	lttctl -q enable-event -u ltt_test:seq -c ch_$s
	lttctl -q start
	ust_app -n $N -r $s
	lttctl -q stop
	lttctl -q destroy
done
ok "$([ ! -e "$T/64-bit-1" ]; echo $?)" "the second trace is not beside the first"
bt "$T/64-bit" "$TEST_TMP/second"
is "$(seq_check "$TEST_TMP/second" two 1 $N)" "" "64-bit holds the second session's events"
is "$(count_events "$TEST_TMP/second" ltt_test:seq)" $N "and only them: the old trace was written over"
is "$(find "$T/64-bit" -name 'ch_one*' | wc -l):$(find "$T/64-bit" -maxdepth 1 -name 'ch_two_*' | wc -l)" \
	"0:$(find "$T/64-bit/index" -name 'ch_two_*' | wc -l)" "  the first's stream and index files gone, the second's there"

# two sessions at once in one directory: the second beside the first
for s in three four; do
	lttctl -q create $s -o "$TEST_TMP/both"
	lttctl -q enable-event -u ltt_test:seq -s $s
	lttctl -q start $s
done
ust_app -n $N -r both
lttctl -q destroy three && lttctl -q destroy four
B=$TEST_TMP/both/ust/uid/$uid
ok "$([ -f "$B/64-bit/metadata" ] && [ -f "$B/64-bit-1/metadata" ]; echo $?)" \
	"two sessions writing at once: the second trace beside the first, in 64-bit-1"
bt "$B/64-bit" "$TEST_TMP/b0"
bt "$B/64-bit-1" "$TEST_TMP/b1"
is "$(count_events "$TEST_TMP/b0" ltt_test:seq)" $N "the first holds the program's events"
is "$(count_events "$TEST_TMP/b1" ltt_test:seq)" $N "the second too"
is "$(seq_check "$TEST_TMP/b1" both 1 $N)" "" "  each once"
done_testing
