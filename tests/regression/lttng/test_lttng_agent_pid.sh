#!/bin/bash
# An LTTng agent's pid is its claim, checked against the process that
# holds its connection (issue 61): the daemon finds the peer's socket in
# /proc/net/tcp, and looks for it among the claimed process's descriptors
# (/proc/PID/fd) where it may read them (its own user's processes: the
# root daemon runs as nobody), else checks that the process is the
# socket's owner's (/proc/PID/status).  Fake JUL agents
# (lttng_agent_fake.py) claim: their own pid, as root and as nobody
# (registered, listed under their program's name); as nobody, the test
# shell's pid (root's) and another nobody process's (refused, the log
# says why, their loggers not listed); a pid no process has here
# (another PID namespace's, say: the system can't tell; registered,
# listed as a claim, under no program's name).  Before, every claim was
# taken: an agent's loggers showed under any process's name.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

. "$LTT_TOP_SRCDIR/tests/regression/agent-fake-lib.sh"
agent_fake_init 14

like "$PORT" '^[0-9]+$' "the daemon's agent port"
fake_agent own 1 3 20 own.
is "$LINE" "registered 1 closed 0" "root's agent that gives its own pid: registered"
fake_agent nbown nobody 1 3 20 nbown.
is "$LINE" "registered 1 closed 0" "nobody's agent that gives its own pid: registered"
fake_agent liar nobody claim=$$ 1 3 20 liar.
is "$LINE" "registered 0 closed 1" "nobody's agent that claims root's shell's pid ($$): refused"
like "$(cat "$SESSIOND_LOG")" "agent of pid $$ \\(\\?\\): refused: it claims pid $$, a process that does not hold its connection" \
	"the log says why"
"${NOBODY[@]}" sleep "$TEST_TIMEOUT" &
other=$!
FAKE_PIDS="$FAKE_PIDS $other"
fake_agent liar2 nobody claim=$other 1 3 20 liar2.
is "$LINE" "registered 0 closed 1" "nobody's agent that claims another of nobody's processes ($other): refused"
nopid=$(($(cat /proc/sys/kernel/pid_max) - 1))
while [ -e "/proc/$nopid" ]; do nopid=$((nopid - 1)); done
fake_agent far claim=$nopid 1 3 20 far.
is "$LINE" "registered 1 closed 0" "an agent that claims pid $nopid, which no process has here: registered"
like "$(cat "$SESSIOND_LOG")" "agent of pid $nopid \\(\\?\\) registered .*its pid is its claim, not checked" \
	"the log says its pid is not checked"

run lttctl list -j
is "$RC" 0 "list -j answers"
# the fake agents are python3: their program's name is python3's path
like "$(grep -A1 "^PID: $PY_own - " <<<"$STDOUT")" "^PID: $PY_own - Name: [^?]*python[^?]*
    own\\.x*\\.00000" "root's agent: its loggers under its program's name"
like "$(grep -A1 "^PID: $PY_nbown - " <<<"$STDOUT")" "^PID: $PY_nbown - Name: [^?]*python[^?]*
    nbown\\.x*\\.00000" "nobody's agent: its loggers under its program's name"
is "$(grep -c '^ *liar' <<<"$STDOUT")" 0 "the refused agents' loggers are not listed"
like "$(grep -A1 "^PID: $nopid - " <<<"$STDOUT")" "^PID: $nopid - Name: \\? \\(its agent's claim, not checked\\)
    far\\.x*\\.00000" "the unchecked pid: listed as its agent's claim, under no program's name"
is "$(grep -c "^PID: " <<<"$STDOUT")" 3 "three agents listed"
done_testing
