#!/bin/bash
# startup.sh - what libltt-ust adds to a program's start-up.
#
#   bench/startup.sh [BUILD_DIR] [RUNS]      (default: ., 200 runs per case)
#
# Runs a trivial program (bench/ust_flood -n 0: main() returns at once)
# RUNS times per case and prints the median and mean wall time, and the
# median's excess over the same program built without tracing
# (bench/ust_flood_plain).  Cases:
#
#   plain            no libltt-ust at all
#   no daemon        linked with libltt-ust, no session daemon listening
#   idle daemon      a session daemon, no session
#   active session   a started session recording the program's event
#                    (registration waits for the daemon to set it up)
#
# Every run is a fresh process: fork, exec, dynamic linking, the
# library's constructors, registration, exit.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-200}

report() {
	local name=$1 med mean
	shift
	read -r med mean < <(time_runs "$RUNS" "$@")
	[ -z "${BASE:-}" ] && BASE=$med
	printf '%-16s median %7.3f ms  mean %7.3f ms  extra %+7.3f ms\n' "$name" "$med" "$mean" \
		"$(awk -v a="$med" -v b="$BASE" 'BEGIN { print a - b }')"
}

echo "start-up, $RUNS runs per case ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
BASE=
report plain "$PLAIN" -n 0
report "no daemon" "$FLOOD" -n 0
daemon_start
report "idle daemon" "$FLOOD" -n 0
ctl create startup -o "$BENCH_TMP/trace"
ctl enable-event -u 'bench:flood'
ctl start
report "active session" "$FLOOD" -n 0
ctl stop
