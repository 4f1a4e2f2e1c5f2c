#!/bin/bash
# test_relay_live.sh - ltt-relayd's live port driven by the real client,
# babeltrace2's src.ctf.lttng-live: a scripted consumer (relay_feed) sends
# a synthetic trace to the relay while viewers watch it live; an idle
# stream with beacons, a stream and an event class added mid-session, a
# viewer killed, the end of the session, two domains of one session,
# `babeltrace2 query ... sessions`, and garbage on the live port.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
live_init

LOG=$RELAYD_LOG
start_relayd -o "$TEST_TMP/out"
ok $? "ltt-relayd starts on three free loopback ports"
CTRL=$CPORT DATA=$DPORT LIVE=$LPORT

# The scripted consumer: step LINE sends it a line that must succeed.
spawn feeder "$FEED_BIN"
step() { feed feeder "$*"; }

# expect FIRST LAST: the "seq:val" lines of seq FIRST..LAST.
expect() {
	local i
	for ((i = $1; i <= $2; i++)); do echo "$i:$((i * 3))"; done
}

# viewer OUT [component]: babeltrace2 as the issue runs it (-i lttng-live
# URL), or as an explicit component that ends when the session is gone.
viewer() {
	local url="net://127.0.0.1:$LIVE/host/feedhost/live1"
	if [ "${2:-}" = component ]; then
		timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 --component=src.ctf.lttng-live \
			--params="inputs=[\"$url\"],session-not-found-action=\"end\"" \
			>"$1" 2>"$1.err"
	else
		timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$url" >"$1" 2>"$1.err"
	fi
}

step connect 127.0.0.1 "$CTRL" "$DATA" &&
	step session live1 feedhost 100000 &&
	step stream metadata ust/uid/0/64-bit &&
	step stream chan_0 ust/uid/0/64-bit &&
	step stream chan_1 ust/uid/0/64-bit &&
	step sent && step metadata 0
ok $? "the consumer creates a live session with a metadata and two data streams"

out=$(query_sessions)
like "$out" "target-hostname: feedhost" "query sessions lists the target host"
like "$out" "session-name: live1" "query sessions lists the session name"
like "$out" "timer-us: 100000" "query sessions gives the live timer"
like "$out" "stream-count: 3" "query sessions counts the three streams"
like "$out" "client-count: 0" "query sessions: no viewer yet"
like "$out" "url: net://127.0.0.1:$LIVE/host/feedhost/live1" "query sessions gives the session's URL"

viewer "$TEST_TMP/a.out" & VA=$!
viewer "$TEST_TMP/b.out" component & VB=$!
# Viewer C is babeltrace2 itself (no timeout wrapper), to be killed.
stdbuf -oL babeltrace2 -i lttng-live "net://127.0.0.1:$LIVE/host/feedhost/live1" \
	>"$TEST_TMP/c.out" 2>&1 & VC=$!
wait_for "$LOG" "attached session" 3
ok $? "three viewers attach to the session at once"
like "$(query_sessions)" "client-count: 3" "query sessions counts the viewers"

# Stream 2 (chan_1) never has data: its beacons let the viewers print
# stream 1's events up to the beacon's time.
step packet 1 0 10 1000 10 && step beacon 2 2000
ok $? "10 events on chan_0, a beacon on the idle chan_1"
wait_for "$TEST_TMP/a.out" "feed:seq" 10 && wait_for "$TEST_TMP/b.out" "feed:seq" 10 &&
	wait_for "$TEST_TMP/c.out" "feed:seq" 10
ok $? "the viewers print the first 10 events while the session runs"

# A viewer dies: the others and the recording go on.
gone=$(grep -cE "closed: (the viewer left|Connection reset)" "$LOG")
{ kill -KILL $VC; wait $VC; } 2>/dev/null
wait_for "$LOG" "closed: (the viewer left|Connection reset)" $((gone + 1))
ok $? "the relay notices a viewer killed mid-session"
like "$(query_sessions)" "client-count: 2" "the killed viewer no longer counts"

step packet 1 10 5 3000 10 && step beacon 2 4000
wait_for "$TEST_TMP/a.out" "feed:seq" 15 && wait_for "$TEST_TMP/b.out" "feed:seq" 15
ok $? "both viewers print the next packet's events live"

# A stream added while the viewers watch (NEW_STREAM).
step stream chan_2 ust/uid/0/64-bit && step sent &&
	step packet 3 100 4 5000 10 && step packet 1 15 5 5050 10 &&
	step beacon 2 6000 && step beacon 3 6000
ok $? "a third data stream joins mid-session"
wait_for "$TEST_TMP/a.out" "feed:seq" 24 && wait_for "$TEST_TMP/b.out" "feed:seq" 24
ok $? "both viewers print the new stream's events too"

# A new event class mid-session (NEW_METADATA): the viewers must fetch
# the metadata before they can decode these events.
step metadata-late 0 && step packet 1 20 3 7000 10 1 && step beacon 2 8000 &&
	step beacon 3 8000
ok $? "the consumer adds an event class and sends its events"
wait_for "$TEST_TMP/a.out" "feed:late" 3 && wait_for "$TEST_TMP/b.out" "feed:late" 3
ok $? "both viewers fetch the new metadata and print the new class's events"
is "$(events "$TEST_TMP/a.out" feed:late | tr '\n' ' ')" "20:60 21:63 22:66 " \
	"feed:late events have their values"

step close 1 && step close 2 && step close 3 && step end
ok $? "the consumer closes its streams and leaves (session destroyed)"
wait $VA; rc_a=$?
wait $VB; rc_b=$?
is "$rc_a:$rc_b" "0:0" "both viewers end cleanly once the session is drained"
want=$( (expect 0 19; expect 100 103) | sort -n)
is "$(events "$TEST_TMP/a.out" | sort -n)" "$want" "viewer A printed exactly the 24 events, values intact"
is "$(events "$TEST_TMP/b.out" | sort -n)" "$want" "viewer B printed exactly the 24 events, values intact"
is "$(grep -c . "$TEST_TMP/a.out")" 27 "viewer A printed nothing else"
idx="$TEST_TMP/out/feedhost/live1-20260101-000000/ust/uid/0/64-bit/index/chan_0.idx"
is "$(stat -c %s "$idx" 2>&1)" $((16 + 4 * 72)) "the relay recorded all 4 packets of chan_0 despite the viewers"
is "$(events "$TEST_TMP/a.out" | head -10 | tr '\n' ' ')" "$(expect 0 9 | tr '\n' ' ')" \
	"events come in time order"
unlike "$(query_sessions)" "session-name: live1" "a destroyed session is no longer listed"

# One tracing session is one relay session per domain, all with the same
# host and name: the viewer attaches to each and merges them in time.
spawn k "$FEED_BIN"
spawn u "$FEED_BIN"
for d in k u; do
	feed $d "connect 127.0.0.1 $CTRL $DATA" && feed $d "session multi feedhost 100000" &&
		feed $d "stream metadata $d" && feed $d "stream chan_0 $d" && feed $d sent &&
		feed $d "metadata 0" || break
done
ok $? "two relay sessions of one tracing session (two domains)"
timeout "$TEST_TIMEOUT" babeltrace2 -i lttng-live "net://127.0.0.1:$LIVE/host/feedhost/multi" \
	>"$TEST_TMP/m.out" 2>"$TEST_TMP/m.err" {IN_k}>&- {IN_u}>&- &
VM=$!
wait_for "$LOG" "attached session [0-9]+ multi" 2
ok $? "the viewer attaches to both"
feed k "packet 1 0 5 1000 20" && feed u "packet 1 100 5 1010 20" &&
	feed k "close 1" && feed u "close 1" && feed k end && feed u end
ok $? "each domain sends 5 events, interleaved in time, then the session ends"
wait $VM
is $? 0 "the viewer ends once both are drained"
is "$(events "$TEST_TMP/m.out" | tr '\n' ' ')" \
	"0:0 100:300 1:3 101:303 2:6 102:306 3:9 103:309 4:12 104:312 " \
	"it merged both domains' events in time order"

# Garbage on the live port: every connection is closed, the relay lives.
send_bytes() {
	exec 3<>"/dev/tcp/127.0.0.1/$LIVE" || return 1
	printf "$1" >&3
	exec 3>&-
}
head -c 4096 /dev/urandom >"$TEST_TMP/random"
exec 3<>"/dev/tcp/127.0.0.1/$LIVE" && cat "$TEST_TMP/random" >&3
exec 3>&-
send_bytes '\0\0\0\0\0\0\0\024\0\0\0\001\0\0'	# a truncated CONNECT header
send_bytes '\0\0\0\0\0\0\0\0\0\0\0\002\0\0\0\0'	# LIST_SESSIONS before CONNECT
send_bytes '\0\0\0\0\0\0\0\024\0\0\0\001\0\0\0\0\377\377\377\377\377\377\377\377\0\0\0\002\0\0\0\004\0\0\0\001\0\0\0\0\0\0\0\0\0\0\0\077\0\0\0\0'
# ^ CONNECT then an unknown command 63
send_bytes '\0\0\0\0\0\0\0\024\0\0\0\001\0\0\0\0\377\377\377\377\377\377\377\377\0\0\0\003\0\0\0\004\0\0\0\001'
# ^ CONNECT with major 3
send_bytes '\0\0\0\0\0\0\0\100\0\0\0\001\0\0\0\0'	# CONNECT with a 64-byte payload
wait_for "$LOG" "unknown command 63" && wait_for "$LOG" "before CONNECT" &&
	wait_for "$LOG" "live protocol 3\.4" && wait_for "$LOG" "64-byte payload"
ok $? "malformed requests are logged"
ok "$(proc_alive "$RELAYD_PID"; echo $?)" "the relay survives random and truncated input"
out=$(query_sessions)
ok $? "the live port still answers after the garbage"

stop_relayd
ok $? "ltt-relayd stops on SIGTERM"
done_testing
