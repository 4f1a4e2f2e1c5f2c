#!/bin/bash
# control.sh - the control plane, beside LTTng's: lttctl's start-up
# (`lttctl --version`, nothing else) beside /bin/true and `lttng
# --version`, and the control sequence create, enable-event -u -a,
# start, stop, destroy (no program) through ltt's session daemon and
# through LTTng's (lttng-tools from the distribution; the part is
# skipped without it).  Each daemon runs privately as the current user,
# in a temporary home (LTTng's with --no-kernel).
#
#   bench/control.sh [BUILD_DIR] [RUNS] [SEQUENCES]
#
# Defaults: ., 300 runs of each start-up, 21 sequences per tracer (after
# one not counted: the consumer daemons are spawned by the first start;
# both daemons keep theirs between sequences, ltt's for its
# --consumerd-idle-ms).  ltt's sequence is also timed with
# --consumerd-idle-ms 0, a consumer spawned at each start.
# Start-up: the median wall time of a run, and the CPU time (user +
# system) per run over all runs; the ratios to /bin/true.  Sequence: the
# median wall time of the five commands.  lttctl is the real binary
# (bench-lib.sh), not libtool's wrapper script.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-300}
SEQS=${3:-21}

# children_cpu_ms: into CPU_NOW, the CPU time (user + system) of this
# shell's finished children so far, in ms, from bash's `times` (a
# builtin: it must run in this shell, not in a $(...) subshell)
children_cpu_ms() {
	times > "$BENCH_TMP/times"
	CPU_NOW=$(tail -n 1 "$BENCH_TMP/times" | awk '{ for (i = 1; i <= NF; i++) {
		split($i, ms, /[ms]/); s += ms[1] * 60 + ms[2] } printf "%.3f\n", s * 1000 }')
}

# startup NAME CMD...: RUNS runs of CMD from this shell; prints NAME, the
# median wall ms and the CPU ms per run (kept in WALL and CPU)
startup() {
	local name=$1 c0 c1 i t0 t1
	shift
	: > "$BENCH_TMP/walls"
	children_cpu_ms
	c0=$CPU_NOW
	for ((i = 0; i < RUNS; i++)); do
		t0=${EPOCHREALTIME/[.,]/}
		"$@" > /dev/null 2>&1
		t1=${EPOCHREALTIME/[.,]/}
		echo $((t1 - t0)) >> "$BENCH_TMP/walls"
	done
	children_cpu_ms
	c1=$CPU_NOW
	# less what the second children_cpu_ms cost
	CPU=$(awk -v a="$c0" -v b="$c1" -v o="$CPU_OVERHEAD" -v n="$RUNS" \
		'BEGIN { printf "%.3f", (b - a - o) / n }')
	WALL=$(median < "$BENCH_TMP/walls" | awk '{ printf "%.3f", $1 / 1000 }')
	printf '%-22s median %7.3f ms wall  %7.3f ms cpu per run\n' "$name" "$WALL" "$CPU"
}

# ratio A B [DECIMALS]: A / B
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "n/a" }'; }

# sequence CTL...: SEQS runs of the five commands through CTL (the
# control command with its options), one wall time in ms a line; the
# trace goes to $SEQ_OUT (exported: LTTng's runs in a child shell)
sequence() {
	local i t0 t1
	for i in $(seq $((SEQS + 1))); do
		rm -rf "$SEQ_OUT"
		t0=${EPOCHREALTIME/[.,]/}
		"$@" create seq --output="$SEQ_OUT" > /dev/null &&
			"$@" enable-event -u -a > /dev/null &&
			"$@" start > /dev/null &&
			"$@" stop > /dev/null &&
			"$@" destroy seq > /dev/null || { echo "the sequence failed: $*" >&2; return 1; }
		t1=${EPOCHREALTIME/[.,]/}
		[ "$i" -gt 1 ] && awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }'
	done
}

echo "control plane: $RUNS start-ups, $SEQS sequences ($(nproc) CPUs," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)," \
	"load $(cut -d' ' -f1 /proc/loadavg))"

# what one children_cpu_ms costs in children's CPU (its tail and awk)
children_cpu_ms
c0=$CPU_NOW
for ((i = 0; i < 20; i++)); do children_cpu_ms; done
CPU_OVERHEAD=$(awk -v a="$c0" -v b="$CPU_NOW" 'BEGIN { print (b - a) / 20 }')
startup /bin/true /bin/true
TRUE_WALL=$WALL TRUE_CPU=$CPU
startup "lttctl --version" "$LTTCTL" --version
echo "  x /bin/true: wall $(ratio "$WALL" "$TRUE_WALL"), cpu $(ratio "$CPU" "$TRUE_CPU")"
HAVE_LTTNG=
command -v lttng > /dev/null && command -v lttng-sessiond > /dev/null && HAVE_LTTNG=1
if [ -n "$HAVE_LTTNG" ]; then
	startup "lttng --version" lttng --version
	echo "  x /bin/true: wall $(ratio "$WALL" "$TRUE_WALL"), cpu $(ratio "$CPU" "$TRUE_CPU")"
fi

daemon_start
SEQ_OUT=$BENCH_TMP/seq-trace
LTT_SEQ=$(sequence "$LTTCTL" | median)
daemon_stop
printf '%-22s median %7.3f ms\n' "sequence, ltt" "$LTT_SEQ"
# the same with a consumer spawned at each start (none kept idle between
# sequences), where the daemon has --consumerd-idle-ms
COLD_SEQ=
if "$LTT_SESSIOND_PATH" --help 2>/dev/null | grep -q consumerd-idle-ms; then
	daemon_start --consumerd-idle-ms 0
	COLD_SEQ=$(sequence "$LTTCTL" | median)
	daemon_stop
	printf '%-22s median %7.3f ms (--consumerd-idle-ms 0: a consumer spawned at each start)\n' \
		"sequence, ltt" "$COLD_SEQ"
fi
if [ -z "$HAVE_LTTNG" ]; then
	echo "sequence, LTTng: skipped (no lttng, lttng-sessiond: apt-get install lttng-tools)"
	exit 0
fi
# LTTng's daemon of its own in LTTNG_HOME: root's is the system-wide one
# (/var/run/lttng, whatever LTTNG_HOME says), so as root it runs as
# nobody, with the sequence's shell.
LTTNG_HOME=$BENCH_TMP/lttng-home
mkdir -p "$LTTNG_HOME"
as_user=()
if [ "$(id -u)" = 0 ]; then
	chmod 711 "$BENCH_TMP"
	chown 65534:65534 "$LTTNG_HOME"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
export SEQS LTTNG_HOME SEQ_OUT=$LTTNG_HOME/seq-trace
export -f sequence
# shellcheck disable=SC2016
LTTNG_SEQ=$("${as_user[@]}" env HOME="$LTTNG_HOME" bash -c '
	pid=$LTTNG_HOME/sessiond.pid
	lttng-sessiond --daemonize --no-kernel --pidfile="$pid" ||
		{ echo "lttng-sessiond did not start" >&2; exit 1; }
	sequence lttng -q
	kill "$(cat "$pid")"' | median)
printf '%-22s median %7.3f ms\n' "sequence, LTTng" "$LTTNG_SEQ"
echo "  ltt / LTTng: $(ratio "$LTT_SEQ" "$LTTNG_SEQ" 3)${COLD_SEQ:+, with a consumer spawned at each start: $(ratio "$COLD_SEQ" "$LTTNG_SEQ" 3)}"
