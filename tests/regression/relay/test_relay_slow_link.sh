#!/bin/bash
# A session streaming to a relay over a slow link (an htb class of 200
# kbit/s on loopback, in a network namespace of the test's own, as
# LTTng's streaming/test_high_throughput_limits throttles it): stop waits
# until the relay has every packet, for as long as the data moves, even
# when the consumer's socket only drains (no send for longer than the
# consumer's no-progress time, here 1 s: SIOCOUTQ going down is progress)
# and when no byte is acknowledged for longer than that (a 64 KiB
# loopback segment takes 2.6 s at 200 kbit/s: the relay's window open
# and an ACK within 6 no-progress times is progress too), and when the
# relay is stopped (SIGSTOP) for a while shorter than it; no
# packet is lost: recorded + discarded = committed, the relay's trace
# complete when stop returns.  A relay stopped for good is given up after
# the no-progress time: stop says the relay was lost, never hangs.
if [ -z "${LTT_TEST_NETNS:-}" ]; then
	. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
	[ "$(id -u)" = 0 ] || skip_all "a network namespace and tc need root"
	unshare -n true 2>/dev/null || skip_all "unshare -n: no network namespaces here"
	command -v tc >/dev/null || skip_all "tc (iproute2) is not installed"
	LTT_TEST_NETNS=1 exec unshare -n "$BASH" "$0" "$@"
fi
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
ip link set lo up || { echo "Bail out! lo of the test's namespace"; exit 1; }
# 200 kbit/s for all of loopback: the relay's ports as the rest.
if ! tc qdisc add dev lo root handle 1: htb default 11 ||
	! tc class add dev lo parent 1: classid 1:11 htb rate 200kbit ceil 200kbit; then
	skip_all "tc can't make an htb class here (sch_htb missing?)"
fi

STALL_MS=1000
export LTT_CONSUMERD_RELAY_STALL_MS=$STALL_MS
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
N=30000

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
URL="net://127.0.0.1:$CPORT:$DPORT"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# session NAME: streamed, one channel of 4 x 16 KiB a CPU, ltt_test:seq.
session() {
	lttctl -q create "$1" -U "$URL" &&
		lttctl -q enable-channel -u -s "$1" chan --subbuf-size 16k --num-subbuf 4 &&
		lttctl -q enable-event -u -s "$1" ltt_test:seq -c chan &&
		lttctl -q start "$1"
}

# --- a slow link: stop waits while the socket drains
ok_cmd "a streamed session" session slow
ust_app -n $N -r slow >/dev/null
is $? 0 "the program committed $N events"
t0=$(now_ms)
run lttctl stop slow
t1=$(now_ms)
is "$RC" 0 "stop over the slow link: exit 0"
is "$(tail -n 1 <<<"$STDOUT")" "Tracing stopped for session slow." "  it says so"
ok "$([ $((t1 - t0)) -gt $STALL_MS ]; echo $?)" \
	"  it waited $((t1 - t0)) ms, longer than the no-progress time ($STALL_MS ms)"
dir=$(ls -d "$RELAY_OUT"/*/slow-* 2>/dev/null)
bt "$dir" "$TEST_TMP/slow.txt"
rec=$(count_events "$TEST_TMP/slow.txt" ltt_test:seq)
dis=$(discarded "$TEST_TMP/slow.txt.err")
is "$((rec + dis))" "$N" "recorded ($rec) + discarded ($dis) = committed, read at once"
is "$(list_lost_events slow)" "$dis" "  the session counts the same discarded events"
unlike "$(cat "$SESSIOND_LOG")" "no progress for" "no connection was given up"
lttctl -q destroy slow

# --- the relay stopped for a while, shorter than the no-progress time
ok_cmd "a second session" session paused
ust_app -n $N -r paused >/dev/null
: >"$TEST_TMP/stop.out"
lttctl stop paused >"$TEST_TMP/stop.out" 2>&1 &
STOP_PID=$!
# stop is waiting once it says so (a file, not a time)
timeout "$TEST_TIMEOUT" bash -c 'tail -n +1 -F "$1" 2>/dev/null | grep -q -m 1 "Waiting"' \
	_ "$TEST_TMP/stop.out"
ok $? "stop waits for the relay"
kill -STOP "$RELAYD_PID"
# the stimulus, not a synchronisation: the relay is away for half the
# no-progress time
sleep 0.5
kill -CONT "$RELAYD_PID"
wait $STOP_PID
is $? 0 "stop with the relay stopped for 500 ms on the way: exit 0"
like "$(cat "$TEST_TMP/stop.out")" "Tracing stopped for session paused\.$" "  it says so"
bt "$(ls -d "$RELAY_OUT"/*/paused-*)" "$TEST_TMP/paused.txt"
rec=$(count_events "$TEST_TMP/paused.txt" ltt_test:seq)
dis=$(discarded "$TEST_TMP/paused.txt.err")
is "$((rec + dis))" "$N" "recorded ($rec) + discarded ($dis) = committed"
lttctl -q destroy paused

# --- a relay stopped for good: given up, stop does not hang
ok_cmd "a third session" session gone
ust_app -n $N -r gone >/dev/null
kill -STOP "$RELAYD_PID"
run lttctl stop gone
kill -CONT "$RELAYD_PID"
is "$RC" 1 "stop with the relay stopped for good: exit 1"
like "$ERR" "connection to the relay daemon was lost" "  it says the relay was lost"
like "$(cat "$SESSIOND_LOG")" "no progress for $STALL_MS ms|still says data is pending" \
	"  the consumer gave it up after $STALL_MS ms without progress"
lttctl -q destroy gone
done_testing
