#!/bin/bash
# test_ust_consumer_stuck.sh - a consumer daemon that stops answering must
# not freeze the session daemon: its calls are bounded, the stuck consumer
# is killed, and the next session gets a new one that works.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 12

N=100
ok_cmd "create s" lttctl create s -o "$TEST_TMP/s"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start s" lttctl start
ust_app -n $N -r first
is $? 0 "a first program (it makes the daemon spawn the consumer)"
cons=$(consumer_pid)
ok "$([ -n "$cons" ]; echo $?)" "a consumer runs (pid ${cons:-none})"
stop_proc "$cons"

# The next program needs a new trace in session s2: the consumer does not
# answer, so the daemon gives up on it after its bounded wait.
ok_cmd "create s2" lttctl create s2 -o "$TEST_TMP/s2"
lttctl -q enable-channel -u channel0 --buffers-pid -s s2
lttctl -q enable-event -u ltt_test:seq -s s2
lttctl -q start s2
LTT_UST_REGISTER_TIMEOUT=20000 ust_app -n $N -r second
is $? 0 "a program runs while the consumer is stuck"
# The stuck consumer was killed, not left to write half a trace later.
timeout "$TEST_TIMEOUT" tail --pid="$cons" -f /dev/null
ok $? "the stuck consumer is gone"

run timeout 15 "$LTTCTL_BIN" list
is "$RC" 0 "the daemon still answers (list)"
ok_cmd "destroy the old sessions" lttctl destroy -a

# A new session gets a new consumer and records normally.
lttctl -q create s3 -o "$TEST_TMP/s3"
lttctl -q enable-event -u ltt_test:seq
lttctl -q start
ust_app -n $N -r third
lttctl -q stop
bt "$TEST_TMP/s3" "$TEST_TMP/out3"
is "$(seq_check "$TEST_TMP/out3" third 1 $N)" "" "a new session records every event with a new consumer"
ok "$([ "$(consumer_pid)" != "$cons" ]; echo $?)" "with another consumer process"
done_testing
