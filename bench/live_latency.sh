#!/bin/bash
# live_latency.sh - live latency, event recorded -> printed by babeltrace2,
# through the real chain: ltt-sessiond and its consumer stream a live
# session to ltt-relayd on loopback, babeltrace2's lttng-live source
# prints it.
#
#   bench/live_latency.sh [BUILD_DIR] [RUNS] [EVENTS]
#
# Defaults: ., 2 runs per timer, 200 events per run.  TIMERS="1000000
# 100000 10000" (live timers in µs), RETRY=1000 (babeltrace2's
# --retry-duration in µs: how long it waits before asking again when every
# stream answered "nothing new"; its default, 100000, adds up to 100 ms).
# GAP="10000 90000": the program's pause before each event, drawn in this
# range (µs), so that events fall at every phase of the live timer.
#
# Each run: a fresh live session, one babeltrace2 attached before the
# program (bench/live_emit) starts; each event carries the CLOCK_REALTIME
# at which it was recorded, and a reader stamps each line babeltrace2
# prints with the CLOCK_REALTIME of its arrival (bash's EPOCHREALTIME, the
# line read from a pipe: babeltrace2 runs under stdbuf -oL).  Latency =
# arrival - recorded.  Printed per run and over all the runs of a timer:
# p50, p90, p99 and max in ms, and the goal (timer / 2 + 20 ms).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-2}
EVENTS=${3:-200}
TIMERS=${TIMERS:-"1000000 100000 10000"}
RETRY=${RETRY:-1000}
read -r GAP_LO GAP_HI <<< "${GAP:-10000 90000}"
RELAYD=$B/src/relayd/ltt-relayd
EMIT=$B/bench/live_emit

command -v babeltrace2 > /dev/null || { echo "$0: needs babeltrace2" >&2; exit 2; }
for f in "$RELAYD" "$EMIT"; do
	[ -x "$f" ] || { echo "$0: $f missing: build the tree (make) in $B first" >&2; exit 2; }
done

relay_stop() {
	[ -f "$BENCH_TMP/relayd.pid" ] && kill "$(cat "$BENCH_TMP/relayd.pid")" 2>/dev/null
	rm -f "$BENCH_TMP/relayd.pid"
}
# KEEP=1 keeps the viewers' output (arrival time, line) for a look.
keep() {
	[ "${KEEP:-0}" = 1 ] || return 0
	mkdir -p "$BENCH_TMP.kept" && cp "$BENCH_TMP"/view-* "$BENCH_TMP.kept/" &&
		echo "kept the viewers' output in $BENCH_TMP.kept" >&2
}
trap 'relay_stop; keep; bench_cleanup' EXIT

daemon_start
# -b returns once the ports listen and their files are written.
"$RELAYD" -b -o "$BENCH_TMP/relay" -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
	-L tcp://127.0.0.1:0 -p "$BENCH_TMP/relayd.pid" ||
	{ echo "$0: ltt-relayd did not start" >&2; exit 1; }
CTRL=$(cat "$LTT_RUNDIR/relayd-control.port")
DATA=$(cat "$LTT_RUNDIR/relayd-data.port")
LIVE=$(cat "$LTT_RUNDIR/relayd-live.port")
HOST=$(hostname)

# stamp: each line of stdin, prefixed with its arrival time (µs).
stamp() {
	local line
	while IFS= read -r line; do
		printf '%s %s\n' "${EPOCHREALTIME/[.,]/}" "$line"
	done
}

# latencies FILE: one latency (ms) per bench:stamp line of FILE.
latencies() {
	sed -n 's/^\([0-9]*\) .* bench:stamp: .* t = \([0-9]*\) }$/\1 \2/p' "$1" |
		awk '{ printf "%.3f\n", ($1 * 1000 - $2) / 1e6 }'
}

# pct: "p50 p90 p99 max n" of the numbers on stdin.
pct() {
	sort -n | awk '{ v[NR] = $1 }
		function p(q,   i) { i = int(q * NR + 0.999999); if (i < 1) i = 1; return v[i] }
		END { if (NR) printf "%.1f %.1f %.1f %.1f %d", p(0.5), p(0.9), p(0.99), v[NR], NR }'
}

# wait_lines FILE N SECONDS: until FILE holds N bench:stamp lines.
wait_lines() {
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		[ "$(grep -c ' bench:stamp: ' "$1" 2>/dev/null)" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

# one_run TIMER RUN: one session, one viewer, one program; prints the
# figures and leaves the latencies in $BENCH_TMP/lat-TIMER.
one_run() {
	local timer=$1 run=$2 s="lat${1}_$2" out="$BENCH_TMP/view-$1-$2" vpid i
	ctl create "$s" --live="$timer" --set-url "net://127.0.0.1:$CTRL:$DATA" &&
		ctl enable-event -u bench:stamp -s "$s" && ctl start "$s" || return 1
	stdbuf -oL babeltrace2 --retry-duration="$RETRY" -i lttng-live \
		"net://127.0.0.1:$LIVE/host/$HOST/$s" 2> "$out.err" | stamp > "$out" &
	vpid=$!
	for ((i = 0; i < 200; i++)); do
		babeltrace2 query src.ctf.lttng-live sessions -p "url=\"net://127.0.0.1:$LIVE\"" 2> /dev/null |
			grep -B2 "session-name: $s\$" | grep -q "client-count: 1" && break
		sleep 0.05
	done
	"$EMIT" -n "$EVENTS" -a "$GAP_LO" -b "$GAP_HI" -s "$run" > /dev/null
	wait_lines "$out" "$EVENTS" $((timer / 1000000 + 10)) ||
		{ echo "run $run: only $(grep -c ' bench:stamp: ' "$out") of $EVENTS events printed";
		  tail -n 5 "$out.err"; } >&2
	ctl destroy "$s"
	wait "$vpid"
	latencies "$out" | tee -a "$BENCH_TMP/lat-$timer" | pct
}

printf '%-9s %-5s %8s %8s %8s %8s %6s %8s\n' timer run p50_ms p90_ms p99_ms max_ms n goal_ms
for timer in $TIMERS; do
	goal=$(awk -v t="$timer" 'BEGIN { printf "%.0f", t / 2000 + 20 }')
	: > "$BENCH_TMP/lat-$timer"
	for ((r = 1; r <= RUNS; r++)); do
		read -r p50 p90 p99 max n <<< "$(one_run "$timer" "$r")"
		printf '%-9s %-5s %8s %8s %8s %8s %6s %8s\n' "${timer}us" "$r" "$p50" "$p90" "$p99" "$max" "$n" "$goal"
	done
	read -r p50 p90 p99 max n <<< "$(pct < "$BENCH_TMP/lat-$timer")"
	printf '%-9s %-5s %8s %8s %8s %8s %6s %8s\n' "${timer}us" all "$p50" "$p90" "$p99" "$max" "$n" "$goal"
done
echo "babeltrace2 --retry-duration=$RETRY; gaps $GAP_LO-$GAP_HI us; load: $(cut -d' ' -f1-3 /proc/loadavg)"
