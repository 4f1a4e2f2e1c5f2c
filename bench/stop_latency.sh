#!/bin/bash
# stop_latency.sh - how long `lttctl stop` takes once a program has
# written data: the session daemon flushes every stream, the consumer
# writes out what the buffers hold, and stop returns when the trace is
# complete on disk (readable at once).
#
#   bench/stop_latency.sh [BUILD_DIR] [RUNS] [EVENTS]
#
# Defaults: ., 21 runs, 20000 events (400 KB: the default channel holds
# it all, so the consumer has that much to write at stop).  Each run:
# start, bench/ust_flood -n EVENTS (it exits), then stop, timed from the
# shell (lttctl's own start-up included).  For reference, the same for a
# session that recorded nothing.  Prints the median, the mean and the
# worst, in ms.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-21}
EVENTS=${3:-20000}

stop_times() {
	local with_app=$1 i t0 t1

	for i in $(seq "$RUNS"); do
		ctl start
		[ "$with_app" = 1 ] && "$FLOOD" -n "$EVENTS" -t 1 > /dev/null
		t0=${EPOCHREALTIME/[.,]/}
		ctl stop 2> "$BENCH_TMP/stop.err"
		t1=${EPOCHREALTIME/[.,]/}
		# the discard warnings of a run that overflowed: expected
		grep -v '^Warning: channel' "$BENCH_TMP/stop.err" >&2
		echo $((t1 - t0))
	done | sort -n | awk '{ v[NR] = $1; s += $1 }
		END { printf "median %7.3f ms  mean %7.3f ms  worst %7.3f ms\n",
		      (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1000,
		      s / NR / 1000, v[NR] / 1000 }'
}

daemon_start
echo "lttctl stop, $RUNS runs ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
ctl create idle -o "$BENCH_TMP/idle"
ctl enable-event -u 'bench:flood'
printf '%-28s %s\n' "nothing recorded:" "$(stop_times 0)"
ctl destroy idle
ctl create written -o "$BENCH_TMP/written"
ctl enable-event -u 'bench:flood'
printf '%-28s %s\n' "after $EVENTS events:" "$(stop_times 1)"
echo "events in the trace: $(babeltrace2 "$BENCH_TMP/written" 2> /dev/null | wc -l)" \
	"(expected $((RUNS * EVENTS)))"
