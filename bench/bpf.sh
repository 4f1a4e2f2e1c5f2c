#!/bin/bash
# bpf.sh [BUILDDIR] [N] [RUNS] - what a system call recorded with its
# payload costs, ltt beside the tools people reach for, as root on a
# kernel that refuses event probes (this development machine): ns per
# call of a program making N calls (tests/regression/bpf_sc, timed by the
# caller), openat of a missing path, then poll of two fds, with
#   none     no tracer;
#   ltt      a session recording `--syscall openat` (or poll) through the
#            BPF system call source (doc/kernel-bpf.md): openat's entry
#            with its path, poll's pollfds at its entry and its exit;
#   tracefs  the same session with LTT_KERNEL_BPF=off: ftrace's own
#            sys_enter/sys_exit events (the path as its address, no
#            pollfds);
#   bpftrace Debian's bpftrace recording the same fields to a file
#            (openat: the path as a string, and the return; poll: the
#            pollfds at the entry and at the exit, and the return);
#   perf     `perf trace -e openat` (or poll) to a file, where it records
#            them (perf trace prints the path's address where it has no
#            BPF augmentation: Debian 12's).
# Every tracer records system-wide.  RUNS runs of each, in turn (none,
# ltt, tracefs, bpftrace, perf, none, ...: a shared machine's load moves
# under all of them alike).  Prints the machine and its clock source, each
# configuration's min, median and max, what each added to a call against
# none (the medians'), its ratio to bpftrace's, and the calls each
# recorded of those made, the warm-up's tenth included (its events with
# the program's path or fds; lost: what it said it lost).  The program alone, without the daemons:
# bpf_sc bench N PATH.
#
# BUSY=K: K processes spinning on the CPUs meanwhile (a busy system: the
# tracers' readers compete with them).  BT_RB_PAGES=P: bpftrace's output
# buffer per CPU in pages (BPFTRACE_PERF_RB_PAGES; bpftrace's default 64
# loses most of poll's records), so that it records what ltt does.
# Without bpftrace installed (Debian's bpftrace) its rows are left out,
# and the script says so.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench-lib.sh"
bench_init "${1:-.}"
n=${2:-200000}
runs=${3:-5}
TIMER=$B/tests/regression/bpf_sc
[ -x "$TIMER" ] || { echo "$0: make tests/regression/bpf_sc in $B first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root (kernel tracing)" >&2; exit 2; }
BT2=$(command -v babeltrace2) || { echo "$0: needs babeltrace2 (to count ltt's events)" >&2; exit 2; }
BPFTRACE=$(command -v bpftrace || true)
[ -n "$BPFTRACE" ] || echo "$0: bpftrace is not installed (apt-get install bpftrace): no bpftrace rows" >&2
BUSY=${BUSY:-0}
case $BUSY in '' | *[!0-9]*) echo "$0: BUSY is a number of processes, not '$BUSY'" >&2; exit 2 ;; esac
BT_RB_PAGES=${BT_RB_PAGES:-}
case $BT_RB_PAGES in *[!0-9]*) echo "$0: BT_RB_PAGES is a number of pages, not '$BT_RB_PAGES'" >&2; exit 2 ;; esac
PERF=$(command -v perf || true)
PATHNAME=/nonexistent-ltt-bench
# CONFIGS="none ltt" (a subset, in that order) for a quicker comparison
CONFIGS=${CONFIGS:-"none ltt tracefs${BPFTRACE:+ bpftrace}${PERF:+ perf}"}
# CALLS="openat" (or poll): one call only
CALLS=${CALLS:-"openat poll"}

# call: the program's N calls; prints ns per call
call() {
	if [ "$CALL" = poll ]; then
		"$TIMER" timepoll "$n" -
	else
		"$TIMER" time "$n" "$PATHNAME"
	fi | awk '{ print $2 }'
}

# wait_for FILE PATTERN: until FILE holds PATTERN (10 s at most)
wait_for() {
	local i
	for i in $(seq 200); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "$0: $1 never said '$2'" >&2
	return 1
}

# ltt's session of one run, its trace counted: "ns recorded lost"
run_ltt() {
	local ns rec lost
	ctl create b -o "$BENCH_TMP/b" >/dev/null && ctl enable-event -k --syscall "$CALL" -s b >/dev/null &&
		ctl start b >/dev/null || return 1
	ns=$(call)
	ctl stop b >/dev/null && ctl destroy b >/dev/null
	"$BT2" "$BENCH_TMP/b" >"$BENCH_TMP/b.txt" 2>"$BENCH_TMP/b.err"
	if [ "$CALL" = poll ]; then
		rec=$(grep -c 'syscall_entry_poll: .*nfds = 2,' "$BENCH_TMP/b.txt")
	else
		rec=$(grep -c "syscall_entry_openat: .*\"$PATHNAME\"" "$BENCH_TMP/b.txt")
		# tracefs alone records the path's address: its exits then (ENOENT's)
		[ "$rec" != 0 ] || rec=$(grep -cE 'syscall_exit_openat: .*ret = -2( |,)' "$BENCH_TMP/b.txt")
	fi
	lost=$(grep -o 'discarded [0-9]* event' "$BENCH_TMP/b.err" | awk '{ s += $2 } END { print s + 0 }')
	rm -rf "$BENCH_TMP/b" "$BENCH_TMP/b.txt"
	echo "$ns $rec $lost"
}

# bpftrace's program of one run: the same fields, printed to a file
BT_OPENAT='tracepoint:syscalls:sys_enter_openat { printf("%d %s\n", tid, str(args->filename)); }
tracepoint:syscalls:sys_exit_openat { printf("%d = %d\n", tid, args->ret); }'
BT_POLL='tracepoint:syscalls:sys_enter_poll { @fds[tid] = args->ufds; @n[tid] = args->nfds;
	printf("%d poll %d %r\n", tid, args->nfds, buf(args->ufds, args->nfds * 8)); }
tracepoint:syscalls:sys_exit_poll /@fds[tid]/ { printf("%d = %d %r\n", tid, args->ret, buf(@fds[tid], @n[tid] * 8));
	delete(@fds[tid]); delete(@n[tid]); }'
run_bpftrace() {
	local prog=$BT_OPENAT pid ns rec lost
	[ "$CALL" = poll ] && prog=$BT_POLL
	rm -f "$BENCH_TMP/bt.out"
	${BT_RB_PAGES:+env BPFTRACE_PERF_RB_PAGES=$BT_RB_PAGES} \
		"$BPFTRACE" -o "$BENCH_TMP/bt.out" -e "$prog" >"$BENCH_TMP/bt.err" 2>&1 &
	pid=$!
	wait_for "$BENCH_TMP/bt.out" Attaching || { kill "$pid"; return 1; }
	ns=$(call)
	kill -INT "$pid"
	wait "$pid"
	if [ "$CALL" = poll ]; then
		rec=$(grep -c '^[0-9]* poll 2 ' "$BENCH_TMP/bt.out")
	else
		rec=$(grep -c "^[0-9]* $PATHNAME\$" "$BENCH_TMP/bt.out")
	fi
	lost=$(grep -o 'Lost [0-9]* events' "$BENCH_TMP/bt.out" | awk '{ s += $2 } END { print s + 0 }')
	echo "$ns $rec $lost"
}

# perf trace of one run, to a file
run_perf() {
	local pid ns rec
	rm -f "$BENCH_TMP/perf.out"
	"$PERF" trace -a -e "$CALL" -o "$BENCH_TMP/perf.out" >"$BENCH_TMP/perf.err" 2>&1 &
	pid=$!
	# perf trace writes nothing before the first call: give it its start
	sleep 1
	ns=$(call)
	kill -INT "$pid"
	wait "$pid"
	rec=$(grep -c "bpf_sc/[0-9]* $CALL(" "$BENCH_TMP/perf.out")
	lost=$(grep -o 'LOST [0-9]* events' "$BENCH_TMP/perf.out" | awk '{ s += $2 } END { print s + 0 }')
	echo "$ns $rec $lost"
}

# median FILE: the median of the first column's numbers
median() {
	awk '$1 != "-" { print $1 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# one run of configuration $1: "ns recorded lost"
run_one() {
	case $1 in
	none) echo "$(call) - -" ;;
	ltt) daemon_start --kernel-backend=tracefs && run_ltt; daemon_stop ;;
	tracefs) LTT_KERNEL_BPF=off daemon_start --kernel-backend=tracefs && run_ltt; daemon_stop ;;
	bpftrace) run_bpftrace ;;
	perf) run_perf ;;
	esac
}

echo "machine: $(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs, Linux $(uname -r), clock source $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), load $(cut -d' ' -f1-3 /proc/loadavg)"
busy_pids=()
for _ in $(seq "$BUSY"); do
	sh -c 'while :; do :; done' &
	busy_pids+=($!)
done
[ "$BUSY" = 0 ] || { trap 'kill "${busy_pids[@]}" 2>/dev/null; bench_cleanup' EXIT; echo "busy: $BUSY processes spinning"; }
[ -z "$BT_RB_PAGES" ] || echo "bpftrace: $BT_RB_PAGES pages of output buffer per CPU"
for CALL in $CALLS; do
	for c in $CONFIGS; do : >"$BENCH_TMP/$c"; done
	for r in $(seq "$runs"); do
		for c in $CONFIGS; do
			run_one "$c" >>"$BENCH_TMP/$c" || echo "- - -" >>"$BENCH_TMP/$c"
		done
	done
	echo "$CALL, $n calls a run, $runs runs:"
	printf '%-9s %8s %8s %8s %8s %10s  %s\n' config min median max added "vs bpftrace" "recorded of the calls, each run (lost)"
	base=$(median "$BENCH_TMP/none")
	# the calls each run made: bpf_sc's tenth to warm up, then the N timed
	made=$((n + n / 10 + 1))
	btadd=$([ -s "$BENCH_TMP/bpftrace" ] && echo $(($(median "$BENCH_TMP/bpftrace" | cut -d. -f1) - ${base%.*})))
	for c in $CONFIGS; do
		stats=$(awk '$1 != "-" { print $1 }' "$BENCH_TMP/$c" | sort -n |
			awk '{ v[NR] = $1 } END { if (NR) print v[1], v[int((NR + 1) / 2)], v[NR] }')
		rec=$(awk -v n="$made" '$2 != "-" { printf " %.4f%s", $2 / n, ($3 > 0 ? "(" $3 ")" : "") }' "$BENCH_TMP/$c")
		[ -n "$stats" ] || { printf '%-9s (no run)\n' "$c"; continue; }
		set -- $stats
		awk -v c="$c" -v min="$1" -v med="$2" -v max="$3" -v b="$base" -v bt="${btadd:-0}" -v rec="$rec" 'BEGIN {
			printf "%-9s %8.1f %8.1f %8.1f %8.1f %10s %s\n", c, min, med, max, med - b,
				(c == "none" || bt <= 0) ? "-" : sprintf("%.3fx", (med - b) / bt), rec }'
	done
done
