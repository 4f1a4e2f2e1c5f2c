#!/bin/bash
# test_ust_consumer_snapshot_died.sh - a snapshot session's consumer
# daemon killed (SIGKILL): its traces write nothing but snapshots, so no
# new consumer is started at once (one that writes as it goes is replaced
# at once: test_ust_consumer_takeover.sh); the next command that needs
# them, here `snapshot record`, has a new consumer take them over, and the
# snapshot holds what was recorded before and after the death, every event
# once.  LTTng's tools/health tests kill the consumers of a --no-output
# session and wait until none is left.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 12

N=1000
ok_cmd "create a snapshot session" lttctl create snap --snapshot -o "$TEST_TMP/snaps"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
ust_app -n $N -r before
is $? 0 "a program recorded $N events"
c1=$(consumer_pid)
ok "$([[ $c1 =~ ^[0-9]+$ ]]; echo $?)" "one consumer runs (pid $c1)"

kill -KILL "$c1"
wait_pid_exit "$c1"
ok $? "SIGKILL ends the consumer"
# the watch thread logs this for the trace once it decided not to replace it
wait_for "$SESSIOND_LOG" "session 'snap': trace [^ ]*: its consumer daemon died; it writes only snapshots"
ok $? "the daemon's log says the snapshot trace waits for a command that needs it" ||
	diag "$(grep -i consumer "$SESSIOND_LOG" | tail -5)"
is "$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)" "" "no consumer was started in its place"

# recorded meanwhile into the buffers, which nobody reads in a snapshot
# session (the same program's events: no new metadata needs a consumer)
ust_app -n $N -r after
is $? 0 "a program after the consumer's death recorded $N events"
is "$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd):$(grep -c "taken over by the new consumer daemon" "$SESSIOND_LOG")" ":0" \
	"still no consumer, nothing taken over"
run lttctl snapshot record
is "$RC:$(grep -c -i consumer <<<"$ERR")" "0:0" "snapshot record succeeds, no consumer error" ||
	diag "$OUT"
grep -q "trace [^ ]*: taken over by the new consumer daemon" "$SESSIOND_LOG"
ok $? "the snapshot had a new consumer take the trace over, the log says"
bt "$(printf '%s\n' "$STDOUT" | tail -n 1)" "$TEST_TMP/snap.out"
is "$(seq_check "$TEST_TMP/snap.out" before 1 $N)$(seq_check "$TEST_TMP/snap.out" after 1 $N)" "" \
	"the snapshot holds every event of both programs once: recorded before the death and after it"
lttctl -q destroy snap
done_testing
