#!/bin/bash
# Exact counts across a relay's death (doc/relayd.md, "Exact counts
# across a relay's death"): ltt-relayd kills itself at a fault point,
# every time at the same step of a packet's way, then a relay is started
# again on the same ports and output, and `stop` has the consumer ask it
# (RECONCILE_STREAM) which of the packets it never saw confirmed are in
# the trace.  Two points, both of which counted a recorded packet lost
# before:
#   packet-indexed  the packet in its file and in the index, its
#                   SEND_INDEX unanswered: the relay says it holds it,
#                   the consumer counts it recorded, not lost;
#   packet-written  the packet in its file, not yet in the index: the
#                   relay cuts it (babeltrace2 reads a data file past a
#                   short index), the consumer keeps it lost.
# Either way: the events babeltrace2 reads plus the events `list` counts
# lost equal the events the program emitted, exactly.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
N=20000		# in 4 KiB packets: a few hundred
K=10		# the packet at whose step the relay dies

# one_case NAME POINT: a session streamed to a relay that dies at the
# K-th POINT, counted once the relay is back.
one_case() {
	local name=$1 point=$2 out="$TEST_TMP/out-$1" dir= d got lost pid again
	LTT_FAULT="kill $point:$K" start_relayd -o "$out" ||
		{ echo "Bail out! ltt-relayd did not start"; exit 1; }
	pid=$RELAYD_PID
	ok_cmd "$name: a streamed session" lttctl -q create "$name" -U "net://127.0.0.1:$CPORT:$DPORT"
	# blocking: every event reaches the consumer, none is discarded in
	# the ring buffer, so the relay gets its K-th packet whatever the speeds
	ok_cmd "$name: a blocking channel of 4 KiB sub-buffers" lttctl -q enable-channel -u chan \
		-s "$name" --subbuf-size 4k --num-subbuf 8 --blocking-timeout=inf
	ok_cmd "$name: its events enabled" lttctl -q enable-event -u 'ltt_test:*' -s "$name" -c chan
	ok_cmd "$name: started" lttctl -q start "$name"
	LTT_UST_ALLOW_BLOCKING=1 ust_app -n "$N" >/dev/null
	ok $? "$name: the program emits $N events"
	wait_pid_exit "$pid"
	ok $? "$name: the relay is gone"
	like "$(cat "$RELAYD_LOG")" "LTT_FAULT: killed at $point" "$name: killed at $point, as asked"
	# packet-written: a relay of another run directory, which has not the
	# dead one's journal, so that the reconcile is what cuts the packet (a
	# relay of the same one cuts it at its start: test_relay_restart_repair)
	[ "$point" = packet-written ] && again=$TEST_TMP/run-again || again=$LTT_RUNDIR
	LTT_RUNDIR=$again start_relayd -o "$out" -C "tcp://127.0.0.1:$CPORT" \
		-D "tcp://127.0.0.1:$DPORT" -L "tcp://127.0.0.1:$LPORT" ||
		{ echo "Bail out! ltt-relayd did not start again"; exit 1; }
	ok $? "$name: a relay again on the same ports and output"

	run lttctl stop "$name"
	is "$RC" 1 "$name: stop says the relay connection was lost"
	lost=$(list_lost_events "$name")
	for d in "$out"/*/"$name"-*; do [ -d "$d" ] && dir=$d; done
	bt "$dir" "$TEST_TMP/$name.txt"
	ok $? "$name: babeltrace2 reads the trace"
	got=$(count_events "$TEST_TMP/$name.txt" ltt_test:seq)
	diag "$name: recorded $got, counted lost $lost, emitted $N"
	ok "$([ "$lost" -gt 0 ]; echo $?)" "$name: events counted lost ($lost)"
	# packet-written may find the first packets written, their indexes not
	# read yet: all cut, none recorded; packet-indexed records its packet
	[ "$point" = packet-written ] ||
		ok "$([ "$got" -gt 0 ]; echo $?)" "$name: events recorded ($got)"
	is "$((got + lost))" "$N" "$name: recorded + counted lost = emitted, exactly"
	ok_cmd "$name: destroy" lttctl -q destroy "$name"
	stop_relayd KILL
}

one_case indexed packet-indexed
like "$(cat "$SESSIOND_LOG")" "the relay holds [1-9][0-9]* of the [1-9][0-9]* packets unconfirmed when the connection died" \
	"indexed: the relay back says it holds the packet it indexed, unanswered"
one_case written packet-written
like "$(cat "$RELAYD_LOG")" "reconcile chan_[0-9]*: [0-9]* bytes past its last indexed packet cut" \
	"written: the relay back cuts the packet no index covers"
done_testing
