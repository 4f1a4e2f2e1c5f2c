#!/bin/bash
# tests/kernel/vm.sh - run kernel test scenarios by hand, or get a shell in
# the test guest (Debian's kernel under QEMU, the module and the installed
# programs inside), without make check.
#
#   tests/kernel/vm.sh [-o DIR] [SCENARIO...]   boot, run the scenarios,
#       print the console, keep the results in DIR (BUILDDIR/tests/kernel/kvm-out)
#   tests/kernel/vm.sh [-o DIR] --shell [SCENARIO...]   the same, then a
#       shell on the console (exit it to power off; Ctrl-A x kills QEMU)
#   tests/kernel/vm.sh --list                   the scenarios
#
# The build directory is $LTT_BUILDDIR or ./build; this builds what the
# guest needs there first.  LTT_KMOD_SRC=DIR boots another module's build
# instead of kmod/ (see tests/kernel/README.md).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
export LTT_TOP_SRCDIR=$top
export LTT_TOP_BUILDDIR=${LTT_BUILDDIR:-$top/build}
outdir="" shell=0

usage() {
	sed -n '6,10s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-o)
		[ $# -ge 2 ] || usage
		outdir=$(realpath -m "$2")
		shift 2
		;;
	--shell)
		shell=1
		shift
		;;
	--list)
		for f in "$top"/tests/kernel/scenarios/*.sh; do
			printf '%-20s %s\n' "$(basename "$f" .sh)" "$(sed -n '1s/^# [^:]*: //p' "$f")"
		done
		exit 0
		;;
	-h | --help) usage ;;
	-*)
		echo "vm.sh: unknown option $1" >&2
		usage
		;;
	*) break ;;
	esac
done
[ -f "$LTT_TOP_BUILDDIR/Makefile" ] || {
	echo "vm.sh: no build in $LTT_TOP_BUILDDIR: run scripts/build.sh (or set LTT_BUILDDIR)" >&2
	exit 1
}
make -s -C "$LTT_TOP_BUILDDIR" tests/kernel/stage.stamp tests/kernel/kabi_client tests/kernel/kworkload \
	examples/hello/hello >/dev/null || exit 1

# shellcheck source=lib.sh
. "$top/tests/kernel/lib.sh"
skip_all() {
	echo "vm.sh: cannot boot the test kernel: $*" >&2
	exit 1
}
kvm_init
if [ -n "$KVM_KMOD_SKIP$KVM_KMOD_ERROR" ]; then
	echo "vm.sh: booting without ltt-tracer.ko: $KVM_KMOD_SKIP$KVM_KMOD_ERROR" >&2
	[ -z "$KVM_KMOD_ERROR" ] || tail -n 20 "$KVM_KMOD_LOG" >&2
fi
if [ $shell = 1 ]; then
	kvm_shell "$@"
else
	kvm_boot "$@"
	cat "$TEST_TMP/console.log"
	for s in "$@"; do
		echo "$s: rc=$(kvm_file "$s" rc), $(kvm_file "$s" time) s in the guest"
	done
fi
outdir=${outdir:-$LTT_TOP_BUILDDIR/tests/kernel/kvm-out}
rm -rf "$outdir"
mkdir -p "$outdir"
cp -a "$KVM_OUT/." "$outdir/"
echo "vm.sh: results in $outdir"
