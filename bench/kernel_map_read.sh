#!/bin/bash
# kernel_map_read.sh [BUILDDIR] - what reading a kernel map of ltt-tracer.ko
# costs, in one boot of Debian's kernel under QEMU (tests/kernel/vm.sh,
# scenario bench_map_read): a map of 16384 (event, counter) pairs, 8
# events each under 2048 counters spread over the 65536 keys, paused; the
# ms to fill it (16384 MAP_EVENTs) and to read every counter (one pass:
# 1025 MAP_READs of 64), 3 rounds (module reloaded), each the median and
# best of 5 passes.  MAP_READ holds a lock for each call: the figure says
# how long the other ioctls waited.
#
# LTT_KMOD_SRC=DIR measures another kmod/ tree (e.g. an older commit's).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export LTT_BUILDDIR=$(realpath "${1:-${LTT_BUILDDIR:-$top/build}}")
out=$(mktemp -d "${TMPDIR:-/tmp}/ltt-kmapread.XXXXXX")
trap 'rm -rf "$out"' EXIT

. "$top/bench/bench-lib.sh"

make -s -C "$LTT_BUILDDIR" kmod/tests/ltt-ktest >/dev/null || exit 1
KVM_SCENARIO_TIMEOUT=600 KVM_TIMEOUT=900 bench_vm "$out" bench_map_read
echo "kernel $(cat "$out/res/kernel-release"), module from ${LTT_KMOD_SRC:-$top/kmod}"
cat "$out/res/bench_map_read/mapread"
