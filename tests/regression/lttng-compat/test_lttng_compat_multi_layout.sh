#!/bin/bash
# test_lttng_compat_multi_layout.sh - one event name, two layouts, driven
# by Debian's /usr/bin/lttng through ltt-sessiond --lttng-compat: a
# program whose two dlopen()ed providers define compat:basic with other
# fields (lttng-ust/multi_app.c, compat_tp.tp and compat_tp_b.tp) is
# listed with the event once (`lttng list -u`, as LTTng's client lists
# it), and `lttng enable-event -u compat:basic` records each call in
# both layouts, under two event classes of the name (ltt's own client:
# test_lttng_ust_multi_layout.sh).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

# the whole test in a mount namespace with its own /run (/var/run/lttng)
compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
plan 7

N=25
export LTTNG_HOME="$TEST_TMP/lttng-home"
mkdir -p "$LTTNG_HOME"
lttng() { timeout "$TEST_TIMEOUT" /usr/bin/lttng "$@"; }
multi_build compat_tp_b.tp \
	"two provider libraries of compat:basic with other fields, and a program with the call sites only"

multi_hold
run lttng list -u
is "$(grep -c 'compat:basic (loglevel' <<<"$STDOUT")" 1 "lttng list -u: compat:basic once" ||
	diag "$OUT"
multi_release

lttng create s -o "$TEST_TMP/trace" >/dev/null && lttng enable-event -u compat:basic >/dev/null &&
	lttng start >/dev/null && compat_run -p "$B/multi_app" $N "$B/libprova.so" "$B/libprovb.so" &&
	lttng stop >/dev/null && lttng destroy >/dev/null
ok $? "lttng: a recording of compat:basic with both providers loaded" ||
	diag "$(cat "$TEST_TMP/app.err")"
bt "$TEST_TMP/trace" "$TEST_TMP/trace.txt"
is "$(cat "$TEST_TMP/trace.txt.err")" "" "babeltrace2 reads the trace without a complaint"
is "$(grep -c 'compat:basic: .* big = ' "$TEST_TMP/trace.txt"):$(grep -c 'compat:basic: .* half = ' "$TEST_TMP/trace.txt")" \
	"$N:$N" "each call recorded in each layout"
is "$(grep -a -A1 'name = "compat:basic";' "$(find "$TEST_TMP/trace" -name metadata | head -1)" | grep -c '^	id = ')" 2 \
	"two event classes named compat:basic"
done_testing
