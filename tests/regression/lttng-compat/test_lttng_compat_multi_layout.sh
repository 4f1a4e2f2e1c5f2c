#!/bin/bash
# test_lttng_compat_multi_layout.sh - one event name, two layouts, driven
# by Debian's /usr/bin/lttng through ltt-sessiond --lttng-compat: a
# program whose two dlopen()ed providers define compat:basic with other
# fields (lttng-ust/multi_app.c, compat_tp.tp and compat_tp_b.tp) is
# listed with the event once (`lttng list -u`, as LTTng's client lists
# it), `lttng list -u -f` lists each layout with its fields, as Debian's
# LTTng lists the same program (its own lttng-sessiond, in a mount
# namespace of its own: the same layouts and fields), and `lttng
# enable-event -u compat:basic` records each call in both layouts, under
# two event classes of the name (ltt's own client:
# test_lttng_ust_multi_layout.sh).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

# the whole test in a mount namespace with its own /run (/var/run/lttng)
compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
plan 10

N=25
lttng_client
multi_build compat_tp_b.tp \
	"two provider libraries of compat:basic with other fields, and a program with the call sites only"

multi_hold
run lttng list -u
is "$(grep -c 'compat:basic (loglevel' <<<"$STDOUT")" 1 "lttng list -u: compat:basic once" ||
	diag "$OUT"
run lttng list -u -f
printf '%s\n' "$STDOUT" >"$TEST_TMP/fields.ltt"
is "$(listed_layouts "$TEST_TMP/fields.ltt" compat:basic)" "i big hex text neg
i half b_text" "lttng list -u -f: compat:basic twice, each layout with its fields" || diag "$OUT"
multi_release

# Debian's LTTng lists the same program (its own liblttng-ust) so: each
# layout once, with the same fields (LTTng lists an event's fields last
# first: compared as sets)
export B
lttng_run '
	mkfifo "$TEST_TMP/deb.go"
	"$B/multi_app" -w "$B/libprova.so" "$B/libprovb.so" <"$TEST_TMP/deb.go" >/dev/null &
	exec 7>"$TEST_TMP/deb.go"
	end=$((SECONDS + TEST_TIMEOUT))
	until /usr/bin/lttng list -u 2>/dev/null | grep -q "compat:basic"; do
		[ $SECONDS -lt $end ] || exit 1
	done
	/usr/bin/lttng list -u -f >"$TEST_TMP/fields.lttng"'
ok $? "Debian's lttng-sessiond lists the program's fields" || diag "$(cat "$TEST_TMP/lttng.log")"
# sets FILE: each compat:basic layout's fields sorted, the layouts sorted
sets() {
	listed_layouts "$1" compat:basic | while read -r -a f; do
		printf '%s\n' "${f[@]}" | sort | paste -sd' ' -
	done | sort
}
is "$(sets "$TEST_TMP/fields.ltt")" "$(sets "$TEST_TMP/fields.lttng")" \
	"ltt lists the layouts Debian's LTTng lists, each with the same fields" ||
	diag "$(cat "$TEST_TMP/fields.lttng")"

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
