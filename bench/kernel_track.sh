#!/bin/bash
# kernel_track.sh [BUILDDIR] [N] [RUNS] - what a kernel process tracker
# costs the record path, in one boot of Debian's kernel under QEMU
# (tests/kernel/vm.sh, scenario kernel_track_bench): ns per test-probe
# event (one write of N to /proc/ltt-test, timed by the writer, kemit)
# recorded in a snapshot session with every tracker at "all", with the
# writer's pid tracked, with another pid tracked (the writer's events
# refused by the tracker), and with no session; RUNS runs of each,
# interleaved.  Prints each configuration's min, median and max ns/event.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export LTT_BUILDDIR=$(realpath "${1:-${LTT_BUILDDIR:-$top/build}}")
n=${2:-100000}
runs=${3:-10}
out=$(mktemp -d "${TMPDIR:-/tmp}/ltt-ktrack.XXXXXX")
trap 'rm -rf "$out"' EXIT

. "$top/bench/bench-lib.sh"

make -s -C "$LTT_BUILDDIR" tests/kernel/kemit >/dev/null || exit 1
KVM_EXTRA_BINS=tests/kernel/kemit KVM_APPEND="ktrack_bench=$n,$runs" \
	KVM_SCENARIO_TIMEOUT=900 KVM_TIMEOUT=1200 bench_vm "$out" kernel_track_bench
d=$out/res/kernel_track_bench
echo "kernel $(cat "$out/res/kernel-release" 2>/dev/null), $runs runs of $n events each"
printf '%-12s %10s %10s %10s  %s\n' config min median max "ns/event of each run"
for c in all pid-tracked pid-other none; do
	sed -n "s/^RUN cfg=$c n=\([0-9]*\) ns=\([0-9]*\)/\1 \2/p" "$d/runs.txt" |
		awk '{ printf "%.1f\n", $2 / $1 }' | sort -n | awk -v c="$c" '
		{ v[NR] = $1; all = all " " $1 }
		END { printf "%-12s %10.1f %10.1f %10.1f %s\n", c, v[1], v[int((NR + 1) / 2)], v[NR], all }'
done
