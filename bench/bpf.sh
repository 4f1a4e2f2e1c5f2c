#!/bin/bash
# bpf.sh [BUILDDIR] [N] [RUNS] - what a system call's entry with its path
# costs through the BPF system call source (doc/kernel-bpf.md) beside
# tracefs's own sys_enter_openat (the path as its address), as root on a
# kernel that refuses event probes (this development machine): ns per
# openat of a missing path (tests/regression/bpf_sc time: N calls timed
# by the caller), in a session recording `--syscall openat` through BPF,
# the same with LTT_KERNEL_BPF=off (tracefs alone), and with no session;
# then the same for poll() of two fds (bpf_sc timepoll: the structures,
# the pollfds at the entry and those ready at the exit, read by the
# program) with `--syscall poll`.
# RUNS runs of each.  Prints the machine and its clock source, then each
# configuration's min, median and max.
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

# one configuration's runs: ns per call of each ($CALL: openat or poll)
runs_of() {
	local i
	for i in $(seq "$runs"); do
		if [ "$CALL" = poll ]; then
			"$TIMER" timepoll "$n" -
		else
			"$TIMER" time "$n" /nonexistent-ltt-bench
		fi | awk '{ print $2 }'
	done
}

report() {
	sort -n | awk -v c="$1" '{ v[NR] = $1; all = all " " $1 }
		END { printf "%-10s %8.1f %8.1f %8.1f  %s\n", c, v[1], v[int((NR + 1) / 2)], v[NR], all }'
}

session() {
	ctl create b -o "$BENCH_TMP/b" >/dev/null && ctl enable-event -k --syscall "$CALL" -s b >/dev/null &&
		ctl start b >/dev/null
}

echo "machine: $(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs, Linux $(uname -r), clock source $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
for CALL in openat poll; do
	echo "$CALL:"
	printf '%-10s %8s %8s %8s  %s\n' config min median max "ns/call of each run"
	runs_of | report none
	daemon_start --kernel-backend=tracefs
	session && runs_of | report bpf
	ctl destroy b >/dev/null
	daemon_stop
	LTT_KERNEL_BPF=off daemon_start --kernel-backend=tracefs
	session && runs_of | report tracefs
	ctl destroy b >/dev/null
	daemon_stop
done
