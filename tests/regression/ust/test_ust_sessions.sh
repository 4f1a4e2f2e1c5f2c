#!/bin/bash
# test_ust_sessions.sh - several sessions at once each get what their rules
# select from the same program: everything (twice), one event, log level
# ranges and single levels; disable-event stops recording an event.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 43

N=500
# ust_app -T -L emits per iteration: ltt_test:seq (DEBUG_LINE, 13),
# ltt_test:types (WARNING, 4), ltt_test:crit (CRIT, 2), ltt_test:debug (DEBUG, 14).

# session NAME ENABLE-EVENT-ARGS...: create NAME writing to $TEST_TMP/NAME.
session() {
	local name=$1
	shift
	lttctl create "$name" -o "$TEST_TMP/$name" >/dev/null &&
		lttctl enable-event -u -s "$name" "$@" >/dev/null &&
		lttctl start "$name" >/dev/null
	ok $? "session $name: $*"
}
session all1 'ltt_test:*'
session all2 'ltt_test:*'
session seqonly ltt_test:seq
session warn 'ltt_test:*' --loglevel WARNING
session warnonly 'ltt_test:*' --loglevel-only WARNING
session line 'ltt_test:*' --loglevel DEBUG_LINE
session debugonly 'ltt_test:*' --loglevel-only DEBUG

ust_app -n $N -T -L
is $? 0 "one program, $N iterations of the four events"
for s in all1 all2 seqonly warn warnonly line debugonly; do
	lttctl stop $s >/dev/null
done

# counts NAME: "seq types crit debug" recorded by session NAME.
counts() {
	local ev out=
	bt "$TEST_TMP/$1" "$TEST_TMP/out.$1"
	for ev in seq types crit debug; do
		out="$out $(count_events "$TEST_TMP/out.$1" ltt_test:$ev)"
	done
	echo $out
}
is "$(counts all1)" "$N $N $N $N" "all1: every event"
is "$(counts all2)" "$N $N $N $N" "all2, at the same time: every event too"
is "$(seq_check "$TEST_TMP/out.all1" main 1 $N)$(seq_check "$TEST_TMP/out.all2" main 1 $N)" "" \
	"both: ltt_test:seq 0..$((N - 1)) once each"
is "$(counts seqonly)" "$N 0 0 0" "ltt_test:seq only: none of the others"
is "$(counts warn)" "0 $N $N 0" "--loglevel WARNING: types (WARNING) and crit (CRIT)"
is "$(counts warnonly)" "0 $N 0 0" "--loglevel-only WARNING: types only"
is "$(counts line)" "$N $N $N 0" "--loglevel DEBUG_LINE: all but debug (DEBUG)"
is "$(counts debugonly)" "0 0 0 $N" "--loglevel-only DEBUG: debug only"
is "$(grep ' ltt_test:types: ' "$TEST_TMP/out.warnonly" | sed 's/.* u32 = \([0-9]*\),.*/\1/' | sort -n | uniq | wc -l)" $N \
	"--loglevel-only WARNING: each types event once"
for s in all1 all2 seqonly warn warnonly line debugonly; do
	is "$(cat "$TEST_TMP/out.$s.err")" "" "$s: babeltrace2 has no warning"
done
run lttctl list warn
like "$STDOUT" "ltt_test:\* \(loglevel: WARNING or more severe\) \[enabled\]" "list: the range rule"
run lttctl list warnonly
like "$STDOUT" "ltt_test:\* \(loglevel: WARNING only\) \[enabled\]" "list: the single-level rule"
lttctl destroy -a >/dev/null

# disable-event: two rules; one disabled while the session is active.
ok_cmd "create dis" lttctl create dis -o "$TEST_TMP/dis"
ok_cmd "enable ltt_test:seq,ltt_test:crit" lttctl enable-event -u ltt_test:seq,ltt_test:crit
ok_cmd "start" lttctl start
ust_app -n $N -L -r one
is $? 0 "a program with both rules enabled"

open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -L -r two
wait_ready $ready
ok $? "a second program registered"
ok_cmd "disable-event ltt_test:crit while active" lttctl disable-event -u ltt_test:crit
echo go >&$go
wait $BG_PID
is $? 0 "the second program, released after the disable, ran"
ust_app -n $N -L -r three
is $? 0 "a third program started after the disable"
run lttctl list dis
like "$STDOUT" "ltt_test:crit \(loglevel: any\) \[disabled\]" "list: the disabled rule"
like "$STDOUT" "ltt_test:seq \(loglevel: any\) \[enabled\]" "list: the other rule"
ok_cmd "stop" lttctl stop
is "$(counts dis)" "$((3 * N)) 0 $N 0" "ltt_test:crit from the first program only"
is "$(seq_check "$TEST_TMP/out.dis" one 1 $N)$(seq_check "$TEST_TMP/out.dis" two 1 $N)$(seq_check "$TEST_TMP/out.dis" three 1 $N)" "" \
	"ltt_test:seq of the three programs, once each"
ok_cmd "enable ltt_test:crit again" lttctl enable-event -u ltt_test:crit
ok_cmd "start" lttctl start
ust_app -n $N -L -r four
ok_cmd "stop" lttctl stop
is "$(counts dis)" "$((4 * N)) 0 $((2 * N)) 0" "enabled again: ltt_test:crit recorded again"
done_testing
