#!/bin/bash
# test_lttng_agent_reach.sh - whose LTTng agents a member's session
# reaches on the root daemon (issue 77), as test_ust_member_reach.sh
# asks of programs: Debian's Python agent (python3-lttngust) run by two
# members of the tracing group, A and B, while A's session enables a
# python logger.  By default (--member-reach=own) A's agent is told the
# rule (its handler comes) and B's is not, and B's list -p shows its own
# agent alone; root's session reaches both; with --member-reach=all
# (LTTng's tracing group) A's rule reaches B's agent too.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
python_env || skip_all "configured without the Python package (no python3)"
"$PYTHON3" -c 'import lttngust.cmd' 2>/dev/null ||
	skip_all "Debian's python3-lttngust is not installed (scripts/deps.sh)"
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup to act as a user"
plan 12
A=4151 B=4152
APP="$LTT_TOP_SRCDIR/tests/regression/lttng_agent_app.py"

# as UID CMD...: CMD run by UID (of the group nogroup), at home in
# $TEST_TMP/homeUID, with this test's daemon; its agents read the
# daemon's agent port from AGENT_HOME (LTTNG_HOME)
as() {
	local u=$1
	shift
	timeout "$TEST_TIMEOUT" setpriv --reuid="$u" --regid=nogroup --clear-groups \
		env HOME="$TEST_TMP/home$u" LTT_HOME="$TEST_TMP/home$u" LTT_RUNDIR="$LTT_RUNDIR" \
		LTTNG_HOME="$TEST_TMP/agent-home" "$@"
}
for u in $A $B; do
	mkdir -p "$TEST_TMP/home$u" && chown "$u:nogroup" "$TEST_TMP/home$u"
done
mkdir -p "$TEST_TMP/agent-home/.lttng"

# agent_start U: user U's agent program in the background, talking on
# two FIFOs (fds IN[U], OUT[U]); READY: its first line, "ready N" (N: its
# handlers once registered, 1 when a rule reaches it)
declare -A IN OUT
agent_start() {
	mkfifo "$TEST_TMP/in$1" "$TEST_TMP/out$1"
	as "$1" env "${PYENV[@]}" "$PYTHON3" -B "$APP" <"$TEST_TMP/in$1" >"$TEST_TMP/out$1" &
	exec {fd}<>"$TEST_TMP/in$1"
	IN[$1]=$fd
	exec {fd}<>"$TEST_TMP/out$1"
	OUT[$1]=$fd
	READY=
	read -r -t 30 READY <&"${OUT[$1]}"
}
# handlers U N: U's agent's handlers once N are there (or 10 s passed)
handlers() {
	local line
	echo "handlers $2" >&"${IN[$1]}"
	read -r -t 30 line <&"${OUT[$1]}"
	echo "${line#handlers }"
}
agents_stop() {
	local u
	for u in $A $B; do
		echo exit >&"${IN[$u]}"
		exec {IN[$u]}>&- {OUT[$u]}<&-
		rm -f "$TEST_TMP/in$u" "$TEST_TMP/out$u"
	done
	wait
}

# daemon ARGS...: the root daemon, its agent port where the members' agents look
daemon() {
	root_sessiond "$@"
	wait_fs "$LTT_AGENTS_HOME/.lttng/agent.port" -- test -s "$LTT_AGENTS_HOME/.lttng/agent.port" ||
		{ echo "Bail out! no agent port file"; exit 1; }
	cp "$LTT_AGENTS_HOME/.lttng/agent.port" "$TEST_TMP/agent-home/.lttng/agent.port"
	chmod -R a+rX "$TEST_TMP/agent-home"
}

# a_session DIR: A's session a, writing to A's DIR, enables qa.app and starts
a_session() {
	as $A "$LTTCTL_BIN" -q create a -o "$TEST_TMP/home$A/$1" &&
		as $A "$LTTCTL_BIN" -q enable-event -p qa.app -s a && as $A "$LTTCTL_BIN" -q start a
}

# --- the default: a member's rule reaches its own user's agents alone
daemon
a_session t
ok $? "A's session enables the python logger qa.app"
agent_start $A
is "$READY" "ready 1" "A's agent: registered, told A's rule (its handler on)"
agent_start $B
is "$READY" "ready 0" "B's agent: registered, not told A's rule"
run as $B "$LTTCTL_BIN" list -p
is "$RC:$(grep -c '^PID: ' <<<"$STDOUT")" 0:1 "B's list -p: one agent program, B's own, not A's" ||
	diag "$STDOUT"
run lttctl list -p
is "$RC:$(grep -c '^PID: ' <<<"$STDOUT")" 0:2 "root's list -p: both" || diag "$STDOUT"
lttctl -q create r -o "$TEST_TMP/r" && lttctl -q enable-event -p qa.other -s r && lttctl -q start r
ok $? "root's session enables qa.other"
is "$(handlers $B 1)" 1 "root's rule reaches B's agent"
as $A "$LTTCTL_BIN" -q disable-event -p qa.app -s a
is "$(handlers $A 1)" 1 "A's rule disabled: A's agent keeps the handler root's rule gives"
agents_stop
lttctl -q destroy r
as $A "$LTTCTL_BIN" -q destroy a
term_sessiond

# --- --member-reach=all: LTTng's tracing group, every user's agents
daemon --member-reach=all
a_session t2
ok $? "--member-reach=all: A's session enables qa.app"
agent_start $A
is "$READY" "ready 1" "A's agent: told A's rule"
agent_start $B
is "$READY" "ready 1" "B's agent: told A's rule too"
as $A "$LTTCTL_BIN" -q disable-event -p qa.app -s a
is "$(handlers $B 0)" 0 "A's rule disabled: B's agent removes its handler (DISABLE)"
agents_stop
as $A "$LTTCTL_BIN" -q destroy a
term_sessiond
