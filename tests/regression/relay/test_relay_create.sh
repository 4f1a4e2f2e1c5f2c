#!/bin/bash
# lttctl create toward a relay: every bad option combination refused with
# its message and nothing created; the session daemon's create-time check
# of the relay moved to start (a closed port, a listener that is no relay,
# an old relay, one that never answers, a name that does not resolve),
# each named with the URL, create succeeding first; a relay that answers: the session exists, list shows its ports
# and live timer; the local relay started by --live when none listens.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
STUB="$LTT_TOP_BUILDDIR/tests/regression/relay_stub"
[ -x "$STUB" ] || { echo "Bail out! $STUB not built"; exit 1; }
stub_pids=()
trap 'kill -KILL "${stub_pids[@]}" $(cat "$LTT_RUNDIR/relayd.pid" 2>/dev/null) 2>/dev/null; _cleanup' EXIT

start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# start_stub MODE: a listener on loopback; sets PORT (it is ready on return).
start_stub() {
	local pid
	pid=$(timeout "$TEST_TIMEOUT" "$STUB" "$1" "$TEST_TMP/$1.port") || return 1
	stub_pids+=("$pid")
	PORT=$(cat "$TEST_TMP/$1.port")
}
stub_connections() { cat "$TEST_TMP/$1.port.n"; }

# nothing_created: no session, and no trace directory under the home.
nothing_created() {
	local l
	l=$(lttctl list 2>&1)
	[ "$l" = "No sessions." ] && [ ! -e "$LTT_HOME/ltt-traces" ]
}

# fails STATUS MESSAGE ARGS...: lttctl ARGS exits STATUS, says MESSAGE
# first on stderr, nothing on stdout, and creates nothing.
fails() {
	local status=$1 msg=$2
	shift 2
	run lttctl "$@"
	is "$RC" "$status" "create $*: exit $status"
	is "$(head -n 1 <<<"$ERR")" "$msg" "create $*: the message"
	is "$STDOUT" "" "create $*: nothing on stdout"
	ok "$(nothing_created; echo $?)" "create $*: nothing created"
}

m_pair="-C (control) and -D (data) go together: give both as tcp://HOST[:PORT] with the same host, and no --set-url, -o or --no-output"
m_timer="use microseconds from 1000 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")"

# --- options, checked by lttctl before anything is sent
fails 2 "Error: $m_pair" create x -C tcp://127.0.0.1:5342
fails 2 "Error: $m_pair" create x -D tcp://127.0.0.1:5343
fails 2 "Error: $m_pair" create x -C tcp://h -D tcp://h -U net://h
fails 2 "Error: $m_pair" create x -C tcp://h -D tcp://h -o "$TEST_TMP/o"
fails 2 "Error: $m_pair" create x -C tcp://h -D tcp://h --no-output
fails 2 "Error: $m_pair" create x --ctrl-url tcp://h
fails 1 "Error: control URL 'net://h': $m_pair" create x -C net://h -D tcp://h
fails 1 "Error: control URL 'file:///tmp': $m_pair" create x -C file:///tmp -D tcp://h
fails 1 "Error: data URL 'tcp://other': $m_pair" create x -C tcp://h -D tcp://other
fails 1 "Error: data URL 'tcp4://h': $m_pair" create x -C tcp://h -D tcp4://h
fails 1 "Error: data URL 'tcp://h:2/p': $m_pair" create x -C tcp://h:1 -D tcp://h:2/p
fails 1 "Error: data URL 'tcp://h:7': $m_pair" create x -C tcp://h:7 -D tcp://h:7
fails 1 "Error: data URL 'tcp://h': $m_pair" create x -C tcp://h:5343 -D tcp://h
fails 1 "Error: data URL 'net://h': $m_pair" create x -C tcp://h -D net://h
fails 2 "Error: invalid live timer period '999': $m_timer" create x --live=999 -U net://h
fails 2 "Error: invalid live timer period '0': $m_timer" create x --live=0
fails 2 "Error: invalid live timer period '1e6': $m_timer" create x --live=1e6
fails 2 "Error: a live session streams to a relay daemon: give a net:// URL (or none for the local relay)" \
	create x --live -o "$TEST_TMP/o"
fails 2 "Error: a live session streams to a relay daemon: give a net:// URL (or none for the local relay)" \
	create x --live=5000 -U "file://$TEST_TMP/o"
fails 2 "Error: a session can't be both a snapshot and a live session" \
	create x --live -C tcp://h -D tcp://h --snapshot

# --- create does not ask the relay (as LTTng: a script may create the
# session before the relay runs); start reaches it, and each failure
# names the URL and the reason, the session left stopped, its list saying
# the relay was not reached.
# start_fails MESSAGE CREATE-ARGS...: create x succeeds, start x fails with
# MESSAGE, x stays inactive; then x is destroyed.
start_fails() {
	local msg=$1
	shift
	run lttctl create x "$@"
	is "$RC:$(head -n 1 <<<"$OUT")" "0:Session x created." "create x $*: created, the relay not asked"
	lttctl -q enable-event -u a -s x
	run lttctl start x
	is "$RC" 1 "start x ($*): exit 1"
	is "$ERR" "$msg" "start x ($*): the message names the URL and the reason"
	like "$(lttctl list)" "x \(.*\) \[inactive\]" "start x ($*): the session stays stopped"
	like "$(lttctl list x)" "Relay connection \(user space\): lost \([^)]+\), 0 packets sent" \
		"start x ($*): list x says the relay was not reached"
	lttctl -q destroy x
}
start_fails "Error: session 'x': relay net://127.0.0.1:1:2: connection refused: nothing listens on the relay's control port; start ltt-relayd there or check the URL's host and ports" \
	-U net://127.0.0.1:1:2
start_fails "Error: session 'x': relay net://127.0.0.1:1:2: connection refused: nothing listens on the relay's control port; start ltt-relayd there or check the URL's host and ports" \
	-C tcp://127.0.0.1:1 -D tcp://127.0.0.1:2
start_fails "Error: session 'x': relay net://nonexistent.invalid: the relay's host name does not resolve (or has no address of the URL's family); check the URL's host" \
	-U net://nonexistent.invalid
start_fails "Error: session 'x': relay net6://[::1]:1:2: connection refused: nothing listens on the relay's control port; start ltt-relayd there or check the URL's host and ports" \
	-U 'net6://[::1]:1:2'

start_stub garbage || { echo "Bail out! relay_stub garbage"; exit 1; }
start_fails "Error: session 'x': relay net://127.0.0.1:$PORT:1: what answers on the control port is not a relay daemon (ltt-relayd, or LTTng's lttng-relayd 2.11 or later); check the URL's ports (control, then data), and give a relay that speaks only TLS (ltt-relayd --tls-cert) a tls:// URL" \
	-U "net://127.0.0.1:$PORT:1"

start_stub old || { echo "Bail out! relay_stub old"; exit 1; }
start_fails "Error: session 'x': relay net://127.0.0.1:$PORT:1: the relay daemon speaks an incompatible protocol version; use a matching ltt-relayd" \
	-U "net://127.0.0.1:$PORT:1"

start_stub silent || { echo "Bail out! relay_stub silent"; exit 1; }
start_fails "Error: session 'x': relay net://127.0.0.1:$PORT:1: the relay host did not answer in time; check the host, the ports and the firewalls between" \
	-U "net://127.0.0.1:$PORT:1"

# --- a relay that answers
start_stub relay || { echo "Bail out! relay_stub relay"; exit 1; }
run lttctl create s1 -U "net://127.0.0.1:$PORT:9/sub/dir"
is "$RC" 0 "create against a relay: exit 0"
is "$OUT" "Session s1 created."$'\n'"Traces will be sent to net://127.0.0.1:$PORT:9/sub/dir" \
	"create: says where the traces go"
run lttctl create s2 -C "tcp://127.0.0.1:$PORT" -D tcp://127.0.0.1:9 --live=1000
is "$OUT" "Session s2 created."$'\n'"Traces will be sent to net://127.0.0.1:$PORT:9"$'\n'"Live timer interval set to 1000 us" \
	"-C/-D --live=1000: one net URL, and the live timer"
is "$(stub_connections relay)" "connections 0" "create connected to no relay"
run lttctl create s1 -U net://127.0.0.1:1:2
is "$ERR" "Error: session 's1': a session with that name already exists; pick another name or destroy it first" \
	"a name in use is refused"
run lttctl list
is "$STDOUT" "  1) s1 (net://127.0.0.1:$PORT:9/sub/dir) [inactive]
  2) s2 (net://127.0.0.1:$PORT:9) [inactive] [live, 1000 us]" "list: both sessions with their URLs"
run_noclock lttctl list s2
is "$(head -n 4 <<<"$STDOUT")" "Session s2 (net://127.0.0.1:$PORT:9) [inactive] [live, 1000 us]
Relay: control tcp://127.0.0.1:$PORT, data tcp://127.0.0.1:9
Live timer interval: 1000 us
Relay connection: none yet (the session has not started)" "list s2: the relay's ports, live timer, no connection yet"
run_noclock lttctl list s1
is "$(sed -n 2p <<<"$STDOUT")" "Relay: control tcp://127.0.0.1:$PORT, data tcp://127.0.0.1:9, path sub/dir" \
	"list s1: the path on the relay"
run lttctl stop s1
is "$ERR" "Error: session 's1': the session is not started" "stop of a session never started: as before"
run lttctl destroy s1
is "$OUT" "Session s1 destroyed." "destroy of a streamed session never started: no wait"

# --- --live without a URL: the local relay, started when none listens
if (exec 3<>/dev/tcp/127.0.0.1/5342) 2>/dev/null; then
	skip 13 "something listens on 127.0.0.1:5342 already"
else
	run env LTT_RELAYD_PATH="$TEST_TMP/no-such-relayd" "$LTTCTL_BIN" create l --live
	is "$RC" 1 "--live, no relay listening, none can start: exit 1"
	is "$ERR" "Error: local relay daemon $TEST_TMP/no-such-relayd: could not start a local relay daemon; install ltt-relayd (or set LTT_RELAYD_PATH) or start one by hand with 'ltt-relayd -d' (No such file or directory)" \
		"the relay program and why"
	is "$STDOUT" "" "nothing on stdout"
	ok "$(lttctl list | grep -c ' l (')" "no session l"
	if [ -x "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" ]; then
		export LTT_RELAYD_PATH="$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd"
		run lttctl create l --live
		is "$RC" 0 "--live, no relay listening: exit 0"
		is "$STDOUT" "Spawned a relay daemon ($LTT_RELAYD_PATH, pid file $LTT_RUNDIR/relayd.pid)
Session l created.
Traces will be sent to net://127.0.0.1
Live timer interval set to 1000000 us" "the local relay started, then the session"
		rpid=$(cat "$LTT_RUNDIR/relayd.pid" 2>/dev/null)
		ok "$(proc_alive "$rpid"; echo $?)" "the relay runs, its pid in the run directory"
		is "$(cat "$LTT_RUNDIR/relayd-control.port" 2>/dev/null)" 5342 "on the default control port"
		# /proc/net/tcp: local address and port in hex, state 0A = listening
		is "$(awk 'NR > 1 && $4 == "0A" { split($2, a, ":");
			if (a[2] == "14DE" || a[2] == "14DF" || a[2] == "14E0") print a[1] }' /proc/net/tcp |
			sort | uniq -c | tr -s ' ')" " 3 0100007F" \
			"its three ports listen on 127.0.0.1 only"
		run lttctl create l2 --live=2000
		is "$OUT" "Session l2 created."$'\n'"Traces will be sent to net://127.0.0.1"$'\n'"Live timer interval set to 2000 us" \
			"a second --live: that relay answers, none started"
		kill -TERM "$rpid" && wait_pid_exit "$rpid"
		ok $? "the relay stops on SIGTERM"
		# run as lttng: the relay writes where LTTng's lttng-relayd would
		mkdir -p "$TEST_TMP/asl" && ln -s "$LTTCTL_BIN" "$TEST_TMP/asl/lttng"
		run "$TEST_TMP/asl/lttng" create l3 --live
		rpid=$(cat "$LTT_RUNDIR/relayd.pid" 2>/dev/null)
		is "$RC:$(tr '\0' ' ' <"/proc/$rpid/cmdline" 2>/dev/null | grep -o -- '-o [^ ]*')" \
			"0:-o $LTT_HOME/lttng-traces" \
			"lttctl run as lttng: the local relay's output is the home's lttng-traces, as LTTng's" ||
			diag "$OUT"
		ok "$([ -d "$LTT_HOME/lttng-traces" ]; echo $?)" "... which the relay made"
		[ -n "$rpid" ] && kill -TERM "$rpid" && wait_pid_exit "$rpid"
	else
		skip 9 "ltt-relayd is not built"
	fi
fi
done_testing
