#!/bin/bash
# tls.sh - the cost of TLS between the consumer and ltt-relayd: the same
# load streamed to a plain relay and to a TLS relay on loopback, runs
# alternated, through the real session daemon and consumer.
#
#   bench/tls.sh [BUILD_DIR] [RUNS] [EVENTS]
#
# Defaults: ., 5 runs, 2000000 events.  PACE_NS (default 250) paces the
# writer (bench/ust_flood -p: one event every PACE_NS ns, busy-waiting),
# so that both modes get the same offered load; PACE_NS=0 writes flat
# out.  Two relays run side by side, one plain, one with --tls-cert,
# --tls-key and --tls-ca (certificates made by the openssl CLI, as
# tests/regression/tls-lib.sh makes them).  Each run, for each mode: a
# fresh session (net:// or tls:// with create --tls-*), a warm-up event,
# the writer, then lttctl stop (it returns once the relay wrote
# everything).  Printed per run and mode:
#
#   written     events the program wrote (its own count)
#   recorded    events in the relay's trace (babeltrace2)
#   lost        written - recorded
#   wall_ms     from the program's start to stop's return
#   MB          trace bytes at the relay (the stream files)
#   MB/s        MB / wall time
#   cons_ms     CPU time (user + system) of the consumer daemon(s)
#   relay_ms    CPU time of that mode's relay
#   ms/MB       (cons_ms + relay_ms) / MB: the CPU each megabyte costs
#               on both ends together
set -u
. "$(dirname "$0")/bench-lib.sh"
. "$(dirname "$0")/../tests/regression/tls-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-5}
EVENTS=${3:-2000000}
PACE_NS=${PACE_NS:-250}
RELAYD=$B/src/relayd/ltt-relayd
command -v babeltrace2 >/dev/null || { echo "$0: needs babeltrace2" >&2; exit 2; }
command -v openssl >/dev/null || { echo "$0: needs the openssl CLI" >&2; exit 2; }
C=$BENCH_TMP/certs
tls_certs "$C" || { echo "$0: openssl could not make the certificates" >&2; exit 1; }
TLS=(--tls-cert "$C/client.pem" --tls-key "$C/client.key" --tls-ca "$C/ca.pem")
TICK=$(getconf CLK_TCK)

# relay_start MODE [ARGS...]: a relay in $BENCH_TMP/MODE, its ports in
# CTRL_MODE and DATA_MODE, its pid in PID_MODE
relay_start() {
	local mode=$1 run=$BENCH_TMP/run-$1 i
	shift
	mkdir -p "$run"
	LTT_RUNDIR=$run "$RELAYD" -b -o "$BENCH_TMP/out-$mode" -C tcp://127.0.0.1:0 \
		-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 -p "$run/relayd.pid" "$@" ||
		{ echo "$0: the $mode relay did not start" >&2; exit 1; }
	printf -v "CTRL_$mode" %s "$(cat "$run/relayd-control.port")"
	printf -v "DATA_$mode" %s "$(cat "$run/relayd-data.port")"
	printf -v "PID_$mode" %s "$(cat "$run/relayd.pid")"
}
relays_stop() {
	local f
	for f in "$BENCH_TMP"/run-*/relayd.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
}
trap 'relays_stop; bench_cleanup' EXIT

# cpu_ticks PID...: user + system ticks of the processes (all threads)
cpu_ticks() {
	local p t=0 f
	for p in "$@"; do
		read -ra f <"/proc/$p/stat" 2>/dev/null || continue
		# fields 14 and 15 (utime, stime) after the "(comm)" field
		t=$((t + f[13] + f[14]))
	done
	echo "$t"
}

# consumers: the consumer daemons the session daemon spawned
consumers() {
	pgrep -P "$(cat "$LTT_RUNDIR/sessiond.pid")" -f ltt-consumerd
}

daemon_start
relay_start plain
relay_start tls --tls-cert "$C/relay.pem" --tls-key "$C/relay.key" --tls-ca "$C/ca.pem"

# one_run MODE RUN: one session to MODE's relay, the figures on one line
one_run() {
	local mode=$1 run=$2 name="$1$2" url ctrl data relay line t0 t1 c0 c1 r0 r1 written
	local recorded bytes dir pace=()
	ctrl="CTRL_$mode" data="DATA_$mode" relay="PID_$mode"
	if [ "$mode" = tls ]; then
		ctl create "$name" -U "tls://127.0.0.1:${!ctrl}:${!data}" "${TLS[@]}" || return 1
	else
		ctl create "$name" -U "net://127.0.0.1:${!ctrl}:${!data}" || return 1
	fi
	ctl enable-event -u 'bench:flood' && ctl start || { echo "$0: $mode: no start" >&2; exit 1; }
	"$FLOOD" -n 1 -t 1 >/dev/null
	[ "$PACE_NS" -gt 0 ] && pace=(-p "$PACE_NS")
	c0=$(cpu_ticks $(consumers)) r0=$(cpu_ticks "${!relay}")
	t0=$(now_us)
	line=$("$FLOOD" -n "$EVENTS" -t 1 "${pace[@]}")
	ctl stop
	t1=$(now_us)
	c1=$(cpu_ticks $(consumers)) r1=$(cpu_ticks "${!relay}")
	ctl destroy "$name"
	dir=$(find "$BENCH_TMP/out-$mode" -mindepth 2 -maxdepth 2 -type d -name "$name-*" | head -1)
	[ -n "$dir" ] || { echo "$0: $mode run $run: no trace at the relay" >&2; return 1; }
	written=$(( $(echo "$line" | awk '{ print $2 }') + 1 ))
	recorded=$(babeltrace2 "$dir" 2>/dev/null | wc -l)
	bytes=$(find "$dir" -path '*/index' -prune -o -type f -name 'channel0_*' -printf '%s\n' |
		awk '{ s += $1 } END { print s + 0 }')
	awk -v m="$mode" -v w="$written" -v r="$recorded" -v us=$((t1 - t0)) -v b="$bytes" \
		-v cc=$((c1 - c0)) -v rc=$((r1 - r0)) -v tk="$TICK" 'BEGIN {
		mb = b / 1e6; cms = cc * 1000 / tk; rms = rc * 1000 / tk
		printf "%-5s %10d %10d %8d %8.1f %7.1f %7.1f %8.0f %8.0f %7.1f\n", m, w, r, w - r,
			us / 1000, mb, b / us, cms, rms, (mb > 0 ? (cms + rms) / mb : 0) }'
	rm -rf "$dir"
}

printf '%-5s %10s %10s %8s %8s %7s %7s %8s %8s %7s\n' mode written recorded lost wall_ms MB \
	MB/s cons_ms relay_ms ms/MB
for run in $(seq "$RUNS"); do
	one_run plain "$run"
	one_run tls "$run"
done
