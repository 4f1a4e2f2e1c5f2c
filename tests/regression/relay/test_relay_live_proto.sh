#!/bin/bash
# test_relay_live_proto.sh - every status and flag of ltt-relayd's live
# port, request by request: a scripted viewer (live_probe) against
# sessions a scripted consumer (relay_feed) creates.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"
# Connections are counted by their log lines: no rate limit on them here
# (test_relay_ratelimit.sh tests it).
export LTT_RELAYD_LOG_RATELIMIT=0

live_init
LOG=$RELAYD_LOG
start_relayd -o "$TEST_TMP/out" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
CTRL=$CPORT DATA=$DPORT LIVE=$LPORT

# Three sessions: live2 (live, metadata, a packet of 2 events), dead (not
# live), nometa (live, a packet but no metadata yet).
P=ust/uid/0/64-bit
spawn f1 "$FEED_BIN"
feed f1 "connect 127.0.0.1 $CTRL $DATA" && feed f1 "session live2 feedhost 200000"
S1=$(echo "$R" | cut -d' ' -f2)
feed f1 "stream metadata $P" && H0=$(echo "$R" | cut -d' ' -f3) &&
	feed f1 "stream chan_0 $P" && H1=$(echo "$R" | cut -d' ' -f3) &&
	feed f1 "stream chan_1 $P" && H2=$(echo "$R" | cut -d' ' -f3) &&
	feed f1 sent && feed f1 "metadata 0" && feed f1 "packet 1 0 2 1000 10"
ok $? "session live2: metadata, two data streams, one packet"
spawn f2 "$FEED_BIN"
feed f2 "connect 127.0.0.1 $CTRL $DATA" && feed f2 "session dead feedhost 0" &&
	S2=$(echo "$R" | cut -d' ' -f2) && feed f2 "stream metadata $P" &&
	feed f2 "stream chan_0 $P" && feed f2 sent
ok $? "session dead: not live"
spawn f3 "$FEED_BIN"
feed f3 "connect 127.0.0.1 $CTRL $DATA" && feed f3 "session nometa feedhost 100000" &&
	S3=$(echo "$R" | cut -d' ' -f2) && feed f3 "stream metadata $P" &&
	feed f3 "stream chan_0 $P" && N1=$(echo "$R" | cut -d' ' -f3) && feed f3 sent &&
	feed f3 "packet 1 0 1 100 1"
ok $? "session nometa: a packet, no metadata"

spawn p0 "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask p0 list
is "$R" "closed" "a command before CONNECT closes the connection"

spawn p "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask p connect
like "$R" "^connect major=2 minor=15 id=[0-9]+$" "CONNECT: the relay says its live protocol, 2.15 (this 2.4 client and it then speak 2.4)"
ask p list 4
like "$R" "^list count=3\|" "LIST_SESSIONS lists the three sessions"
like "$R" "session id=$S1 timer=200000 clients=0 streams=3 host=feedhost name=live2" \
	"a session entry has its id, timer, viewers, streams, host and name"
like "$R" "session id=$S2 timer=0 clients=0 streams=2 host=feedhost name=dead" \
	"a session that is not live is listed with timer 0"
ask p "attach $S1"
is "$R" "attach status=6 count=0" "ATTACH before CREATE_SESSION: NO_SESSION"
ask p create
is "$R" "create status=1" "CREATE_SESSION: OK"
ask p "attach 999"
is "$R" "attach status=3 count=0" "ATTACH to an unknown session: UNK"
ask p "attach $S2"
is "$R" "attach status=4 count=0" "ATTACH to a session that is not live: NOT_LIVE"
ask p "attach $S1 7"
is "$R" "attach status=5 count=0" "ATTACH with an unknown seek: SEEK_ERR"
ask p "attach $S1 1" 4
is "$R" "attach status=1 count=3|stream id=$H0 trace=1 meta=1 path=$P channel=metadata|stream id=$H1 trace=1 meta=0 path=$P channel=chan_0|stream id=$H2 trace=1 meta=0 path=$P channel=chan_1" \
	"ATTACH from the beginning: OK and the three streams of one trace"
ask p "attach $S1"
is "$R" "attach status=2 count=0" "ATTACH twice on one connection: ALREADY"
ask p "index $H0"
like "$R" "^index status=3 " "GET_NEXT_INDEX on the metadata stream: HUP"
ask p "index 99999"
like "$R" "^index status=4 " "GET_NEXT_INDEX on an unknown stream: ERR"
ask p "index $H1"
is "$R" "index status=1 flags=1 offset=0 packet_size=2048 content_size=1120 begin=1000 end=1010 class=0" \
	"GET_NEXT_INDEX: the packet's index, NEW_METADATA until the metadata is fetched"
ask p "packet $H1 0 256"
is "$R" "packet status=3 flags=1 len=0 head=00000000" \
	"GET_PACKET before the metadata: ERR with NEW_METADATA"
ask p "metadata $H0"
is "$R" "metadata status=1 len=4096" "GET_METADATA: the metadata packet"
ask p "metadata $H0"
is "$R" "metadata status=2 len=0" "GET_METADATA again: NO_NEW_METADATA"
ask p "metadata $H1"
is "$R" "metadata status=3 len=0" "GET_METADATA on a data stream: ERR"
ask p "packet $H1 0 256"
is "$R" "packet status=1 flags=0 len=256 head=c11ffcc1" "GET_PACKET: the whole packet"
ask p "packet $H1 84 28"
is "$R" "packet status=1 flags=0 len=28 head=00000000" "GET_PACKET: a range inside the packet"
ask p "packet $H1 200 4096"
is "$R" "packet status=1 flags=0 len=56 head=00000000" "GET_PACKET: a read stops at the packet's end"
ask p "packet $H1 4096 16"
is "$R" "packet status=3 flags=0 len=0 head=00000000" "GET_PACKET past the data: ERR"
ask p "packet $H1 0 0"
is "$R" "packet status=3 flags=0 len=0 head=00000000" "GET_PACKET of 0 bytes: ERR"
ask p "index $H1"
like "$R" "^index status=2 flags=0 " "GET_NEXT_INDEX with nothing new: RETRY"
feed f1 "beacon 1 5000"
ask p "index $H1"
is "$R" "index status=5 flags=0 offset=0 packet_size=0 content_size=0 begin=0 end=5000 class=0" \
	"after a beacon: INACTIVE up to the beacon's time"
ask p "index $H2"
like "$R" "^index status=2 " "a stream without data or beacon: RETRY"
feed f1 "beacon 2 6000"
ask p "index $H2"
like "$R" "^index status=5 flags=0 .* end=6000 " "a stream without data, after a beacon: INACTIVE"
ask p "new $S1"
is "$R" "new status=2 count=0" "GET_NEW_STREAMS with none: NO_NEW"
feed f1 "stream chan_2 $P" && H3=$(echo "$R" | cut -d' ' -f3) && feed f1 sent
ask p "index $H1"
like "$R" "^index status=5 flags=2 " "a stream added: NEW_STREAM on the next index"
ask p "new $S1" 2
is "$R" "new status=1 count=1|stream id=$H3 trace=1 meta=0 path=$P channel=chan_2" \
	"GET_NEW_STREAMS: the new stream"
ask p "new $S1"
is "$R" "new status=2 count=0" "GET_NEW_STREAMS again: NO_NEW"
ask p "detach $S1"
is "$R" "detach status=1" "DETACH_SESSION: OK"
ask p "detach $S1"
is "$R" "detach status=2" "DETACH_SESSION again: UNK"
ask p "index $H1"
like "$R" "^index status=4 " "after DETACH its streams are unknown: ERR"

spawn q "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask q "connect 2 99"
like "$R" "^connect major=2 minor=15 " "a newer client gets the relay's minor (2.15)"
ask q create && ask q "attach $S3" 3
like "$R" "^attach status=1 count=2\|" "a second viewer attaches to another session"
ask q "index $N1"
like "$R" "^index status=2 " "no index is handed out before the trace has metadata: RETRY"
ask q "raw 42 0"
is "$R" "raw reply=14" "an unknown command gets LTTNG_ERR_UNK"
ask q eof
is "$R" "eof closed" "then the relay closes the connection"

# Deadlines: a request left half sent, a viewer that stops reading its
# replies (big packets, many requests, no reads) are dropped after 10 s;
# both run at once.
feed f1 "packet 1 1000 4000 3000000 1" && feed f1 "beacon 2 3100000"
ok $? "a packet of 4000 events (112 KB)"
spawn h "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask h "bytes 0000000000000014000000"
spawn i "$PROBE_BIN" 127.0.0.1 "$LIVE"
spawn s "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask s connect && ask s create && ask s "attach $S1 1" 5 && ask s "metadata $H0" &&
	ask s "index $H1" && ask s "index $H1"
like "$R" "^index status=1 flags=0 offset=256 packet_size=$((112128 * 8)) " \
	"the viewer that will stall gets the big packet's index"
ask s "flood $H1 256 112128 200"
feed f1 "packet 1 5000 2 6500 10"
ok $? "the consumer is served while that viewer stalls"
ask h waitclose
is "$R" "waitclose closed" "a request left half sent: the relay closes the connection"
ask s waitclose
is "$R" "waitclose closed" "a viewer that does not read its replies: the relay drops it"
ask i waitclose
is "$R" "waitclose closed" "a connection that never sends CONNECT: the relay closes it"
wait_for "$LOG" "its request did not arrive in time" &&
	wait_for "$LOG" "it did not read its reply in time" &&
	wait_for "$LOG" "it sent no CONNECT in time"
ok $? "all three are logged"
ask p list 4
like "$R" "^list count=3\|" "the relay serves other viewers meanwhile"

# The end of a session: a viewer drains it, then HUP.
spawn v "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask v connect && ask v create && ask v "attach $S1 2" 5
like "$R" "^attach status=1 count=4\|" "a viewer attaches from the last packet"
ask v "metadata $H0"
ask v "index $H1"
like "$R" "^index status=1 flags=0 offset=112384 packet_size=2048 content_size=1120 begin=6500 " \
	"SEEK_LAST starts at the newest packet"
feed f1 "packet 1 2 3 7000 10" && feed f1 "close 1" && feed f1 "close 2" &&
	feed f1 "close 3" && feed f1 end
ok $? "the consumer sends a last packet and leaves"
wait_for "$LOG" "session $S1 live2 of feedhost closed"
ok $? "the relay closes the session"
ask v "index $H1"
like "$R" "^index status=1 flags=0 offset=112640 packet_size=2048 content_size=1344 begin=7000 end=7020 " \
	"a closed session's last packet is still served"
ask v "index $H1"
like "$R" "^index status=3 " "then HUP for that stream"
ask v "index $H2"
like "$R" "^index status=3 " "HUP for the stream that never had data"
ask v "new $S1"
is "$R" "new status=2 count=0" "GET_NEW_STREAMS while a stream is not drained: NO_NEW"
ask v "index $H3"
like "$R" "^index status=3 " "HUP for the last stream"
ask v "new $S1"
is "$R" "new status=4 count=0" "GET_NEW_STREAMS once every stream hung up: HUP"
ask p list 3
unlike "$R" "name=live2" "a closed session is not listed"

# At most 256 viewer connections: more are accepted and closed at once.
# Each of the 300 is either refused or, once closed, "left".
before=$(grep -cE "closed: the viewer left|refusing another" "$LOG")
conns=()
for ((i = 0; i < 300; i++)); do
	exec {c}<>"/dev/tcp/127.0.0.1/$LIVE" && conns+=("$c")
done
wait_for "$LOG" "256 viewers connected already: refusing another"
ok $? "the 257th viewer connection is refused"
for c in "${conns[@]}"; do exec {c}>&-; done
wait_for "$LOG" "closed: the viewer left|refusing another" $((before + ${#conns[@]}))
ok $? "the relay closes the accepted ones as they leave"
spawn w "$PROBE_BIN" 127.0.0.1 "$LIVE"
ask w connect
like "$R" "^connect major=2 " "once they are gone, a viewer is served again"

ok "$(proc_alive "$RELAYD_PID"; echo $?)" "the relay is alive"
stop_relayd
ok $? "ltt-relayd stops on SIGTERM with viewers connected"
done_testing
