#!/bin/bash
# test_sessiond_idle_timer.sh - a daemon whose sessions need nothing of
# it sleeps: no timer of its threads is armed.  The rotation scheduler's
# 50 ms tick (src/sessiond/chunk/chunk-sched.h) runs only while a session
# needs it: a rotation schedule while it runs, a trigger watching a
# buffer's usage or a session's size, work owed to a stalled consumer
# (test_ust_pid_stalled.sh, test_rotation_owner_stalled.sh); each of
# those wakes the scheduler (ltt_session_wake()).  So a daemon left
# running on a host wakes nobody, with or without a session.  Timers read
# from /proc (timerfd's it_value), waited for without sleeping, bounded.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

test_init
plan 15

sessiond_or_bail "$LTT_RUNDIR" --no-kernel
spid=$(sessiond_pid)

# armed_until PID N: wait (bounded, without sleeping) until N of PID's
# timerfds are armed ("+" for one or more); then print how many are
armed_until() {
	timeout "$TEST_TIMEOUT" bash -c '
	armed() {
		local n=0 fd
		for fd in /proc/$1/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:[timerfd]" ] || continue
			grep -q "^it_value: (0, 0)" "/proc/$1/fdinfo/${fd##*/}" 2>/dev/null || n=$((n + 1))
		done
		echo $n
	}
	until n=$(armed "$1"); [ "$2" = + ] && [ "$n" -gt 0 ] || [ "$n" = "$2" ]; do :; done
	echo "$n"' bash "$1" "$2"
}

timers=$(ls -l "/proc/$spid/fd" | grep -c 'anon_inode:\[timerfd\]')
ok "$([ "$timers" -gt 0 ]; echo $?)" "the daemon's event loops hold timerfds ($timers)"
is "$(armed_until "$spid" 0)" 0 "no session: no timer armed (the daemon sleeps)"
ok_cmd "create" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-channel -u c -s s
lttctl -q enable-event -u -a -c c -s s
is "$(armed_until "$spid" 0)" 0 "a session that needs no tick: none armed"
ok_cmd "enable-rotation --timer" lttctl enable-rotation -s s --timer 60000000
ok_cmd "start" lttctl start s
like "$(armed_until "$spid" +)" '^[1-9]' "started with a rotation schedule: the tick runs"
ok_cmd "disable-rotation --timer" lttctl disable-rotation -s s --timer
is "$(armed_until "$spid" 0)" 0 "no schedule any more: the tick stops"
ok_cmd "add a buffer usage trigger" lttctl add-trigger --name low \
	--condition=channel-buffer-usage-le --session=s --channel=c -u --threshold-ratio=0.5 \
	--action=notify
like "$(armed_until "$spid" +)" '^[1-9]' "a trigger watching the session's buffers: the tick runs"
ok_cmd "remove the trigger" lttctl remove-trigger low
is "$(armed_until "$spid" 0)" 0 "no trigger any more: the tick stops"
ok_cmd "destroy" lttctl destroy s
is "$(armed_until "$spid" 0)" 0 "the last session destroyed: no timer armed"
done_testing
