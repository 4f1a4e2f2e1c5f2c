#!/bin/bash
# test_ust_trace_refused.sh - the consumer refuses a session's trace (its
# directory can't be made: OUTPUT/ust/uid is a file): the stop that leaves
# its programs' events unwritten fails and says why (CONSUMERD_REFUSED),
# every time, instead of returning 0 with nothing recorded and nothing
# counted; list counts the trace's events discarded (nothing reads its
# buffers: their commit words say what they hold), so recorded (0) +
# discarded = committed.  Another session of the same consumer records
# as usual.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
need_proto_client
plan 19

N=300
m_refused="the consumer daemon refused some of the session's traces"
ok_cmd "create s" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq -s s
ok_cmd "create ok" lttctl create ok -o "$TEST_TMP/ok"
lttctl -q enable-event -u ltt_test:seq -s ok
# s2: the same refusal, buffers too small for the events (2 x 4 KiB):
# what they hold and what the writers dropped, neither counted twice
ok_cmd "create s2" lttctl create s2 -o "$TEST_TMP/s2"
lttctl -q enable-channel -u c --subbuf-size 4096 --num-subbuf 2 -s s2 &&
	lttctl -q enable-event -u ltt_test:seq -c c -s s2
ok_cmd "start s" lttctl start s
ok_cmd "start ok" lttctl start ok
lttctl -q start s2
# start made the output directory and its ust/ (as LTTng's); the traces
# go under ust/uid/, now a file
touch "$TEST_TMP/s/ust/uid" "$TEST_TMP/s2/ust/uid"
ust_app -n $N -r main
is $? 0 "a program recorded $N events in both sessions"

run lttctl stop s
is "$RC" 1 "stop s: exit 1"
like "$ERR" "^Error: session 's': $m_refused .*is counted discarded" \
	"stop s: the consumer refused its traces, and where their events are counted"
like "$(cat "$SESSIOND_LOG")" "session 's': can't create trace $TEST_TMP/s/ust/uid/$(id -u)/64-bit: Not a directory" \
	"the log: the trace the consumer refused, and why"
like "$(cat "$SESSIOND_LOG")" "session 's': the consumer daemon refused some of its traces or channels .*: what their programs recorded there is not written" \
	"the log: what the stop could not write"
like "$(lttctl list s)" "^Session s .* \\[inactive\\]" "s is stopped all the same"
is "$(lttctl list s | sed -n 's/^ *discarded events: //p' | head -1)" $N \
	"list s: the $N events the refused trace holds, counted discarded (recorded 0)"
lttctl -q stop s2 2>/dev/null	# CONSUMERD_REFUSED, as for s
is "$(lttctl list s2 | sed -n 's/^ *discarded events: //p' | head -1)" $N \
	"list s2: the $N events, what its small buffers hold and what their writers dropped"
ok_cmd "start s again" lttctl start s
run lttctl stop s
like "$RC:$ERR" "^1:Error: session 's': $m_refused" "every stop says so, not only the first"
# a client of protocol 1.36 knows not the code: the one it knows
lttctl -q start s
run "$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" "hello 1 36" "req STOP_SESSION str:s u8:1"
like "$OUT" "STOP_SESSION CONSUMERD len=" "a client before 1.37 gets CONSUMERD, which it knows"
lttctl -q start s
run lttctl destroy s
like "$RC:$ERR" "^0:Warning: session 's': $m_refused" \
	"destroy of s recording: done, saying why its trace is cut short"

ok_cmd "stop ok" lttctl stop ok
bt "$TEST_TMP/ok" "$TEST_TMP/out"
is "$(seq_check "$TEST_TMP/out" main 1 $N)" "" "session ok: all $N events"

term_sessiond
done_testing
