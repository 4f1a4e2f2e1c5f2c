#!/bin/sh
# debian-root.sh RELEASE [PKG,...]: a Debian root of another release (sid,
# trixie) with the packages a test needs, made by debootstrap from the
# host's configured Debian mirror and cached; prints its directory.
#
# The base comes from debootstrap, the packages from the new root's apt.
# The tests that need LTTng 2.16 or babeltrace2 2.1 (Debian sid), a
# Debian 13 build or its packages (trixie), or another release's kernel
# (tests/kernel/lib.sh, LTT_KRELEASE) run them in such a root (tests/regression/
# root.sh: chroot in a private mount namespace).  The cache is
# $LTT_ROOT_CACHE (default /var/cache/ltt/roots), one directory per
# release and package list, made again when the list, the mirror or
# debootstrap change, or when it is older than $LTT_ROOT_MAX_AGE days
# (default 7: sid moves).  Made in a directory of its own and renamed into
# place, under a lock, so two tests never see half a root.
#
# Exit status: 0 (the directory on standard output), 1 when it can't be
# made (the reason on standard error, the last lines of debootstrap's log
# with it), 2 for bad arguments.  Root only.
set -eu

usage() {
	echo "usage: debian-root.sh RELEASE [PKG,...]   (RELEASE: sid, trixie, bookworm)" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
release=$1
pkgs=${2:-}
case $release in
sid | trixie | bookworm | forky) ;;
*) echo "debian-root.sh: unknown release '$release' (sid, trixie, bookworm, forky)" >&2; exit 2 ;;
esac
case $pkgs in
*[!a-z0-9.+,-]*) echo "debian-root.sh: bad package list '$pkgs' (names separated by commas)" >&2; exit 2 ;;
esac
if [ "$(id -u)" != 0 ]; then
	echo "debian-root.sh: debootstrap needs root; run it as root" >&2
	exit 1
fi
command -v debootstrap >/dev/null || {
	echo "debian-root.sh: debootstrap is not installed (scripts/deps.sh installs it)" >&2
	exit 1
}

# The host's mirror: the first URIs of a deb822 source, else of a one-line one.
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -v -- '-security' | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\).*/\2/p' \
	/etc/apt/sources.list 2>/dev/null | grep -v -- '-security' | head -n 1)
[ -n "$mirror" ] || {
	echo "debian-root.sh: no Debian mirror in /etc/apt/sources.list*; add one" >&2
	exit 1
}

cache=${LTT_ROOT_CACHE:-/var/cache/ltt/roots}
max_age=${LTT_ROOT_MAX_AGE:-7}
mkdir -p "$cache"
key=$(printf '%s\n%s\n%s\n%s\n' "$release" "$pkgs" "$mirror" "$(dpkg-query -W -f='${Version}' debootstrap)")
name=$release-$(echo "$key" | cksum | cut -d' ' -f1)
root=$cache/$name

exec 9>"$cache/$name.lock"
flock -w 1200 9 || { echo "debian-root.sh: $cache/$name.lock held for 20 minutes" >&2; exit 1; }
if [ -f "$root/.ltt-root-key" ] && [ "$(cat "$root/.ltt-root-key")" = "$key" ] &&
	[ -z "$(find "$root/.ltt-root-key" -mtime +"$max_age")" ]; then
	echo "$root"
	exit 0
fi
new=$cache/$name.new
log=$cache/$name.log
rm -rf "$new"
echo "debian-root.sh: making a $release root in $root (debootstrap, a few minutes)" >&2
# The base by debootstrap, the packages by the root's apt, which orders
# their configuration where debootstrap's --include does not (lintian's
# Perl modules failed to configure that way).  A kernel's package makes
# no initramfs (INITRD=No, which initramfs-tools' and dracut's hooks
# honour): the tests boot its vmlinuz with an initramfs of their own
# (tests/kernel/lib.sh), and making one took CPU from the tree's build
# beside it (scripts/test.sh).
if ! timeout 1200 debootstrap --variant=minbase "$release" "$new" "$mirror" >"$log" 2>&1; then
	tail -n 5 "$log" | sed 's/^/debian-root.sh: /' >&2
	echo "debian-root.sh: debootstrap could not make a $release root from $mirror (log: $log)" >&2
	rm -rf "$new"
	exit 1
fi
if [ -n "$pkgs" ] && ! timeout 1200 unshare -m sh -c '
	r=$1
	shift
	mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" || exit 125
	chroot "$r" env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -q \
		--no-install-recommends "$@" && chroot "$r" apt-get clean' \
	sh "$new" $(echo "$pkgs" | tr , ' ') >>"$log" 2>&1; then
	tail -n 5 "$log" | sed 's/^/debian-root.sh: /' >&2
	echo "debian-root.sh: apt-get could not install $pkgs in the $release root (log: $log)" >&2
	rm -rf "$new"
	exit 1
fi
echo "$key" >"$new/.ltt-root-key"
rm -rf "$root"
mv "$new" "$root"
echo "$root"
