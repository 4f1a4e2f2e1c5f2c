#!/bin/bash
# lttng_threads.sh - ns/event and loss with 1 to many writer threads,
# ltt beside LTTng, in one run.  Run by hand only: it needs LTTng from the
# distribution (apt-get install lttng-tools liblttng-ust-dev babeltrace2),
# as bench/lttng_compare.sh does, whose one-thread figures this extends to
# many cores (issue 60's 16-core table).
#
#   bench/lttng_threads.sh [BUILD_DIR] [RUNS] [EVENTS] [THREADS]
#
# Defaults: ., 5 runs, 1000000 events per thread, THREADS "1 16" (a list,
# spaces or commas).  The event: one int and an 11-character string, the
# same loop in both programs (bench/flood-harness.h: bench/ust_flood for
# ltt, bench/lttng/flood_lttng for LTTng).  For each number of threads,
# each tracer gets a fresh started session with one user-space channel,
# per CPU, of CHANNEL's geometry (default "--subbuf-size 4M --num-subbuf
# 8"; CHANNEL= records into each tracer's default channel instead), then
# RUNS rounds each run ltt's program and LTTng's in turn, so that a load
# that changes during the series weighs on both alike.  After the rounds
# both sessions stop (each stop returns once its trace is complete) and
# babeltrace2's counter counts the events in each trace.
#
# Printed, one line per tracer and number of threads:
#   ns/ev     per thread, as the program measures its slowest thread
#             (median of the RUNS runs, then the best)
#   Mev/s     events per second of all threads together, from the median
#   written   events the programs wrote (the warm-up event included)
#   recorded  events in the trace
#   lost      written - recorded: discard mode drops what a full buffer
#             cannot take and counts it in the packet headers
# and the ratio ltt / LTTng of the medians and of the bests.  LTTng's
# session daemon runs as the current user (root: the system-wide one, with
# --no-kernel): run this in a mount namespace with a /run of its own when
# another LTTng daemon may be running.  LTTNG_CONSUMERD and
# LTTNG_FLOOD_BUILT: bench-lib.sh's lttng_start_daemon and lttng_setup.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-5}
EVENTS=${3:-1000000}
THREADS=$(thread_counts "${4:-1 16}") || exit 2
CHANNEL=${CHANNEL-"--subbuf-size 4M --num-subbuf 8"}
lttng_setup lttng lttng-sessiond babeltrace2
trap 'lttng_stop_daemon; bench_cleanup' EXIT
read -r -a chan <<< "$CHANNEL"

# count_events TRACE: the events in TRACE
count_events() {
	babeltrace2 "$1" -c sink.utils.counter -p step=+0 2> /dev/null |
		awk '/ Event messages$/ { n = $1 } END { print n }'
}
# best: the lowest of the numbers on stdin, one a line
best() { sort -n | head -1; }

echo "one int + an 11-character string, $RUNS runs of $EVENTS events a thread," \
	"channel: ${CHANNEL:-the default}"
echo "$(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), clocksource" \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null || echo unknown)," \
	"load $(cut -d' ' -f1 /proc/loadavg)"
daemon_start
lttng_start_daemon
printf '%-7s %-6s %9s %8s %9s %12s %12s %10s\n' threads tracer ns/ev best Mev/s written recorded lost
for t in $THREADS; do
	rm -rf "$BENCH_TMP/ltt-trace" "$BENCH_TMP/lttng-trace"
	ctl create thr -o "$BENCH_TMP/ltt-trace"
	lttng -q create thr --output="$BENCH_TMP/lttng-trace"
	if [ -n "$CHANNEL" ]; then
		ctl enable-channel -u channel0 "${chan[@]}"
		ctl enable-event -u bench:flood -c channel0
		lttng -q enable-channel -u channel0 "${chan[@]}"
		lttng -q enable-event -u bench_lttng:flood -c channel0
	else
		ctl enable-event -u bench:flood
		lttng -q enable-event -u bench_lttng:flood
	fi
	ctl start
	lttng -q start
	# the per-UID buffers made and the consumers started before timing
	"$FLOOD" -n 1 > /dev/null
	"$LTTNG_FLOOD" -n 1 > /dev/null
	: > "$BENCH_TMP/ltt.ns"
	: > "$BENCH_TMP/lttng.ns"
	for i in $(seq "$RUNS"); do
		"$FLOOD" -n "$EVENTS" -t "$t" | awk '{ print $6 }' >> "$BENCH_TMP/ltt.ns"
		"$LTTNG_FLOOD" -n "$EVENTS" -t "$t" | awk '{ print $6 }' >> "$BENCH_TMP/lttng.ns"
	done
	ctl stop
	lttng -q stop
	written=$((RUNS * EVENTS * t + 1))
	for tr in ltt lttng; do
		m=$(median < "$BENCH_TMP/$tr.ns")
		b=$(best < "$BENCH_TMP/$tr.ns")
		rec=$(count_events "$BENCH_TMP/$tr-trace")
		printf '%-7s %-6s %9s %8s %9.1f %12s %12s %10s\n' "$t" "$tr" "$m" "$b" \
			"$(awk -v t="$t" -v m="$m" 'BEGIN { print (m > 0) ? t * 1000 / m : 0 }')" \
			"$written" "${rec:-?}" "$((written - ${rec:-0}))"
		eval "${tr}_m=\$m ${tr}_b=\$b"
	done
	awk -v a="$ltt_m" -v b="$lttng_m" -v ab="$ltt_b" -v bb="$lttng_b" -v t="$t" \
		'BEGIN { if (b > 0 && bb > 0) printf "%-7s ltt / LTTng: %.2f (best runs: %.2f)\n", t, a / b, ab / bb }'
	ctl destroy thr
	lttng -q destroy thr
done
