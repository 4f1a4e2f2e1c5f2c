#!/bin/sh
# tests/fuzz/test_fuzz.sh - a short run of every fuzz target (TAP).
#
# Built with libFuzzer (clang), each target fuzzes for LTT_FUZZ_SECONDS
# (default 3) from its corpus, tests/fuzz/corpus/TARGET/; otherwise the
# replay driver (driver.c) runs the corpus and LTT_FUZZ_RUNS (default
# 3000) deterministic mutants of it, at most for LTT_FUZZ_SECONDS.  A failing input is kept as
# tests/fuzz/crash-TARGET in the build tree; doc/fuzzing.md says what next.
set -u
: "${LTT_TOP_BUILDDIR:?run through make check, or set LTT_TOP_BUILDDIR}"
: "${LTT_TOP_SRCDIR:=$LTT_TOP_BUILDDIR}"
dir=$LTT_TOP_BUILDDIR/tests/fuzz
corpus=$LTT_TOP_SRCDIR/tests/fuzz/corpus
engine=$(cat "$dir/engine" 2>/dev/null) || engine=driver
seconds=${LTT_FUZZ_SECONDS:-3}
runs=${LTT_FUZZ_RUNS:-3000}

targets=$(cd "$corpus" && ls)
set -- $targets
echo "1..$#"
work=$(mktemp -d "${TMPDIR:-/tmp}/ltt-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
n=0 failed=0
for t in $targets; do
	n=$((n + 1))
	bin=$dir/$t
	if [ ! -x "$bin" ]; then
		echo "not ok $n - $t: $bin is missing (a corpus without its target?)"
		failed=$((failed + 1))
		continue
	fi
	rm -rf "${work:?}"/*
	mkdir "$work/corpus"
	start=$(date +%s)
	if [ "$engine" = libfuzzer ]; then
		(cd "$work" && "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
			-max_len=65536 -artifact_prefix="$work/crash-" -print_final_stats=1 \
			"$work/corpus" "$corpus/$t") >"$work/log" 2>&1
		status=$?
		what="libFuzzer, ${seconds}s: $(sed -n 's/^stat::number_of_executed_units: *//p' \
			"$work/log") runs"
		crash=$(ls "$work"/crash-* 2>/dev/null | head -n 1)
	else
		(cd "$work" && LTT_FUZZ_CRASH="$work/fuzz-crash-input" \
			"$bin" -n "$runs" -t "$seconds" "$corpus/$t") >"$work/log" 2>&1
		status=$?
		what=$(sed -n 's/^fuzz driver: //p' "$work/log")
		crash=$(ls "$work"/fuzz-crash-input 2>/dev/null)
	fi
	if [ "$status" = 0 ]; then
		echo "ok $n - $t: $what ($(($(date +%s) - start))s)"
		continue
	fi
	failed=$((failed + 1))
	echo "not ok $n - $t: exit status $status"
	tail -n 40 "$work/log" | sed 's/^/# /'
	if [ -n "$crash" ]; then
		cp "$crash" "$dir/crash-$t"
		echo "# input kept as $dir/crash-$t:"
		od -A d -t x1 "$crash" | head -n 20 | sed 's/^/#   /'
	fi
done
[ "$failed" = 0 ]
