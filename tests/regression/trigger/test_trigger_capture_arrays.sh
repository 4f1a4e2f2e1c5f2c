#!/bin/bash
# Captures of whole array and sequence fields (NAME, no [INDEX]): each
# notification carries the field's elements, as LTTng's do, through the
# program's notifier, the daemon and libltt-ctl, in wait-trigger's text
# and MI; text arrays and sequences stay strings.
#  - ltt_test:types event i = 3 (tests/regression/app/test_tp.h): arr and
#    seq are [3, -3, 7], atext "gamm" (its 4 bytes), stext "gamma";
#  - event i = 0: seq is empty, an array of no element; arr [0, 0, 7].

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
command -v xmllint >/dev/null || skip_all "xmllint is not installed (libxml2-utils; scripts/deps.sh)"
plan 11

ok_cmd "add a trigger capturing arrays, sequences and text whole" lttctl add-trigger \
	--name arrs --condition=event-rule-matches --type=user --name=ltt_test:types \
	--filter='s32 == -100003' --capture=arr --capture=seq --capture=atext \
	--capture=stext --capture='arr[1]' --capture=u8 --action=notify
ok_cmd "and one of event 0's (an empty sequence)" lttctl add-trigger \
	--name arrs0 --condition=event-rule-matches --type=user --name=ltt_test:types \
	--filter='s32 == -100000' --capture=seq --capture=arr --action=notify

start_waiter w arrs
ok $? "wait-trigger arrs is subscribed"
TWAITER=$WAITER
start_waiter m arrs0 --mi xml
ok $? "wait-trigger --mi xml arrs0 is subscribed"
ust_app -n 10 -T >"$TEST_TMP/app.out"
wait $TWAITER
is $? 0 "arrs notified"
like "$(cat "$TEST_TMP/w.out")" \
	'captures: arr=\[3, -3, 7\], seq=\[3, -3, 7\], atext="gamm", stext="gamma", arr\[1\]=-3, u8=203$' \
	"the arrays' elements in order, signed; text whole as strings; an element and a number after them"
wait $WAITER
is $? 0 "arrs0 notified"
out=$(mi_valid "$TEST_TMP/m.out")
ok $? "its MI validates (xml/mi.xsd: an array's <elements>)" || diag "$out"
is "$(mi_xp 'count(//capture[1]/elements/element)' "$TEST_TMP/m.out"):$(mi_xp '//capture[1]/type' "$TEST_TMP/m.out")" \
	"0:array" "the empty sequence: an array of no element"
is "$(for k in 1 2 3; do printf '%s=%s ' "$(mi_xp "//capture[2]/elements/element[$k]/type" "$TEST_TMP/m.out")" \
	"$(mi_xp "//capture[2]/elements/element[$k]/value" "$TEST_TMP/m.out")"; done)" \
	"signed=0 signed=0 signed=7 " "arr of event 0: each element's type and value"
is "$(trigger_count arrs fired) $(trigger_count arrs0 fired)" "1 1" "each trigger fired once"
