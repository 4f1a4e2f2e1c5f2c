#!/bin/sh
# Build ltt out of tree in ./build (or $LTT_BUILDDIR): bootstrap when the
# build system is missing, configure once (--enable-werror: the project's
# own builds make every warning an error, a user's or packager's do not),
# then make.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LTT_BUILDDIR:-$top/build}

[ -x "$top/configure" ] || (cd "$top" && ./bootstrap >/dev/null 2>&1) ||
	{ echo "build.sh: ./bootstrap failed; run it by hand to see why" >&2; exit 1; }
mkdir -p "$build"
cd "$build"
[ -f Makefile ] || "$top/configure" --quiet --enable-werror ${LTT_CONFIGURE_FLAGS:-}
make -j"$(nproc)" >/dev/null
echo "build.sh: built in $build"
