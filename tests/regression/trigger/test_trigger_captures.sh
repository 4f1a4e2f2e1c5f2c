#!/bin/bash
# A condition of more than 16 captures (LTT_TRIGGER_CAPTURES_LIMIT: 64):
# the 16 of libltt-ctl's arrays and those after them (more_captures) go
# through add-trigger, the daemon, the program's notifier and the
# notification whole, in order; list-triggers (text and MI) shows every
# one; a 65th is refused and changes nothing.
#  - 40 captures of one ltt_test:types event: the 20 expressions of the
#    first half again in the second half, so that every value after the
#    16th is asserted exactly (and equal to the same expression's before).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 13

# Event i = 3 of ltt_test:types (tests/regression/app/test_tp.h), capture by capture.
EXPRS=(s8 u8 s16 u16 s32 u32 s64 u64 f64 str 'arr[0]' 'arr[2]' 'seq[2]' 'seq[9]' par
	nosuch '$ctx.vpid' '$ctx.procname' '$ctx.foo' stext)
caps=()
for e in "${EXPRS[@]}" "${EXPRS[@]}"; do caps+=(--capture="$e"); done

ok_cmd "add a trigger of 40 captures" lttctl add-trigger --name caps40 \
	--condition=event-rule-matches --type=user --name=ltt_test:types \
	--filter='s32 == -100003' "${caps[@]}" --action=notify

# --- listed whole, in order
listed=$(lttctl list-triggers | sed -n 's/^      - //p')
is "$(tr '\n' ' ' <<<"$listed")" "$(printf '%s ' "${EXPRS[@]}" "${EXPRS[@]}")" \
	"list-triggers shows the 40 captures in order"
# per half: 13 payload fields, 4 array elements (each of a payload field), 3 contexts
mi=$(lttctl --mi xml list-triggers)
is "$(grep -o '<event_expr_payload_field>' <<<"$mi" | wc -l) $(grep -o '<event_expr_array_field_element>' <<<"$mi" | wc -l) $(grep -o '<event_expr_channel_context_field>' <<<"$mi" | wc -l)" \
	"34 8 6" "its MI has the 40 capture descriptors: 26 fields, 8 elements, 6 contexts"

# --- a 65th is refused, nothing added
caps65=()
for i in $(seq 1 65); do caps65+=(--capture="c$i"); done
run lttctl add-trigger --name caps65 --condition=event-rule-matches --type=user \
	--name=ltt_test:types "${caps65[@]}" --action=notify
like "$RC:$ERR" "^1:Error: capture 'c65': too many captures: an event-rule-matches condition takes at most 64" \
	"a 65th capture is refused, saying the limit"
is "$(lttctl list-triggers | grep -c '^- name:')" 1 "and nothing was added"

# --- the notification carries the 40 values
start_waiter w caps40
ok $? "wait-trigger caps40 is subscribed"
ust_app -n 10 -T >"$TEST_TMP/app.out"
wait $WAITER
is $? 0 "the trigger notified"
pid=$(sed -n 's/.*pid \([0-9]*\);.*/\1/p' "$TEST_TMP/w.out")
half="s8=-3, u8=203, s16=-1003, u16=60003, s32=-100003, u32=4000000003, s64=-5000000003, u64=18000000000000000003, f64=3.25, str=\"gamma\", arr\\[0\\]=[-0-9]*, arr\\[2\\]=[-0-9]*, seq\\[2\\]=7, seq\\[9\\]=unavailable, par=\\[Signed enum\\] 1, nosuch=unavailable, \\\$ctx.vpid=$pid, \\\$ctx.procname=\"ust_app\", \\\$ctx.foo=unavailable, stext=\"gamma\""
like "$(cat "$TEST_TMP/w.out")" "captures: $half, $half\$" \
	"the 40 values arrive in order, those after the 16th exactly as the same expressions' before"
like "$(cat "$TEST_TMP/w.out")" "captures: s8=-3, .*, par=\\[Signed enum\\] 1, nosuch=" \
	"par, an enum field (ltt_test:parity), is marked as LTTng's client marks one: [Signed enum] 1"
vals=$(sed 's/.*; captures: //' "$TEST_TMP/w.out")
first=$(cut -d, -f1-20 <<<"$vals")
second=$(cut -d, -f21-40 <<<"$vals" | sed 's/^ //')
is "$second" "$first" "the second half's values are the first half's"
mi=$(lttctl --mi xml wait-trigger caps40 --timeout 0 2>/dev/null)
is $? 1 "wait-trigger --timeout 0 with nothing more to come: exit 1"
is "$(trigger_count caps40 fired)" 1 "the trigger fired once"
ok_cmd "remove caps40" lttctl remove-trigger caps40
