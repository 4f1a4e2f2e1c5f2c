#!/bin/bash
# memory_cpus.sh [BUILDDIR] [CPUS] - the memory of a user-space session on
# a guest of CPUS vCPUs (default 64): bench/memory.sh's cases (channel0
# with the defaults, every event, started; idle, then after one small
# program of 1000 events) in one boot of Debian's kernel under QEMU
# (tests/kernel/vm.sh, scenario bench_ust_memory): ltt on-demand and
# preallocated, and LTTng 2.13 (Debian's lttng-tools, with
# bench/lttng/flood_lttng) when it is installed.  Prints the session
# daemon's and consumers' VmRSS and the ring buffer files' KiB, as
# bench/memory.sh does.  Figures, not a test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export LTT_BUILDDIR=$(realpath "${1:-${LTT_BUILDDIR:-$top/build}}")
cpus=${2:-64}
out=$(mktemp -d "${TMPDIR:-/tmp}/ltt-memcpus.XXXXXX")
trap 'rm -rf "$out"' EXIT

make -s -C "$LTT_BUILDDIR" bench/ust_flood >/dev/null || exit 1
extra="bench/ust_flood"
# LTTng's programs go into the guest as extra programs of the build tree
x=$LTT_BUILDDIR/bench-lttng
if command -v lttng-sessiond >/dev/null && mkdir -p "$x" &&
	gcc -O2 -I"$top/bench/lttng" -o "$x/flood_lttng" "$top/bench/lttng/flood_lttng.c" \
		-llttng-ust -ldl 2>/dev/null; then
	cp "$(command -v lttng)" "$(command -v lttng-sessiond)" "$x/" &&
		cp /usr/lib/*/lttng/libexec/lttng-consumerd "$x/" &&
		# its session schema: without it lttng-sessiond's session
		# loading fails at start and the daemon quits (the guest's
		# programs must be executable to be copied in)
		install -m 755 /usr/share/xml/lttng/session.xsd "$x/session.xsd" &&
		extra="$extra bench-lttng/lttng bench-lttng/lttng-sessiond bench-lttng/lttng-consumerd bench-lttng/flood_lttng bench-lttng/session.xsd"
fi
KVM_EXTRA_BINS=$extra KVM_SMP=$cpus KVM_MEM=${KVM_MEM:-2G} KVM_SCENARIO_TIMEOUT=1200 \
	KVM_TIMEOUT=1500 "$top/tests/kernel/vm.sh" -o "$out/res" bench_ust_memory >"$out/console.log" 2>&1
d=$out/res/bench_ust_memory
if [ "$(cat "$d/rc" 2>/dev/null)" != 0 ]; then
	echo "memory_cpus: the guest run failed:" >&2
	tail -n 20 "$out/console.log" "$d/log" "$d"/*.mem "$d/rows" >&2
	exit 1
fi
for f in "$d"/lttng-*; do	# an LTTng step that failed: what it said
	grep -q "^lttng-failed-at-${f##*/lttng-}" "$d/rows" && { echo "${f##*/}:"; cat "$f"; }
done
echo "kernel $(cat "$out/res/kernel-release"), $(cat "$d/cpus") vCPUs; channel0 4 x 512 KiB per CPU, per-UID"
printf '%-28s %10s %12s\n' "" "RSS KiB" "buffers KiB"
awk '{ printf "%-28s %10s %12s\n", $1, $2, $3 }' "$d/rows"
