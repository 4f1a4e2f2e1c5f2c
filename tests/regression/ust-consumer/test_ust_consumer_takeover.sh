#!/bin/bash
# test_ust_consumer_takeover.sh - a consumer daemon killed (SIGKILL) while
# a program records is replaced at once, and the new one takes over the
# same sessions' buffers and files: tracing goes on, stop succeeds, the
# trace reads whole in babeltrace2 (stream files continued, not
# truncated), and every event the program committed is recorded once or
# counted lost by 'lttctl list': recorded + discarded = committed.
# Twice per session: during the recording, and after it with the events
# still in the buffers.  With one stream file per CPU, with rotation, and
# with per-PID buffers (the killed-during program's trace is closed when
# it exits, by whichever consumer runs then).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 47

T=2 N=100000 AFTER=1000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# no_consumer: wait (bounded: wait_pid_exit, each) until the session
# daemon runs no consumer: the one of the last case, whose sessions are
# all destroyed, exits on its own, and until it has, it would pass for
# the one that holds the next case's traces.
no_consumer() {
	local c
	while c=$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd | head -1) && [ -n "$c" ]; do
		wait_pid_exit "$c" || return 1
	done
}

# list_counter SESSION WHAT: "discarded events" or "lost packets" of channel0.
list_counter() {
	lttctl list "$1" | sed -n "s/^ *$2: \([0-9]*\)$/\1/p" | head -1
}

# taken_over NAME N: wait (bounded) until the daemon's log says N times
# that a new consumer took NAME's trace over.  A consumer killed before it
# has finished taking a trace over leaves it to the next one, with one
# line for both deaths: each kill waits for the takeover before it.
taken_over() {
	wait_for "$SESSIOND_LOG" "trace $TEST_TMP/$1/[^ ]*: taken over by the new consumer daemon" "$2"
}

# dups FILE ROLE: events of ROLE recorded more than once.
dups() {
	awk -v role="$2" '/ ltt_test:seq: / && index($0, "role = \"" role "\"") {
		match($0, /thread = [0-9]+/); t = substr($0, RSTART, RLENGTH)
		match($0, /seq = [0-9]+/); s = substr($0, RSTART, RLENGTH)
		if (seen[t, s]++) d++
	} END { print d + 0 }' "$1"
}

run_case() {
	local name=$1 c1 c2 c3 rec disc lost
	shift
	no_consumer
	ok "$?" "$name: the last case's consumer has exited"
	ok_cmd "$name: create" lttctl create "$name" -o "$TEST_TMP/$name"
	ok_cmd "$name: channel0 $*" lttctl enable-channel -u channel0 "$@"
	lttctl -q enable-event -u ltt_test:seq
	lttctl -q start
	# ready once its event is enabled: its buffers are in the consumer
	ust_app_bg -w "$TEST_TMP/ready" -e "$TEST_TIMEOUT" -s "$TEST_TMP/go" -t $T -n $N -r killed
	wait_ready $ready
	c1=$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)
	ok "$([[ $c1 =~ ^[0-9]+$ ]]; echo $?)" \
		"$name: one consumer runs, it reads the program's buffers (pid $c1)"
	# release the program, and kill its consumer while it records
	echo go >&$go
	kill -KILL "$c1"
	c2=$(new_consumer "$c1")
	ok $? "$name: a new consumer replaced it (pid $c2)"
	taken_over "$name" 1
	ok $? "$name: ... and the daemon's log says it took the trace over"
	wait $BG_PID
	is $? 0 "$name: the program recorded unharmed"
	# the events still in the buffers: the next one takes them over too
	# (per-PID: the program's trace was closed at its exit; a consumer is
	# spawned again when the next program needs one)
	kill -KILL "$c2"
	ust_app -e "$TEST_TIMEOUT" -t $T -n $AFTER -r after
	is $? 0 "$name: a program after the deaths"
	c3=$(new_consumer "$c2")
	ok $? "$name: killed again after the recording: another one (pid $c3)"
	run lttctl stop "$name"
	# (a warning about discarded events may come: they are counted)
	is "$RC:$(grep -c -i consumer <<<"$ERR")" "0:0" "$name: stop succeeds, no consumer error"
	disc=$(list_counter "$name" "discarded events")
	lost=$(list_counter "$name" "lost packets")
	bt "$TEST_TMP/$name" "$TEST_TMP/$name.out"
	is "$?:$(grep -c -i error "$TEST_TMP/$name.out.err")" "0:0" \
		"$name: the trace, from the three consumers, reads whole in babeltrace2"
	rec=$(grep ' ltt_test:seq: ' "$TEST_TMP/$name.out" | grep -c 'role = "killed"')
	diag "$name: recorded $rec, discarded $disc, lost packets $lost"
	is "$lost" 0 "$name: no packet lost"
	is "$((rec + disc))" $((T * N)) "$name: recorded ($rec) + discarded ($disc) = committed"
	is "$(dups "$TEST_TMP/$name.out" killed)" 0 "$name: no event written twice"
	is "$(seq_check "$TEST_TMP/$name.out" after $T $AFTER)" "" \
		"$name: the program after the deaths: every event, once"
	lttctl -q destroy "$name"
}

run_case one --buffers-uid
run_case rot --buffers-uid --subbuf-size 64K --num-subbuf 8 --tracefile-size 128K
run_case pid --buffers-pid
ok "$(grep -c 'taken over by the new consumer daemon' "$SESSIOND_LOG" | awk '{ print ($1 >= 5) ? 0 : 1 }')" \
	"the daemon's log says each takeover"
ok "$(grep -c 'continuing .* after [1-9][0-9]* packets' "$SESSIOND_LOG" | awk '{ print ($1 >= 1) ? 0 : 1 }')" \
	"stream files were continued after packets written before a death"
done_testing
