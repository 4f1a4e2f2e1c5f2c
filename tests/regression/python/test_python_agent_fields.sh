#!/bin/bash
# ltt's Python agent (import ltt.agent, its handler in C) records the
# fields LTTng's agent records: one program (python_agent_fields.py) logs
# the same records once through ltt.agent and once through Debian's
# lttngust under ltt-run, each into a session of ltt's recording qa.*;
# the two traces hold the same lttng_python:event records, field by
# field, asctime and thread included (the program gives each record its
# time and thread id): arguments positional and named, none, a message
# that is no str, non-ASCII text, every level and one of the program's
# own, numbers past 32 bits and a negative one, a worker thread, a
# factory's record class with its own getMessage(), asctime in local
# time (TZ), in UTC and with "%s.%03d" milliseconds; a message that
# fails to format recorded by neither (and ltt's handler does not raise
# into the program, where lttngust's does);
# a KeyboardInterrupt raised in str() of a message goes through both.
# Then a few of ltt's records, value by value.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
python_env || skip_all "configured without the Python package (no python3 with Python.h: python3-dev)"
"$PYTHON3" -c 'import lttngust.cmd' 2>/dev/null ||
	skip_all "Debian's python3-lttngust is not installed (scripts/deps.sh)"
ust_setup
plan 17

python_agent_pkg "$TEST_TMP/py"
APP="$LTT_TOP_SRCDIR/tests/regression/python_agent_fields.py"
# local time 5 h 30 ahead of UTC, with no time zone file needed
export TZ=XYZ-5:30

for s in mine theirs; do
	lttctl create $s -o "$TEST_TMP/$s" >/dev/null && lttctl enable-event -s $s -p 'qa.*' >/dev/null
done
ok $? "two sessions recording qa.* at any level"
lttctl start mine >/dev/null
run env "${PYENV[@]}" PYTHONPATH="$TEST_TMP/py" timeout "$TEST_TIMEOUT" "$PYTHON3" -B "$APP" ltt
is "$RC:$(echo $STDOUT)" "0:interrupted done 27" \
	"the program ran with ltt.agent: 27 records logged; only KeyboardInterrupt raised into it"
lttctl stop mine >/dev/null
lttctl start theirs >/dev/null
run compat_run -p "$PYTHON3" -B "$APP" lttng
is "$RC:$(echo $STDOUT)" "0:raised raised interrupted done 27" \
	"the program ran with Debian's lttngust under ltt-run (whose handler raised for the 2 messages that fail)" ||
	diag "$(cat "$TEST_TMP/app.err")"
lttctl stop theirs >/dev/null

for s in mine theirs; do
	bt "$TEST_TMP/$s" "$TEST_TMP/$s.raw"
	norm "$TEST_TMP/$s.raw" | grep '^lttng_python:event: ' >"$TEST_TMP/$s.ev"
done
is "$(wc -l <"$TEST_TMP/mine.ev")" 24 "ltt.agent: 24 events (the 2 records that fail to format left out)"
is "$(wc -l <"$TEST_TMP/theirs.ev")" 24 "lttngust: 24 events"
diff "$TEST_TMP/theirs.ev" "$TEST_TMP/mine.ev" >"$TEST_TMP/diff"
ok $? "the same events, field by field, asctime and thread included" || diag "$(head -8 "$TEST_TMP/diff")"

line() { grep -n "$1" "$APP" | head -1 | cut -d: -f1; }
is "$(head -1 "$TEST_TMP/mine.ev")" \
	"lttng_python:event: { asctime = \"2023-11-15 03:43:20,000\", msg = \"positional args 7\", logger_name = \"qa.app\", funcName = \"main\", lineno = $(line 'positional %s'), int_loglevel = 30, thread = 4000, threadName = \"MainThread\" }" \
	"the first record, every field: local asctime, the formatted message, the caller"
grep -q 'msg = "named x-2", ' "$TEST_TMP/mine.ev"
ok $? "named arguments"
is "$(grep -c 'msg = "a thing formatted", \|msg = "42", \|msg = "no arguments, 100%", ' "$TEST_TMP/mine.ev")" 3 \
	"a message that is no str, an int, and one without arguments"
grep -q 'msg = "naïve ünïcode €, a \\"quote\\" and a \\\\ backslash", ' "$TEST_TMP/mine.ev"
ok $? "non-ASCII text, quotes and a backslash"
is "$(grep -c 'logger_name = "qa.other.sub", .*int_loglevel = 25, ' "$TEST_TMP/mine.ev")" 1 "a level of the program's own (25)"
like "$(grep 'from a worker' "$TEST_TMP/mine.ev")" 'int_loglevel = 40, thread = 4013, threadName = "worker-1" }' \
	"a worker thread's name"
like "$(grep 'custom' "$TEST_TMP/mine.ev")" 'msg = "\[custom\] through a factory class", ' \
	"a factory's record class: its getMessage()"
is "$(grep -c 'msg = "\(é€|-9223372036854775808|0|12|%|9223372036854775807|-5\|True 0 3.5 3 2 1\|18446744073709551616     3 ff a thing %s sub|ab\| end %s %%\)", ' "$TEST_TMP/mine.ev")" 4 \
	"%s of a str or an int, %d, %i, %u, %%, and what Python formats beside them (a bool, a float, an int of 65 bits, a width, %x, a str's subclass)"
like "$(grep 'wide numbers' "$TEST_TMP/mine.ev")" 'lineno = 9, int_loglevel = 30, thread = 4294967291, ' \
	"a level and a line past 32 bits and a negative thread id, as 32 bits"
is "$(grep -c 'msg = "own modulo of 2 arguments", ' "$TEST_TMP/mine.ev")" 1 \
	"a message whose str() is a str subclass: its own % (__mod__), as getMessage() formats it"
is "$(sed -n 's/.*asctime = "\([^"]*\)", msg = "\(utc\|msec with a dot\).*/\1/p' "$TEST_TMP/mine.ev" | tr '\n' ' ')" \
	"2023-11-14 22:13:36,000 2023-11-14 22:13:36,400 2023-11-14 22:13:46.800 2023-11-14 22:13:47.200 " \
	"asctime in UTC (Formatter.converter), then also with \"%s.%03d\" milliseconds"
