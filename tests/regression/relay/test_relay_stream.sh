#!/bin/bash
# Streaming through a real ltt-relayd on loopback, end to end: a streamed
# session of the test program gives the same events and values as a local
# session of the same program (babeltrace2's text, timestamps aside); stop
# returns once the relay has written everything; list shows the relay
# connection; two session daemons with two host names stream at once (as
# root, in a UTS namespace); a relay killed mid-session: stop and destroy
# return (bounded), say the relay was lost, and list shows the error.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
R2="$TEST_TMP/run2"
trap '[ -f "$R2/sessiond.pid" ] && kill -KILL "$(cat "$R2/sessiond.pid")" 2>/dev/null; _relayd_cleanup; _cleanup' EXIT
N=2000

# record NAME OUTPUT-OPTIONS...: a session of the test program (N events
# of each kind, -T: every field type), stopped (waiting), not destroyed.
record() {
	local name=$1
	shift
	lttctl -q create "$name" "$@" &&
		lttctl -q enable-event -u 'ltt_test:*' -s "$name" &&
		lttctl -q start "$name" &&
		ust_app -n "$N" -T >/dev/null
}

# relay_dir HOST SESSION: the one directory the relay made for SESSION.
relay_dir() {
	local d
	for d in "$RELAY_OUT/$1/$2"-*; do
		[ -d "$d" ] && echo "$d"
	done
}

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; cat "$TEST_TMP/relayd.log"; exit 1; }
host=$(hostname)

# --- the same program, locally and through the relay
ok_cmd "a local session of the program" record loc -o "$TEST_TMP/local"
ok_cmd "stop the local session" lttctl stop loc
ok_cmd "a streamed session of the same program" record net -U "net://127.0.0.1:$CPORT:$DPORT"
run lttctl stop net
is "$RC" 0 "stop of the streamed session: exit 0"
is "$(tail -n 1 <<<"$STDOUT")" "Tracing stopped for session net." "stop says so"
# Read at once: stop returned only once the relay had written everything.
dir=$(relay_dir "$host" net)
ok "$([ -n "$dir" ] && [ -f "$dir/ust/uid/$(id -u)/64-bit/metadata" ]; echo $?)" \
	"the relay wrote HOST/SESSION-DATE/ust/uid/UID/64-bit ($dir)"
bt "$TEST_TMP/local" "$TEST_TMP/local.txt"
bt "$dir" "$TEST_TMP/net.txt"
is "$(count_events "$TEST_TMP/net.txt" ltt_test:seq)" "$N" "the relay's trace has the $N seq events right after stop"
is "$(count_events "$TEST_TMP/net.txt" ltt_test:types)" "$N" "and the $N types events"
same=$(diff <(bt_events "$TEST_TMP/local.txt") <(bt_events "$TEST_TMP/net.txt") | head -n 6)
is "$same" "" "same events and values as the local session (timestamps and CPUs aside)"
like "$(head -n 1 "$TEST_TMP/net.txt")" "$host ltt_test:(seq|types): \{ cpu_id = [0-9]+ \}, \{ role = \"main\"" \
	"the relay's events carry the host name and the CPU"
is "$(discarded "$TEST_TMP/net.txt.err")" 0 "nothing discarded"
run lttctl list net
like "$STDOUT" "Relay connection \(user space\): connected, [1-9][0-9]* packets sent \([^)]*\), 0 lost" \
	"list: the user-space connection, packets sent, none lost"
like "$STDOUT" "written by the relay in $dir" "list: where the relay writes"
run lttctl destroy net
is "$OUT" "Session net destroyed." "destroy: nothing left pending, no wait"
lttctl -q destroy loc

# --- a base path and the -C/-D form
ok_cmd "-C/-D with a path" record pth -C "tcp://127.0.0.1:$CPORT/a/b" -D "tcp://127.0.0.1:$DPORT"
ok_cmd "destroy (stops, waits) the session with a path" lttctl destroy pth
bt "$RELAY_OUT/$host/a/b" "$TEST_TMP/path.txt"
is "$(count_events "$TEST_TMP/path.txt" ltt_test:seq)" "$N" "the relay wrote HOST/a/b: $N events after destroy"

# --- a live session: the same events once stopped
ok_cmd "a live session (100 ms timer)" record lv --live=100000 -U "net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "stop the live session" lttctl stop lv
bt "$(relay_dir "$host" lv)" "$TEST_TMP/lv.txt"
is "$(count_events "$TEST_TMP/lv.txt" ltt_test:seq)" "$N" "the relay has the live session's $N events after stop"
ok_cmd "destroy the live session" lttctl destroy lv

# --- two host names at once: a second daemon in its own UTS namespace
if [ "$(id -u)" != 0 ] || ! unshare -u true 2>/dev/null; then
	skip 4 "two host names need root and unshare -u"
else
	mkdir -p "$R2"
	unshare -u sh -c 'hostname ltt-test-other && exec "$0" --daemonize --rundir "$1"' \
		"$SESSIOND" "$R2" || echo "Bail out! the second daemon did not start"
	ok_cmd "session h1 on this host" record h1 -U "net://127.0.0.1:$CPORT:$DPORT"
	LTT_RUNDIR=$R2 record h2 -U "net://127.0.0.1:$CPORT:$DPORT"
	ok $? "session h2 from the other host name, both active"
	lttctl -q stop h1
	LTT_RUNDIR=$R2 lttctl -q stop h2
	bt "$(relay_dir "$host" h1)" "$TEST_TMP/h1.txt"
	bt "$(relay_dir ltt-test-other h2)" "$TEST_TMP/h2.txt"
	is "$(count_events "$TEST_TMP/h1.txt" ltt_test:seq)" "$N" "$host/h1-DATE: $N events"
	is "$(count_events "$TEST_TMP/h2.txt" ltt_test:seq)" "$N" "ltt-test-other/h2-DATE: $N events"
	lttctl -q destroy h1
	LTT_RUNDIR=$R2 lttctl -q destroy h2
	stop_sessiond "$R2"
fi

# --- the relay killed mid-session (and before another session's start)
ok_cmd "session k streams" record k -U "net://127.0.0.1:$CPORT:$DPORT"
lttctl -q create st -U "net://127.0.0.1:$CPORT:$DPORT" && lttctl -q enable-event -u 'ltt_test:*' -s st
ok $? "session st created while the relay runs, not started"
kill -KILL "$RELAYD_PID"
wait_pid_exit "$RELAYD_PID"
run lttctl start st
is "$RC" 1 "start once the relay is gone: exit 1"
is "$ERR" "Error: session 'st': relay net://127.0.0.1:$CPORT:$DPORT: connection refused: nothing listens on the relay's control port; start ltt-relayd there or check the URL's host and ports" \
	"start says why"
run lttctl list st
like "$STDOUT" "Session st \(net://127.0.0.1:$CPORT:$DPORT\) \[inactive\]" "st stays inactive"
like "$STDOUT" "Relay connection \(user space\): lost \(Connection refused\), 0 packets sent" \
	"list st: start found the relay's port closed"
run lttctl destroy st
is "$OUT" "Session st destroyed." "destroy st: nothing was sent, nothing pending, no warning"
run lttctl stop k
is "$RC" 1 "stop after the relay died: exit 1, not a hang"
is "$(head -n 1 <<<"$ERR")" "Error: session 'k': the connection to the relay daemon was lost; what was not sent is lost, 'lttctl list SESSION' shows why" \
	"stop says the relay was lost"
is "$(tail -n 1 <<<"$STDOUT")" "Tracing stopped for session k." "the session is stopped anyway"
unlike "$ERR" "Give it larger buffers" "packets lost to the relay are not blamed on the buffers"
run lttctl list k
like "$STDOUT" "Relay connection \(user space\): lost \([^)]+\)" "list shows the lost connection and why"
run lttctl destroy k
is "$RC" 0 "destroy after the relay died: exit 0"
is "$ERR" "Warning: session 'k': the connection to the relay daemon was lost; what was not sent is lost, 'lttctl list SESSION' shows why" \
	"destroy warns"
is "$STDOUT" "Session k destroyed." "and destroys"
run lttctl list
is "$OUT" "No sessions." "nothing left"
like "$(cat "$SESSIOND_LOG")" "relay connection is lost" "the daemon's log says so"
done_testing
