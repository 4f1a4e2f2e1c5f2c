#!/bin/bash
# test_lttng_compat_agent.sh - an LTTng agent that refuses a rule fails
# the command that asked for it, as with LTTng's daemon: Debian's
# /usr/bin/lttng enables python events of a started session, and of one
# never started or stopped (as LTTng's daemon, ltt tells the agents every
# session's rules), while a fake Python agent (lttng_agent_fake.py) is
# registered; the ENABLEs it
# refuses (unknown logger, another status), a DISABLE it refuses, and an
# ENABLE it never answers (it closes its connection) make `lttng
# enable-event -p` (disable-event, add-trigger) fail with LTTng's daemon's code
# (Debian's lttng exits with its number) and the sentence LTTng's client
# prints for it, and the session keeps its rules; lttctl says ltt's
# AGENT_* sentence.  The agent thread logs which agent refused.  While a
# change waits for an agent's answer, LTTng's client lists the session
# (the state lock is given back).  As root
# in its own mount namespace (/var/run/lttng), as test_lttng_compat.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
python_env || skip_all "configured without the Python package (no python3)"
ust_setup --log --lttng-compat
plan 45

lttng_client
PORT=$(sed -n "s/.*LTTng's agents: port \([0-9]*\) on 127\.0\.0\.1.*/\1/p" "$SESSIOND_LOG" | head -1)
FAKE="$LTT_TOP_SRCDIR/tests/regression/lttng_agent_fake.py"

# python_rules [SESSION]: the python rules of SESSION (s), as lttng lists them
python_rules() {
	lttng list "${1:-s}" -p | sed -n 's/^ *- \([a-z]*\.logger\) .*/\1/p' | sort | tr '\n' ' '
}

ok_cmd "lttng create s" lttng create s -o "$TEST_TMP/s"
ok_cmd "lttng enable-event -p kept.logger" lttng enable-event -p kept.logger -s s
ok_cmd "lttng start s" lttng start s

# one Python agent (domain 5) that refuses three kinds of loggers
mkfifo "$TEST_TMP/fake.in" "$TEST_TMP/fake.out"
AGENT_REFUSE="unknown.:3,invalid.:2,gone.:close,held.:hold" AGENT_REFUSE_DISABLE="kept.:3" \
	timeout "$TEST_TIMEOUT" \
	env "${PYENV[@]}" "$PYTHON3" -B "$FAKE" "$PORT" 5 1 0 8 x \
	<"$TEST_TMP/fake.in" >"$TEST_TMP/fake.out" &
FAKE_PID=$!
trap 'kill "$FAKE_PID" 2>/dev/null; _cleanup' EXIT
exec {FAKE_IN}>"$TEST_TMP/fake.in"
exec {FAKE_OUT}<"$TEST_TMP/fake.out"
read -r -t "$TEST_TIMEOUT" LINE <&"$FAKE_OUT"
is "$LINE" "registered 1 closed 0" "a fake Python agent registers"
BEFORE=$(python_rules)
is "$BEFORE" "kept.logger " "the session's python rules before"

# refused LOGGER CODE NAME SENTENCE: lttng enable-event -p LOGGER fails
# with LTTng's code NAME (its number CODE) and lttng's SENTENCE for it,
# the session's python rules unchanged (3 checks)
refused() {
	run lttng enable-event -p "$1" -s s
	is "$RC" "$2" "lttng enable-event -p $1: LTTng's $3 ($2)" || diag "$OUT"
	like "$OUT" "Error: Event ${1//./\\.}: $4 \\(channel .*session s\\)" \
		"... with lttng's sentence for its daemon's $3"
	is "$(python_rules)" "$BEFORE" "... and the session's rules are unchanged"
}

# --- a logger the agent does not know: LTTng's UST_EVENT_NOT_FOUND
refused unknown.logger 76 UST_EVENT_NOT_FOUND "UST event not found"
like "$(cat "$SESSIOND_LOG")" "LTTng python agent of pid [0-9]+ \\(.*\\) refused ENABLE \\(status 3: no such logger\\)" \
	"the daemon's log names the agent that refused"
run lttctl enable-event -p unknown.logger -s s
ok "$([ "$RC" != 0 ] && echo 0 || echo 1)" "lttctl enable-event -p of it fails too (status $RC)"
like "$OUT" "knows no logger of that name, and refused the rule: nothing was changed" \
	"... with ltt's AGENT_UNKNOWN_NAME" || diag "$OUT"
unlike "$(lttctl list s)" "unknown\\.logger" "... and lttctl lists no such rule"

# --- another refusal: LTTng's UNK
refused invalid.logger 11 UNK "Unknown error"
run lttctl enable-event -p invalid.logger -s s
like "$RC:$OUT" "^[1-9][0-9]*:.*refused the rule: nothing was changed; the session daemon's log names the program and the agent's answer" \
	"... lttctl says AGENT_REFUSED" || diag "$OUT"

# --- a DISABLE the agent refuses: the rule stays enabled
run lttng disable-event -p kept.logger -s s
is "$RC" 76 "lttng disable-event -p of a logger whose DISABLE the agent refuses: UST_EVENT_NOT_FOUND (76)" ||
	diag "$OUT"
like "$OUT" "Error: .*kept\.logger.*UST event not found" "... with LTTng's sentence"
like "$(lttng list s -p)" "kept\.logger \[enabled\]" "... and the rule is still enabled"

# --- a trigger's python rule the agent refuses: not added, as LTTng's REGISTER_TRIGGER
run lttng add-trigger --name tr --condition event-rule-matches --type=python --name=unknown.trig \
	--action notify
like "$RC:$OUT" "^1:Error: Failed to register trigger: UST event not found\\." \
	"lttng add-trigger of a python rule the agent refuses: LTTng's UST_EVENT_NOT_FOUND" || diag "$OUT"
run lttctl list-triggers
is "$RC:$STDOUT" "0:" "... and no trigger was added"
run lttctl add-trigger --name tr --condition event-rule-matches --type=python --name=unknown.trig \
	--action notify
like "$RC:$OUT" "^[1-9][0-9]*:.*knows no logger of that name, and refused the rule: nothing was changed" \
	"lttctl add-trigger of it says ltt's AGENT_UNKNOWN_NAME" || diag "$OUT"
ok_cmd "a python trigger the agent takes is added" lttng add-trigger --name tk \
	--condition event-rule-matches --type=python --name=taken.trig --action notify
like "$(lttctl list-triggers)" "tk" "... and listed"

# --- while a change waits for the agent's answer, the session's state
# lock is given back: LTTng's client lists the session at once
lttctl enable-event -p held.logger -s s >"$TEST_TMP/held.out" 2>&1 &
HELD_PID=$!
read -r -t "$TEST_TIMEOUT" LINE <&"$FAKE_OUT"
is "$LINE" "held held.logger" "the agent has the ENABLE of held.logger and holds its answer"
run timeout 2 "$LTTNG" list s -p
like "$RC:$(echo $OUT)" "^0:Recording session s: .*kept\.logger \[enabled\]" \
	"lttng list s answers while lttctl enable-event waits for the agent (was blocked until its 3 s ended)" ||
	diag "$RC: $OUT"
echo answer >&"$FAKE_IN"
wait "$HELD_PID"
HELD_RC=$?
is "$HELD_RC:$(cat "$TEST_TMP/held.out")" \
	"0:Event rule held.logger enabled in channel lttng_python_channel of session s (python)." "... then the answer comes and lttctl enable-event -p held.logger succeeds" ||
	diag "$(cat "$TEST_TMP/held.out")"
is "$(python_rules)" "held.logger kept.logger " "... and lttng lists the rule"
BEFORE=$(python_rules)

# --- a session that is not active: LTTng's daemon tells the agents its
# rules all the same, so an agent's refusal fails enable-event there, as
# in an active session, and never a later start (ltt told the agents a
# session's rules at its start, and only logged a refusal then)
ok_cmd "lttng create t (not started)" lttng create t -o "$TEST_TMP/t"
run lttng enable-event -p unknown.logger -s t
like "$RC:$OUT" "^76:Error: Event unknown\.logger: UST event not found \(channel .*session t\)" \
	"lttng enable-event -p in a session never started, the agent knows no such logger: LTTng's UST_EVENT_NOT_FOUND (76)"
run lttctl enable-event -p unknown.logger -s t
like "$RC:$ERR" "^1:Error: .*knows no logger of that name, and refused the rule: nothing was changed" \
	"... lttctl says AGENT_UNKNOWN_NAME" || diag "$OUT"
is "$(python_rules t)" "" "... and the session has no rule"
ok_cmd "lttng enable-event -p t.logger, the agent takes it" lttng enable-event -p t.logger -s t
ok_cmd "lttng start t: nothing more to tell the agents" lttng start t
ok_cmd "lttng stop t" lttng stop t
run lttng enable-event -p invalid.logger -s t
like "$RC:$OUT" "^11:Error: Event invalid\.logger: Unknown error \(channel .*session t\)" \
	"lttng enable-event -p in the stopped session, the agent refuses: LTTng's UNK (11)"
run lttctl enable-event -p invalid.logger -s t
like "$RC:$ERR" "^1:Error: .*refused the rule: nothing was changed" "... lttctl says AGENT_REFUSED" || diag "$OUT"
is "$(python_rules t)" "t.logger " "... and the session has its one rule"
like "$(cat "$SESSIOND_LOG")" "LTTng python agent of pid [0-9]+ \(.*\) refused ENABLE \(status 2" \
	"the daemon's log names the agent that refused"

# --- the agent closes its connection instead of answering: UST_ENABLE_FAIL
refused gone.logger 63 UST_ENABLE_FAIL "Enable UST event failed"

# with no agent left, a rule is taken again
ok_cmd "lttng enable-event -p later.logger, no agent registered" \
	lttng enable-event -p later.logger -s s
is "$(python_rules)" "held.logger kept.logger later.logger " "... and listed"
ok_cmd "lttng destroy -a" lttng destroy -a
