#!/bin/bash
# kernel_context_cost.sh [BUILDDIR] [ROUNDS] [N] [RUNS] - what kernel
# context fields cost an event, measured in one boot of Debian's kernel
# under QEMU (tests/kernel/vm.sh, scenario bench_context_cost): ns per
# ltt_test_event written to /proc/ltt-test by a process pinned to CPU 1,
# not recorded (no session), and recorded into an overwrite channel with
# 0, 1 (tid) and 4 (pid, tid, procname, cpu_id) context fields.  Each
# round runs every configuration once, each RUNS writes of N events;
# prints per configuration the median over rounds of each round's minimum
# and median run, and the record path's extra cost against 0 contexts.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export LTT_BUILDDIR=$(realpath "${1:-${LTT_BUILDDIR:-$top/build}}")
rounds=${2:-3} n=${3:-100000} runs=${4:-10}
out=$(mktemp -d "${TMPDIR:-/tmp}/ltt-kctx.XXXXXX")
trap 'rm -rf "$out"' EXIT

make -s -C "$LTT_BUILDDIR" tests/kernel/kctxload >/dev/null || exit 1
KVM_APPEND="kctxbench=$rounds,$n,$runs" KVM_SCENARIO_TIMEOUT=1200 KVM_TIMEOUT=1500 \
	"$top/tests/kernel/vm.sh" -o "$out/res" bench_context_cost >"$out/console.log" 2>&1
d=$out/res/bench_context_cost
if [ "$(cat "$d/rc" 2>/dev/null)" != 0 ]; then
	echo "kernel_context_cost: the guest run failed:" >&2
	tail -n 20 "$out/console.log" "$d/log" >&2
	exit 1
fi
echo "kernel $(cat "$out/res/kernel-release"), $rounds rounds of $runs x $n events per configuration"
cat "$d/runs.txt"
printf '%-6s %12s %12s\n' cfg min median
for c in off ctx0 ctx1 ctx4; do
	for k in min median; do
		sed -n "s/^RUN .* cfg=$c .* $k=\([0-9]*\).*/\1/p" "$d/runs.txt" | sort -n |
			awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | paste -sd' ' | awk -v c="$c" '{ printf "%-6s %12s %12s\n", c, $1, $2 }'
done
