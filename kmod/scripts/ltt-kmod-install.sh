#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ltt-kmod-install.sh install|uninstall KO KERNELDIR - what `make install`
# and `make uninstall` do with ltt-tracer.ko (kmod/local.mk).
#
# The module goes to $DESTDIR/lib/modules/RELEASE/extra/, RELEASE being
# the kernel it was built for: the first word of its vermagic (what the
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

[ $# = 3 ] || die "usage: $0 install|uninstall KO KERNELDIR"
action=$1 ko=$2 kerneldir=$3

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
	[ -f "$ko" ] || die "$ko is not built: run make first"
	mkdir -p "$dir" || die "can't create $dir"
	if ! { cp "$ko" "$dir/ltt-tracer.ko.tmp" && chmod 644 "$dir/ltt-tracer.ko.tmp" &&
		strip --strip-debug "$dir/ltt-tracer.ko.tmp" &&
		mv -f "$dir/ltt-tracer.ko.tmp" "$dir/ltt-tracer.ko"; }; then
		rm -f "$dir/ltt-tracer.ko.tmp"
		die "can't install $dir/ltt-tracer.ko"
	fi
	echo "kmod: installed $dir/ltt-tracer.ko (for kernel $rel)"
	run_depmod "$rel"
	;;
uninstall)
	rm -f "$dir/ltt-tracer.ko"
	rmdir "$dir" 2>/dev/null
	# the index would still name it
	if [ -f "$DESTDIR/lib/modules/$rel/modules.dep" ]; then
		run_depmod "$rel"
	fi
	;;
*)
	die "usage: $0 install|uninstall KO KERNELDIR"
	;;
esac
