#!/bin/bash
# lttng_compare.sh - the same event through ltt and through LTTng-UST, on
# the same machine, measured the same way.  Run by hand only: it needs
# LTTng from the distribution (apt-get install lttng-tools
# liblttng-ust-dev), which nothing else in the project uses, and it runs
# LTTng's session daemon as the current user (root: the system-wide one,
# with --no-kernel).
#
#   bench/lttng_compare.sh [BUILD_DIR] [RUNS] [EVENTS]
#
# Defaults: ., 21 runs of 100000 events, without a filter and with each
# filter of FILTERS (see below).  The event: one int and an
# 11-character string (bench/ust_flood.c, bench/lttng/flood_lttng.c), one
# thread, into a started session whose user-space channel is 4 x 1 MiB
# per CPU in discard mode, big enough that nothing is dropped during a
# run.  Both session daemons run together; each round runs every
# tracer's program once, in turn, so that a load that changes during the
# series weighs on each alike.  Per tracer: the median and best ns/event the
# program measures around its loop, and the instructions per event
# callgrind counts in that loop.
# "ltt compat" is the LTTng program itself (Debian's headers) run under
# ltt-run: LTTng's probe through ltt's compatible liblttng-ust.so.1.
#
# COMPAT_BEFORE=DIR adds "compat before": the same program on another
# build's libraries (DIR holds its liblttng-ust*.so.1 and libltt-ust.so.0,
# copied from src/lttng-ust/.libs and src/ust/.libs), into the same
# session, its runs taken in turn with "ltt compat"'s.  LTTng's session
# daemon runs as root here: run the script in a mount namespace with a
# /run of its own (unshare -m, then mount a tmpfs on /run) when another
# LTTng daemon may be running.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-21}
EVENTS=${3:-100000}
lttng_setup lttng lttng-sessiond babeltrace2
trap 'lttng_stop_daemon; bench_cleanup' EXIT

# callgrind_per_event FUNCTION PROGRAM...: instructions per event
# (valgrind run under the command CG_PREFIX, if set)
callgrind_per_event() {
	local fn=$1 out=$BENCH_TMP/cg.out
	shift
	${CG_PREFIX:-} valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$fn" \
		"$@" -n "$EVENTS" > /dev/null 2>&1 || { echo "n/a"; return; }
	callgrind_annotate --inclusive=yes "$out" 2> /dev/null |
		awk -v fn=":$fn " -v n="$EVENTS" 'index($0, fn) && !/=>/ {
			v = $1; gsub(",", "", v); printf "%.0f\n", v / n; exit }'
}

echo "one int + an 11-character string, 1 thread, $RUNS runs of $EVENTS events" \
	"($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"

# The filters compared, in both tracers: none, an integer comparison
# (accepts all but the first 11 events of a run) and a string glob
# (accepts every event).  FILTERS='' compares without filters only.
FILTERS=${FILTERS-'v > 10|s == "hello*"'}
filters=("")
IFS='|' read -r -a more <<< "$FILTERS"
filters+=("${more[@]}")

# with_filter EXPR: the --filter option for EXPR, if any
with_filter() { [ -n "$1" ] && printf '%s\n' --filter "$1"; }

declare -a ltt_ns ltt_insn ltt_events lttng_ns lttng_insn lttng_events compat_ns compat_insn compat_events
declare -a before_ns before_insn ltt_best compat_best lttng_best
# best < FILE: the lowest of the values one a line
best() { sort -n | head -1; }
# compat PROGRAM...: PROGRAM on ltt's LTTng-UST compatible libraries
compat() {
	LTT_LTTNG_UST_LIBDIR=$B/src/lttng-ust/.libs \
		LD_LIBRARY_PATH=$B/src/ust/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$B/src/lttng-ust/ltt-run" "$@"
}
# compat_before PROGRAM...: PROGRAM on COMPAT_BEFORE's libraries
compat_before() {
	LTT_LTTNG_UST_LIBDIR=$COMPAT_BEFORE \
		LD_LIBRARY_PATH=$COMPAT_BEFORE${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$B/src/lttng-ust/ltt-run" "$@"
}

# runs_in_turn DIR TRACER...: RUNS rounds, each running every TRACER
# (a function of this script) once in turn; DIR/TRACER gets its ns/event,
# one a line.  In turn, so that a machine whose load changes during the
# series weighs on each tracer alike.
runs_in_turn() {
	local dir=$1 i t
	shift
	for t in "$@"; do : > "$dir/$t"; done
	for i in $(seq "$RUNS"); do
		for t in "$@"; do
			"$t" -n "$EVENTS" | awk '{ print $6 }' >> "$dir/$t"
		done
	done
}
run_ltt() { "$FLOOD" "$@"; }
run_compat() { compat "$LTTNG_FLOOD" "$@"; }
run_before() { compat_before "$LTTNG_FLOOD" "$@"; }
run_lttng() { "$LTTNG_FLOOD" "$@"; }
# count_events TRACE NAME: events NAME in TRACE
count_events() {
	babeltrace2 "$1" 2> /dev/null | grep -c " $2: "
}
# insn FUNCTION PROGRAM...: callgrind's instructions per event, if valgrind is here
insn() {
	command -v valgrind > /dev/null && callgrind_per_event "$@"
}

tracers=(run_ltt run_compat)
[ -n "${COMPAT_BEFORE:-}" ] && tracers+=(run_before)
tracers+=(run_lttng)
daemon_start
lttng_start_daemon
for i in "${!filters[@]}"; do
	f=${filters[i]}
	mapfile -t fopt < <(with_filter "$f")
	rm -rf "$BENCH_TMP/ltt-trace" "$BENCH_TMP/lttng-trace"
	# ltt's session records ltt's program and LTTng's under ltt-run
	ctl create cmp -o "$BENCH_TMP/ltt-trace"
	ctl enable-channel -u channel0 --subbuf-size 1M --num-subbuf 4
	ctl enable-event -u 'bench:flood' -c channel0 "${fopt[@]}"
	ctl enable-event -u 'bench_lttng:flood' -c channel0 "${fopt[@]}"
	ctl start
	lttng -q create cmp --output="$BENCH_TMP/lttng-trace"
	lttng -q enable-channel -u ch --subbuf-size 1M --num-subbuf 4
	lttng -q enable-event -u 'bench_lttng:flood' -c ch "${fopt[@]}"
	lttng -q start
	# per-UID buffers created, consumers started
	for t in "${tracers[@]}"; do "$t" -n 1 > /dev/null; done
	runs_in_turn "$BENCH_TMP" "${tracers[@]}"
	ltt_ns[i]=$(median < "$BENCH_TMP/run_ltt")
	compat_ns[i]=$(median < "$BENCH_TMP/run_compat")
	lttng_ns[i]=$(median < "$BENCH_TMP/run_lttng")
	ltt_best[i]=$(best < "$BENCH_TMP/run_ltt")
	compat_best[i]=$(best < "$BENCH_TMP/run_compat")
	lttng_best[i]=$(best < "$BENCH_TMP/run_lttng")
	ltt_insn[i]=$(insn worker_main "$FLOOD")
	compat_insn[i]=$(CG_PREFIX=compat insn worker_main "$LTTNG_FLOOD")
	lttng_insn[i]=$(insn worker_main "$LTTNG_FLOOD")
	if [ -n "${COMPAT_BEFORE:-}" ]; then
		before_ns[i]=$(median < "$BENCH_TMP/run_before")
		before_insn[i]=$(CG_PREFIX=compat_before insn worker_main "$LTTNG_FLOOD")
	fi
	ctl stop
	lttng -q stop
	ltt_events[i]=$(count_events "$BENCH_TMP/ltt-trace" bench:flood)
	compat_events[i]=$(count_events "$BENCH_TMP/ltt-trace" bench_lttng:flood)
	lttng_events[i]=$(count_events "$BENCH_TMP/lttng-trace" bench_lttng:flood)
	ctl destroy cmp
	lttng -q destroy cmp
done
daemon_stop

echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null || echo unknown)"
printf '%-18s %-13s %10s %8s %16s %14s\n' filter tracer ns/event best instructions/ev "events in trace"
for i in "${!filters[@]}"; do
	f=${filters[i]}
	printf '%-18s %-13s %10s %8s %16s %14s\n' "${f:-(none)}" ltt "${ltt_ns[i]}" "${ltt_best[i]}" \
		"${ltt_insn[i]:-n/a}" "${ltt_events[i]}"
	printf '%-18s %-13s %10s %8s %16s %14s\n' "" "ltt compat" "${compat_ns[i]}" \
		"${compat_best[i]}" "${compat_insn[i]:-n/a}" "${compat_events[i]}"
	[ -n "${COMPAT_BEFORE:-}" ] && printf '%-18s %-13s %10s %8s %16s %14s\n' "" "compat before" \
		"${before_ns[i]}" "" "${before_insn[i]:-n/a}" "(same trace)"
	printf '%-18s %-13s %10s %8s %16s %14s\n' "" LTTng "${lttng_ns[i]}" "${lttng_best[i]}" \
		"${lttng_insn[i]:-n/a}" "${lttng_events[i]}"
	awk -v a="${ltt_ns[i]}" -v c="${compat_ns[i]}" -v b="${lttng_ns[i]}" \
		-v ab="${ltt_best[i]}" -v bb="${lttng_best[i]}" \
		'BEGIN { if (b > 0) printf "%-18s ltt / LTTng time: %.2f (best runs: %.2f), ltt compat / LTTng: %.2f\n", "", a / b, ab / bb, c / b }'
done
echo "(expected of each tracer without a filter: $((RUNS * EVENTS + 1)) events, plus the" \
	"callgrind run's $EVENTS; with v > 10, 11 fewer per run; ltt compat's count holds" \
	"compat before's too)"
