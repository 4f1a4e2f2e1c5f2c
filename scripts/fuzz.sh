#!/bin/sh
# Fuzz one target for longer than make check does (doc/fuzzing.md):
#   scripts/fuzz.sh TARGET [SECONDS]     (default 600 s)
# TARGET is a name of tests/fuzz/corpus/ (fuzz_client, or just client).
# Builds the target in the ASan+UBSan clang tree of scripts/sanitize.sh
# (build-asan, or $LTT_ASAN_BUILDDIR) as a libFuzzer binary, fuzzes from
# the corpus in the tree plus the inputs earlier runs found (kept in
# BUILD/tests/fuzz/work/TARGET), and keeps a failing input as
# BUILD/tests/fuzz/crash-TARGET-*.  Extra arguments after SECONDS go to
# libFuzzer (e.g. -jobs=2 -workers=2).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/fuzz.sh TARGET [SECONDS [LIBFUZZER-ARGS...]]" >&2; exit 2; }
t=$1
seconds=${2:-600}
shift $(($# >= 2 ? 2 : 1))
case $t in fuzz_*) ;; *) t=fuzz_$t ;; esac
seeds=$top/tests/fuzz/corpus/$t
if [ ! -d "$seeds" ]; then
	echo "fuzz.sh: no target '$t'; the targets are: $(ls "$top/tests/fuzz/corpus" | tr '\n' ' ')" >&2
	exit 2
fi
case $seconds in
''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a number, not '$seconds'" >&2; exit 2 ;;
esac

"$top/scripts/deps.sh" --sanitize || exit 1
dir=${LTT_ASAN_BUILDDIR:-$top/build-asan}
cc=${LTT_SAN_CC:-$(command -v clang-14 || command -v clang || echo clang)}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize-recover=alignment"
[ -x "$top/configure" ] || (cd "$top" && ./bootstrap >/dev/null 2>&1) ||
	{ echo "fuzz.sh: ./bootstrap failed; run it by hand to see why" >&2; exit 1; }
if [ ! -f "$dir/Makefile" ]; then
	# the same build as scripts/sanitize.sh's asan pass
	mkdir -p "$dir" && (cd "$dir" && "$top/configure" --quiet --enable-werror --without-kmod CC="$cc" \
		CFLAGS="-gline-tables-only -O1 -fno-omit-frame-pointer $san -Wno-cast-align" LDFLAGS="$san") ||
		{ echo "fuzz.sh: configure failed in $dir" >&2; exit 1; }
fi
make -C "$dir" -j"$(nproc)" "tests/fuzz/$t" tests/fuzz/engine >"$dir/fuzz-build.log" 2>&1 ||
	{ tail -n 30 "$dir/fuzz-build.log"; echo "fuzz.sh: build failed" >&2; exit 1; }
if [ "$(cat "$dir/tests/fuzz/engine")" != libfuzzer ]; then
	echo "fuzz.sh: $dir was not configured with a compiler that has libFuzzer" >&2
	exit 1
fi
work=$dir/tests/fuzz/work/$t
mkdir -p "$work"
echo "fuzz.sh: fuzzing $t for ${seconds}s from $seeds and $work"
ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:${ASAN_OPTIONS:-}" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
	"$dir/tests/fuzz/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
	-max_len=65536 -artifact_prefix="$dir/tests/fuzz/crash-$t-" -print_final_stats=1 \
	"$@" "$work" "$seeds"
status=$?
echo "fuzz.sh: $(ls "$work" | wc -l) inputs in $work"
echo "fuzz.sh: to add those that reach new code to the tree's corpus:"
echo "  $dir/tests/fuzz/$t -merge=1 $seeds $work"
exit $status
