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
plan 13

N=1000
ok_cmd "create a snapshot session" lttctl create snap --snapshot -o "$TEST_TMP/snaps"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
# the watch thread logs the line for the trace once it decided not to
# replace its consumer; the second program's events need no new metadata,
# which would need a consumer
consumer_gone_unreplaced KILL \
	"session 'snap': trace [^ ]*: its consumer daemon died; it writes only snapshots" $N
is "$(grep -c "taken over by the new consumer daemon" "$SESSIOND_LOG")" 0 "nothing taken over yet"
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
