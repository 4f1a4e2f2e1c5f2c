#!/bin/bash
# test_ust_pid_stalled.sh - a stalled consumer delays no program and loses
# none of its events, with per-PID buffers.  The session daemon gives a
# program its buffers first and tells the consumer after; the consumer,
# once it answers, reads what the program recorded meanwhile.  A program
# that leaves while its consumer is stalled has its trace kept, buffers
# and all, until the consumer can write it: committed = recorded +
# discarded.
#
#   early  the consumer is stopped before the program registers: the
#          program records at once (no ltt_test:seq enabled wait), exits;
#          stop says the consumer is stalled and fails; once the consumer
#          runs again, stop succeeds and the trace holds every event.
#   late   the consumer holds the program's trace, then is stopped; the
#          program records less than a sub-buffer and exits, so that its
#          last flush (all of its events) times out; then the same.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 21
N=3000

# kept_for NAME: wait for the daemon's word that NAME's trace waits
kept_for() {
	wait_for "$SESSIOND_LOG" "ust/pid/ust_app-$1-.*its program left while its consumer daemon is stalled"
}

# session NAME: per-PID, ltt_test:seq, started
session() {
	{
		lttctl -q create "$1" -o "$TEST_TMP/$1" &&
		lttctl -q enable-channel -u c --buffers-pid &&
		lttctl -q enable-event -u ltt_test:seq -c c &&
		lttctl -q start
	} || { echo "Bail out! $1: the session could not be set up"; exit 1; }
}

# recorded NAME ROLE: the trace of NAME read into NAME.out; prints ROLE's
# ltt_test:seq events
recorded() {
	bt "$TEST_TMP/$1" "$TEST_TMP/$1.out" && grep ' ltt_test:seq: ' "$TEST_TMP/$1.out" |
		grep -c "role = \"$2\""
}

# finish NAME ROLE: stop fails while the consumer is stalled; once it runs
# again the daemon has it write the trace, without a command
finish() {
	local name=$1 role=$2 out="$TEST_TMP/$1.out" lost
	run lttctl stop "$name"
	like "$RC:$OUT" '^[1-9][0-9]*:.*stalled' "$name: stop says the consumer is stalled, and fails"
	kill -CONT "$cpid"
	local deadline=$((SECONDS + TEST_TIMEOUT)) got=
	until got=$(recorded "$name" "$role"); [ "$got" = $N ] || [ $SECONDS -ge $deadline ]; do
		:
	done
	is "$got" $N "$name: once the consumer runs again, the daemon has it write the trace, without a command"
	lost=$(list_lost_events "$name")
	is "$(seq_check "$out" "$role" 1 $N)" "" "$name: the $N events the program recorded, once each"
	is "$(count_events "$out" ltt_test:seq):$lost" "$N:0" "$name: recorded = committed ($N), nothing discarded"
	ok_cmd "$name: destroy" lttctl destroy "$name"
	is "$(recorded "$name" "$role")" $N "$name: after destroy, the same $N events"
}

open_fifo ready "$TEST_TMP/ready"

# early: the consumer stopped before the program registers
session early
cpid=$(consumer_pid)
ok "$([ -n "$cpid" ]; echo $?)" "early: the session has a consumer (pid $cpid)"
stop_proc "$cpid"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r early
app=$BG_PID
wait_ready $ready
ok $? "early: the program registers while the consumer is stopped"
echo go >&$go
wait $app
is $? 0 "early: the program recorded and exited"
kept_for "$READY_PIDS"
ok $? "early: its trace is kept for the stalled consumer"
run lttctl list early
like "$RC:${OUT//$'\n'/ }" '^0:.*early' "early: list answers meanwhile"
finish early early
close_fd $go

# late: the consumer holds the trace, then stops before the program's last flush
session late
cpid=$(consumer_pid)
open_fifo go "$TEST_TMP/go2"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go2" -n $N -r late
app=$BG_PID
wait_ready $ready
ok $? "late: the program registers"
wait_fs "$TEST_TMP/late/ust/pid/ust_app-$READY_PIDS-*/c_0" -- \
	bash -c 'compgen -G "$0/ust/pid/ust_app-$1-*/c_0" >/dev/null' "$TEST_TMP/late" "$READY_PIDS"
ok $? "late: the consumer holds the program's trace (its files are made)"
stop_proc "$cpid"
echo go >&$go
wait $app
is $? 0 "late: the program recorded and exited"
kept_for "$READY_PIDS"
ok $? "late: its last flush timed out: its trace is kept for the stalled consumer"
finish late late
done_testing
