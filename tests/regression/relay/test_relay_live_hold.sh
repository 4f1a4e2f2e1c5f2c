#!/bin/bash
# test_relay_live_hold.sh - ltt-relayd holds a live viewer's
# GET_NEXT_INDEX that has nothing new to say (it would answer RETRY, or
# INACTIVE with the beacon the viewer has) until its stream moves, so a
# viewer gets the index of a packet that comes within the hold in the
# reply to the request it sent before, not a RETRY it would sleep on
# (issue 60).  After news (an index, a new beacon, packet bytes) the next
# two requests with nothing new are answered at once: babeltrace2
# hands what it gathered to its output only then.  A scripted viewer
# (live_probe) sends the request; the relay's debug log says it is held;
# a scripted consumer (relay_feed) then sends a packet, a beacon or a
# stream; the one reply is read.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"
export LTT_RELAYD_LOG_RATELIMIT=0

live_init
LOG=$RELAYD_LOG
start_relayd -v -o "$TEST_TMP/out" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

P=ust/uid/0/64-bit
spawn f "$FEED_BIN"
feed f "connect 127.0.0.1 $CPORT $DPORT" && feed f "session hold feedhost 100000" &&
	S=$(echo "$R" | cut -d' ' -f2) && feed f "stream metadata $P" &&
	H0=$(echo "$R" | cut -d' ' -f3) &&
	feed f "stream chan_0 $P" && H1=$(echo "$R" | cut -d' ' -f3) &&
	feed f "stream chan_1 $P" && H2=$(echo "$R" | cut -d' ' -f3) &&
	feed f sent && feed f "metadata 0"
ok $? "a live session: metadata and two data streams, no packet"

spawn p "$PROBE_BIN" 127.0.0.1 "$LPORT"
PROBE=$!
ask p connect && ask p create && ask p "attach $S" 4
like "$R" "^attach status=1 count=3\|" "a viewer attaches"

# held: N held lines in the log so far
held=0
# send_held STREAM: the request sent, not answered until the log says held
send_held() {
	echo "index $1" >&"$IN_p"
	held=$((held + 1))
	wait_for "$LOG" "viewer [0-9]+: GET_NEXT_INDEX of stream [0-9]+ held" "$held"
}
reply() {
	R=""
	read -r -t "$TEST_TIMEOUT" R <&"$OUT_p"
}
# released STREAM WHAT: the two requests after news are answered at once,
# nothing new (RETRY, or INACTIVE with the beacon the viewer has)
released() {
	local a b
	ask p "index $1" && a=$R && ask p "index $1" && b=$R
	like "$a|$b" "^index status=[25] .*\|index status=[25] " \
		"after $2: the next two requests answered at once, nothing new"
}

send_held "$H1"
ok $? "GET_NEXT_INDEX on a stream with nothing yet is held, not answered RETRY"
feed f "packet 1 0 2 1000 10"
ok $? "a packet comes meanwhile"
reply
is "$R" "index status=1 flags=1 offset=0 packet_size=2048 content_size=1120 begin=1000 end=1010 class=0" \
	"the held request is answered with the packet's index (OK, not RETRY)"
ask p "metadata $H0" && ask p "packet $H1 0 256"
is "$R" "packet status=1 flags=0 len=256 head=c11ffcc1" "and its packet is read"
released "$H1" "the packet"

send_held "$H1"
ok $? "held again: nothing after that packet"
feed f "beacon 1 5000"
reply
is "$R" "index status=5 flags=0 offset=0 packet_size=0 content_size=0 begin=0 end=5000 class=0" \
	"a beacon answers it: INACTIVE up to the beacon's time"
released "$H1" "the beacon"
send_held "$H1"
ok $? "the same beacon again is nothing new: held"
feed f "beacon 1 6000"
reply
like "$R" "^index status=5 flags=0 .* end=6000 " "a newer beacon answers it"
released "$H2" "the newer beacon"

# Another viewer is served while the first one's request is held.
send_held "$H2"
ok $? "the first viewer's request on the other stream is held"
spawn q "$PROBE_BIN" 127.0.0.1 "$LPORT"
ask q connect && ask q create && ask q "attach $S" 4 && ask q "index $H1"
like "$R" "^index status=1 flags=1 offset=0 " "a second viewer gets an index at once meanwhile"
feed f "stream chan_2 $P" && feed f sent
ok $? "a stream is added"
reply
like "$R" "^index status=2 flags=2 " "the held request is answered when a stream comes: NEW_STREAM"
ask p "new $S" 2
like "$R" "^new status=1 count=1\|" "the viewer learns of it"

# Nothing comes: RETRY once the hold ends (LIVE_HOLD_NS, 1 s).
send_held "$H2"
reply
like "$R" "^index status=2 flags=0 " "with nothing coming, RETRY at the end of the hold"

# A viewer that leaves while its request is held.
send_held "$H2"
ok $? "held once more"
gone=$(grep -c "closed: the viewer left" "$LOG")
kill "$PROBE"
wait_for "$LOG" "closed: the viewer left" $((gone + 1))
ok $? "the viewer leaves while held: its connection is closed"
ask q "index $H2"
like "$R" "^index status=2 " "the relay serves the other viewer on (it held nothing for it)"
ok_cmd "the relay runs" kill -0 "$RELAYD_PID"
done_testing
