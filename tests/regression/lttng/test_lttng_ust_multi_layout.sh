#!/bin/bash
# test_lttng_ust_multi_layout.sh - one event name, two layouts in one
# program: two libraries define compat:basic with other fields
# (compat_tp.tp and compat_tp_b.tp, LTTng-UST's headers), dlopen()ed by a
# program that holds the call sites only (lttng-ust/multi_app.c).  Each
# layout is an event of its own, as LTTng-UST makes it (lttng-tools'
# ust/multi-lib/test_multi_lib): each call is recorded once by each
# provider loaded, in its own layout, under its own event class (the same
# name, two ids), per-UID and per-PID; a layout that replaces another by
# dlclose() and dlopen() while tracing is recorded from then on; a filter
# on a field both layouts have takes both, one on a field of one layout
# takes that one only (the other can't have it: it records nothing); and
# `list -u` names the event once, `list -u -f` each layout with its
# fields.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
ust_setup --log
plan 30

N=25
multi_build compat_tp_b.tp \
	"two provider libraries of compat:basic with other fields, and a program with the call sites only"

# layouts TEXT [PHASE]: "A:B", the compat:basic events of the first
# layout (its field big) and of the second (its field half), of PHASE's
# text if given.
layouts() {
	local f=$1
	if [ -n "${2:-}" ]; then
		grep "text = \"$2\"" "$1" >"$1.$2"
		f="$1.$2"
	fi
	echo "$(grep -c 'compat:basic: .* big = ' "$f"):$(grep -c 'compat:basic: .* half = ' "$f")"
}

# classes TRACE: the ids of compat:basic's event classes in TRACE's metadata, sorted
classes() {
	grep -a -A1 'name = "compat:basic";' "$(find "$1" -name metadata | head -1)" |
		sed -n 's/^\tid = \([0-9]*\);$/\1/p' | sort -n | tr '\n' ' '
}

# record NAME BUFFERS FILTER ARGS...: a session NAME recording compat:basic
# (with FILTER if not empty; BUFFERS: uid or pid) while multi_app ARGS runs.
record() {
	local name=$1 buffers=$2 filter=$3
	shift 3
	lttctl -q create "$name" -o "$TEST_TMP/$name" &&
		lttctl -q enable-channel -u c --buffers-"$buffers" &&
		if [ -n "$filter" ]; then
			lttctl -q enable-event -u compat:basic -c c --filter "$filter"
		else
			lttctl -q enable-event -u compat:basic -c c
		fi && lttctl -q start || return 1
	compat_run -p "$B/multi_app" "$@" || return 1
	lttctl -q stop && lttctl -q destroy
}

for buffers in uid pid; do
	record both-$buffers $buffers "" $N "$B/libprova.so" "$B/libprovb.so"
	ok $? "$buffers: $N calls with both providers loaded" || diag "$(cat "$TEST_TMP/app.err")"
	bt "$TEST_TMP/both-$buffers" "$TEST_TMP/both-$buffers.txt"
	is "$(cat "$TEST_TMP/both-$buffers.txt.err")" "" "$buffers: babeltrace2 reads the trace without a complaint"
	is "$(layouts "$TEST_TMP/both-$buffers.txt")" "$N:$N" \
		"$buffers: each call recorded in each layout ($N + $N events)"
	is "$(grep -o 'compat:basic: .* i = [0-9]*,' "$TEST_TMP/both-$buffers.txt" | grep -o 'i = [0-9]*' | sort | uniq -c | awk '$1 == 2' | wc -l)" $N \
		"$buffers: each value of i (0 to $((N - 1))) twice"
	like "$(classes "$TEST_TMP/both-$buffers")" '^[0-9]+ [0-9]+ $' \
		"$buffers: two event classes named compat:basic, two ids"
done
ok "$(! grep -q 'other fields' "$SESSIOND_LOG"; echo $?)" "the daemon refused no layout"

# A layout replaced while tracing: the first library closed, the second opened.
record up uid "" -r $N "$B/libprova.so" "$B/libprovb.so"
ok $? "dlclose() of the first provider, dlopen() of the second, while tracing" ||
	diag "$(cat "$TEST_TMP/app.err")"
bt "$TEST_TMP/up" "$TEST_TMP/up.txt"
is "$(layouts "$TEST_TMP/up.txt" first)" "$N:0" "before: the first layout's $N events"
is "$(layouts "$TEST_TMP/up.txt" second)" "0:$N" "after: the second layout's $N events"
like "$(classes "$TEST_TMP/up")" '^[0-9]+ [0-9]+ $' "two event classes"
is "$(cat "$TEST_TMP/up.txt.err")" "" "babeltrace2 reads the trace without a complaint"

# Filters: on a field of both layouts (i), on a field of the second only (half).
record fboth uid 'i >= 20' $N "$B/libprova.so" "$B/libprovb.so"
ok $? "a filter on a field both layouts have" || diag "$(cat "$TEST_TMP/app.err")"
bt "$TEST_TMP/fboth" "$TEST_TMP/fboth.txt"
is "$(layouts "$TEST_TMP/fboth.txt")" "$((N - 20)):$((N - 20))" "i >= 20: $((N - 20)) events of each layout"
is "$(grep -o ' i = [0-9]*,' "$TEST_TMP/fboth.txt" | sort -u | tr -d '\n')" \
	" i = 20, i = 21, i = 22, i = 23, i = 24," "each with i from 20"
record fhalf uid 'half >= 11' $N "$B/libprova.so" "$B/libprovb.so"
ok $? "a filter on a field of the second layout only" || diag "$(cat "$TEST_TMP/app.err")"
bt "$TEST_TMP/fhalf" "$TEST_TMP/fhalf.txt"
is "$(layouts "$TEST_TMP/fhalf.txt")" "0:$((N - 22))" \
	"half >= 11: the second layout's $((N - 22)) events (i from 22), none of the first"

# Triggers name events too: one counts compat:basic in both layouts, one
# with a filter on the second layout's field counts the second's alone.
lttctl -q create m -o "$TEST_TMP/m" && lttctl -q add-map-channel --type=user -s m counts &&
	lttctl -q add-trigger --name all --condition=event-rule-matches --type=user \
		--name=compat:basic --action=incr-map-value --session=m --channel=counts \
		--type=user --key '{event_name}' &&
	lttctl -q add-trigger --name half --condition=event-rule-matches --type=user \
		--name=compat:basic --filter 'half >= 11' --action=incr-map-value --session=m \
		--channel=counts --type=user --key 'half-{event_name}' &&
	lttctl -q start m && compat_run -p "$B/multi_app" $N "$B/libprova.so" "$B/libprovb.so"
ok $? "two triggers counting compat:basic, a program with both providers" ||
	diag "$(cat "$TEST_TMP/app.err")"
run lttctl show-maps -s m --channel counts
like "$OUT" " compat:basic +$((2 * N)) " "the trigger without a filter: $((2 * N)), both layouts" ||
	diag "$OUT"
like "$OUT" " half-compat:basic +$((N - 22)) " \
	"the trigger filtering on half: $((N - 22)), the second layout's alone"
lttctl -q remove-trigger all && lttctl -q remove-trigger half && lttctl -q destroy m

# list -u names the event once, while the program runs with both loaded.
multi_hold
lttctl list -u >"$TEST_TMP/list.txt" 2>&1
is "$(grep -c 'compat:basic ' "$TEST_TMP/list.txt")" 1 "list -u: compat:basic once" ||
	diag "$(cat "$TEST_TMP/list.txt")"
# list -u -f lists each layout with its fields, as LTTng lists each
# description it registered (test_lttng_compat_multi_layout.sh compares)
lttctl list -u -f >"$TEST_TMP/fields.txt" 2>&1
is "$(listed_layouts "$TEST_TMP/fields.txt" compat:basic)" "i big hex text neg
i half b_text" "list -u -f: compat:basic twice, each layout's fields" ||
	diag "$(cat "$TEST_TMP/fields.txt")"
lttctl --mi xml list -u -f >"$TEST_TMP/fields.xml" 2>&1
is "$(mi_valid "$TEST_TMP/fields.xml")" "$TEST_TMP/fields.xml validates" "... its MI validates"
# the entries of compat:basic, then each one's fields
mi_fields() {
	mi_xp "count((//event[name='compat:basic'])[$1]/event_fields/event_field)" "$TEST_TMP/fields.xml"
}
is "$(mi_xp "count(//event[name='compat:basic'])" "$TEST_TMP/fields.xml") $(mi_fields 1) $(mi_fields 2)" \
	"2 5 3" "... and lists compat:basic twice, with 5 fields and 3" || diag "$(cat "$TEST_TMP/fields.xml")"
multi_release
done_testing
