#!/bin/bash
# A relay killed while a packet is half received leaves only whole
# packets in its stream files: babeltrace2 refuses a whole trace when one
# stream file ends in part of a packet.  A scripted consumer (relay_feed)
# sends one whole packet, then the header and the first bytes of a second
# whose rest never comes; once the relay has read every byte sent, it is
# killed (SIGKILL): the stream file holds the first packet only, and
# babeltrace2 reads its 100 events.  Before the relay gathered packets
# whole, it wrote the part it had received.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
command -v ss >/dev/null || skip_all "ss (iproute2) is not installed"
live_init
OUT=$TEST_TMP/out
start_relayd -o "$OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

spawn feeder "$FEED_BIN"
step() { feed feeder "$*"; }
step connect 127.0.0.1 "$CPORT" "$DPORT" &&
	step session cut feedhost 0 &&
	step stream metadata ust/uid/0/64-bit &&
	step stream chan_0 ust/uid/0/64-bit &&
	step sent && step metadata 0
ok $? "a consumer creates a session with a metadata and a data stream"
# 84 + 28 * 100 bytes, rounded up to 256: 3072
step packet 1 0 100 1000 10
ok $? "a whole packet of 100 events"
step packet-part 1 100 100 3000 10 1500
ok $? "the header and 1500 of the 3072 bytes of the next one"

# every byte sent is read by the relay: nothing queued on either side
timeout "$TEST_TIMEOUT" bash -c '
	until [ "$(ss -Htn state established "( sport = :$0 or dport = :$0 )" |
		awk "{ q += \$1 + \$2 } END { print q + 0 }")" = 0 ]; do :; done' "$DPORT"
ok $? "the relay has read all of it"
stop_relayd KILL
ok $? "the relay is killed (SIGKILL)"

dir=
for d in "$OUT"/feedhost/cut*; do [ -d "$d" ] && dir=$d; done
f=$(find "$dir" -path '*/index' -prune -o -name 'chan_0*' -type f -print 2>/dev/null | head -n 1)
ok "$([ -n "$f" ]; echo $?)" "the relay wrote the stream's file ($f)"
is "$(stat -c %s "$f" 2>/dev/null)" 3072 "the stream file holds the whole packet and nothing of the cut one"
timeout "$BT_TIMEOUT" babeltrace2 "$dir" >"$TEST_TMP/bt.txt" 2>"$TEST_TMP/bt.err"
ok $? "babeltrace2 reads the trace"
is "$(events "$TEST_TMP/bt.txt" | wc -l)" 100 "its 100 events"
is "$(events "$TEST_TMP/bt.txt" | tail -n 1)" "99:297" "the last one is seq 99"
step end
done_testing
