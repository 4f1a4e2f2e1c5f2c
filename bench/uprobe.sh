#!/bin/bash
# bench/uprobe.sh [BUILD] [N] [RUNS] - what a user-space probe hit costs,
# natively as root through the tracefs backend: bench/uprobe_loop calls a
# function N times (default 200000), not probed, probed by ltt
# (enable-event -k --userspace-probe, recorded to files), and probed by
# `perf probe -x` recorded by `perf record` (where perf is installed);
# each RUNS times (default 5), in turn; the median ns per call of each,
# and the hit's cost (probed minus not probed).  Prints the clocksource.
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
N=${2:-200000}
RUNS=${3:-5}
LOOP=$B/bench/uprobe_loop
[ -x "$LOOP" ] || { echo "$0: $LOOP missing: make bench/uprobe_loop" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root (uprobe_events)" >&2; exit 2; }
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "kernel: $(uname -r); $(nproc) CPUs; $N calls a run, $RUNS runs"

ns() { "$@" | sed -n 's/^\([0-9.]*\) ns\/call.*/\1/p'; }

daemon_start --kernel-backend=tracefs
# session: a session u whose channel records the probe, placed at start
session() {
	ctl create u -o "$BENCH_TMP/u$1" >/dev/null
	ctl enable-channel -k channel0 -s u --subbuf-size=1M --num-subbuf=8 >/dev/null
	ctl enable-event -k --userspace-probe="elf:$LOOP:bench_probed" hit -s u >/dev/null
	ctl add-context -k -t tid -s u >/dev/null
}
perf_ok=0
if command -v perf >/dev/null && perf probe -q -x "$LOOP" bench_probed 2>/dev/null; then
	perf_ok=1
	perf_ev=$(perf probe -l 2>/dev/null | awk '/bench_probed/ { print $1; exit }')
	perf probe -q -d "$perf_ev" 2>/dev/null
fi

# Each run: not probed; ltt recording; ltt stopped (the probe still
# placed: it traps, nothing is written); perf probe + perf record.
plain=() ltt=() stopped=() perfr=()
events=0
for r in $(seq "$RUNS"); do
	plain+=("$(ns "$LOOP" "$N")")
	session "$r"
	ctl start u >/dev/null
	ltt+=("$(ns "$LOOP" "$N")")
	ctl stop u >/dev/null
	stopped+=("$(ns "$LOOP" "$N")")
	lost=$(ctl list u | sed -n 's/^ *discarded events: //p' | head -1)
	ctl destroy u >/dev/null
	events=$((events + $(timeout 600 babeltrace2 "$BENCH_TMP/u$r" 2>/dev/null | grep -c " hit: ")))
	rm -rf "$BENCH_TMP/u$r"
	if [ $perf_ok = 1 ]; then
		perf probe -q -x "$LOOP" bench_probed 2>/dev/null
		perfr+=("$(perf record -q -e "$perf_ev" -o "$BENCH_TMP/perf.data" -- "$LOOP" "$N" 2>/dev/null |
			   sed -n 's/^\([0-9.]*\) ns\/call.*/\1/p')")
		perf probe -q -d "$perf_ev" 2>/dev/null
	fi
done
med() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
row() {	# row LABEL VALUES...
	local label=$1 m
	shift
	m=$(med "$@")
	printf '%-34s %9s ns/call  hit: %6.0f ns  (runs: %s)\n' "$label" "$m" \
		"$(echo "$m - $(med "${plain[@]}")" | bc -l)" "$*"
}
row "not probed" "${plain[@]}"
row "ltt (tracefs), recording" "${ltt[@]}"
echo "  ltt recorded $events of $((N * RUNS)) hits (the last run's discarded: ${lost:-0})"
row "ltt, session stopped (placed)" "${stopped[@]}"
if [ $perf_ok = 1 ]; then
	row "perf probe + perf record" "${perfr[@]}"
else
	echo "perf probe: not installed or refused; skipped"
fi
