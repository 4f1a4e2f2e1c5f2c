#!/bin/bash
# test_sessiond_push_stalled_owner.sh - a program whose buffers in a
# session already exist records there at once, even while that session's
# owner's thread waits on a stalled consumer.  User B (nobody) has a
# per-UID session u, which a first program of root's (p0) made root's
# buffers in, and a per-PID session b.  B's consumer is stopped
# (SIGSTOP); a program (p1) registers, so B's owner thread sends its
# per-PID trace in b to the stopped consumer (ADD_TRACE, a 15 s
# deadline here) and waits there.  A third program (p2) then registers
# and records: its push to u needs no consumer (the buffers, the channel
# and its event's class are there), so the daemon's app thread makes it
# instead of queueing it behind b's wait.  It ended before B's consumer
# runs again and before the daemon gave up on b's ADD_TRACE; u holds its
# events all the same: recorded + discarded = committed.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
# B's sessions record root's programs too
stalled_b_daemon --consumerd-reply-ms $((15000 * ${LTT_TEST_TIME_SCALE:-1}))
plan 12

b_ctl create u -o "$nhome/u" >/dev/null &&
	b_ctl enable-channel -u uchan -s u >/dev/null &&
	b_ctl enable-event -u ltt_test:seq -c uchan -s u >/dev/null
ok_cmd "B starts a per-UID session u" b_ctl start u
K=100
ok_cmd "a program of root's (p0) records $K events: root's buffers in u are made" \
	ust_app -n $K -r p0

# B's per-PID session b; B's owner thread waits on its stopped consumer
stalled_b_start 1

M=500
ok_cmd "p2 records $M events and ends" ust_app -n $M -r p2
stat=$(ps -o stat= -p "$CB")
is "${stat:0:1}:$(add_trace_gave_up)" T:0 \
	"meanwhile B's consumer stayed stopped and the daemon still waited for b's ADD_TRACE"

kill -CONT "$CB"
wait_ready $ready
ok $? "p1 registered"
echo go >&$go
wait $APP
is $? 0 "p1 ran"
ok_cmd "B stops u" b_ctl stop u
got=$(role_count "$nhome/u" p2)
dropped=$(lost_sum b_ctl list u)
is "$((got + dropped))" $M "u: p2's recorded ($got) + discarded ($dropped) = committed ($M)"
is "$(role_count "$nhome/u" p0)" $K "u holds p0's $K events"
b_ctl destroy b >/dev/null
b_ctl destroy u >/dev/null
done_testing
