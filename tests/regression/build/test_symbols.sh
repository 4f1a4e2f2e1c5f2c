#!/bin/bash
# test_symbols.sh - debian/libltt-ctl1.symbols and libltt-ust0.symbols
# list what the libraries built here export, symbol versions and all
# (scripts/symbols.sh), so that a package built against them depends on
# the library that has them; and the check fails on a drift either way.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
test_init
command -v nm >/dev/null || skip_all "nm is not installed (binutils)"
plan 5

run sh "$LTT_TOP_SRCDIR/scripts/symbols.sh" "$LTT_TOP_BUILDDIR"
is "$RC" 0 "the symbols files list exactly what the libraries export" || diag "$OUT"

D=$TEST_TMP/debian
mkdir -p "$D"
cp "$LTT_TOP_SRCDIR"/debian/{changelog,libltt-ctl1.symbols,libltt-ust0.symbols} "$D/"
grep -v '^ ltt_ctl_subscribe@' "$LTT_TOP_SRCDIR/debian/libltt-ctl1.symbols" >"$D/libltt-ctl1.symbols"
echo " ltt_ust_gone@Base 0.1.0" >>"$D/libltt-ust0.symbols"
run env LTT_SYMBOLS_DIR="$D" sh "$LTT_TOP_SRCDIR/scripts/symbols.sh" "$LTT_TOP_BUILDDIR"
is "$RC" 1 "a symbol left out of a file, or one no longer exported: the check fails"
like "$OUT" "\\+ltt_ctl_subscribe@LTT_CTL_1\\.4" "... naming the one the file lacks"
like "$OUT" "-ltt_ust_gone@Base" "... and the one the library no longer exports"
sed -i '/ltt_ust_gone/d' "$D/libltt-ust0.symbols"
env LTT_SYMBOLS_DIR="$D" sh "$LTT_TOP_SRCDIR/scripts/symbols.sh" --update "$LTT_TOP_BUILDDIR" >/dev/null
is "$(grep -c '^ ltt_ctl_subscribe@LTT_CTL_1.4 ' "$D/libltt-ctl1.symbols")" 1 \
	"--update puts it back, at the changelog's version"
