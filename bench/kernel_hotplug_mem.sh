#!/bin/bash
# kernel_hotplug_mem.sh [BUILDDIR] [CPUS] [ONLINE] - the module's buffer
# memory for one kernel channel of 4 x 1 MiB per CPU on a guest of CPUS
# vCPUs (default 8) booted with maxcpus=ONLINE (default 2): CHANNEL_MEM's
# total with the streams asked for the online CPUs only (the session
# daemon with a module of kernel ABI 1.10), then for every possible CPU
# (as before 1.10).  One boot of Debian's kernel under QEMU
# (tests/kernel/vm.sh, scenario bench_kernel_mem).  Figures, not a test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export LTT_BUILDDIR=$(realpath "${1:-${LTT_BUILDDIR:-$top/build}}")
cpus=${2:-8}
online=${3:-2}
out=$(mktemp -d "${TMPDIR:-/tmp}/ltt-hpmem.XXXXXX")
trap 'rm -rf "$out"' EXIT

KVM_SMP=$cpus KVM_APPEND="maxcpus=$online" "$top/tests/kernel/vm.sh" -o "$out/res" \
	bench_kernel_mem >"$out/console.log" 2>&1
d=$out/res/bench_kernel_mem
if [ "$(cat "$d/rc" 2>/dev/null)" != 0 ] || [ "$(cat "$d/chanmem.rc" 2>/dev/null)" != 0 ]; then
	echo "kernel_hotplug_mem: the guest run failed:" >&2
	tail -n 20 "$out/console.log" "$d/log" "$d/chanmem" >&2
	exit 1
fi
echo "kernel $(cat "$out/res/kernel-release"), CPUs: $(cat "$d/cpus"); one channel of 4 x 1 MiB per CPU"
cat "$d/chanmem"
