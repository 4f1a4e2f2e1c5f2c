# bench-lib.sh - what the benchmark scripts share; sourced, not run.
#
# The build directory is $1 of the calling script (default: the current
# directory).  Each script runs its own session daemon (and consumer) in a
# temporary home and run directory, as the regression tests do, and stops
# it on exit.  Needs bash (EPOCHREALTIME: timing without forking date).

bench_init() {
	B=$(cd "${1:-.}" && pwd)
	for f in src/sessiond/ltt-sessiond src/consumerd/ltt-consumerd src/ctl/lttctl \
		bench/ust_flood bench/ust_flood_plain; do
		if [ ! -x "$B/$f" ]; then
			echo "$0: $B/$f missing: build the tree (make) in $B first" >&2
			exit 2
		fi
	done
	BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ltt-bench.XXXXXX")
	export LTT_HOME=$BENCH_TMP/home LTT_RUNDIR=$BENCH_TMP/run
	export LTT_SESSIOND_PATH=$B/src/sessiond/ltt-sessiond
	# CONSUMERD=PATH runs another consumer (an older build, to compare)
	export LTT_CONSUMERD_PATH=${CONSUMERD:-$B/src/consumerd/ltt-consumerd}
	mkdir -p "$LTT_HOME" "$LTT_RUNDIR"
	FLOOD=$B/bench/ust_flood
	PLAIN=$B/bench/ust_flood_plain
	# In a build tree, src/ctl/lttctl is libtool's wrapper script, which
	# costs about 12 ms a call (bash, sed, ls): time the real binary.
	LTTCTL=$B/src/ctl/lttctl
	if [ -x "$B/src/ctl/.libs/lttctl" ]; then
		LTTCTL=$B/src/ctl/.libs/lttctl
		export LD_LIBRARY_PATH=$B/src/lib/ltt-ctl/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	fi
	trap bench_cleanup EXIT
}

bench_cleanup() {
	daemon_stop
	rm -rf "$BENCH_TMP"
}

ctl() {
	"$LTTCTL" -q "$@"
}

# daemon_start [ARGS...]: the session daemon with ARGS, daemonized
daemon_start() {
	"$LTT_SESSIOND_PATH" -d "$@" || { echo "$0: the session daemon did not start" >&2; exit 1; }
}

daemon_stop() {
	local pid i

	[ -f "$LTT_RUNDIR/sessiond.pid" ] || return 0
	pid=$(cat "$LTT_RUNDIR/sessiond.pid")
	kill "$pid" 2>/dev/null
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	rm -f "$LTT_RUNDIR/sessiond.pid"
}

# thread_counts LIST: LIST ("1 2 4" or "1,2,4") one count a word, or the
# script exits when one is not a number from 1 to 64 (ust_flood's bound)
thread_counts() {
	local t

	for t in ${1//,/ }; do
		case $t in
		'' | *[!0-9]* | 0) echo "$0: thread counts are numbers from 1, not '$t'" >&2; exit 2 ;;
		esac
		[ "$t" -le 64 ] || { echo "$0: at most 64 threads, not $t" >&2; exit 2; }
		echo "$t"
	done
}

# now_us: microseconds, from bash's clock (no fork).
now_us() {
	local t=${EPOCHREALTIME/[.,]/}
	echo "$t"
}

# time_runs N CMD...: run CMD N times (output discarded), print the
# median and the mean wall time in ms, with 3 decimals.
time_runs() {
	local n=$1 i t0 t1
	shift
	for i in $(seq "$n"); do
		t0=${EPOCHREALTIME/[.,]/}
		"$@" > /dev/null 2>&1
		t1=${EPOCHREALTIME/[.,]/}
		echo $((t1 - t0))
	done | sort -n | awk '{ v[NR] = $1; s += $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		      printf "%.3f %.3f\n", m / 1000, s / NR / 1000 }'
}

# median: the median of the numbers on stdin, one a line
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# consumer_policy: the scheduling of the running consumer's threads, as
# "CLASS/RTPRIO/NICE" per thread (ps -L), e.g. "TS/-/0 FF/1/-"
consumer_policy() {
	local spid cpid
	spid=$(cat "$LTT_RUNDIR/sessiond.pid" 2>/dev/null) || return 0
	cpid=$(pgrep -P "$spid" -x ltt-consumerd | head -1)
	[ -n "$cpid" ] || return 0
	ps -L -o cls=,rtprio=,ni= -p "$cpid" | awk '{ printf "%s%s/%s/%s", (NR > 1) ? " " : "", $1, $2, $3 }'
}

# bench_vm OUT SCENARIO: boot Debian's kernel under QEMU once
# (tests/kernel/vm.sh) to run tests/kernel/scenarios/SCENARIO.sh, its
# files in OUT/res/SCENARIO, the console in OUT/console.log; exits the
# script with the guest's last lines when the scenario failed.  The
# caller's KVM_* variables (timeouts, KVM_APPEND, KVM_EXTRA_BINS) apply.
bench_vm() {
	"$(dirname "${BASH_SOURCE[0]}")/../tests/kernel/vm.sh" -o "$1/res" "$2" \
		>"$1/console.log" 2>&1
	if [ "$(cat "$1/res/$2/rc" 2>/dev/null)" != 0 ]; then
		echo "$(basename "$0"): the guest run failed:" >&2
		tail -n 20 "$1/console.log" "$1/res/$2/log" >&2
		exit 1
	fi
}

# lttng_setup TOOL...: for the scripts that run LTTng beside ltt: exits
# unless each TOOL is on PATH, builds bench/lttng/flood_lttng.c against
# the distribution's liblttng-ust into $LTTNG_FLOOD (or copies
# $LTTNG_FLOOD_BUILT there), and gives LTTng a
# home in BENCH_TMP ($LTTNG_HOME) and its daemon a pid file
# ($LTTNG_PIDFILE), which lttng_stop_daemon reads.
lttng_setup() {
	local t src
	src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lttng
	for t in "$@"; do
		command -v "$t" > /dev/null || { echo "$0: needs $t (LTTng)" >&2; exit 2; }
	done
	LTTNG_FLOOD=$BENCH_TMP/flood_lttng
	# LTTNG_FLOOD_BUILT=PATH: that program, built elsewhere (a machine
	# with LTTng's libraries but no compiler or headers)
	if [ -n "${LTTNG_FLOOD_BUILT:-}" ]; then
		cp "$LTTNG_FLOOD_BUILT" "$LTTNG_FLOOD"
	else
		gcc -O2 -I"$src" -o "$LTTNG_FLOOD" "$src/flood_lttng.c" -llttng-ust -ldl
	fi || { echo "$0: cannot build the LTTng program" >&2; exit 2; }
	export LTTNG_HOME=$BENCH_TMP/lttng-home
	mkdir -p "$LTTNG_HOME"
	LTTNG_PIDFILE=$BENCH_TMP/lttng-sessiond.pid
}

# lttng_start_daemon: LTTng's session daemon, daemonized, without its
# kernel part, its pid in $LTTNG_PIDFILE; LTTNG_CONSUMERD=PATH tells it
# where its consumer is (a copy of LTTng outside /usr)
lttng_start_daemon() {
	lttng-sessiond --daemonize --no-kernel --pidfile="$LTTNG_PIDFILE" \
		${LTTNG_CONSUMERD:+--consumerd64-path="$LTTNG_CONSUMERD"} ||
		{ echo "$0: lttng-sessiond did not start" >&2; exit 1; }
}

lttng_stop_daemon() {
	[ -f "$LTTNG_PIDFILE" ] && kill "$(cat "$LTTNG_PIDFILE")" 2> /dev/null
	rm -f "$LTTNG_PIDFILE"
}
