#!/bin/bash
# test_sessiond_client_idle.sh - client connections have an idle deadline by
# default (30 s between requests), libltt-ctl connects again by itself
# when the daemon closed its idle connection, a client refused by a cap
# gets that cap's advice, and a reply's error code this library does not
# know is shown by number, not taken for a malformed reply.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

CTL_IDLE="$LTT_TOP_BUILDDIR/tests/regression/ctl_idle"

test_init
need_proto_client
[ -x "$CTL_IDLE" ] || { echo "Bail out! $CTL_IDLE not built"; exit 1; }
plan 10

# wait_log FILE ERE: until a line of FILE matches (bounded).
wait_log() {
	timeout "$TEST_TIMEOUT" tail -n +1 -f "$1" | grep -q -m1 -E -- "$2"
}

# --- the default: a connection idle after HELLO is closed (30 s)
LOG="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" \
	</dev/null >/dev/null 2>"$LOG" || { echo "Bail out! the session daemon did not start"; exit 1; }
run "$SESSIOND" --help
like "$(tr -s ' \n' ' ' <<<"$OUT")" "client-idle-timeout=SECONDS close client connections idle so long between requests \\(default: 30; 0: never\\)" \
	"--help gives the default idle deadline"
run timeout 120 "$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" "hello" "expect-eof 90"
like "$OUT" "^HELLO OK .*"$'\n'"EOF\$" "without --client-idle-timeout, a client idle after HELLO is disconnected"
grep -q 'client pid [0-9]* uid [0-9]*: idle too long: disconnected' "$LOG"
ok $? "the daemon's log says why"

# --- libltt-ctl: the same handle works after the daemon closed it idle
term_sessiond
LOG2="$TEST_TMP/sessiond2.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --client-idle-timeout=1 \
	</dev/null >/dev/null 2>"$LOG2" || { echo "Bail out! the session daemon did not start"; exit 1; }
lttctl -q create kept --no-output
coproc IDLE { exec timeout 60 "$CTL_IDLE" "$LTT_RUNDIR"; }
idle_pid=$IDLE_PID  # bash unsets IDLE_PID once the coprocess is reaped
coproc_hold IDLE idle_out idle_in
read -r -t "$TEST_TIMEOUT" line <&"$idle_out"
is "$line" "FIRST rc=0 sessions=1" "a libltt-ctl connection lists the sessions"
wait_log "$LOG2" 'idle too long: disconnected'
ok $? "the daemon closes it once idle for 1 s"
echo go >&"$idle_in"
read -r -t "$TEST_TIMEOUT" line <&"$idle_out"
is "$line" "SECOND rc=0 sessions=1" "the same handle lists again: libltt-ctl connected again by itself"
exec {idle_out}<&- {idle_in}>&-
wait "$idle_pid"

# --- a reply with an error code this library does not know
mkdir -p "$TEST_TMP/newer"
coproc NEWER { exec timeout 60 python3 -c '
import socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(8)
print("ready", flush=True)
while True:
    c = s.accept()[0]
    for status in (0, 4242):
        hdr = c.recv(16, socket.MSG_WAITALL)
        if len(hdr) < 16:
            break
        magic, cmd, _, _, n = struct.unpack("<IHHII", hdr)
        c.recv(n, socket.MSG_WAITALL)
        if status:
            c.sendall(struct.pack("<IHHII", magic, cmd, 0, status, 0))
            continue
        ver = b"9.9.9\0"
        payload = struct.pack("<II", 1, 99) + struct.pack("<I", len(ver)) + ver
        c.sendall(struct.pack("<IHHII", magic, cmd, 0, 0, len(payload)) + payload)
    c.close()
' "$TEST_TMP/newer/client.sock"; }
newer_pid=$NEWER_PID  # bash unsets NEWER_PID once the coprocess is reaped
coproc_hold NEWER newer_out newer_in
read -r -t "$TEST_TIMEOUT" line <&"$newer_out"
is "$line" ready "a stand-in for a newer daemon is up"
run lttctl --rundir "$TEST_TMP/newer" list
is "$RC/$ERR" "1/Error: listing the sessions: error 4242, unknown to this version of libltt-ctl (a newer session daemon's?): its description comes with a newer lttctl" \
	"an unknown error code: lttctl exits 1 and shows its number, not 'malformed'"
kill "$newer_pid"
wait "$newer_pid" 2>/dev/null

# --- the per-user cap's refusal gives the cap's advice
if can_switch_user; then
	nhome="$TEST_TMP/nobody-home"
	nrun="$TEST_TMP/nobody-run"
	nobody_dir "$nhome"
	nobody_dir "$nrun"
	as_nobody env HOME="$nhome" LTT_HOME="$nhome" "$SESSIOND" --daemonize --rundir "$nrun" \
		--max-clients-per-uid=2
	d="$TEST_TMP/cl"
	mkdir "$d" && mkfifo "$d/in" "$d/out"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$PROTO_CLIENT" "$nrun/client.sock" \
		"conns 3" "pause" <"$d/in" >"$d/out" &
	cl_pid=$!
	exec {cl_in}>"$d/in" {cl_out}<"$d/out"
	read -t "$TEST_TIMEOUT" -r -u "$cl_out" LINE
	like "$LINE" "^CONNS ok=2 limit=1 " "nobody's 3rd connection is refused by the per-user cap"
	run as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$nrun" "$LTTCTL_BIN" list
	like "$RC/$ERR" "^1/Error: .*this user has too many connections to the session daemon open at once \\(64 by default\\): end the programs that keep libltt-ctl connections open .*--max-clients-per-uid$" \
		"lttctl refused by the per-user cap: exit 1, and the advice is the cap's"
	exec {cl_in}>&- {cl_out}<&-
	wait "$cl_pid"
	term_sessiond "$nrun"
else
	skip 2 "needs root, setpriv and a nobody user"
fi

term_sessiond
done_testing
