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
#
# TRACERS="ltt lttng" measures Debian's LTTng beside ltt, in the same run
# and with the same viewer options: lttng-sessiond and lttng-relayd (run
# as nobody, so that their LTTNG_HOME is this run's and a root session
# daemon elsewhere is left alone) and bench/live_emit.c built here for
# LTTng-UST (-DLIVE_EMIT_LTTNG, bench/lttng/live_tp.h, -llttng-ust).  For figures
# comparable with LTTng's own viewer default, RETRY=100000.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-2}
EVENTS=${3:-200}
TIMERS=${TIMERS:-"1000000 100000 10000"}
RETRY=${RETRY:-1000}
read -r GAP_LO GAP_HI <<< "${GAP:-10000 90000}"
TRACERS=${TRACERS:-ltt}
RELAYD=$B/src/relayd/ltt-relayd
EMIT=$B/bench/live_emit
SRC=$(cd "$(dirname "$0")" && pwd)/lttng

command -v babeltrace2 > /dev/null || { echo "$0: needs babeltrace2" >&2; exit 2; }
for f in "$RELAYD" "$EMIT"; do
	[ -x "$f" ] || { echo "$0: $f missing: build the tree (make) in $B first" >&2; exit 2; }
done

relay_stop() {
	local f
	for f in "$BENCH_TMP/relayd.pid" "$BENCH_TMP/lttng/relayd.pid" "$BENCH_TMP/lttng/sessiond.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
		rm -f "$f"
	done
}
# KEEP=1 keeps the viewers' output (arrival time, line) for a look.
keep() {
	[ "${KEEP:-0}" = 1 ] || return 0
	mkdir -p "$BENCH_TMP.kept" && cp "$BENCH_TMP"/view-* "$BENCH_TMP.kept/" &&
		echo "kept the viewers' output in $BENCH_TMP.kept" >&2
}
trap 'relay_stop; keep; bench_cleanup' EXIT

# as_nobody CMD...: LTTng's side, as nobody with this run's LTTNG_HOME
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups env LTTNG_HOME="$BENCH_TMP/lttng" "$@"
}
if [[ " $TRACERS " == *" lttng "* ]]; then
	for t in lttng lttng-sessiond lttng-relayd setpriv gcc; do
		command -v $t > /dev/null || { echo "$0: TRACERS=lttng needs $t" >&2; exit 2; }
	done
	mkdir -p "$BENCH_TMP/lttng" && chmod 1777 "$BENCH_TMP" "$BENCH_TMP/lttng"
	LTTNG_EMIT=$BENCH_TMP/lttng/live_emit_lttng
	gcc -O2 -DLIVE_EMIT_LTTNG -I"$SRC" -o "$LTTNG_EMIT" "$SRC/../live_emit.c" -llttng-ust -ldl ||
		{ echo "$0: cannot build the LTTng program" >&2; exit 2; }
	# LTTng's relay takes no port 0: three ports of a range unlikely to be taken
	LT_BASE=$((30000 + RANDOM % 20000))
	LT_CTRL=$LT_BASE LT_DATA=$((LT_BASE + 1)) LT_LIVE=$((LT_BASE + 2))
	as_nobody lttng-sessiond --daemonize --no-kernel --pidfile="$BENCH_TMP/lttng/sessiond.pid" ||
		{ echo "$0: lttng-sessiond did not start" >&2; exit 1; }
	as_nobody lttng-relayd --daemonize -o "$BENCH_TMP/lttng/relay" \
		-C "tcp://127.0.0.1:$LT_CTRL" -D "tcp://127.0.0.1:$LT_DATA" -L "tcp://127.0.0.1:$LT_LIVE" ||
		{ echo "$0: lttng-relayd did not start" >&2; exit 1; }
	pgrep -u 65534 -x lttng-relayd > "$BENCH_TMP/lttng/relayd.pid"
fi

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

# one_run TRACER TIMER RUN: one session, one viewer, one program; prints
# the figures and leaves the latencies in $BENCH_TMP/lat-TRACER-TIMER.
one_run() {
	local tracer=$1 timer=$2 run=$3 s="lat${2}_$3" out="$BENCH_TMP/view-$1-$2-$3" vpid i live
	if [ "$tracer" = lttng ]; then
		live=$LT_LIVE
		as_nobody lttng -q create "$s" --live="$timer" \
			--set-url="net://127.0.0.1:$LT_CTRL:$LT_DATA" &&
			as_nobody lttng -q enable-event -u bench:stamp -s "$s" &&
			as_nobody lttng -q start "$s" || return 1
	else
		live=$LIVE
		ctl create "$s" --live="$timer" --set-url "net://127.0.0.1:$CTRL:$DATA" &&
			ctl enable-event -u bench:stamp -s "$s" && ctl start "$s" || return 1
	fi
	stdbuf -oL babeltrace2 --retry-duration="$RETRY" -i lttng-live \
		"net://127.0.0.1:$live/host/$HOST/$s" 2> "$out.err" | stamp > "$out" &
	vpid=$!
	for ((i = 0; i < 200; i++)); do
		babeltrace2 query src.ctf.lttng-live sessions -p "url=\"net://127.0.0.1:$live\"" 2> /dev/null |
			grep -B2 "session-name: $s\$" | grep -q "client-count: 1" && break
		sleep 0.05
	done
	if [ "$tracer" = lttng ]; then
		as_nobody "$LTTNG_EMIT" -n "$EVENTS" -a "$GAP_LO" -b "$GAP_HI" -s "$run" > /dev/null
	else
		"$EMIT" -n "$EVENTS" -a "$GAP_LO" -b "$GAP_HI" -s "$run" > /dev/null
	fi
	wait_lines "$out" "$EVENTS" $((timer / 1000000 + 10)) ||
		{ echo "$tracer run $run: only $(grep -c ' bench:stamp: ' "$out") of $EVENTS events printed";
		  tail -n 5 "$out.err"; } >&2
	if [ "$tracer" = lttng ]; then
		as_nobody lttng -q destroy "$s"
	else
		ctl destroy "$s"
	fi
	wait "$vpid"
	latencies "$out" | tee -a "$BENCH_TMP/lat-$tracer-$timer" | pct
}

printf '%-6s %-9s %-5s %8s %8s %8s %8s %6s %8s\n' tracer timer run p50_ms p90_ms p99_ms max_ms n goal_ms
for timer in $TIMERS; do
	goal=$(awk -v t="$timer" 'BEGIN { printf "%.0f", t / 2000 + 20 }')
	for tracer in $TRACERS; do
		: > "$BENCH_TMP/lat-$tracer-$timer"
	done
	# the tracers' runs alternate, so that a change of load falls on both
	for ((r = 1; r <= RUNS; r++)); do
		for tracer in $TRACERS; do
			read -r p50 p90 p99 max n <<< "$(one_run "$tracer" "$timer" "$r")"
			printf '%-6s %-9s %-5s %8s %8s %8s %8s %6s %8s\n' "$tracer" "${timer}us" "$r" \
				"$p50" "$p90" "$p99" "$max" "$n" "$goal"
		done
	done
	for tracer in $TRACERS; do
		read -r p50 p90 p99 max n <<< "$(pct < "$BENCH_TMP/lat-$tracer-$timer")"
		printf '%-6s %-9s %-5s %8s %8s %8s %8s %6s %8s\n' "$tracer" "${timer}us" all \
			"$p50" "$p90" "$p99" "$max" "$n" "$goal"
	done
done
echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)," \
	"$(nproc) CPUs; babeltrace2 --retry-duration=$RETRY; gaps $GAP_LO-$GAP_HI us; load: $(cut -d' ' -f1-3 /proc/loadavg)"
