#!/bin/bash
# tests/lttng-tools/run-sid.sh - lttng-tools 2.16's own regression tests,
# run by run.sh in a root of Debian sid (LTTng 2.16, its lttng-ust 2.16
# headers, babeltrace2 2.1): against ltt, and against LTTng 2.16 itself
# as the reference, side by side.  Results: doc/lttng-tools-tests.md.
#
#   tests/lttng-tools/run-sid.sh [-k] [-t SECONDS] [--lttng] WORK LTTNG_TOOLS_SRC [TEST... | python]
#
# LTTNG_TOOLS_SRC: lttng-tools 2.16's source tree (Debian's mirror lists
# sid's source package, ltt-control 2.16.0, but does not serve its files;
# the public repository's v2.16.0-rc2 has the same tests).  WORK: a
# directory kept from one run to the next: ltt built in the root from a
# copy of this tree (WORK/ltt-src, WORK/ltt-build: built again where a
# source here is newer), a copy of the lttng-tools tree built there
# (WORK/lttng-tools: its `make` builds the tests' programs, with 2.16's
# headers and its own libraries), and each run's scratch trees.  The
# cached sid root (scripts/debian-root.sh, the packages below) is seen
# through an overlay of the run's own: never written.
#
# In the root, run.sh runs the tests as it does 2.13.9's on Debian 12
# (its namespaces, homes, stand-ins): `lttng` is sid's own lttng 2.16
# (LTT_LTTNG_CLIENT=debian), which drives ltt-sessiond over LTTng 2.16's
# client protocol; the programs record through ltt's liblttng-ust.so.1.
# --lttng: the reference instead, LTTng 2.16 whole (sid's lttng-tools,
# LTT_LTTNG_DAEMONS=debian), the same tests and programs.  -k, -t and
# TEST are run.sh's.  Needs root (debootstrap, chroot, namespaces).
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)

usage() {
	echo "usage: $0 [-k] [-t SECONDS] [--lttng] WORK LTTNG_TOOLS_SRC [TEST... | python]" >&2
	echo "$1" >&2
	exit 2
}
opts=() lttng=false
while [ $# -gt 0 ]; do
	case $1 in
	-k) opts+=(-k); shift ;;
	-t) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage "-t: give the seconds a test may run (a whole number)"
		opts+=(-t "$2"); shift 2 ;;
	--lttng) lttng=true; shift ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || usage "give WORK and LTTNG_TOOLS_SRC"
mkdir -p "$1" || usage "WORK: cannot make $1"
WORK=$(readlink -f "$1")
[ -f "$2/tests/utils/utils.sh" ] && [ -f "$2/configure.ac" ] ||
	usage "LTTNG_TOOLS_SRC must be an lttng-tools source tree (configure.ac, tests/utils/utils.sh)"
SRC=$(readlink -f "$2")
shift 2
[ "$(id -u)" = 0 ] || usage "needs root (debootstrap, chroot, namespaces)"

# The root: sid's LTTng and babeltrace, what builds lttng-tools (flex,
# bison, libxml2, popt, liburcu), what builds ltt (scripts/deps.sh's
# build dependencies by sid's names), and what run.sh's tests use.
PKGS=lttng-tools,liblttng-ust-dev,liblttng-ctl-dev,babeltrace2,libbabeltrace2-dev,python3-bt2
PKGS+=,python3-lttng,babeltrace,build-essential,autoconf,automake,libtool,pkg-config,flex,bison
PKGS+=,uuid-dev,libxml2-dev,xxd,iproute2,procps,libpopt-dev,liburcu-dev,libkmod-dev,libssl-dev
PKGS+=,openssl,clang,libbpf-dev,bpftool,libsqlite3-dev,systemtap-sdt-dev,libxml2-utils,python3-dev
PKGS+=,kmod,psmisc
ROOT=$("$TOP/scripts/debian-root.sh" sid "$PKGS") || { echo "$0: no sid root (above: why)" >&2; exit 1; }

# in_root (root-lib.sh): the root through WORK's overlay, this tree, the
# lttng-tools tree and WORK at their own paths.
# shellcheck source=tests/regression/root-lib.sh
. "$TOP/tests/regression/root-lib.sh"
# An overlay of each run's own (two runs may share WORK at once, as
# ltt's and LTTng's do side by side), gone with it.
TEST_TMP=$WORK/tmp
mkdir -p "$TEST_TMP" || exit 1
ROOT_RUN=$(mktemp -d "$WORK/run.XXXXXX") && ROOT_OVERLAY=$(mktemp -d "$WORK/overlay.XXXXXX") || exit 1
trap 'rm -rf "$ROOT_RUN" "$ROOT_OVERLAY"' EXIT
ROOT_BINDS=("$TOP" "$SRC" "$WORK")

# newer SRC... THAN: is a file under the directories SRC newer than THAN (or THAN missing)?
newer() {
	local than=${*: -1}
	[ -e "$than" ] || return 0
	[ -n "$(find "${@:1:$#-1}" -newer "$than" -type f -print -quit 2>/dev/null)" ]
}

# ltt, built in the root from a copy of this tree (what git tracks and
# does not ignore, copied over the last copy: make rebuilds what changed;
# bootstrapped once by the root's autotools), configured as a user would:
# no -Werror (sid's compilers are newer than the project's), no module
# (the root has no kernel headers).
LS=$WORK/ltt-src LB=$WORK/ltt-build
if newer "$TOP/src" "$TOP/configure.ac" "$TOP"/*/local.mk "$TOP"/*/*/local.mk "$LB/src/sessiond/ltt-sessiond"; then
	echo "# building ltt in the sid root ($LB.log)"
	mkdir -p "$LS" "$LB" || exit 1
	(cd "$TOP" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
		tar --null -cf - -T -) | tar -xf - -C "$LS" || exit 1
	in_root sh -c 'cd "$2" && { [ -x configure ] || ./bootstrap; } && cd "$1" &&
		{ [ -f Makefile ] || "$2/configure" --quiet --without-kmod; } &&
		make -j"$(nproc)"' sh "$LB" "$LS" >"$LB.log" 2>&1 ||
		{ echo "$0: ltt did not build in the root: $LB.log" >&2; tail -n 5 "$LB.log" >&2; exit 1; }
fi

# lttng-tools, copied and built in the root: its programs, its tests' programs.
LT=$WORK/lttng-tools
if [ ! -f "$LT/tests/utils/testapp/gen-ust-events" ] || newer "$SRC/tests" "$SRC/src" "$LT/config.status"; then
	echo "# building lttng-tools in the sid root ($WORK/lttng-tools.log)"
	rm -rf "$LT" && cp -r "$SRC" "$LT" || exit 1
	in_root sh -c 'cd "$1" && ./bootstrap && ./configure --disable-man-pages --quiet &&
		make -j"$(nproc)"' sh "$LT" >"$WORK/lttng-tools.log" 2>&1 ||
		{ echo "$0: lttng-tools did not build: $WORK/lttng-tools.log" >&2
		  tail -n 5 "$WORK/lttng-tools.log" >&2; exit 1; }
fi

if $lttng; then
	who=(env LTT_LTTNG_DAEMONS=debian)
else
	who=(env LTT_LTTNG_CLIENT=debian)
fi
in_root "${who[@]}" LTT_BUILDDIR="$LB" TMPDIR="$WORK/tmp" \
	bash "$TOP/tests/lttng-tools/run.sh" ${opts[@]+"${opts[@]}"} "$LT" "$@"
