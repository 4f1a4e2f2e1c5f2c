#!/bin/sh
# tests/lttng-tools/fetch-src.sh - get lttng-tools 2.13.9's source tree
# into DIR, for run.sh, from Debian's source package (Debian 12's
# lttng-tools is 2.13.9): its upstream tarball, unpacked as it is
# released (Debian's patches are not applied).
#
#   tests/lttng-tools/fetch-src.sh DIR
#
# DIR must be missing or empty; nothing is done when it already holds the
# tree.  Callers at once (two tests of one build) take turns (flock on
# DIR.lock): the second finds the tree the first unpacked, which appears
# whole or not at all (unpacked beside DIR, then renamed).  Where apt has
# no deb-src line for bookworm, one is added in a list file of its own
# (/etc/apt/sources.list.d/ltt-lttng-tools-src.sources) and only that
# list is updated: root is needed then.  Exits 0 with the
# tree in DIR, 1 (said why) when it could not be had.
set -u
VERSION=2.13.9
LIST=/etc/apt/sources.list.d/ltt-lttng-tools-src.sources

fail() {
	echo "fetch-src.sh: $*" >&2
	exit 1
}

[ $# = 1 ] && [ -n "$1" ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
[ -f "$dir/tests/utils/utils.sh" ] && exit 0
command -v flock >/dev/null || fail "no flock (util-linux)"
{ mkdir -p "$(dirname -- "$dir")" && touch "$dir.lock"; } 2>/dev/null ||
	fail "can't create $dir.lock: give a DIR whose parent can be written"
exec 9<"$dir.lock"
flock -w 900 9 || fail "$dir.lock held for 15 minutes by another fetch"
[ -f "$dir/tests/utils/utils.sh" ] && exit 0
[ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] ||
	fail "$dir is neither empty nor an lttng-tools tree: give a new directory"
command -v apt-get >/dev/null || fail "no apt-get: this needs Debian (12, whose lttng-tools is $VERSION)"

# Does apt know lttng-tools' source?  If not, add bookworm's deb-src.
if ! apt-cache showsrc lttng-tools 2>/dev/null | grep -q "^Version: $VERSION"; then
	[ "$(id -u)" = 0 ] || fail "apt has no deb-src for lttng-tools $VERSION, and adding one needs root"
	# the archive this machine's apt already takes its packages from
	uri=$( (sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break } }' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null) |
		tr ' ' '\n' | grep -v -e '-security' -e '^$' | head -n 1)
	[ -n "$uri" ] || fail "apt's sources name no Debian archive to take lttng-tools' source from"
	cat >"$LIST" <<-EOF
	# lttng-tools' source for ltt's tests/lttng-tools (fetch-src.sh)
	Types: deb-src
	URIs: $uri
	Suites: bookworm bookworm-updates
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	apt-get -q -o Dir::Etc::sourcelist="$LIST" -o Dir::Etc::sourceparts=- \
		-o APT::Get::List-Cleanup=0 update >/dev/null ||
		fail "apt-get update of $LIST failed (no network?)"
	apt-cache showsrc lttng-tools 2>/dev/null | grep -q "^Version: $VERSION" ||
		fail "Debian's archive has no lttng-tools $VERSION source (not Debian 12?)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-fetch-src.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# the package's files only, as nobody can write $work otherwise (apt
# drops to _apt to download where it can)
chmod 777 "$work"
(cd "$work" && apt-get -q source --download-only "lttng-tools=$(apt-cache showsrc lttng-tools |
	sed -n "s/^Version: \($VERSION-.*\)/\1/p" | head -n 1)" >/dev/null 2>&1) ||
	fail "apt-get source lttng-tools failed (see 'apt-get source --download-only lttng-tools')"
# (the source package is ltt-control, lttng-tools' first name)
tarball=$(ls "$work"/*_"$VERSION".orig.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || fail "Debian's source package had no *_$VERSION.orig.tar.*"
mkdir -p "$work/tree" && tar -xf "$tarball" -C "$work/tree" --strip-components=1 ||
	fail "could not unpack $tarball"
[ -f "$work/tree/tests/utils/utils.sh" ] || fail "$tarball holds no tests/utils/utils.sh"
# beside DIR (the same file system), then in its place
rm -rf "$dir.new" && mv "$work/tree" "$dir.new" && { rmdir "$dir" 2>/dev/null || [ ! -e "$dir" ]; } &&
	mv "$dir.new" "$dir" || fail "could not put the tree in $dir"
echo "fetch-src.sh: lttng-tools $VERSION in $dir"
