#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ltt-build-all.sh [-k] [-o LOGDIR] [HEADERS_DIR...] - build ltt-tracer.ko
# against every installed kernel headers tree (/usr/src/linux-headers-*
# with a .config: the flavours, not the -common trees), or against the
# trees given, each in its own copy of kmod/ (the source tree stays clean).
# Prints one line per tree: the kernel release, PREEMPT model, result,
# seconds, warnings, events listed in the syscall table; then a summary.
# -k keeps the build copies; build logs go to LOGDIR (default: a temp dir,
# printed).  Exit status: 0 when every build succeeded, 1 otherwise, 2 on
# usage errors or when no headers tree is found.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
keep=0 logdir=""

while getopts ko: opt; do
	case $opt in
	k) keep=1 ;;
	o) logdir=$OPTARG ;;
	*)
		sed -n '4,12s/^# \{0,1\}//p' "$0" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))

if [ $# -gt 0 ]; then
	trees=("$@")
else
	trees=()
	for d in /usr/src/linux-headers-*; do
		[ -f "$d/.config" ] && [ -f "$d/Makefile" ] && trees+=("$d")
	done
fi
[ ${#trees[@]} -gt 0 ] || { echo "ltt-build-all: no kernel headers in /usr/src" >&2; exit 2; }
mapfile -t trees < <(printf '%s\n' "${trees[@]}" | sort -V)

work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-build-all.XXXXXX")
logdir=${logdir:-$work/logs}
mkdir -p "$logdir"
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT

# preempt_model DIR: what the tree's .config says about preemption.
preempt_model() {
	local c=$1/.config
	if grep -q '^CONFIG_PREEMPT_RT=y' "$c"; then echo PREEMPT_RT
	elif grep -q '^CONFIG_PREEMPT_DYNAMIC=y' "$c"; then echo PREEMPT_DYNAMIC
	elif grep -q '^CONFIG_PREEMPT=y' "$c"; then echo PREEMPT
	elif grep -q '^CONFIG_PREEMPT_VOLUNTARY=y' "$c"; then echo VOLUNTARY
	else echo NONE
	fi
}

printf '%-32s %-16s %-6s %5s %5s %8s\n' release preemption result sec warn syscalls
ok=0 failed=0
for d in "${trees[@]}"; do
	rel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$d/include/generated/utsrelease.h" 2>/dev/null)
	rel=${rel:-$(basename "$d")}
	dir=$work/$rel/kmod
	mkdir -p "$dir"
	(cd "$here" && find . -type f \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \
		-o -path './scripts/*' \) ! -path './tests/*' ! -path './generated/*' -print0 |
		cpio -0pdm --quiet "$dir")
	# The filter VM and the ABI it shares with user space (see Kbuild).
	mkdir -p "$dir/filter-vm" "$dir/abi"
	cp -p "$here"/../src/filter-vm/*.[ch] "$dir/filter-vm/"
	cp -p "$here"/../src/abi/*.h "$dir/abi/"
	t0=$(date +%s)
	if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$dir" KERNELDIR="$d" \
		>"$logdir/$rel.log" 2>&1 && [ -f "$dir/ltt-tracer.ko" ]; then
		result=ok
		ok=$((ok + 1))
	else
		result=FAILED
		failed=$((failed + 1))
	fi
	t1=$(date +%s)
	warn=$(grep -c 'warning:' "$logdir/$rel.log")
	nsc=$(grep -c '^[[:space:]]*X(' "$dir/generated/ltt-syscalls-table.h" 2>/dev/null)
	printf '%-32s %-16s %-6s %5d %5d %8s\n' "$rel" "$(preempt_model "$d")" "$result" \
		$((t1 - t0)) "$warn" "${nsc:-?}"
	[ $result = ok ] || grep -E 'error|Error' "$logdir/$rel.log" | head -n 5 | sed 's/^/    /'
done
echo "ltt-build-all: $ok built, $failed failed (logs in $logdir)"
[ $failed = 0 ]
