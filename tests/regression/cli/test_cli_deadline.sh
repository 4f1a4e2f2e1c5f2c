#!/bin/bash
# lttctl never hangs: every call to the session daemon has a deadline
# (--timeout SEC or LTT_CTL_TIMEOUT, 60 s by default, 0 for none).  A
# SIGSTOPped daemon makes each command exit 1 with a message naming the
# daemon that did not answer, within the deadline, and changes nothing;
# the daemon serves again once continued.  Bad values are usage errors.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
pid=$(sessiond_pid)
lttctl -q create s --no-output
lttctl -q enable-channel -u c
STATE=$("$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" dump)
m_timeout="Error: session daemon (run directory $LTT_RUNDIR): the session daemon did not answer in time (is it stopped or overloaded? its pid is in the run directory's sessiond.pid); allow more time with --timeout SEC or LTT_CTL_TIMEOUT"

# --- bad values
run lttctl --timeout abc list
is "$RC/$(head -n 1 <<<"$ERR")" "2/Error: invalid timeout 'abc' (--timeout or LTT_CTL_TIMEOUT): give seconds from 0 to 86400, e.g. 2.5 (0: never)" \
	"--timeout abc: usage error"
for v in -1 1e3 86401 "2.5s" " 1"; do
	run env LTT_CTL_TIMEOUT="$v" "$LTTCTL_BIN" list
	is "$RC/$(head -n 1 <<<"$ERR")" "2/Error: invalid timeout '$v' (--timeout or LTT_CTL_TIMEOUT): give seconds from 0 to 86400, e.g. 2.5 (0: never)" \
		"LTT_CTL_TIMEOUT='$v': usage error"
done
run lttctl --timeout 2.5 list
is "$RC/$OUT" "0/  1) s (no output) [inactive]" "--timeout 2.5 is accepted"
run env LTT_CTL_TIMEOUT=0 "$LTTCTL_BIN" list
is "$RC/$OUT" "0/  1) s (no output) [inactive]" "LTT_CTL_TIMEOUT=0 (no deadline) is accepted"

# --- a stopped daemon
stop_proc "$pid"	# every thread stopped: none answers a HELLO after
# The outer bound (timeout 30) only keeps a broken lttctl from hanging the
# suite; the deadline under test is 1 s, and a hang would show as 124.
for cmd in "list" "list s" "start s" "stop s" "destroy s" "enable-event -u ev -s s" "create t --no-output"; do
	# shellcheck disable=SC2086
	run timeout 30 "$LTTCTL_BIN" --timeout 1 $cmd
	is "$RC/$ERR" "1/$m_timeout" "daemon stopped: lttctl $cmd exits 1 at its deadline, naming the daemon"
done
run timeout 30 env LTT_CTL_TIMEOUT=0.5 "$LTTCTL_BIN" list
is "$RC/$ERR" "1/$m_timeout" "daemon stopped: LTT_CTL_TIMEOUT=0.5 bounds lttctl list too"
ok "$([ "$(sessiond_pid)" = "$pid" ] && ! [ -e "$TEST_TMP/home/.ltt/sessiond.pid" ]; echo $?)" \
	"create did not start a second daemon beside the stopped one"
kill -CONT "$pid"

# --- it serves again, unchanged
run lttctl list
is "$RC/$OUT" "0/  1) s (no output) [inactive]" "continued, the daemon serves again"
is "$("$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" dump)" "$STATE" "the timed-out commands changed nothing"

# --- a daemon that accepts but never answers: a listener that is not one
mkdir -p "$TEST_TMP/mute"
coproc MUTE { exec timeout 60 python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(8)
print("ready", flush=True)
conns = []
while True:
    conns.append(s.accept()[0])
' "$TEST_TMP/mute/client.sock"; }
mute_pid=$MUTE_PID  # bash unsets MUTE_PID once the coprocess is reaped
coproc_hold MUTE mute_out mute_in
read -r -t "$TEST_TIMEOUT" line <&"$mute_out"
is "$line" ready "a mute listener is up"
run timeout 30 "$LTTCTL_BIN" --timeout 1 --rundir "$TEST_TMP/mute" list
is "$RC/$ERR" "1/Error: session daemon (run directory $TEST_TMP/mute): the session daemon did not answer in time (is it stopped or overloaded? its pid is in the run directory's sessiond.pid); allow more time with --timeout SEC or LTT_CTL_TIMEOUT" \
	"a listener that accepts and never answers HELLO: lttctl exits 1 at its deadline"
kill "$mute_pid"
wait "$mute_pid" 2>/dev/null

# --- a daemon that answers HELLO, then stalls: the deadline holds per call
mkdir -p "$TEST_TMP/stall"
coproc STALL { exec timeout 60 python3 -c '
import socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(8)
print("ready", flush=True)
conns = []
while True:
    c = s.accept()[0]
    conns.append(c)
    hdr = c.recv(16, socket.MSG_WAITALL)
    c.recv(struct.unpack("<I", hdr[12:16])[0], socket.MSG_WAITALL)
    ver = b"0.0.0\0"
    payload = struct.pack("<II", 1, 0) + struct.pack("<I", len(ver)) + ver
    c.sendall(struct.pack("<IHHII", 0x4c54544c, 1, 0, 0, len(payload)) + payload)
' "$TEST_TMP/stall/client.sock"; }
stall_pid=$STALL_PID  # bash unsets STALL_PID once the coprocess is reaped
coproc_hold STALL stall_out stall_in
read -r -t "$TEST_TIMEOUT" line <&"$stall_out"
is "$line" ready "a daemon that stalls after HELLO is up"
run timeout 30 "$LTTCTL_BIN" --timeout 1 --rundir "$TEST_TMP/stall" list
is "$RC/$ERR" "1/Error: listing the sessions: the session daemon did not answer in time (is it stopped or overloaded? its pid is in the run directory's sessiond.pid); allow more time with --timeout SEC or LTT_CTL_TIMEOUT" \
	"a daemon that answers HELLO, then not LIST_SESSIONS: lttctl exits 1 at the call's deadline, naming the call"
run timeout 30 "$LTTCTL_BIN" --timeout 1 --rundir "$TEST_TMP/stall" start s
is "$RC/$ERR" "1/Error: session 's': the session daemon did not answer in time (is it stopped or overloaded? its pid is in the run directory's sessiond.pid); allow more time with --timeout SEC or LTT_CTL_TIMEOUT" \
	"the same for start"
kill "$stall_pid"
wait "$stall_pid" 2>/dev/null

term_sessiond
done_testing
