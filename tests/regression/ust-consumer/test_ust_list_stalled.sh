#!/bin/bash
# test_ust_list_stalled.sh - `lttctl list SESSION` never waits for a
# stalled consumer.  User B (nobody) has a per-PID session of the root
# daemon whose consumer B stopped (SIGSTOP); a program registers, so B's
# owner thread creates the program's trace in b with the stopped consumer
# (ADD_TRACE, a 5 s deadline) holding b's gate, its state lock given
# back.  Meanwhile B's `list b`, root's `list b` and root's `list a`
# answer (b's channel and rule, as b is), before the daemon gives up on the
# ADD_TRACE (its log line), not after.  The program got its buffers at
# once and records before B's consumer runs again, which then takes the
# trace with what it holds: committed = recorded + discarded in both
# sessions.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
# B's sessions record root's programs too
stalled_b_daemon
plan 15

N=2000
stalled_b_setup $N

run b_ctl list b
like "$RC:${OUT//$'\n'/ }" '^0:.*bchan.*ltt_test:seq' "B's list b answers, with b's channel and rule"
run lttctl list b
like "$RC:${OUT//$'\n'/ }" '^0:.*bchan' "root's list b answers"
run lttctl list a
like "$RC:${OUT//$'\n'/ }" '^0:.*chan' "root's list a answers"
is "$(add_trace_gave_up)" 0 "all before the daemon gave up waiting for the consumer's ADD_TRACE"

stalled_b_resume
ok_cmd "A stops" lttctl stop a
is "$(role_count "$TEST_TMP/a" p1)" $N "a recorded every event"
b_ctl stop b >/dev/null
got=$(role_count "$nhome/b" p1)
dropped=$(lost_sum b_ctl list b)
is "$((got + dropped))" $N "b: recorded ($got) + discarded ($dropped) = committed ($N)"
b_ctl destroy b >/dev/null
lttctl -q destroy a
done_testing
