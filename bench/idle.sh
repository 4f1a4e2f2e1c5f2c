#!/bin/bash
# idle.sh - what a session daemon left running costs when nobody traces:
# its wake-ups a second (the voluntary context switches of all its
# threads, and its helpers', over SECONDS, read from /proc) and its CPU
# time, ltt beside LTTng, as root.  Two states each: no session, and one
# session created (not started).  Run by hand only, in a mount namespace
# with a /run of its own, since LTTng's root session daemon is the
# system-wide one:
#
#   unshare -m sh -c 'mount -t tmpfs none /run && bench/idle.sh build 5'
#
#   bench/idle.sh [BUILD_DIR] [SECONDS]      (default: ., 5)
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
SECS=${2:-5}
case $SECS in '' | *[!0-9]* | 0) echo "$0: SECONDS is a number from 1, not '$SECS'" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "$0: needs root (LTTng's daemon)" >&2; exit 2; }
lttng_setup lttng lttng-sessiond
trap 'lttng_stop_daemon; bench_cleanup' EXIT

# switches PID...: voluntary context switches of every thread of each PID
switches() {
	local p t s=0
	for p in "$@"; do
		for t in /proc/"$p"/task/*; do
			s=$((s + $(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status" 2>/dev/null || echo 0)))
		done
	done
	echo "$s"
}
# cputicks PID...: user + system clock ticks of each PID, all threads
cputicks() {
	local p s=0
	for p in "$@"; do
		s=$((s + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
	done
	echo "$s"
}
# measure NAME PID...: wake-ups a second and CPU ms a second over SECS
measure() {
	local name=$1 w0 c0 w1 c1
	shift
	w0=$(switches "$@") c0=$(cputicks "$@")
	sleep "$SECS"
	w1=$(switches "$@") c1=$(cputicks "$@")
	awk -v n="$name" -v w=$((w1 - w0)) -v c=$((c1 - c0)) -v s="$SECS" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%-28s %8.1f wake-ups/s %8.2f ms CPU/s\n", n, w / s, c * 1000 / hz / s }'
}

echo "idle daemons, $SECS s each ($(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown))"
daemon_start
sleep 1	# past its start-up's own work
ltt=$(cat "$LTT_RUNDIR/sessiond.pid")
helpers() { pgrep -P "$1" | tr '\n' ' '; }
# shellcheck disable=SC2046 # the pids, one a word
measure "ltt, no session" "$ltt" $(helpers "$ltt")
ctl create idle -o "$BENCH_TMP/ltt-trace"
# shellcheck disable=SC2046
measure "ltt, one session" "$ltt" $(helpers "$ltt")
lttng_start_daemon
sleep 1
lttng=$(cat "$LTTNG_PIDFILE")
# shellcheck disable=SC2046
measure "LTTng, no session" "$lttng" $(helpers "$lttng")
lttng -q create idle --output="$BENCH_TMP/lttng-trace"
# shellcheck disable=SC2046
measure "LTTng, one session" "$lttng" $(helpers "$lttng")
