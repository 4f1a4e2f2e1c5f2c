#!/bin/bash
# What one peer may make ltt-relayd hold: sessions in all, streams in all
# and per session (refused with INVAL and a log line naming the peer);
# connections that never send a message (closed at a deadline).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
# Connections are counted by their log lines: no rate limit on them here
# (test_relay_ratelimit.sh tests it).
export LTT_RELAYD_LOG_RATELIMIT=0

relayd_init
plan 39

peer_re='127\.0\.0\.1:[0-9]+'

# wait_log REGEX: the relay's log gets a line matching REGEX (bounded).
wait_log() {
	timeout "$TEST_TIMEOUT" grep -E -m1 -q "$1" <(tail -n +1 -f "$RELAYD_LOG")
}

# hold NAME N: relay_client hold N as session NAME, until close_fd on
# ${NAME}_in; its lines up to WAITING in HELD (";"-joined), pid in HELD_PID.
hold() {
	local in=${1}_in out=${1}_out
	open_fifo "$in" "$TEST_TMP/$in" && open_fifo "$out" "$TEST_TMP/$out" || return 1
	(close_fifos; exec timeout $((TEST_TIMEOUT * 6)) "$RELAY_CLIENT" --session "$1" \
		hold "$CPORT" "$DPORT" "$2" <"$TEST_TMP/$in" >"$TEST_TMP/$out") &
	HELD_PID=$!
	HELD=
	while read_line "${!out}"; do
		HELD="$HELD$LINE;"
		[ "$LINE" = WAITING ] && return 0
	done
	return 1
}

LTT_RELAYD_MAX_SESSIONS=2 LTT_RELAYD_MAX_STREAMS=5 LTT_RELAYD_MAX_SESSION_STREAMS=3 \
	start_relayd -o "$TEST_TMP/relay"
is $? 0 "the relay started: at most 2 sessions, 5 streams, 3 a session"

hold sa 5
like "$HELD" "^OUTPUT [^;]*;STREAMS 3;REFUSED chan_3 [^;]*;WAITING;$" \
	"a session gets 3 streams, the 4th is refused"
pid_a=$HELD_PID
like "$(cat "$RELAYD_LOG")" "control connection from $peer_re: stream [^ ]*/chan_3 refused: a limit" \
	"the refusal is logged with the peer"
like "$(cat "$RELAYD_LOG")" "the session has 3 streams already \\(at most 3\\)" \
	"and says which limit"

hold sb 5
like "$HELD" "^OUTPUT [^;]*;STREAMS 2;REFUSED chan_2 [^;]*;WAITING;$" \
	"a second session gets 2 streams: 5 in all"
like "$(cat "$RELAYD_LOG")" "the relay holds 5 streams already \\(at most 5\\)" \
	"the total is logged"

out=$(relay_client --session sc hold "$CPORT" "$DPORT" 1 </dev/null 2>&1)
like "$out" "CREATE_SESSION: " "a third session is refused"
like "$(cat "$RELAYD_LOG")" "control connection from $peer_re: session sc of [^ ]* refused: a limit" \
	"logged with the peer"
like "$(cat "$RELAYD_LOG")" "relay holds 2 sessions already \\(at most 2\\)" "and the limit"

close_fd "$sa_in"
wait_pid_exit "$pid_a"
wait_log "session [0-9]+ sa of .* closed"
ok $? "the first session ends"
out=$(relay_client --session sd hold "$CPORT" "$DPORT" 3 </dev/null 2>&1)
like "$out" "STREAMS 3;?" "its sessions and streams are free again"
wait_log "session [0-9]+ sd of .* closed" &&
	out=$(relay_client --session sc hold "$CPORT" "$DPORT" 1 </dev/null 2>&1)
like "$out" "STREAMS 1" "once it ends, a new session is accepted"

close_fd "$sb_in"
stop_relayd
ok $? "the relay stops"
is "$(cd "$TEST_TMP/relay"/*/sa-*/ust/uid/0/64-bit && echo chan_*)" "chan_0 chan_1 chan_2" \
	"no file for the refused stream"

# --- a peer must send its first message in time
export LTT_RELAYD_HELLO_TIMEOUT_MS=500
start_relayd -o "$TEST_TMP/relay2"
is $? 0 "a relay started: 500 ms for the first message"
# established CONNS PORT: our sockets to PORT that the relay has not closed
established() {
	ss -Htn state established "( dport = :$1 )" | wc -l
}

# The deadline runs from the relay's accept, after t0 (taken before the
# connection is made) and before the close: however slow the machine, the
# close comes at least the deadline after t0.  (Taken after the connect,
# t0 could come late and the close look early on a loaded machine.)
t0=$(date +%s%N)
exec {C1}<>"/dev/tcp/127.0.0.1/$CPORT"
is "$(wait_closed $C1)" "" "control, nothing sent: closed"
t1=$(date +%s%N)
ok "$([ $(((t1 - t0) / 1000000)) -ge 400 ]; echo $?)" \
	"control, nothing sent: closed at the deadline, not before ($(((t1 - t0) / 1000000)) ms since before the connection)"
exec {C1}>&-
like "$(cat "$RELAYD_LOG")" "control connection from $peer_re: no VERSION and CREATE_SESSION within 500 ms of connecting: closed" \
	"logged with the peer"

# VERSION must be there before the deadline, which runs from the accept:
# the relay is stopped while the connection is made and VERSION sent, so
# that it finds VERSION waiting when it accepts, however long the test
# took to send it (on a loaded machine, more than the 500 ms).
kill -STOP "$RELAYD_PID"
exec {C1}<>"/dev/tcp/127.0.0.1/$CPORT"
send $C1 "$(ctrl_hdr 5 8)$(h32 2)$(h32 11)"
kill -CONT "$RELAYD_PID"
is "$(wait_closed $C1)" "000000020000000f" "control, VERSION then silence: answered, then closed"
exec {C1}>&-

exec {D1}<>"/dev/tcp/127.0.0.1/$DPORT"
is "$(wait_closed $D1)" "" "data, nothing sent and no session open: closed"
exec {D1}>&-
like "$(cat "$RELAYD_LOG")" "data connection from $peer_re: no packet within 500 ms of connecting: closed" \
	"logged with the peer"

hold sx 1
like "$HELD" "STREAMS 1;WAITING;$" "a session is open"
pid_x=$HELD_PID
exec {D1}<>"/dev/tcp/127.0.0.1/$DPORT"
exec {D2}<>"/dev/tcp/127.0.0.1/$DPORT"
is "$(wait_closed $D2)" "" "two silent data connections, one session: the second is closed"
is "$(established "$DPORT")" 1 "the first stays (a consumer's, before its first packet)"
is "$(established "$CPORT")" 1 "the session's control connection stays, idle past the deadline"
close_fd "$sx_in"
wait_pid_exit "$pid_x"
is "$(wait_closed $D1)" "" "once the session is gone, the silent data connection is closed too"
exec {D1}>&- {D2}>&-
ok "$(relayd_alive; echo $?)" "the relay serves sessions meanwhile"
stop_relayd
ok $? "the relay stops"

# --- the open file limit
# start_relayd_nofile SOFT HARD ARGS...: start_relayd under those limits.
start_relayd_nofile() {
	local soft=$1 hard=$2
	shift 2
	(ulimit -Sn "$soft" && ulimit -Hn "$hard" && start_relayd "$@") || return 1
	CPORT=$(cat "$LTT_RUNDIR/relayd-control.port") &&
		DPORT=$(cat "$LTT_RUNDIR/relayd-data.port") &&
		RELAYD_PID=$(cat "$RELAYD_PIDFILE")
}
unset LTT_RELAYD_HELLO_TIMEOUT_MS

start_relayd_nofile 300 2000 -o "$TEST_TMP/relay3"
is $? 0 "a relay started with an open file limit of 300, 2000 at most"
like "$(grep '^Max open files' "/proc/$RELAYD_PID/limits")" "files +2000 +2000 " \
	"it raised its limit to the most"
stop_relayd

: >"$RELAYD_LOG"
start_relayd_nofile 400 400 -o "$TEST_TMP/relay4"
is $? 0 "a relay started with an open file limit of 400"
like "$(cat "$RELAYD_LOG")" "the open file limit is 400: at most 20 control and 20 data connections and 10 streams" \
	"it says what the limit allows"
fds=()
for ((i = 0; i < 20; i++)); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$CPORT" && fds+=("$fd")
done
is "${#fds[@]}" 20 "20 control connections"
exec {C1}<>"/dev/tcp/127.0.0.1/$CPORT" {C2}<>"/dev/tcp/127.0.0.1/$CPORT"
is "$(wait_closed $C1)$(wait_closed $C2)" "" "the 21st and 22nd are closed at once"
exec {C1}>&- {C2}>&-
is "$(grep -E -c "control port: 20 connections already, the most: refusing $peer_re" "$RELAYD_LOG")" 1 \
	"logged once"
for fd in "${fds[@]}"; do
	exec {fd}>&-
done
n=$(timeout "$TEST_TIMEOUT" grep -E -m20 "control connection from $peer_re closed by the peer" \
	<(tail -n +1 -f "$RELAYD_LOG") | wc -l)
is "$n" 20 "the relay saw them close"
ok "$(relayd_alive; echo $?)" "then it serves a session"
wait_log "session [0-9]+ alive[0-9]* of .* closed"
out=$(relay_client --session many hold "$CPORT" "$DPORT" 12 </dev/null 2>&1)
like "$out" "STREAMS 10" "and at most 10 streams"
stop_relayd
ok $? "the relay stops"
