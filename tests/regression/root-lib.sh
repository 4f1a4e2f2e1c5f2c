# tests/regression/root-lib.sh - a root of another Debian release for the
# tests that need its packages (sourced after lib.sh): LTTng 2.16 and
# babeltrace2 2.1 (Debian sid), made by scripts/debian-root.sh from the
# host's mirror and cached across tests and runs.

# The packages of the sid root: one list, so that every test shares one cached root.
ROOT_PKGS=lttng-tools,liblttng-ust-dev,babeltrace2,python3-bt2,python3-lttng,build-essential

# The kernel of a root (tests/kernel/lib.sh, LTT_KRELEASE): its image, headers, module tools and DKMS.
ROOT_KERNEL_PKGS=linux-image-amd64,linux-headers-amd64,kmod,dkms

# The packages of the sid root that boots sid's kernel (tests/kernel/lib.sh).
ROOT_SID_KERNEL_PKGS=$ROOT_KERNEL_PKGS,build-essential

# The packages of the trixie root that builds ltt (scripts/deps.sh's build
# dependencies by Debian 13's names, babeltrace2 2.1 for the tests run
# there), builds ltt's Debian packages (debian/control's build
# dependencies, lintian), boots its kernel, and drives ltt with its LTTng
# 2.13.15.
ROOT_BUILD_PKGS=$ROOT_KERNEL_PKGS,lttng-tools,debhelper,dh-dkms,dh-python,bash-completion,lintian,build-essential,systemtap-sdt-dev,autoconf,automake,libtool,pkg-config,libpopt-dev,libxml2-dev,uuid-dev,libkmod-dev,liburcu-dev,libssl-dev,openssl,python3-dev,clang,libbpf-dev,bpftool,babeltrace2,python3-bt2,libxml2-utils,libbabeltrace2-dev,libsqlite3-dev

# root_or_skip RELEASE [PKGS]: ROOT, the root of RELEASE (sid, trixie) with
# PKGS (default ROOT_PKGS); the test is skipped with the reason where it
# can't be made (not root, no debootstrap, no mirror).
root_or_skip() {
	[ "$(id -u)" = 0 ] || skip_all "a Debian $1 root needs root (debootstrap, chroot)"
	ROOT=$("$LTT_TOP_SRCDIR/scripts/debian-root.sh" "$1" "${2:-$ROOT_PKGS}" \
		2>"$TEST_TMP/root.err") ||
		skip_all "no Debian $1 root: $(tail -n 1 "$TEST_TMP/root.err")"
}

# in_root CMD...: CMD in ROOT, in a mount namespace of its own with /proc,
# /dev, /sys and the test's directory (at the same path, over a /tmp of its
# own), its /run the test's ROOT_RUN (where LTTng's root daemons write
# their port files; a test may set it first, as to its own /run): nothing
# is left in the cached root.  With ROOT_OVERLAY (a directory) set, the
# root is seen through an overlay whose changes go there (packages a test
# installs stay for its next in_root, the cached root untouched).  The
# directories of the array ROOT_BINDS are there too, at their paths.
in_root() {
	ROOT_RUN=${ROOT_RUN:-$TEST_TMP/root-run}
	mkdir -p "$ROOT_RUN"
	unshare -m sh -c '
		r=$1 t=$2 run=$3 ov=$4
		shift 4
		if [ -n "$ov" ]; then
			mkdir -p "$ov/upper" "$ov/work" "$ov/merged" &&
				mount -t overlay overlay \
					-o "lowerdir=$r,upperdir=$ov/upper,workdir=$ov/work" "$ov/merged" ||
				exit 125
			r=$ov/merged
		fi
		mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" &&
			mount --rbind /sys "$r/sys" &&
			mount --bind "$run" "$r/run" && mount -t tmpfs tmpfs "$r/tmp" &&
			mkdir -p "$r$t" && mount --bind "$t" "$r$t" || exit 125
		while [ "$1" != -- ]; do
			mkdir -p "$r$1" && mount --bind "$1" "$r$1" || exit 125
			shift
		done
		shift
		exec chroot "$r" "$@"' sh "$ROOT" "$TEST_TMP" "$ROOT_RUN" "${ROOT_OVERLAY:-}" \
		${ROOT_BINDS[@]+"${ROOT_BINDS[@]}"} -- "$@"
}

# root_apt_install LOG PKG...: sid's (or the root's release's) packages
# PKG... installed in the root's overlay (ROOT_OVERLAY, set first: the
# cached root stays as it is), the package lists brought up to date
# first (sid moves daily: a mirror kept as of a day has a Release past
# its Valid-Until); apt's output in LOG.  apt-get's status.
root_apt_install() {
	local log=$1
	shift
	in_root apt-get -q -o Acquire::Check-Valid-Until=false update >"$log" 2>&1 &&
		in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "$@" >>"$log" 2>&1
}

# bt21 DIR OUT: babeltrace2 2.1's text of the trace(s) under DIR into OUT
# (its stderr into OUT.err), as bt does with the host's.
bt21() {
	in_root babeltrace2 "$1" >"$2" 2>"$2.err"
}

# A root's programs on ltt's LTTng-UST, as ltt-run runs them:
# ltt_ust_lib: LTT_LIB, a directory of the test's own holding ltt's
# liblttng-ust*.so.1 and libltt-ust.so.0, where those programs find them
# (LD_LIBRARY_PATH); in_root_ltt CMD...: CMD in ROOT with ltt's libraries
# first, recording into the test's daemon (LTT_HOME, LTT_RUNDIR).
ltt_ust_lib() {
	LTT_LIB=$TEST_TMP/ltt-lib
	mkdir -p "$LTT_LIB"
	cp -L "$LTT_TOP_BUILDDIR"/src/lttng-ust/.libs/liblttng-ust{,-tracepoint,-common}.so.1 \
		"$LTT_TOP_BUILDDIR"/src/ust/.libs/libltt-ust.so.0 "$LTT_LIB/"
}
in_root_ltt() {
	in_root env LTT_HOME="$LTT_HOME" LTT_RUNDIR="$LTT_RUNDIR" LTT_UST_REGISTER_TIMEOUT=5000 \
		LD_LIBRARY_PATH="$LTT_LIB" "$@"
}
