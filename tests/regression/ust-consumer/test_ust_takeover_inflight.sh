#!/bin/bash
# test_ust_takeover_inflight.sh - a user-space consumer that dies with a
# request of the session daemon in flight is replaced, and the new one
# takes over what that request was about: a per-PID trace being created
# (ADD_TRACE), a per-PID trace being closed at its program's exit (its
# last FLUSH_CHANNEL).  Before, the trace was given up ("can't create
# trace": the program recorded into buffers nobody read, and a directory
# the dead one had made could hold an empty metadata file that made the
# whole output unreadable), or closed without its last packets.
#
# Made certain, not left to timing: the consumer is stopped (SIGSTOP), the
# test waits until the request sits unread in its command socket (ss),
# then kills it.  Checks: the trace reads whole in babeltrace2, recorded +
# discarded = committed, no event twice, one directory per program, the
# daemon's log says what happened.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
command -v ss >/dev/null || skip_all "ss (iproute2) is not installed"
plan 16

T=2 N=20000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# the_consumer: the pid of the session daemon's only consumer, once it
# runs one (wait_fs: woken by the log line the daemon writes once it
# started one; one that died must be gone first: wait_pid_exit)
the_consumer() {
	wait_fs "$SESSIOND_LOG" -- bash -c '
		c=$(pgrep -P "$0" -x ltt-consumerd) && [[ $c =~ ^[0-9]+$ ]] && echo "$c"' "$(sessiond_pid)"
}

# wait_request PID: wait (bounded) until a request sits unread in the
# (stopped) consumer PID's sockets.
wait_request() {
	timeout "$TEST_TIMEOUT" bash -c '
		until ss -xHp | awk -v p="pid=$1," "index(\$0, p) { q += \$3 } END { exit !q }"
		do :; done' bash "$1"
}

lttctl -q create s -o "$TEST_TMP/s"
lttctl -q enable-channel -u channel0 --buffers-pid
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start a per-PID session" lttctl start
c1=$(the_consumer)
ok $? "a consumer runs (pid $c1)"

# 1. ADD_TRACE in flight: the program's trace is being created
kill -STOP "$c1"
# (ready once its event is enabled: after the takeover)
ust_app_bg -w "$TEST_TMP/ready" -e "$TEST_TIMEOUT" -t $T -n $N -r created
p1=$BG_PID
wait_request "$c1"
ok $? "the program's trace creation waits in the stopped consumer's socket"
kill -KILL "$c1"
wait_ready $ready
ok $? "the program's event was enabled after the death"
wait $p1
is $? 0 "the program recorded"
wait_pid_exit "$c1"
c2=$(the_consumer)
grep -q "died while it created trace" "$SESSIOND_LOG"
ok $? "the daemon says the consumer died while it created the trace"

# 2. the last FLUSH_CHANNEL of a closing per-PID trace in flight
ust_app_bg -w "$TEST_TMP/ready" -e "$TEST_TIMEOUT" -s "$TEST_TMP/go" -t $T -n $N -r closed
p2=$BG_PID
wait_ready $ready
kill -STOP "$c2"
echo go >&$go
wait $p2
is $? 0 "the second program recorded (its consumer stopped: some are discarded)"
wait_request "$c2"
ok $? "its trace's last flush waits in the stopped consumer's socket"
kill -KILL "$c2"
c3=$(new_consumer "$c2")
ok $? "another consumer takes over (pid $c3)"

run lttctl stop s
is "$RC:$(grep -c -i consumer <<<"$ERR")" "0:0" "stop succeeds, no consumer error"
disc=$(lttctl list s | sed -n 's/^ *discarded events: \([0-9]*\)$/\1/p' | head -1)
bt "$TEST_TMP/s" "$TEST_TMP/s.out"
is "$?:$(grep -c -i error "$TEST_TMP/s.out.err")" "0:0" "the trace reads whole in babeltrace2"
rec1=$(grep ' ltt_test:seq: ' "$TEST_TMP/s.out" | grep -c 'role = "created"')
rec2=$(grep ' ltt_test:seq: ' "$TEST_TMP/s.out" | grep -c 'role = "closed"')
diag "recorded $rec1 + $rec2, discarded $disc"
is "$((rec1 + rec2 + disc))" $((2 * T * N)) \
	"recorded ($rec1 + $rec2) + discarded ($disc) = committed"
ok "$([ "$rec1" -gt 0 ] && [ "$rec2" -gt 0 ]; echo $?)" "both programs' events are in the trace"
is "$(awk '/ ltt_test:seq: / { match($0, /role = "[a-z]+"/); r = substr($0, RSTART, RLENGTH)
	match($0, /thread = [0-9]+/); t = substr($0, RSTART, RLENGTH)
	match($0, /seq = [0-9]+/); if (seen[r, t, substr($0, RSTART, RLENGTH)]++) d++ }
	END { print d + 0 }' "$TEST_TMP/s.out")" 0 "no event written twice"
is "$(ls "$TEST_TMP/s/ust/pid" | wc -l)" 2 "one trace directory per program"
ok "$(grep -c 'taken over by the new consumer daemon' "$SESSIOND_LOG" | awk '{ print ($1 >= 2) ? 0 : 1 }')" \
	"the daemon's log says each takeover"
lttctl -q destroy s
done_testing
