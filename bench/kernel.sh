#!/bin/bash
# bench/kernel.sh - kernel tracing overhead, ltt-tracer.ko beside ftrace, in
# ONE boot of Debian's kernel under QEMU (tests/kernel's harness), and the
# test probe's lossless rate; prints every run and a table of medians.
#
#   bench/kernel.sh [BUILD] [ROUNDS] [PIPE_N] [GETPPID_N] [RATE_RUNS] [RATE_N:RATE_N:...]
#
# BUILD: a configured build directory (default ./build, or $LTT_BUILDDIR);
# this builds bench/kbench and what the guest needs there.  Defaults: 5
# rounds, 5000 pipe round trips, 50000 getppid() calls, 3 runs of each
# test-probe N in 10000:30000:100000:300000:1000000.  The guest's raw
# output stays in BUILD/bench/kernel-out (runs.txt, rate.txt).
# Figures only (never pass/fail); bench/README.md explains them.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-${LTT_BUILDDIR:-$top/build}}")
rounds=${2:-5} pipe_n=${3:-5000} getppid_n=${4:-50000} rate_runs=${5:-3}
rate_ns=${6:-10000:30000:100000:300000:1000000}
export LTT_TOP_SRCDIR=$top LTT_TOP_BUILDDIR=$build
# The kernel linux-image-amd64 installs (Debian 12: 6.1) unless LTT_KVER
# says, else the newest standard -amd64 one (not -rt or -cloud: their
# tracing costs are another benchmark).
# shellcheck disable=SC2010
LTT_KVER=${LTT_KVER:-$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	sed -n 's/^linux-image-\([^ ,]*-amd64\).*/\1/p')}
[ -n "$LTT_KVER" ] && [ -f "/boot/vmlinuz-$LTT_KVER" ] ||
	LTT_KVER=$(ls /lib/modules 2>/dev/null | grep -- '-amd64$' | grep -Ev -- '-(rt|cloud)-' |
		sort -V | tail -n 1)
export LTT_KVER
[ -f "$build/Makefile" ] || {
	echo "kernel.sh: no build in $build: run scripts/build.sh first" >&2
	exit 1
}
make -s -C "$build" tests/kernel/stage.stamp tests/kernel/kabi_client \
	examples/hello/hello kmod/tests/ltt-ktest bench/kbench >/dev/null || exit 1

# Before lib.sh, which takes its defaults from them.
KVM_TIMEOUT=${KVM_TIMEOUT:-3600}
KVM_SCENARIO_TIMEOUT=${KVM_SCENARIO_TIMEOUT:-3500}
# shellcheck source=../tests/kernel/lib.sh
. "$top/tests/kernel/lib.sh"
skip_all() {
	echo "kernel.sh: cannot boot the test kernel: $*" >&2
	exit 1
}
KVM_EXTRA_BINS="bench/kbench"
# The guest half is tests/kernel/scenarios/kbench.sh.
KVM_APPEND="${KBENCH_APPEND:-} kbench=$rounds,$pipe_n,$getppid_n,$rate_runs,$rate_ns"
kvm_init --module
echo "kernel.sh: booting $KVER under QEMU TCG (-smp 2): $KVM_APPEND"
out=$build/bench/kernel-out
rm -rf "$out"
mkdir -p "$out"
# kvm_boot exits when the guest does not finish (a hang): then the runs
# come from the console, where the scenario prints them too.
if ! (kvm_boot kbench); then
	cp "$TEST_TMP/console.log" "$out/"
	grep -a '^RUN ' "$out/console.log" >"$out/runs.txt"
	grep -a '^RATE ' "$out/console.log" >"$out/rate.txt"
	echo "kernel.sh: the guest did not finish (console: $out/console.log); the runs before:"
	python3 "$top/bench/kernel-table.py" "$out/runs.txt" "$out/rate.txt"
	exit 1
fi
cp -a "$KVM_OUT/kbench/." "$out/"
cp "$TEST_TMP/console.log" "$out/"
[ "$(cat "$out/rc")" = 0 ] || {
	echo "kernel.sh: the guest's benchmark failed:" >&2
	tail -n 30 "$out/log" >&2
	exit 1
}
echo "kernel.sh: guest time $(cat "$out/time") s; raw results in $out"
grep -E 'WARNING|BUG|Oops' "$out/dmesg" && echo "kernel.sh: the kernel complained (above)"
cat "$out/runs.txt" "$out/rate.txt"
python3 "$top/bench/kernel-table.py" "$out/runs.txt" "$out/rate.txt"
