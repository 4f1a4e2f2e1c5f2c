# tests/regression/agent-fake-lib.sh - fake LTTng JUL agents
# (lttng_agent_fake.py) against the test's own daemon, for the tests of
# the agent port's limits and pid checks (sourced after lib.sh and
# ust-lib.sh, bash).

# agent_fake_init: skip without what a fake agent of another user needs;
# start the daemon (its log in SESSIOND_LOG); plan N.
agent_fake_init() {
	can_switch_user || skip_all "needs root, setpriv and the user nobody (an agent of another user)"
	python_env || skip_all "configured without the Python package (no python3)"
	ust_setup --log
	plan "$1"
	PORT=$(cat "$LTT_AGENTS_HOME/.lttng/agent.port" 2>/dev/null)
	FAKE="$LTT_TOP_SRCDIR/tests/regression/lttng_agent_fake.py"
	FAKE_PIDS=
	NOBODY=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	trap 'for p in $FAKE_PIDS; do kill "$p"; done 2>/dev/null; _cleanup' EXIT
}

# fake_agent NAME [nobody] [claim=PID] CONNS NAMES NAME-LEN PREFIX: a fake
# JUL agent (as nobody if said; claiming pid PID, else its own) of CONNS
# connections with NAMES loggers of NAME-LEN bytes named PREFIX..., its
# stdin held on fd IN_NAME (closing it ends the agent), its first line
# ("registered R closed C") in LINE, its pid in PID_NAME and the pid of
# its python in PY_NAME.
fake_agent() {
	local name=$1 w r
	local pre=() claim=()
	shift
	if [ "$1" = nobody ]; then
		pre=("${NOBODY[@]}")
		shift
	fi
	if [[ "$1" == claim=* ]]; then
		claim=(AGENT_PID="${1#claim=}")
		shift
	fi
	mkfifo "$TEST_TMP/$name.in" "$TEST_TMP/$name.out"
	timeout "$TEST_TIMEOUT" "${pre[@]}" env "${PYENV[@]}" "${claim[@]}" "$PYTHON3" -B "$FAKE" \
		"$PORT" 3 "$@" <"$TEST_TMP/$name.in" >"$TEST_TMP/$name.out" &
	FAKE_PIDS="$FAKE_PIDS $!"
	eval "PID_$name=$!"
	exec {w}>"$TEST_TMP/$name.in"
	exec {r}<"$TEST_TMP/$name.out"
	eval "IN_$name=$w"
	LINE=
	read -r -t "$TEST_TIMEOUT" LINE <&"$r"
	eval "PY_$name=\$(pgrep -P $! | head -1)"
}
