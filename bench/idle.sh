#!/bin/bash
# idle.sh - what a session daemon left running costs when nobody traces:
# its wake-ups a second (the context switches of all its threads, and
# its helpers', over SECONDS, counted by perf stat) and its CPU time, ltt
# beside LTTng, as root.  Two states each: no session, and one
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
command -v perf >/dev/null || { echo "$0: needs perf (linux-perf): its software counters" >&2; exit 2; }
trap 'lttng_stop_daemon; bench_cleanup' EXIT

# measure NAME PID...: wake-ups a second (the context switches of every
# thread of each PID, those that end meanwhile included: perf stat's
# software counter) and CPU ms a second (the task clock), over SECS
measure() {
	local name=$1 pids
	shift
	pids=$(echo "$@" | tr ' ' ',')
	perf stat -x, -e context-switches,task-clock -p "$pids" -- sleep "$SECS" 2>&1 >/dev/null |
		awk -F, -v n="$name" -v s="$SECS" '
		$3 == "context-switches" { w = $1 } $3 == "task-clock" { c = $1 }
		END { printf "%-28s %8.1f wake-ups/s %8.2f ms CPU/s\n", n, w / s, c / s }'
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
