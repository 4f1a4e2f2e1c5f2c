#!/bin/bash
# LTTng's agent protocol in the session daemon (issue 43): Debian's own
# Python agent (python3-lttngust, `import lttngust`), unchanged, finds
# ltt's daemon through the port file, registers, is told the python rules
# of the sessions, active or not, as LTTng's daemon tells them (its
# handler on the root logger comes and goes with them), reports its loggers to `lttctl list -p`, and is forgotten
# when it exits.  Agents that break the protocol are closed and logged,
# and nothing else changes.  (The agent's records reach ltt's buffers
# through liblttng-ust-python-agent, which needs ltt's liblttng-ust
# compat libraries: not asserted here.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

python_env || skip_all "configured without the Python package (no python3)"
"$PYTHON3" -c 'import lttngust.cmd' 2>/dev/null ||
	skip_all "Debian's python3-lttngust is not installed (scripts/deps.sh)"
ust_setup --log
plan 29

PORT_FILE="$LTT_AGENTS_HOME/.lttng/agent.port"
PORT=$(cat "$PORT_FILE" 2>/dev/null)
like "$PORT" '^[0-9]+$' "the daemon wrote its agent port to RUNDIR/lttng-agents/.lttng/agent.port"
ok "$([ ! -e "$HOME/.lttng" ]; echo $?)" \
	"and nothing under LTTng's paths (\$HOME/.lttng): not in LTTng's place, it leaves LTTng's agents to LTTng"

APP="$LTT_TOP_SRCDIR/tests/regression/lttng_agent_app.py"
# app_start: the program, as a coprocess; its first line is "ready N"
app_start() {
	coproc APP { env "${PYENV[@]}" LTTNG_HOME="$LTT_AGENTS_HOME" timeout "$TEST_TIMEOUT" "$PYTHON3" -B "$APP"; }
	APP_PID=$APP_PID
	coproc_hold APP app_out app_in
	read -r -t 30 LINE <&"$app_out"
}
# handlers N: the agent's handlers once N are there (or 10 s passed)
handlers() {
	echo "handlers $1" >&"$app_in"
	read -r -t 30 LINE <&"$app_out"
	echo "${LINE#handlers }"
}

ok_cmd "create s" lttctl create s -o "$TEST_TMP/t"
ok_cmd "enable-event -p qa.app --loglevel WARNING" lttctl enable-event -p qa.app --loglevel WARNING
ok_cmd "start" lttctl start

app_start
is "$LINE" "ready 1" "import lttngust returned registered, with its handler on (the rule's ENABLE came first)"
run lttctl list -p
like "$OUT" "Name: $PYTHON3\$" "list -p: the program of LTTng's agent, by its path"
like "$OUT" "    qa.app" "list -p: its logger qa.app (the agent's LIST reply)"
like "$OUT" "    qa.other" "list -p: its logger qa.other"
like "$(cat "$SESSIOND_LOG")" "LTTng python agent of pid [0-9]+ \(python3\) registered \(protocol 2.0\)" \
	"the daemon logged the registration"

ok_cmd "disable-event -p qa.app" lttctl disable-event -p qa.app
is "$(handlers 0)" 0 "the rule disabled: DISABLE, the agent removed its handler"
ok_cmd "enable-event -p -a" lttctl enable-event -p -a
is "$(handlers 1)" 1 "-p -a: ENABLE, the handler is back"
ok_cmd "stop" lttctl stop
is "$(handlers 1)" 1 "session stopped: the agent keeps its rules, as LTTng's agents keep every session's (no DISABLE)"
ok_cmd "disable-event -p -a of the stopped session" lttctl disable-event -p -a
is "$(handlers 0)" 0 "its rules disabled, the session active or not: DISABLE, the handler removed"

# --- agents that break the protocol: closed, logged, nothing else changes
# bad_agent BYTES: send them (printf format) and read until the daemon closes
bad_agent() {
	local fd got
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || return 2
	printf "$1" >&$fd
	got=$(timeout 10 od -An -tx1 <&$fd | tr -d ' \n')
	exec {fd}>&-
	echo "$got"
}
is "$(bad_agent '\0\0\0\143\0\0\0\1\0\0\0\2\0\0\0\0')" "" "a registration of domain 99: closed, nothing sent"
like "$(cat "$SESSIOND_LOG")" "\(unregistered\) agent .*registration of no LTTng agent domain or pid; connection closed" \
	"logged"
is "$(bad_agent '\0\0\0\5\0\0\0\1\0\0\0\1\0\0\0\0')" "" "protocol major 1: closed"
like "$(cat "$SESSIOND_LOG")" "it speaks the agent protocol 1.0, ltt 2.0; connection closed" "logged"
# a JUL agent (no JUL rule): REGISTRATION_DONE alone, then stray bytes
is "$(bad_agent '\0\0\0\3\0\0\0\1\0\0\0\2\0\0\0\0\0\0\0\1')" "00000000000000000000000400000000" \
	"a JUL agent: REGISTRATION_DONE (16 bytes), then closed for 4 bytes that answer nothing"
like "$(cat "$SESSIOND_LOG")" "it sent bytes that answer no command; connection closed" "logged"
run lttctl list -p
like "$OUT" "    qa.other" "list -p: the Python agent is still there"

# --- it exits: forgotten
echo exit >&"$app_in"
exec {app_in}>&- {app_out}<&-
wait "$APP_PID"
run lttctl list -p
unlike "$OUT" "qa.other" "list -p: the agent gone, its loggers gone"

ok_cmd "destroy" lttctl destroy s
stop_sessiond
[ ! -e "$PORT_FILE" ]
ok $? "the stopped daemon removed its port file"
ok "$([ ! -e "$LTT_AGENTS_HOME" ]; echo $?)" "and its directories in the run directory"
done_testing
