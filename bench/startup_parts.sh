#!/bin/bash
# startup_parts.sh - where an instrumented program's start-up goes, part
# by part, with an active session recording its event (issue 60).
#
#   bench/startup_parts.sh [BUILD_DIR] [RUNS]      (default: ., 21)
#
# Runs bench/ust_flood -n 0 (main() returns at once) RUNS times under
# `perf trace` (root; tracepoints only, no performance counter needed),
# without and with the statedump (lttng_ust_statedump:* enabled), and
# prints the median of each part, in ms, cut at the system calls that
# bound it:
#
#   loader+ctor   execve -> the connect() to app.sock (dynamic loading,
#                 libltt-ust's constructor, which connects before it
#                 encodes its own descriptions)
#   send          connect -> REGISTER and TRACEPOINTS sent in one write
#                 (the descriptions encoded, the program's module
#                 registered)
#   thread        that write -> the comm thread's clone3 (the thread
#                 starts while the daemon works)
#   answer        that write -> the daemon's REGISTER_OK, then its next
#                 command (the channel and its streams) read: the one
#                 round trip
#   mapping       the first stream's seals check -> the last stream's
#                 writer block locked (fstat, mmap, the OFD lock)
#   rest          -> the constructor woken: the event's rule,
#                 REGISTER_DONE, and the statedump when enabled
#   exit          the constructor woken -> exit_group (main() and exit()'s
#                 grace periods)
#
# perf trace adds some 15-30 us to each traced system call, and more to a
# new thread's start (its "thread" part, 1.5 to 4.6 ms here, is mostly
# perf's), so the parts are longer than without it; the whole start,
# untraced, is bench/startup.sh's.  The statedump's own system calls are
# not traced: "rest" with it less "rest" without is close to its cost.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-21}
command -v perf > /dev/null || { echo "$0: needs perf (perf trace)" >&2; exit 2; }
trap 'daemon_stop; bench_cleanup' EXIT

# parts: one line of the parts' ms from one perf trace of the program
parts() {
	perf trace -e execve,clone3,connect,sendto,sendmsg,recvmsg,fcntl,futex,exit_group \
		-- "$FLOOD" -n 0 2>&1 | awk '
	/ execve\(/ && !x { x = $1 }
	/ clone3\(/ && !c { c = $1 }
	/ connect\(/ && !k { k = $1 }
	/ sendto\(.*len: [0-9][0-9][0-9][0-9]*,/ && k && !s2 { s2 = $1 }
	/ recvmsg\(/ && r1 && $1 > r1 && !r2 { r2 = $1 }
	/ recvmsg\(/ && s2 && $1 > s2 && !r1 { r1 = $1 }
	/GET_SEALS/ && !m0 { m0 = $1 }
	/ fcntl\(.*cmd: 37,/ { m1 = $1 }
	/ futex\(.*WAKE.*val: 2147483647\) *= 1/ { w = $1 }
	/ exit_group\(/ { e = $1 }
	END {
		if (!(x && c && k && r2 && m1 && w && e)) exit 1
		printf "%.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", k - x, s2 - k, c - s2, r2 - s2,
			m1 - m0, w - m1, e - w
	}'
}

# series NAME: RUNS traced starts, the median of each part
series() {
	local i out=$BENCH_TMP/parts
	: > "$out"
	"$FLOOD" -n 0 > /dev/null 2>&1
	for i in $(seq "$RUNS"); do
		parts >> "$out" || true
	done
	awk -v name="$1" '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; n = NR; f = NF }
	END {
		printf "%-14s", name
		for (i = 1; i <= f; i++) {
			m = 0
			for (j = 1; j <= n; j++) a[j] = v[i, j]
			# insertion sort, n is small
			for (j = 2; j <= n; j++) { t = a[j]; for (l = j - 1; l >= 1 && a[l] > t; l--) a[l + 1] = a[l]; a[l + 1] = t }
			m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			printf " %9.3f", m
		}
		printf "   (%d runs)\n", n
	}' "$out"
}

echo "start-up parts, ms, median of $RUNS starts under perf trace ($(nproc) CPUs," \
	"load $(cut -d' ' -f1 /proc/loadavg), clocksource" \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null))"
printf '%-14s %9s %9s %9s %9s %9s %9s %9s\n' case loader+ctor send "thread" \
	answer mapping rest exit
daemon_start
ctl create parts -o "$BENCH_TMP/trace"
ctl enable-event -u 'bench:flood'
ctl start
series "session"
ctl stop
ctl destroy parts
ctl create dump -o "$BENCH_TMP/trace-dump"
ctl enable-event -u 'bench:flood'
ctl enable-event -u 'lttng_ust_statedump:*'
ctl start
series "with statedump"
ctl stop
