#!/bin/bash
# test_ust_term_stalled.sh - the daemon stopped (SIGTERM) while its
# consumer is stopped (SIGSTOP) with events in the buffers: the daemon
# exits, says how many events that consumer holds unwritten, and leaves
# it running rather than kill it.  Resumed (SIGCONT), it writes them all
# and exits: every event recorded.  Killed instead, the trace lacks
# exactly the events the daemon counted: committed = recorded + counted.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 15

N1=1500 N2=2500
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# term_stalled: SIGTERM, then wait until the daemon has shut down.  It
# waits its own deadlines for the stalled consumer meanwhile (5 s for the
# stop's flush, 10 s for the consumer's exit): a bound of its own, above
# TEST_TIMEOUT, for a loaded machine.
term_stalled() {
	local pid
	pid=$(sessiond_pid) && kill -TERM "$pid" && flock -w 60 "$LTT_RUNDIR/sessiond.lock" true
}

# scenario NAME: a daemon, a session recording N1 events written before
# the consumer stops and N2 held when the daemon is stopped; HELD is the
# count it said, CPID the consumer's pid, left running.
scenario() {
	local name=$1 app
	LOG="$TEST_TMP/$name.log"
	"$SESSIOND" --background --rundir "$LTT_RUNDIR" </dev/null >/dev/null 2>"$LOG" ||
		{ echo "Bail out! the daemon did not start"; exit 1; }
	lttctl -q create s -o "$TEST_TMP/$name" &&
		lttctl -q enable-channel -u chan --subbuf-size 64k --num-subbuf 8 -s s &&
		lttctl -q enable-event -u ltt_test:seq -c chan -s s && lttctl -q start s ||
		{ echo "Bail out! no session"; exit 1; }
	ust_app -n $N1 -r first || { echo "Bail out! the first program failed"; exit 1; }
	# stop writes them all: the consumer is idle when it is stopped
	lttctl -q stop s && lttctl -q start s || { echo "Bail out! stop/start"; exit 1; }
	ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N2 -r held
	app=$BG_PID
	wait_ready $ready || { echo "Bail out! the second program did not register"; exit 1; }
	CPID=$(consumer_pid)
	stop_proc "$CPID"
	echo go >&$go
	wait $app
	is $? 0 "$name: the program committed its $N2 events, the consumer stopped"
	ok_cmd "$name: the daemon exits on SIGTERM" term_stalled
	HELD=$(sed -n 's/.*left running, it still holds \([0-9]*\) events.*/\1/p' "$LOG")
	is "$HELD" $N2 "$name: it says the stalled consumer holds the $N2 events unwritten"
	like "$(grep -c 'destroyed while its consumer daemon is stalled: [0-9]* events not written yet' "$LOG")" '^[1-9]' \
		"$name: and the trace's count"
	ok "$(proc_alive "$CPID"; echo $?)" "$name: the consumer was left running, not killed"
}

scenario killed
kill -KILL "$CPID"
wait_pid_exit "$CPID"
bt "$TEST_TMP/killed" "$TEST_TMP/killed.bt"
got=$(grep -c ' ltt_test:seq: ' "$TEST_TMP/killed.bt")
is "$got" $N1 "killed: the trace has the events written before the stop"
is "$((got + HELD))" $((N1 + N2)) "killed: recorded ($got) + counted ($HELD) = committed ($((N1 + N2)))"

scenario resumed
kill -CONT "$CPID"
ok_cmd "resumed: the consumer exits once it has written" wait_pid_exit "$CPID"
bt "$TEST_TMP/resumed" "$TEST_TMP/resumed.bt"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/resumed.bt")" $((N1 + N2)) "resumed: every event recorded"
is "$(discarded "$TEST_TMP/resumed.bt.err")" 0 "resumed: none discarded"
done_testing
