#!/bin/bash
# test_lttng_ust_record.sh - a program instrumented for LTTng-UST 2.13
# (Debian's headers and lttng-gen-tp, never ltt's) records into ltt
# unchanged through ltt's liblttng-ust.so.1 (ltt-run), and every value of
# every field type of LTTng's tracepoint-event.h (compat_tp.tp) reads
# exactly as in the trace Debian's LTTng records of the same binary (a
# private lttng-sessiond, its own LTTNG_HOME), timestamps, hostnames and
# contexts left out: compared through babeltrace2 and babeltrace 1.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
ust_setup
plan 23

N=40
EVENTS=11	# compat_tp.tp's 8 events, a tracef and 2 tracelogs: compat_app emits each N times
compat_build

# --- ltt, through ltt-run ---
ok_cmd "ltt: create" lttctl create s1 -o "$TEST_TMP/ltt"
ok_cmd "ltt: enable compat:*" lttctl enable-event -u 'compat:*'
ok_cmd "ltt: enable tracef and tracelog" lttctl enable-event -u 'lttng_ust_trace*'
ok_cmd "ltt: start" lttctl start
compat_run $N
is $? 0 "the program runs under ltt-run"
ok_cmd "ltt: stop" lttctl stop s1
lttctl create dup -o "$TEST_TMP/ltt-dup" >/dev/null && lttctl enable-event -u compat:basic >/dev/null &&
	lttctl start dup >/dev/null && compat_run -p "$DUP_APP" $N && lttctl stop dup >/dev/null
ok $? "a program with the probes of one provider in two libraries runs under ltt-run"
bt "$TEST_TMP/ltt-dup" "$TEST_TMP/ltt-dup.txt"
is "$(count_events "$TEST_TMP/ltt-dup.txt" compat:basic)" $N "... and ltt records each of its $N events once"
bt "$TEST_TMP/ltt" "$TEST_TMP/ltt.txt"
is "$(count_events "$TEST_TMP/ltt.txt" compat:basic)" $N "ltt recorded $N compat:basic events"
is "$(grep -c '^\[' "$TEST_TMP/ltt.txt")" $((N * EVENTS)) "ltt recorded $N events of each of the $EVENTS"

# --- LTTng, Debian's own ---
if ! lttng_can_run; then
	skip 12 "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
	done_testing
	exit
fi
lttng_run '
	lttng create s -o "$TEST_TMP/lttng" &&
		lttng enable-event -u "compat:*" -s s &&
		lttng enable-event -u "lttng_ust_trace*" -s s &&
		lttng start s &&
		timeout "$TEST_TIMEOUT" "$APP" $N &&
		lttng stop s && lttng destroy s &&
	lttng create dup -o "$TEST_TMP/lttng-dup" &&
		lttng enable-event -u compat:basic -s dup && lttng start dup &&
		timeout "$TEST_TIMEOUT" "$DUP_APP" $N &&
		lttng stop dup && lttng destroy dup'
ok $? "LTTng records the same binary" || diag "$(cat "$TEST_TMP/lttng.log")"
bt "$TEST_TMP/lttng" "$TEST_TMP/lttng.txt"
is "$(count_events "$TEST_TMP/lttng.txt" compat:basic)" $N "LTTng recorded $N compat:basic events"
bt "$TEST_TMP/lttng-dup" "$TEST_TMP/lttng-dup.txt"
is "$(count_events "$TEST_TMP/lttng-dup.txt" compat:basic)" $N "... and $N of the two-library program, as ltt"

# --- field by field, with two readers ---
# babeltrace2 2.0's text sink prints an empty string or text sequence as
# the previous one of the same field (for either tracer's trace): its
# lines of the events with such fields (compat:strings, compat:seqs, a
# tracelog's empty message) are compared through babeltrace 1,
# which prints them right, as it prints every other line the same.
norm "$TEST_TMP/ltt.txt" | grep -v '^\(compat:strings\|compat:seqs\|lttng_ust_tracelog\):' >"$TEST_TMP/ltt.norm"
norm "$TEST_TMP/lttng.txt" | grep -v '^\(compat:strings\|compat:seqs\|lttng_ust_tracelog\):' >"$TEST_TMP/lttng.norm"
diff "$TEST_TMP/lttng.norm" "$TEST_TMP/ltt.norm" >"$TEST_TMP/diff"
ok $? "babeltrace2: every event's name and field values as LTTng records them" ||
	diag "$(head -20 "$TEST_TMP/diff")"
is "$(sed -n 2p "$TEST_TMP/ltt.norm")" \
	'compat:ints: { s8 = -128, u8 = 255, s16 = -32768, u16 = 65535, s32 = -2147483648, u32 = 4294967295, s64 = -9223372036854775808, u64 = 18446744073709551615, hs8 = 0x0, hu16 = 0xABCD, hs32 = 0x0, hu64 = 0xFEDCBA9876543210, ns16 = 0, nu32 = 67305985, ns64 = 0, nu8 = 200, nh16 = 0x3412, nh32 = 0x0, nh64 = 0x807060504030201 }' \
	"the first integers, each size and signedness, exactly"
grep '^compat:basic:' "$TEST_TMP/ltt.norm" | sed -n 3p >"$TEST_TMP/basic3"
is "$(cat "$TEST_TMP/basic3")" \
	'compat:basic: { i = 2, big = 2000000014, hex = 0xBE02, text = "gamma delta", neg = -2 }' \
	"the third compat:basic event's values, exactly"

if ! command -v babeltrace >/dev/null; then
	skip 6 "babeltrace (1) is not installed"
	done_testing
	exit
fi
for t in ltt lttng; do
	bt1 "$TEST_TMP/$t" "$TEST_TMP/$t.bt1.norm"
done
is "$(wc -l <"$TEST_TMP/ltt.bt1.norm")" $((N * EVENTS)) "babeltrace 1 reads every event ltt recorded"
diff "$TEST_TMP/lttng.bt1.norm" "$TEST_TMP/ltt.bt1.norm" >"$TEST_TMP/diff1"
ok $? "babeltrace 1: every event's name and field values as LTTng records them" ||
	diag "$(head -20 "$TEST_TMP/diff1")"
grep '^compat:strings:' "$TEST_TMP/ltt.bt1.norm" | sed -n '1,2p;7,8p' >"$TEST_TMP/strings"
is "$(cat "$TEST_TMP/strings")" \
'compat:strings: { first = "", second = "", after = 0, fixed = "x" }
compat:strings: { first = "b", second = "(null)", after = 1, fixed = "x" }
compat:strings: { first = "", second = "", after = 6, fixed = "x" }
compat:strings: { first = "été", second = "(null)", after = 7, fixed = "x" }' \
	"empty strings and NULL (\"(null)\") among others, exactly"
grep '^compat:\(seqs\|nowrite\):' "$TEST_TMP/ltt.bt1.norm" | sed -n '3,4p' >"$TEST_TMP/seqs"
is "$(cat "$TEST_TMP/seqs")" \
'compat:seqs: { _q8_length = 1, q8 = [ [0] = 1 ], _q16_length = 1, q16 = [ [0] = 1 ], _q32_length = 1, q32 = [ [0] = 1 ], _qsize_length = 2, qsize = [ [0] = 1, [1] = 0 ], _q64len_length = 0, q64len = [ ], _qtext_length = 1, qtext = "b", _qhex_length = 1, qhex = [ [0] = 0x1 ], _qnet_length = 1, qnet = [ [0] = 16777216 ], _qnethex_length = 1, qnethex = [ [0] = 0x1000000 ], after = 1 }
compat:nowrite: { before = 1, after = -1 }' \
	"a sequence of each length type, and the nowrite fields left out, exactly"
grep '^compat:enums:' "$TEST_TMP/ltt.bt1.norm" | sed -n '2p;5,7p' >"$TEST_TMP/enums"
is "$(cat "$TEST_TMP/enums")" \
'compat:enums: { c8 = ( "WARM" : container = 1 ), c16 = ( "NEXT" : container = 10 ), c32 = ( <unknown> : container = 196 ), c64 = ( <unknown> : container = 100 ), s8 = ( "NEGATIVE" : container = -2 ), s16 = ( "NEGATIVE" : container = -20 ), s32 = ( <unknown> : container = -2000 ), s64 = ( "NEGATIVE" : container = -100 ) }
compat:enums: { c8 = ( "WARM" : container = 4 ), c16 = ( <unknown> : container = 40 ), c32 = ( <unknown> : container = 199 ), c64 = ( <unknown> : container = 400 ), s8 = ( "ONE" : container = 1 ), s16 = ( "SMALL" : container = 10 ), s32 = ( <unknown> : container = 1000 ), s64 = ( "SMALL" : container = 50 ) }
compat:enums: { c8 = ( "WARM" : container = 5 ), c16 = ( <unknown> : container = 50 ), c32 = ( "BIG" : container = 200 ), c64 = ( <unknown> : container = 500 ), s8 = ( "SMALL" : container = 2 ), s16 = ( "SMALL" : container = 20 ), s32 = ( <unknown> : container = 2000 ), s64 = ( "HUNDRED" : container = 100 ) }
compat:enums: { c8 = ( "WARM" : container = 6 ), c16 = ( <unknown> : container = 60 ), c32 = ( "AFTER_BIG" : container = 201 ), c64 = ( <unknown> : container = 600 ), s8 = ( "SMALL" : container = 3 ), s16 = ( "SMALL" : container = 30 ), s32 = ( <unknown> : container = 3000 ), s64 = ( <unknown> : container = 150 ) }' \
	"enumerations of each container, ranges and automatic values (NEXT, AFTER_BIG, ONE, HUNDRED), exactly"
grep '^lttng_ust_trace' "$TEST_TMP/ltt.bt1.norm" | sed -n 4,6p >"$TEST_TMP/printf"
is "$(cat "$TEST_TMP/printf")" \
'lttng_ust_tracef:event: { _msg_length = 13, msg = "tracef 1 of b" }
lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING: { line = 41, file = "compat_app.c", func = "main", _msg_length = 10, msg = "warning -1" }
lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE: { line = 42, file = "compat_app.c", func = "main", _msg_length = 0, msg = "" }' \
	"tracef and tracelog under LTTng 2.13's names, exactly"
done_testing
