#!/bin/bash
# throughput.sh - trace data moved per second, and events lost, through
# the real session daemon and consumer, to local files or through a relay
# daemon on loopback.
#
#   bench/throughput.sh [BUILD_DIR] [RUNS] [EVENTS] [THREADS]
#
# Defaults: ., 5 runs, 2000000 events per thread, 1 thread.  MODE=local
# (default) writes the trace to files; MODE=relay starts ltt-relayd on
# 127.0.0.1 (ports chosen by the kernel, read from its port files) and
# creates the sessions with --set-url net://127.0.0.1:CTRL:DATA; MODE=both
# does both, runs interleaved.  CHANNEL="..." (enable-channel options)
# replaces the default channel.  Each run: a fresh session, bench/ust_flood
# writing flat out, then lttctl stop, which returns once the trace is
# complete (on disk, or at the relay).  Printed per run:
#
#   written     events the program wrote (its own count)
#   recorded    events in the trace (babeltrace2)
#   lost        written - recorded
#   wr_ns/ev    the writer's ns per event
#   wall_ms     from the program's start to stop's return
#   MB/s        trace bytes (the stream files, packets whole) / wall time
#   ev/s        recorded events / wall time
#   ev_MB/s     the events' own bytes (20 each) / wall time
#
# A warm-up event before each run creates the per-UID buffers and the
# consumer (and the relay connection), as in bench/lost.sh.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-5}
EVENTS=${3:-2000000}
THREADS=${4:-1}
MODE=${MODE:-local}

command -v babeltrace2 > /dev/null || { echo "$0: needs babeltrace2" >&2; exit 2; }
case $MODE in
local) MODES=local ;;
relay) MODES=relay ;;
both) MODES="local relay" ;;
*) echo "$0: MODE is local, relay or both, not '$MODE'" >&2; exit 2 ;;
esac

RELAYD=$B/src/relayd/ltt-relayd
relay_start() {
	local i
	if [ ! -x "$RELAYD" ]; then
		echo "$0: $RELAYD missing: the relay daemon is not built in this tree" >&2
		exit 2
	fi
	RELAY_OUT=$BENCH_TMP/relay
	"$RELAYD" -b -o "$RELAY_OUT" -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
		-L tcp://127.0.0.1:0 -p "$BENCH_TMP/relayd.pid" ||
		{ echo "$0: ltt-relayd did not start" >&2; exit 1; }
	for i in $(seq 200); do
		[ -s "$LTT_RUNDIR/relayd-data.port" ] && [ -s "$LTT_RUNDIR/relayd-control.port" ] && break
		sleep 0.05
	done
	CTRL_PORT=$(cat "$LTT_RUNDIR/relayd-control.port" 2>/dev/null)
	DATA_PORT=$(cat "$LTT_RUNDIR/relayd-data.port" 2>/dev/null)
	[ -n "$CTRL_PORT" ] && [ -n "$DATA_PORT" ] ||
		{ echo "$0: no port files from ltt-relayd in $LTT_RUNDIR" >&2; exit 1; }
}

relay_stop() {
	[ -f "$BENCH_TMP/relayd.pid" ] && kill "$(cat "$BENCH_TMP/relayd.pid")" 2>/dev/null
	rm -f "$BENCH_TMP/relayd.pid"
}
trap 'relay_stop; bench_cleanup' EXIT

daemon_start
case " $MODES " in *" relay "*) relay_start ;; esac

# one_run MODE N: one session, one program, the figures on one line
one_run() {
	local mode=$1 run=$2 name="tp$2" out line t0 t1 written nspe recorded bytes dir
	if [ "$mode" = relay ]; then
		ctl create "$name" --set-url "net://127.0.0.1:$CTRL_PORT:$DATA_PORT" || return 1
	else
		ctl create "$name" -o "$BENCH_TMP/trace-$run" || return 1
	fi
	# shellcheck disable=SC2086
	[ -n "${CHANNEL:-}" ] && ctl enable-channel -u channel0 $CHANNEL
	ctl enable-event -u 'bench:flood' || return 1
	if ! ctl start; then
		echo "$0: the $mode session could not start (above); stopping" >&2
		exit 1
	fi
	"$FLOOD" -n 1 -t 1 > /dev/null
	t0=$(now_us)
	line=$("$FLOOD" -n "$EVENTS" -t "$THREADS")
	ctl stop
	t1=$(now_us)
	ctl destroy "$name"
	if [ "$mode" = relay ]; then
		# OUTDIR/HOSTNAME/SESSION-DATE/...: this session's directory
		dir=$(find "$RELAY_OUT" -mindepth 2 -maxdepth 2 -type d -name "$name-*" | head -1)
	else
		dir=$BENCH_TMP/trace-$run
	fi
	[ -n "$dir" ] && [ -d "$dir" ] || { echo "$0: run $run: no trace directory" >&2; return 1; }
	written=$(( $(echo "$line" | awk '{ print $2 }') + 1 ))
	nspe=$(echo "$line" | awk '{ print $6 }')
	recorded=$(babeltrace2 "$dir" 2> /dev/null | wc -l)
	bytes=$(find "$dir" -path '*/index' -prune -o -type f -name 'channel0_*' -printf '%s\n' |
		awk '{ s += $1 } END { print s + 0 }')
	awk -v m="$mode" -v w="$written" -v r="$recorded" -v ns="$nspe" -v us=$((t1 - t0)) \
		-v b="$bytes" 'BEGIN {
		printf "%-6s %10d %10d %9d %8.1f %8.1f %8.1f %10.0f %8.1f\n", m, w, r, w - r, ns,
			us / 1000, b / us, r * 1e6 / us, r * 20 / us }'
	rm -rf "$dir"
}

printf '%-6s %10s %10s %9s %8s %8s %8s %10s %8s\n' mode written recorded lost wr_ns/ev \
	wall_ms MB/s ev/s ev_MB/s
run=0
for i in $(seq "$RUNS"); do
	for m in $MODES; do
		run=$((run + 1))
		one_run "$m" "$run"
	done
done
