#!/bin/bash
# test_ust_first_event.sh - a program's constructor registers with the
# session daemon itself (it connects, registers, maps its channels and
# reads REGISTER_DONE before main(), then hands the connection to the
# library's thread: src/ust/comm.c, register_here()): the events a
# program records at the start of main() are all in the trace, start
# after start, the state dump before them; and the thread serves what
# comes later (a rule enabled while the program runs).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 13

RUNS=20
ok_cmd "create" lttctl create s1 -o "$TEST_TMP/trace"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "enable lttng_ust_statedump:*" lttctl enable-event -u 'lttng_ust_statedump:*'
ok_cmd "start" lttctl start

fails=0
for i in $(seq $RUNS); do
	ust_app -n 1 -r "run$i" || fails=$((fails + 1))
done
is $fails 0 "$RUNS programs, one event each at the start of main(), ran"

# A registered program, waiting: a rule enabled now reaches it through
# the connection its constructor handed to the library's thread.
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 5 -L -r live
wait_ready $ready
ok $? "a program registered and waiting"
ok_cmd "enable ltt_test:crit while it waits" lttctl enable-event -u ltt_test:crit
echo go >&$go
wait $BG_PID
is $? 0 "the waiting program, released, ran"
ok_cmd "stop" lttctl stop

bt "$TEST_TMP/trace" "$TEST_TMP/out"
is "$(cat "$TEST_TMP/out.err")" "" "babeltrace2 reads the trace, no warning"
missing=
for i in $(seq $RUNS); do
	[ "$(grep -c "role = \"run$i\"" "$TEST_TMP/out")" = 1 ] || missing="$missing run$i"
done
is "$missing" "" "every program's first event recorded, once"
# each start's dump (start, its objects, end) precedes its program's event
order=$(awk '/ lttng_ust_statedump:end: / { ended++ }
	/ ltt_test:seq: .*role = "run/ { if (ended < ++seq) bad++ }
	END { print ended + 0, seq + 0, bad + 0 }' "$TEST_TMP/out")
is "$order" "$((RUNS + 1)) $RUNS 0" \
	"$((RUNS + 1)) state dumps, each ended before its program's first event"
is "$(count_events "$TEST_TMP/out" ltt_test:crit)" 5 \
	"the rule enabled while the program waited: its 5 ltt_test:crit"
done_testing
