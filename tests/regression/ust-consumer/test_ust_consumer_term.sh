#!/bin/bash
# test_ust_consumer_term.sh - a consumer daemon stopped on purpose
# (SIGTERM: it writes what it holds and exits with status 0) is not
# replaced at once, as LTTng's session daemon never replaces one and
# systemd's Restart=on-failure leaves a clean stop alone; the next
# command that needs its traces starts a new
# one that takes them over, so nothing recorded before or after is lost
# (here `lttctl stop`; a program registering into existing per-user
# buffers needs no consumer).
# A consumer that dies otherwise (SIGKILL) is still replaced at once
# (test_ust_consumer_takeover.sh).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 13

N=1000
ok_cmd "create" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
# SIGTERM: it writes what it holds, exits with status 0, and the log says
# it was stopped on purpose; a program records meanwhile, into the buffers;
# the stop needs the trace: a new consumer takes it over, then flushes it
consumer_gone_unreplaced TERM "consumer daemon pid @PID@: it exited, stopped on purpose \(SIGTERM" $N
c1=$GONE_PID
run lttctl stop s
is "$RC:$(grep -c -i consumer <<<"$ERR")" "0:0" "stop succeeds, no consumer error" || diag "$OUT"
grep -q "trace $TEST_TMP/s/[^ ]*: taken over by the new consumer daemon" "$SESSIOND_LOG"
ok $? "the stop had a new consumer take the trace over, the log says"
c2=$(consumer_pid)
ok "$([[ $c2 =~ ^[0-9]+$ && $c2 != "$c1" ]]; echo $?)" "a new consumer runs (pid $c2)"
bt "$TEST_TMP/s" "$TEST_TMP/s.out"
is "$(seq_check "$TEST_TMP/s.out" before 1 $N)$(seq_check "$TEST_TMP/s.out" after 1 $N)" "" \
	"every event of both programs recorded once: the first consumer wrote what it held, a new one took the trace over"
lttctl -q destroy s
done_testing
