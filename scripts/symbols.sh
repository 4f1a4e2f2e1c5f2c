#!/bin/sh
# symbols.sh [--update] BUILDDIR: do debian/*.symbols list what the
# public libraries built in BUILDDIR export, symbol version and all?
# Prints each difference ("+NAME@VERSION": exported, not in the file;
# "-NAME@VERSION": in the file, no longer exported) and exits 1 when there
# is one.  --update writes the files anew: each symbol already listed
# keeps its package version, a new one gets the version at the top of
# debian/changelog (the release that brings it), and a symbol no longer
# exported is an error (its users would break: a new soname, not an
# edit).  The package build checks the same at dpkg-gensymbols' strictest
# level (debian/rules); this is the check a plain build and CI run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
update=false
if [ "${1:-}" = --update ]; then
	update=true
	shift
fi
[ $# = 1 ] || { echo "usage: symbols.sh [--update] BUILDDIR" >&2; exit 2; }
build=$1
command -v nm >/dev/null || { echo "symbols.sh: nm is not installed (binutils)" >&2; exit 2; }
# $LTT_SYMBOLS_DIR: another directory of symbols files and changelog (tests)
debian=${LTT_SYMBOLS_DIR:-$top/debian}
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$debian/changelog")
version=${version%-*}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# exported LIB: NAME@VERSION of each symbol LIB defines (Base: unversioned;
# a version node's own symbol as dpkg-gensymbols lists it, NODE@NODE)
exported() {
	nm -D --defined-only --with-symbol-versions "$1" | awk '{
		s = $NF
		sub(/@@/, "@", s)
		if (s !~ /@/) s = ($2 == "A") ? s "@" s : s "@Base"
		print s }' | sort -u
}

for pair in src/lib/ltt-ctl/.libs/libltt-ctl.so.1:libltt-ctl1 src/ust/.libs/libltt-ust.so.0:libltt-ust0; do
	lib=$build/${pair%%:*}
	file=$debian/${pair#*:}.symbols
	[ -f "$lib" ] || { echo "symbols.sh: $lib is not built" >&2; exit 2; }
	exported "$lib" >"$tmp/lib"
	sed -n 's/^ \([^ ]*\) .*/\1/p' "$file" | sort -u >"$tmp/file"
	comm -23 "$tmp/lib" "$tmp/file" | sed 's/^/+/' >"$tmp/new"
	comm -13 "$tmp/lib" "$tmp/file" | sed 's/^/-/' >"$tmp/gone"
	if [ -s "$tmp/gone" ]; then
		echo "symbols.sh: $(basename "$lib") no longer exports what debian/$(basename "$file") lists:"
		cat "$tmp/gone"
		status=1
	fi
	[ -s "$tmp/new" ] || continue
	if ! $update; then
		echo "symbols.sh: $(basename "$lib") exports what debian/$(basename "$file") lacks (scripts/symbols.sh --update $build):"
		cat "$tmp/new"
		status=1
		continue
	fi
	{
		sed -n '/^[^ ]/p' "$file"
		{
			sed -n '/^ /p' "$file"
			sed "s/^+\\(.*\\)/ \\1 $version/" "$tmp/new"
		} | sort -k1,1
	} >"$tmp/out"
	cat "$tmp/out" >"$file"
	echo "symbols.sh: debian/$(basename "$file"): $(wc -l <"$tmp/new") symbols added at $version"
done
exit $status
