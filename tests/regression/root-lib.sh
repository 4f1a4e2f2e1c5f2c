# tests/regression/root-lib.sh - a root of another Debian release for the
# tests that need its packages (sourced after lib.sh): LTTng 2.16 and
# babeltrace2 2.1 (Debian sid), made by scripts/debian-root.sh from the
# host's mirror and cached across tests and runs.

# The packages of the sid root: one list, so that every test shares one cached root.
ROOT_PKGS=lttng-tools,liblttng-ust-dev,babeltrace2,python3-bt2,python3-lttng,build-essential

# The packages of the trixie root that builds ltt (scripts/deps.sh's build
# dependencies by Debian 13's names, babeltrace2 2.1 for the tests run there).
ROOT_BUILD_PKGS=build-essential,systemtap-sdt-dev,autoconf,automake,libtool,pkg-config,libpopt-dev,libxml2-dev,uuid-dev,libkmod-dev,liburcu-dev,libssl-dev,openssl,python3-dev,clang,libbpf-dev,bpftool,babeltrace2,python3-bt2,libxml2-utils

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
# is left in the cached root.
in_root() {
	ROOT_RUN=${ROOT_RUN:-$TEST_TMP/root-run}
	mkdir -p "$ROOT_RUN"
	unshare -m sh -c '
		r=$1 t=$2 run=$3
		shift 3
		mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" &&
			mount --rbind /sys "$r/sys" &&
			mount --bind "$run" "$r/run" && mount -t tmpfs tmpfs "$r/tmp" &&
			mkdir -p "$r$t" && mount --bind "$t" "$r$t" || exit 125
		exec chroot "$r" "$@"' sh "$ROOT" "$TEST_TMP" "$ROOT_RUN" "$@"
}

# bt21 DIR OUT: babeltrace2 2.1's text of the trace(s) under DIR into OUT
# (its stderr into OUT.err), as bt does with the host's.
bt21() {
	in_root babeltrace2 "$1" >"$2" 2>"$2.err"
}
