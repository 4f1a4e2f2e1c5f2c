#!/bin/bash
# test_sessiond_idle_timer.sh - a daemon with no session sleeps: no timer
# of its threads is armed (the rotation scheduler's 50 ms tick, which
# rotates, settles and watches sessions, stops when it finds none:
# src/sessiond/chunk/chunk-sched.h), so a daemon left running on a host
# wakes nobody; a session made starts the tick again, and the last one
# destroyed stops it.  Timers read from /proc (timerfd's it_value), waited
# for without sleeping, bounded.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

test_init
plan 6

start_sessiond "$LTT_RUNDIR" --no-kernel ||
	{ echo "Bail out! the session daemon did not start"; exit 1; }
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
like "$(armed_until "$spid" +)" '^[1-9]' "a session made: the rotation scheduler's tick runs again"
ok_cmd "destroy" lttctl destroy s
is "$(armed_until "$spid" 0)" 0 "the last session destroyed: no timer armed again"
done_testing
