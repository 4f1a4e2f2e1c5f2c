#!/bin/bash
# test_ust_tracef.sh - ltt_tracef() and ltt_tracelog() as lttng-ust
# records tracef() and tracelog(): events lttng_ust_tracef:event {msg}
# and lttng_ust_tracelog:TRACE_<LEVEL> {line, file, func, msg}, msg a
# text sequence (babeltrace2 shows _msg_length then msg); a rule's log
# level picks tracelog's levels, a filter reads msg, a long message is
# cut at 511 bytes.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
cc_cmd=${LTT_TEST_CC:-cc}
command -v "${cc_cmd%% *}" >/dev/null || skip_all "no C compiler to build the program"
plan 16
N=50

src="$TEST_TMP/tfapp.c"
cat >"$src" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <ltt/tracepoint.h>
static void log_some(int i)
{
	ltt_tracelog(TRACE_WARNING, "warn %d", i); /* WARN LINE */
	ltt_tracelog(LTT_LOGLEVEL_DEBUG, "debug %d", i);
}
int main(int argc, char **argv)
{
	char big[600];
	int n = argc > 1 ? atoi(argv[1]) : 0;

	for (int i = 0; i < n; i++) {
		ltt_tracef("tracef %d", i);
		log_some(i);
	}
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ltt_tracelog(ERR, "%s", big);
	return 0;
}
EOF
line=$(grep -n 'WARN LINE' "$src" | cut -d: -f1)
libdir="$LTT_TOP_BUILDDIR/src/ust/.libs"
app="$TEST_TMP/tfapp"
# shellcheck disable=SC2086
$cc_cmd ${LTT_TEST_CFLAGS:-} -o "$app" "$src" -I"$LTT_TOP_SRCDIR/include" -L"$libdir" \
	-lltt-ust -Wl,-rpath,"$libdir"
ok $? "a program calling ltt_tracef() and ltt_tracelog() builds"

# Levels: --loglevel WARNING takes WARNING and more severe (ERR), not DEBUG.
lttctl -q create s1 -o "$TEST_TMP/t1" &&
	lttctl -q enable-event -u lttng_ust_tracef:event &&
	lttctl -q enable-event -u 'lttng_ust_tracelog:*' --loglevel WARNING &&
	lttctl -q start
ok $? "a session: tracef, and tracelog's levels up to WARNING"
"$app" "$N"
is $? 0 "the program runs"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t1" "$TEST_TMP/o1"
is $? 0 "babeltrace2 reads the trace"
is "$(count_events "$TEST_TMP/o1" lttng_ust_tracef:event)" "$N" "$N tracef events"
is "$(count_events "$TEST_TMP/o1" lttng_ust_tracelog:TRACE_WARNING)" "$N" "$N at TRACE_WARNING"
is "$(count_events "$TEST_TMP/o1" lttng_ust_tracelog:TRACE_ERR)" 1 "one at TRACE_ERR"
is "$(grep -c 'lttng_ust_tracelog:TRACE_DEBUG' "$TEST_TMP/o1")" 0 "none at TRACE_DEBUG (below the rule's level)"
like "$(grep -m1 'tracef 42"' "$TEST_TMP/o1")" 'lttng_ust_tracef:event: \{ cpu_id = [0-9]+ \}, \{ _msg_length = 9, msg = "tracef 42" \}$' \
	"tracef: _msg_length and msg, as lttng-ust's"
like "$(grep -m1 'warn 42"' "$TEST_TMP/o1")" "lttng_ust_tracelog:TRACE_WARNING: \\{ cpu_id = [0-9]+ \\}, \\{ line = $line, file = \"$src\", func = \"log_some\", _msg_length = 7, msg = \"warn 42\" \\}\$" \
	"tracelog: line, file, func, then the message"
big=$(grep 'lttng_ust_tracelog:TRACE_ERR' "$TEST_TMP/o1")
like "$big" '_msg_length = 511, msg = "x{511}" \}$' "a 599-byte message cut at 511 bytes"
meta=$(find "$TEST_TMP/t1" -name metadata -exec cat {} + | tr -d '\0')
like "$(grep -A12 'name = "lttng_ust_tracelog:TRACE_WARNING"' <<<"$meta" | tr -d '\n\t')" \
	'loglevel = 4;.*_line;.*_file;.*_func;.*uint32_t __msg_length;.*encoding = UTF8.* _msg\[ __msg_length \];' \
	"metadata: TRACE_WARNING at level 4, msg a UTF8 sequence of __msg_length"

# A filter on the message.
lttctl -q create s2 -o "$TEST_TMP/t2" &&
	lttctl -q enable-event -u lttng_ust_tracelog:TRACE_WARNING --filter 'msg == "warn 1*"' &&
	lttctl -q start
ok $? "a session filtering TRACE_WARNING on msg == \"warn 1*\""
"$app" "$N"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t2" "$TEST_TMP/o2"
is "$(count_events "$TEST_TMP/o2" lttng_ust_tracelog:TRACE_WARNING)" 11 "11 of $N (warn 1, warn 10..19)"
is "$(grep -c 'msg = "warn 1[0-9]*"' "$TEST_TMP/o2")" 11 "  each one of them"

# The old name is gone: a rule for it matches nothing.
lttctl -q create s3 -o "$TEST_TMP/t3" && lttctl -q enable-event -u 'ltt_ust_tracef:*' &&
	lttctl -q enable-event -u 'lttng_ust_tracef:*' && lttctl -q start
"$app" 3
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t3" "$TEST_TMP/o3"
is "$(grep -c ' ltt_ust_tracef:' "$TEST_TMP/o3")/$(count_events "$TEST_TMP/o3" lttng_ust_tracef:event)" 0/3 \
	"ltt_ust_tracef:* matches nothing; lttng_ust_tracef:* the 3 events"
