#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ltt-kmod-install.sh install|uninstall KERNELDIR KO... - what `make install`
# and `make uninstall` do with ltt-tracer.ko and lttng-test.ko (kmod/local.mk).
#
# Each module goes to $DESTDIR/lib/modules/RELEASE/extra/, RELEASE being
# the kernel the first was built for: the first word of its vermagic (what the
# kernel checks when it loads it), or, without modinfo or once the module
# is cleaned, UTS_RELEASE of the headers it was built against.  Not the
# headers' "make kernelrelease": Debian's headers answer the upstream
# version there (6.1.192), not the directory of their modules
# (6.1.0-56-amd64).  Installed unsigned and stripped of debug sections.
#
# Then depmod indexes that release: `depmod -b $DESTDIR RELEASE` when
# DESTDIR is set (as any user: a staged tree gets its modules.dep), else
# `depmod RELEASE` as root.  DEPMOD=no skips it (packagers whose package
# runs depmod on the target); DEPMOD=PROGRAM names another depmod.
set -u
PATH=$PATH:/sbin:/usr/sbin
DESTDIR=${DESTDIR:-}
DEPMOD=${DEPMOD:-depmod}

die() {
	echo "kmod: $*" >&2
	exit 1
}

[ $# -ge 3 ] || die "usage: $0 install|uninstall KERNELDIR KO..."
action=$1 kerneldir=$2 ko=$3
shift 2

# The release the module was built for, on stdout.
release() {
	rel=""
	if [ -f "$ko" ] && command -v modinfo >/dev/null 2>&1; then
		rel=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	fi
	if [ -z "$rel" ] && [ -f "$kerneldir/include/generated/utsrelease.h" ]; then
		rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
			"$kerneldir/include/generated/utsrelease.h")
	fi
	case $rel in
	"" | */* | .*) return 1 ;;
	esac
	echo "$rel"
}

run_depmod() {
	if [ "$DEPMOD" = no ]; then
		echo "kmod: DEPMOD=no: run 'depmod $1' on the target so that ltt-sessiond finds ltt-tracer"
	elif ! command -v "$DEPMOD" >/dev/null 2>&1; then
		echo "kmod: no $DEPMOD here (Debian package kmod): run 'depmod $1' on the target so that ltt-sessiond finds ltt-tracer"
	elif [ -n "$DESTDIR" ]; then
		echo "kmod: $DEPMOD -b $DESTDIR $1"
		"$DEPMOD" -b "$DESTDIR" "$1" || die "$DEPMOD -b $DESTDIR $1 failed"
	elif [ "$(id -u)" = 0 ]; then
		echo "kmod: $DEPMOD $1"
		"$DEPMOD" "$1" || die "$DEPMOD $1 failed"
	else
		echo "kmod: not root: run 'depmod $1' as root so that ltt-sessiond finds ltt-tracer"
	fi
}

rel=$(release) ||
	die "can't tell which kernel $ko was built for (no vermagic, no $kerneldir/include/generated/utsrelease.h)"
dir=$DESTDIR/lib/modules/$rel/extra
case $action in
install)
	for k in "$@"; do
		[ -f "$k" ] || die "$k is not built: run make first"
	done
	mkdir -p "$dir" || die "can't create $dir"
	for k in "$@"; do
		f=$dir/$(basename "$k")
		if ! { cp "$k" "$f.tmp" && chmod 644 "$f.tmp" && strip --strip-debug "$f.tmp" &&
			mv -f "$f.tmp" "$f"; }; then
			rm -f "$f.tmp"
			die "can't install $f"
		fi
		echo "kmod: installed $f (for kernel $rel)"
	done
	run_depmod "$rel"
	;;
uninstall)
	for k in "$@"; do
		rm -f "$dir/$(basename "$k")"
	done
	rmdir "$dir" 2>/dev/null
	# the index would still name it
	if [ -f "$DESTDIR/lib/modules/$rel/modules.dep" ]; then
		run_depmod "$rel"
	fi
	;;
*)
	die "usage: $0 install|uninstall KERNELDIR KO..."
	;;
esac
