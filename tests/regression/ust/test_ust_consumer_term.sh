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
plan 12

N=1000
ok_cmd "create" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
ust_app -n $N -r before
is $? 0 "a program recorded $N events"
c1=$(consumer_pid)
ok "$([[ $c1 =~ ^[0-9]+$ ]]; echo $?)" "one consumer runs (pid $c1)"

kill -TERM "$c1"
wait_pid_exit "$c1"
ok $? "SIGTERM stops the consumer"
wait_for "$SESSIOND_LOG" "consumer daemon pid $c1: it exited, stopped on purpose \(SIGTERM"
ok $? "the daemon's log says it was stopped on purpose, not replaced now" ||
	diag "$(grep -i consumer "$SESSIOND_LOG" | tail -5)"
# the watch thread wrote that line, then decided: a takeover would have
# spawned one before its next event
is "$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)" "" "no consumer was started in its place"

# a program records meanwhile, into the buffers (nobody reads them); the
# stop needs the trace: a new consumer takes it over, then flushes it
ust_app -n $N -r after
is $? 0 "a program after the consumer's stop recorded $N events"
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
