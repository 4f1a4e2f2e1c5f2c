#!/bin/bash
# test_ust_layout.sh - two programs define ltt_test:seq with different
# fields.  A shared (per-UID) trace holds both layouts, each an event
# class of its own (one name, two ids), as LTTng's does: both programs'
# events are recorded, each in its layout, and nothing in the trace is
# corrupt.  With per-PID buffers each program has its own trace, so both
# layouts are recorded, each in its trace.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ALT="$LTT_TOP_BUILDDIR/tests/regression/app/ust_app_alt"
ust_setup --log
plan 15

N=50
ok_cmd "uid: create" lttctl create uid -o "$TEST_TMP/uid"
ok_cmd "uid: enable ltt_test:* and ltt_test_alt:*" lttctl enable-event -u 'ltt_test:*,ltt_test_alt:*'
ok_cmd "uid: start" lttctl start
ust_app -n $N -r first
"$ALT" -n $N
is $? 0 "the second program runs"
ok_cmd "uid: stop" lttctl stop
bt "$TEST_TMP/uid" "$TEST_TMP/out.uid"
is "$(cat "$TEST_TMP/out.uid.err")" "" "babeltrace2 reads the shared trace without a complaint"
is "$(seq_check "$TEST_TMP/out.uid" first 1 $N)" "" "the first layout's ltt_test:seq events, all of them"
is "$(grep -c ' ltt_test:seq: .*{ value = -\?[0-9]*, ratio = ' "$TEST_TMP/out.uid")" $N \
	"the second program's ltt_test:seq events in its own layout (value = -i), all of them"
is "$(count_events "$TEST_TMP/out.uid" ltt_test:seq)" $((2 * N)) "no other ltt_test:seq"
is "$(count_events "$TEST_TMP/out.uid" ltt_test_alt:own)" $N "the second program's other event is recorded"
is "$(grep -a -A1 'name = "ltt_test:seq";' "$(find "$TEST_TMP/uid" -name metadata)" | grep -c '^	id = ')" 2 \
	"the trace's metadata: two event classes named ltt_test:seq"
unlike "$(cat "$SESSIOND_LOG")" "other fields" "the daemon refused neither layout"
lttctl -q destroy uid

lttctl -q create pid -o "$TEST_TMP/pid"
lttctl -q enable-channel -u channel0 --buffers-pid
lttctl -q enable-event -u 'ltt_test:seq'
lttctl -q start
ust_app -n $N -r first
"$ALT" -n $N
lttctl -q stop
bt "$TEST_TMP/pid" "$TEST_TMP/out.pid"
is "$(cat "$TEST_TMP/out.pid.err")" "" "pid: babeltrace2 reads both traces without a complaint"
is "$(seq_check "$TEST_TMP/out.pid" first 1 $N)" "" "pid: the first program's events, all of them"
is "$(grep -c ' ltt_test:seq: .*{ value = -[0-9]*, ratio = ' "$TEST_TMP/out.pid")" $((N - 1)) \
	"pid: the second program's events in its own layout (value = -i, i > 0)"
done_testing
