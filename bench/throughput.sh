#!/bin/bash
# throughput.sh - trace data moved per second, and events lost, through
# the real session daemon and consumer, to local files or through a relay
# daemon on loopback.
#
#   bench/throughput.sh [BUILD_DIR] [RUNS] [EVENTS] [THREADS]
#
# Defaults: ., 5 runs, 2000000 events per thread, 1 thread.  THREADS may
# be a list ("1 2 4" or 1,2,4): each run then has one line per number of
# producer threads.  DATA_THREADS="1 4" (a list too) runs the consumer
# with each number of data threads in turn, alternated within each run
# (the session daemon is restarted with LTT_CONSUMERD_DATA_THREADS set,
# which its consumers inherit); unset, the consumer's default (one per
# CPU this script may run on, at most 16).  MODE=local
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
#   dthr        the consumer's data threads
#   prod        the program's (producer) threads
#   wall_ms     from the program's start to stop's return
#   MB/s        trace bytes (the stream files, packets whole) / wall time
#   MB/s/dthr   MB/s per data thread that moved the channel's packets:
#               local, min(dthr, configured CPUs) (a channel has no more
#               parts than CPUs); relay, 1 (a relayed channel runs on
#               data-0 alone, doc/consumerd.md "Placement")
#   ev/s        recorded events / wall time
#   ev_MB/s     the events' own bytes (20 each) / wall time
#
# A warm-up event before each run creates the per-UID buffers and the
# consumer (and the relay connection), as in bench/lost.sh.
#
# FORMATS="ctf-1.8 ctf-2" records each run in each trace format in turn
# (lttctl create -F; default ctf-1.8 alone), a column "fmt" saying which:
# the data path is the same, the figures should be too.  A CTF 2 trace is
# counted by babeltrace2 2.1, Debian sid's, in a root made by
# scripts/debian-root.sh (as the tests' root-lib.sh does; root only).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-5}
EVENTS=${3:-2000000}
THREADS=$(thread_counts "${4:-1}") || exit 2
DTHREADS=$(thread_counts "${DATA_THREADS:-}") || exit 2
MODE=${MODE:-local}
FORMATS=${FORMATS:-ctf-1.8}
for f in $FORMATS; do
	case $f in
	ctf-1.8 | ctf-2) ;;
	*) echo "$0: FORMATS holds ctf-1.8 and ctf-2, not '$f'" >&2; exit 2 ;;
	esac
done
# without DATA_THREADS: the consumer's default, as ltt-consumerd(8) says:
# one per CPU it may run on (it inherits this script's affinity through
# the session daemon; nproc counts that, unless told otherwise by OpenMP's
# variables), at most 16
DEFAULT_DT=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
[ "$DEFAULT_DT" -gt 16 ] && DEFAULT_DT=16
# a channel written to files has at most one part per configured CPU
CONF_CPUS=$(getconf _NPROCESSORS_CONF)

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

# use_data_threads N: a session daemon whose consumers run N data
# threads ("" for their default), started unless the running one has them
CUR_DT=unset
use_data_threads() {
	[ "$1" = "$CUR_DT" ] && return 0
	daemon_stop
	if [ -n "$1" ]; then
		export LTT_CONSUMERD_DATA_THREADS=$1
	else
		unset LTT_CONSUMERD_DATA_THREADS
	fi
	daemon_start
	CUR_DT=$1
}

case " $MODES " in *" relay "*) relay_start ;; esac

# count_events DIR FORMAT: the events babeltrace2 reads in DIR (2.1, in
# the sid root, for CTF 2)
count_events() {
	if [ "$2" = ctf-2 ]; then
		in_root babeltrace2 "$1" 2>/dev/null | wc -l
	else
		babeltrace2 "$1" 2>/dev/null | wc -l
	fi
}
case " $FORMATS " in
*" ctf-2 "*)
	TEST_TMP=$BENCH_TMP
	. "$(dirname "$0")/../tests/regression/root-lib.sh"
	ROOT=$("$(dirname "$0")/../scripts/debian-root.sh" sid "$ROOT_PKGS") ||
		{ echo "$0: CTF 2 is counted by babeltrace2 2.1: no sid root (above)" >&2; exit 2; }
	;;
esac

# one_run MODE N PROD DTHR FORMAT: one session of FORMAT, one program of
# PROD threads, a consumer of DTHR data threads, the figures on one line
one_run() {
	local mode=$1 run=$2 prod=$3 dthr=$4 fmt=$5 name="tp$2" out line t0 t1 written nspe recorded bytes dir
	local movers=1
	[ "$mode" = local ] && movers=$((dthr < CONF_CPUS ? dthr : CONF_CPUS))
	if [ "$mode" = relay ]; then
		ctl create "$name" -F "$fmt" --set-url "net://127.0.0.1:$CTRL_PORT:$DATA_PORT" || return 1
	else
		ctl create "$name" -F "$fmt" -o "$BENCH_TMP/trace-$run" || return 1
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
	line=$("$FLOOD" -n "$EVENTS" -t "$prod")
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
	recorded=$(count_events "$dir" "$fmt")
	bytes=$(find "$dir" -path '*/index' -prune -o -type f -name 'channel0_*' -printf '%s\n' |
		awk '{ s += $1 } END { print s + 0 }')
	awk -v m="$mode" -v f="${fmt#ctf-}" -v w="$written" -v r="$recorded" -v ns="$nspe" -v us=$((t1 - t0)) \
		-v b="$bytes" -v dt="$dthr" -v mv="$movers" -v p="$prod" 'BEGIN {
		printf "%-6s %-3s %4d %4d %10d %10d %9d %8.1f %8.1f %8.1f %9.1f %10.0f %8.1f\n", m, f, dt,
			p, w, r, w - r, ns, us / 1000, b / us, b / us / mv, r * 1e6 / us, r * 20 / us }'
	rm -rf "$dir"
}

printf '%-6s %-3s %4s %4s %10s %10s %9s %8s %8s %8s %9s %10s %8s\n' mode fmt dthr prod written \
	recorded lost wr_ns/ev wall_ms MB/s MB/s/dthr ev/s ev_MB/s
run=0
for i in $(seq "$RUNS"); do
	for p in $THREADS; do
		for d in ${DTHREADS:-default}; do
			[ "$d" = default ] && d=""
			use_data_threads "$d"
			for m in $MODES; do
				for f in $FORMATS; do
					run=$((run + 1))
					one_run "$m" "$run" "$p" "${d:-$DEFAULT_DT}" "$f"
				done
			done
		done
	done
done
