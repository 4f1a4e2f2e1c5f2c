#!/bin/bash
# bpf.sh [BUILDDIR] [N] [RUNS] - what a system call's entry with its path
# costs through the BPF system call source (doc/kernel-bpf.md) beside
# tracefs's own sys_enter_openat (the path as its address), as root on a
# kernel that refuses event probes (this development machine): ns per
# openat of a missing path (tests/regression/bpf_sc time: N calls timed
# by the caller), in a session recording `--syscall openat` through BPF,
# the same with LTT_KERNEL_BPF=off (tracefs alone), and with no session;
# RUNS runs of each.  Prints each configuration's min, median and max.
# The program alone, without the daemons: bpf_sc bench N PATH.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench-lib.sh"
bench_init "${1:-.}"
n=${2:-200000}
runs=${3:-5}
TIMER=$B/tests/regression/bpf_sc
[ -x "$TIMER" ] || { echo "$0: make tests/regression/bpf_sc in $B first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$0: needs root (kernel tracing)" >&2; exit 2; }

# one configuration's runs: ns per call of each
runs_of() {
	local i
	for i in $(seq "$runs"); do
		"$TIMER" time "$n" /nonexistent-ltt-bench | awk '{ print $2 }'
	done
}

report() {
	sort -n | awk -v c="$1" '{ v[NR] = $1; all = all " " $1 }
		END { printf "%-10s %8.1f %8.1f %8.1f  %s\n", c, v[1], v[int((NR + 1) / 2)], v[NR], all }'
}

session() {
	ctl create b -o "$BENCH_TMP/b" >/dev/null && ctl enable-event -k --syscall openat -s b >/dev/null &&
		ctl start b >/dev/null
}

printf '%-10s %8s %8s %8s  %s\n' config min median max "ns/call of each run"
runs_of | report none
daemon_start --kernel-backend=tracefs
session && runs_of | report bpf
ctl destroy b >/dev/null
daemon_stop
LTT_KERNEL_BPF=off daemon_start --kernel-backend=tracefs
session && runs_of | report tracefs
ctl destroy b >/dev/null
