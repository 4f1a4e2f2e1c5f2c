#!/bin/bash
# test_lttng_ust_multi_provider.sh - two libraries, each with its own
# provider of one event (compat_tp.c built twice, LTTng-UST's headers),
# dlopen()ed by a program that holds the call sites only
# (lttng-ust/multi_app.c): each call is recorded once by each provider
# loaded, both under one event class, as LTTng-UST records them
# (lttng-tools' ust/multi-lib/test_multi_lib, "same event name, same
# payload"): N calls with both loaded make 2N events, each value twice;
# N with the first, N with both, N after dlclose() of the first make
# N + 2N + N.  Debian's LTTng records the same runs, for comparison.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
ust_setup
plan 13

N=25
multi_build compat_tp.tp "two provider libraries of compat, and a program with the call sites only"

# checks TRACE WHO: the checks of both runs' traces, TRACE-all and TRACE-up.
checks() {
	local t=$1 who=$2
	bt "$t-all" "$t-all.txt"
	is "$(grep -c 'compat:basic: ' "$t-all.txt")" $((2 * N)) \
		"$who: $N calls with two providers loaded: $((2 * N)) events"
	is "$(grep -o ' i = [0-9]*,' "$t-all.txt" | sort | uniq -c | awk '$1 == 2' | wc -l)" $N \
		"$who:   each value of i (0 to $((N - 1))) twice"
	is "$(cat "$(find "$t-all" -name metadata | head -1)" | grep -a -c 'name = "compat:basic";')" 1 \
		"$who:   under one event class"
	bt "$t-up" "$t-up.txt"
	is "$(grep -c 'text = "first"' "$t-up.txt"):$(grep -c 'text = "both"' "$t-up.txt"):$(grep -c 'text = "second"' "$t-up.txt")" \
		"$N:$((2 * N)):$N" "$who: the first loaded, both, the first closed: $N, $((2 * N)), $N events"
}

# --- ltt, through ltt-run ---
for k in all up; do
	lttctl -q create m-$k -o "$TEST_TMP/ltt-$k" && lttctl -q enable-event -u compat:basic &&
		lttctl -q start || break
	if [ $k = all ]; then
		compat_run -p "$B/multi_app" $N "$B/libprova.so" "$B/libprovb.so"
	else
		compat_run -p "$B/multi_app" -u $N "$B/libprova.so" "$B/libprovb.so"
	fi || break
	lttctl -q stop && lttctl -q destroy || break
done
is "$k" up "ltt: both runs, under ltt-run" || diag "$(cat "$TEST_TMP/app.err")"
ok "$(! grep -q . "$TEST_TMP/app.err"; echo $?)" "ltt: the program says nothing" ||
	diag "$(cat "$TEST_TMP/app.err")"
checks "$TEST_TMP/ltt" ltt

# --- LTTng, Debian's own ---
if ! lttng_can_run; then
	skip 6 "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
	done_testing
	exit
fi
export B
lttng_run '
	for k in all up; do
		lttng create m-$k -o "$TEST_TMP/lttng-$k" >/dev/null &&
			lttng enable-event -u compat:basic -s m-$k >/dev/null &&
			lttng start m-$k >/dev/null || exit 1
		if [ $k = all ]; then
			timeout "$TEST_TIMEOUT" "$B/multi_app" $N "$B/libprova.so" "$B/libprovb.so"
		else
			timeout "$TEST_TIMEOUT" "$B/multi_app" -u $N "$B/libprova.so" "$B/libprovb.so"
		fi || exit 1
		lttng stop m-$k >/dev/null && lttng destroy m-$k >/dev/null || exit 1
	done'
ok $? "LTTng: the same runs" || diag "$(cat "$TEST_TMP/lttng.log")"
checks "$TEST_TMP/lttng" LTTng
is "$(sed 's/^\[[^]]*\] ([^)]*) [^ ]* //' "$TEST_TMP/ltt-all.txt" | sed 's/^.*compat:basic:/compat:basic:/; s/{ cpu_id = [0-9]* }, //' | sort)" \
	"$(sed 's/^\[[^]]*\] ([^)]*) [^ ]* //' "$TEST_TMP/lttng-all.txt" | sed 's/^.*compat:basic:/compat:basic:/; s/{ cpu_id = [0-9]* }, //' | sort)" \
	"the events of both providers, field by field, as LTTng's"
done_testing
