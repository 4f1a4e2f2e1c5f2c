#!/bin/bash
# test_lttng_agent_beside.sh - Debian's LTTng and ltt side by side, both
# root daemons (a mount namespace with its own /run), with LTTng's own
# agents (Debian's python3-lttngust and the JUL agent of
# liblttng-ust-agent-java): each daemon records its own sessions' agent
# events (issue 80).
#
# Before, ltt's root daemon wrote LTTng's /var/run/lttng/agent.port too:
# started after Debian's lttng-sessiond, it took every agent, and
# LTTng's sessions recorded no agent event and said nothing.  Now a
# daemon not in LTTng's place writes its port in its own run directory
# (lttng-agents/.lttng/agent.port), which ltt-run points the agents at;
# a daemon in LTTng's place (--lttng-compat) refuses to start while
# LTTng's port file names a port another daemon listens on.
#
# The same program runs twice: plainly (Debian's libraries: LTTng
# records it) with N1 rounds, and under ltt-run (ltt records it) with N2:
# each tracer's count is its own run's, N1 or N2 rounds' worth.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
python_env || skip_all "configured without the Python package (no python3)"
"$PYTHON3" -c 'import lttngust.cmd' 2>/dev/null ||
	skip_all "Debian's python3-lttngust is not installed (scripts/deps.sh)"
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
JARS=/usr/share/java JNI=/usr/lib/x86_64-linux-gnu/jni
CP="$JARS/lttng-ust-agent-common.jar:$JARS/lttng-ust-agent-jul.jar:$JARS/lttng-ust-agent-log4j.jar:$JARS/log4j-1.2.jar"
JAVA=1
command -v javac >/dev/null || JAVA=
for j in ${CP//:/ } $JNI/liblttng-ust-jul-jni.so; do
	[ -f "$j" ] || JAVA=
done
test_init
plan 18

# both root daemons, in this namespace's /run
export LTT_RUNDIR=/run/ltt
LTT_AGENTS_HOME=$LTT_RUNDIR/lttng-agents
LTTNG_PORT_FILE=/var/run/lttng/agent.port
# lttng_end: Debian's daemon stopped, and gone
lttng_end() {
	local pid
	pid=$(cat "$TEST_TMP/lttng-sessiond.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null && wait_pid_exit "$pid"
	rm -f "$TEST_TMP/lttng-sessiond.pid"
}
trap 'lttng_end; stop_sessiond; _cleanup' EXIT
lttng_client
mkdir -p /run/lttng
timeout "$TEST_TIMEOUT" lttng-sessiond --daemonize --no-kernel \
	--pidfile="$TEST_TMP/lttng-sessiond.pid" >"$TEST_TMP/lttng.log" 2>&1 ||
	{ echo "Bail out! Debian's lttng-sessiond did not start"; exit 1; }
wait_fs /var/run/lttng -- test -s "$LTTNG_PORT_FILE" ||
	{ echo "Bail out! Debian's lttng-sessiond wrote no agent port"; exit 1; }
lttng_port=$(cat "$LTTNG_PORT_FILE")

logged_sessiond --no-kernel || { echo "Bail out! ltt's root daemon did not start"; exit 1; }
is "$(cat "$LTTNG_PORT_FILE")" "$lttng_port" \
	"ltt's root daemon, started after Debian's, leaves LTTng's agent port file alone (port $lttng_port)"
ltt_port=$(cat "$LTT_AGENTS_HOME/.lttng/agent.port" 2>/dev/null)
like "$ltt_port" "^[0-9]+\$" "it writes its own in its run directory ($LTT_AGENTS_HOME/.lttng/agent.port)"
ok "$([ "$ltt_port" != "$lttng_port" ]; echo $?)" "... another port ($ltt_port)"

# a session in each, recording every agent event of the domains
{ lttng create l -o "$TEST_TMP/lttng" && lttng enable-event -p 'qa.*' &&
	lttng enable-event -j 'qa.*' && lttng start; } >"$TEST_TMP/lttng.out" 2>&1
ok $? "LTTng: a session of python and JUL events" || diag "$(cat "$TEST_TMP/lttng.out")"
{ lttctl create t -o "$TEST_TMP/ltt" && lttctl enable-event -p 'qa.*' &&
	lttctl enable-event -j 'qa.*' && lttctl start; } >"$TEST_TMP/ltt.out" 2>&1
ok $? "ltt: the same" || diag "$(cat "$TEST_TMP/ltt.out")"

N1=2 N2=3
PY="$LTT_TOP_SRCDIR/tests/regression/lttng_agent_record.py"
if [ -n "$JAVA" ]; then
	mkdir -p "$TEST_TMP/classes"
	javac -d "$TEST_TMP/classes" -cp "$CP" "$LTT_TOP_SRCDIR/tests/regression/java/LttngJavaApp.java" ||
		{ echo "Bail out! LttngJavaApp.java does not compile"; exit 1; }
	JCP="$TEST_TMP/classes:$CP"
	printf 'enabled qa.app yes\nrecord %d\nexit\n' $N1 >"$TEST_TMP/in1"
	printf 'enabled qa.app yes\nrecord %d\nexit\n' $N2 >"$TEST_TMP/in2"
fi

# the programs run plainly, on Debian's libraries: LTTng's
timeout "$TEST_TIMEOUT" env "${PYENV[@]}" "$PYTHON3" -B "$PY" $N1 2>"$TEST_TMP/py1.err"
is $? 0 "a Python program run plainly, with Debian's lttngust ($N1 rounds)" ||
	diag "$(cat "$TEST_TMP/py1.err")"
if [ -n "$JAVA" ]; then
	timeout "$TEST_TIMEOUT" java -cp "$JCP" -Djava.library.path="$JNI" LttngJavaApp jul \
		<"$TEST_TMP/in1" >"$TEST_TMP/j1.out" 2>"$TEST_TMP/j1.err"
	is "$?:$(grep -v '^rule ' "$TEST_TMP/j1.out" | tr '\n' ' ')" "0:ready enabled qa.app yes recorded " \
		"a JUL program run plainly, with Debian's agent ($N1 rounds)" || diag "$(cat "$TEST_TMP/j1.err")"
else
	skip 1 "no Java compiler or LTTng's JUL agent (default-jdk-headless, liblttng-ust-agent-java)"
fi

# Under ltt-run an agent registers with both daemons (LTTng's root port
# file is read too); LTTng's Python agent then keeps a handler per daemon
# that enables a logger, and hands each record on once per handler, as
# it does with LTTng's root and user daemons: LTTng's rules go first
# (doc/agents.md)
{ lttng disable-event -p 'qa.*' && lttng disable-event -j 'qa.*'; } >"$TEST_TMP/lttng.out" 2>&1
ok $? "LTTng's rules disabled" || diag "$(cat "$TEST_TMP/lttng.out")"

# the same programs under ltt-run: ltt's
compat_run -p "$PYTHON3" -B "$PY" $N2
is $? 0 "the Python program under ltt-run ($N2 rounds)" || diag "$(cat "$TEST_TMP/app.err")"
if [ -n "$JAVA" ]; then
	compat_run -p java -cp "$JCP" -Djava.library.path="$JNI" LttngJavaApp jul \
		<"$TEST_TMP/in2" >"$TEST_TMP/j2.out"
	is "$?:$(grep -v '^rule ' "$TEST_TMP/j2.out" | tr '\n' ' ')" "0:ready enabled qa.app yes recorded " \
		"the JUL program under ltt-run ($N2 rounds)" || diag "$(cat "$TEST_TMP/app.err")"
else
	skip 1 "no Java compiler or LTTng's JUL agent"
fi

lttng stop l >/dev/null
lttctl stop t >/dev/null
# each tracer's count of EVENT: its own run's, N1 or N2 rounds of the same records
counts() {
	local a b
	a=$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/lttng" 2>/dev/null | grep -c " $1: ")
	b=$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/ltt" 2>/dev/null | grep -c " $1: ")
	ok "$([ "$a" -gt 0 ] && [ $((a * N2)) -eq $((b * N1)) ]; echo $?)" \
		"$1: LTTng recorded the plain run's ($a), ltt the ltt-run one's ($b): $N1 and $N2 rounds"
}
counts lttng_python:event
if [ -n "$JAVA" ]; then
	counts lttng_jul:event
else
	skip 1 "no Java agent"
fi

# --- a daemon in LTTng's place: refused while LTTng's port file names a listener
run lttng destroy l
lttng_end
stop_sessiond
ok "$([ ! -e "$LTT_AGENTS_HOME" ]; echo $?)" "ltt's daemon, stopped, removed its port file and its directories"
# a listener of another program's, its port in LTTng's file (no LTTng client socket)
coproc HOLD { exec "$PYTHON3" -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); sys.stdin.read()'; }
hold_pid=$HOLD_PID	# bash unsets HOLD_PID once it reaps the coprocess
coproc_hold HOLD hold_out hold_in
read -r -t "$TEST_TIMEOUT" held <&"$hold_out"
echo "$held" >"$LTTNG_PORT_FILE"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --lttng-compat --no-kernel
is "$RC" 1 "--lttng-compat, LTTng's port file naming a port in use: refused"
like "$ERR" "--lttng-compat: $LTTNG_PORT_FILE names port $held, where another daemon serves LTTng's agents .*: stop it, or run ltt-sessiond without --lttng-compat" \
	"... saying whose file it is and what to do"
is "$(cat "$LTTNG_PORT_FILE")" "$held" "... and the file is left as it was"
exec {hold_in}>&-
wait "$hold_pid"
start_sessiond "$LTT_RUNDIR" --lttng-compat --no-kernel
is $? 0 "once nothing listens there, a daemon in LTTng's place starts"
like "$(cat "$LTTNG_PORT_FILE")" "^[0-9]+\$" "... and writes its port in LTTng's file ($(cat "$LTTNG_PORT_FILE"))"
stop_sessiond
