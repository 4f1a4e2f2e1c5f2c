#!/bin/bash
# test_ust_filter_e2e.sh - event rule filters end to end (issue 10): the
# session daemon compiles each rule's filter against the fields a program
# registered and sends the programs (EVENT_FILTER) before enabling the
# event; libltt-ust runs them before reserving.  Exact counts of what was
# recorded for filters on integer, float and string (glob) fields,
# && || !, several rules on one event (recorded when any accepts), a field
# the event lacks (the rule does not take it), filter + log level +
# exclusion, and the set changed while the program runs.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 27

N=100
OUT1="$TEST_TMP/t1"
OUT2="$TEST_TMP/t2"

# values FILE EVENT FIELD: the values of FIELD in FILE's EVENT lines, on one line.
values() {
	grep " $2: " "$1" | sed -n "s/.* $3 = \([-0-9.]*\).*/\1/p" | sort -n | tr '\n' ' '
}

# ---- rules known before the program registers ----
ok_cmd "create s1" lttctl create s1 -o "$OUT1"
ok_cmd "integer: seq < 10" lttctl enable-event -u ltt_test:seq --filter 'seq < 10'
ok_cmd "a second rule on seq: && and a string glob" \
	lttctl enable-event -u ltt_test:seq --filter 'seq >= 90 && role == "ma*"'
ok_cmd "float, || and !" \
	lttctl enable-event -u ltt_test:types --filter 'f64 > 50.0 || !(s8 != -3)'
ok_cmd "a second rule on types: a string glob" \
	lttctl enable-event -u ltt_test:types --filter 'str == "beta*"'
ok_cmd "every event with a field i == 7, but debug" \
	lttctl enable-event -u 'ltt_test:*' --filter 'i == 7' -x ltt_test:debug
ok_cmd "DEBUG only, i < 5" \
	lttctl enable-event -u 'ltt_test:*' --loglevel-only DEBUG --filter 'i < 5'
ok_cmd "CRIT or more severe, i >= 95, but crit" \
	lttctl enable-event -u 'ltt_test:*' --loglevel CRIT --filter 'i >= 95' -x ltt_test:crit
ok_cmd "start" lttctl start s1
ust_app -n $N -T -L
is $? 0 "the program ran"
ok_cmd "stop" lttctl stop s1
bt "$OUT1" "$TEST_TMP/o1"
is "$(cat "$TEST_TMP/o1.err")" "" "babeltrace2 reads the trace"
is "$(values "$TEST_TMP/o1" ltt_test:seq seq)" "$(seq -s ' ' 0 9) $(seq -s ' ' 90 99) " \
	"seq: 0..9 (seq < 10) and 90..99 (seq >= 90 && role main): 20"
# types i: f64 = i + 0.25 > 50 (50..99), s8 = -(i % 100) == -3 (3), str
# "beta-text" for i % 4 == 1 (25, of which 12 are >= 50): 64
is "$(count_events "$TEST_TMP/o1" ltt_test:types)" 64 "types: 50 + 1 + 25 - 12 = 64"
is "$(values "$TEST_TMP/o1" ltt_test:types u16 | wc -w)" 64 "types: 64 distinct events"
is "$(values "$TEST_TMP/o1" ltt_test:crit i)" "7 " \
	"crit: i == 7 only (the CRIT rule excludes crit)"
is "$(values "$TEST_TMP/o1" ltt_test:debug i)" "0 1 2 3 4 " \
	"debug: i < 5 only (excluded from the i == 7 rule)"
is "$(wc -l <"$TEST_TMP/o1")" $((20 + 64 + 1 + 5)) "nothing else (seq and types lack i: those rules do not take them)"
ok_cmd "destroy s1" lttctl destroy s1

# ---- the set changes while the program is registered ----
ok_cmd "create s2" lttctl create s2 -o "$OUT2"
lttctl enable-event -u ltt_test:seq --filter 'seq < 10' >/dev/null &&
	lttctl enable-event -u ltt_test:types --filter 'f64 > 50.0' >/dev/null &&
	lttctl start s2 >/dev/null
ok $? "s2: two filtered rules, started"
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -T
app=$BG_PID
wait_ready $ready
ok $? "the program registered (it got the two filters)"
lttctl enable-event -u ltt_test:seq >/dev/null &&
	lttctl disable-event -u ltt_test:types >/dev/null &&
	lttctl enable-event -u ltt_test:types --filter 'u8 == 201 && seq[1] == -51' >/dev/null
ok $? "then: seq without filter, the types rule replaced"
echo go >&$go
wait $app
is $? 0 "the program ran"
ok_cmd "stop" lttctl stop s2
bt "$OUT2" "$TEST_TMP/o2"
is "$(count_events "$TEST_TMP/o2" ltt_test:seq)" $N "seq: every event (a rule without filter takes them all)"
# u8 = 200 + i % 50 == 201: i = 1, 51; the sequence [i, -i, 7] holds i % 4
# elements: seq[1] is out of bounds for i = 1 (false), -51 for i = 51
is "$(values "$TEST_TMP/o2" ltt_test:types u16)" "60051 " \
	"types: the new filter only (i = 51; an index out of bounds is false)"
