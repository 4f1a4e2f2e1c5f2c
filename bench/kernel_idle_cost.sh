#!/bin/bash
# kernel_idle_cost.sh [BUILDDIR] - what ltt-tracer.ko costs a system call,
# measured in one boot of Debian's kernel under QEMU (tests/kernel/vm.sh,
# scenario bench_syscall_cost): ns per getppid() in a tight loop pinned to
# CPU 0, with the module not loaded, loaded with no session (idle), with
# one system call event enabled (syscall_entry_openat: every system call
# takes the kernel's traced path, getppid() records nothing), and with
# every system call event recorded (overwrite channel), getppid's entry
# and exit recorded (rec) or counted in a kernel map (count: what the map
# counted is printed, 10^6 each a round).  Three rounds, each a median of
# 5 runs of 10^6 calls (2 x 10^5 for all, rec and count); prints each
# state's median of the rounds' medians and its spread.
#
# LTT_KMOD_SRC=DIR measures another kmod/ tree (e.g. an older commit's).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export LTT_BUILDDIR=$(realpath "${1:-${LTT_BUILDDIR:-$top/build}}")
out=$(mktemp -d "${TMPDIR:-/tmp}/ltt-kidle.XXXXXX")
trap 'rm -rf "$out"' EXIT

. "$top/bench/bench-lib.sh"

make -s -C "$LTT_BUILDDIR" kmod/tests/ltt-ktest >/dev/null || exit 1
KVM_SCENARIO_TIMEOUT=600 KVM_TIMEOUT=900 bench_vm "$out" bench_syscall_cost
d=$out/res/bench_syscall_cost
echo "kernel $(cat "$out/res/kernel-release"), module from ${LTT_KMOD_SRC:-$top/kmod}"
echo "tracepoint probes attached when idle: $(sort -u "$d/attached_idle" | tr '\n' ' ')"
printf '%-10s %10s %10s %10s  %s\n' state ns/call min max "rounds (median of 5 runs each)"
echo "counted by the map (entry/exit), each round: $(sed -n 's/.* counted=\([0-9/]*\) .*/\1/p' "$d/count" | tr '\n' ' ')"
for s in unloaded idle one all rec count; do
	sed -n 's/.* median=\([0-9.]*\).*/\1/p' "$d/$s" | sort -n | awk -v s="$s" '
		{ v[NR] = $1; all = all " " $1 }
		END { printf "%-10s %10.1f %10.1f %10.1f  %s\n", s, v[int((NR + 1) / 2)], v[1], v[NR], all }'
done
# each round's medians in the order they ran: compare within a round
for s in unloaded idle one all rec count; do
	sed -n 's/.* median=\([0-9.]*\).*/\1/p' "$d/$s" | tr '\n' ' ' | sed "s/^/$s /;s/ $/\n/"
done | awk '{ for (i = 2; i <= NF; i++) r[i] = r[i] " " $1 "=" $i } END {
	for (i = 2; i in r; i++) print "round " i - 1 ":" r[i] }'

