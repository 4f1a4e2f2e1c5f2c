#!/bin/bash
# test_lttng_agent_record.sh - Debian's own Python agent (python3-lttngust,
# whose liblttng-ust-python-agent.so links liblttng-ust.so.1), run under
# ltt-run, records its logging records into ltt's trace as
# lttng_python:event, and `lttctl enable-event -p` (logger names and
# patterns, --loglevel, --loglevel-only, --filter, -a, rules that overlap,
# two sessions) selects exactly the records Debian's LTTng records from
# the same program with the same rules: the same events, field by field
# (the time-stamp fields asctime and thread left out).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
command -v babeltrace >/dev/null || skip_all "babeltrace (1) is not installed"
python_env || skip_all "configured without the Python package (no python3)"
"$PYTHON3" -c 'import lttngust.cmd' 2>/dev/null ||
	skip_all "Debian's python3-lttngust is not installed (scripts/deps.sh)"
lttng_can_run || skip_all "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
ust_setup
plan 9

APP="$LTT_TOP_SRCDIR/tests/regression/lttng_agent_record.py" N=4
# SESSION|enable-event arguments (shell words); each one rule, in both tracers
RULES=(
	'a|qa.app --loglevel WARNING'
	'a|qa.other --loglevel-only ERROR'
	'a|"qa.fmt.*" --filter '\''msg == "keep*"'\'
	'a|"qa.*" --loglevel CRITICAL'
	'b|-a --loglevel INFO'
	'b|qa.app'
)
script= rc=0
for s in a b; do
	lttctl create $s -o "$TEST_TMP/ltt/$s" >/dev/null || rc=1
	script+="lttng create $s -o \"\$TEST_TMP/lttng/$s\" >/dev/null || exit 1
"
done
for r in "${RULES[@]}"; do
	s=${r%%|*} args=${r#*|}
	eval "lttctl enable-event -p -s $s $args" >/dev/null || rc=1
	script+="lttng enable-event -p -s $s $args >/dev/null || exit 1
"
done
ok $rc "ltt: two sessions, ${#RULES[@]} python rules"
lttctl start a >/dev/null && lttctl start b >/dev/null
compat_run -p "$PYTHON3" -B "$APP" $N
is $? 0 "the program, with Debian's lttngust, runs under ltt-run" || diag "$(cat "$TEST_TMP/app.err")"
lttctl stop a >/dev/null && lttctl stop b >/dev/null
export PYTHON3
lttng_run "$script"'lttng start a >/dev/null && lttng start b >/dev/null || exit 1
timeout "$TEST_TIMEOUT" "$PYTHON3" -B "$APP" $N || exit 1
lttng stop a >/dev/null && lttng stop b >/dev/null'
ok $? "LTTng records the same program with the same rules" || diag "$(cat "$TEST_TMP/lttng.log")"

# fields: the record's, without the time of day and the thread's id
fields() {
	bt1 "$1" "$2.all"
	sed -e 's/asctime = "[^"]*", //' -e 's/thread = [0-9]*, //' "$2.all" >"$2"
}
for s in a b; do
	fields "$TEST_TMP/ltt/$s" "$TEST_TMP/ltt.$s"
	fields "$TEST_TMP/lttng/$s" "$TEST_TMP/lttng.$s"
	same_events lttng_python:event "$s" "session $s"
done
like "$(grep -m1 'naïve' "$TEST_TMP/ltt.a")" \
	'msg = "naïve ünïcode, a "quote" and 100%", logger_name = "qa.app", funcName = "<module>", lineno = [0-9]+, int_loglevel = 30, threadName = "MainThread"' \
	"a record's fields as the handler gave them"
is "$(grep -c 'logger_name = "zz.none"' "$TEST_TMP/ltt.b")" $((5 * N)) \
	"session b: -a --loglevel INFO: the records of zz.none at INFO (20) and above"
done_testing
