#!/bin/bash
# test_ust_buffers.sh - full buffers.  Discard mode: tiny buffers and a
# burst must lose events, and recorded + lost == emitted exactly, the
# count of lost events being the same for lttctl list, lttctl stop's
# warning and babeltrace2.  Overwrite mode: the trace ends with the newest
# events, contiguous up to the last one, and reads without error.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 34

T=2 N=100000	# 200000 events, about 4 MB, into 2 x 4 KiB per CPU
# Each program waits (-e) until ltt_test:seq is enabled before its burst:
# the daemon may answer its registration before the session's channels and
# events are pushed (a slow consumer call), and a burst emitted meanwhile
# would be neither recorded nor counted.

# burst NAME: ust_burst's T x N events, the consumer stopped meanwhile.
burst() {
	ust_burst "$1" $T $N
}

# --- discard ---
ok_cmd "create" lttctl create disc -o "$TEST_TMP/disc"
ok_cmd "tiny discard channel: 2 x 4 KiB" lttctl enable-channel -u tiny --subbuf-size 4k --num-subbuf 2
ok_cmd "enable ltt_test:seq in it" lttctl enable-event -u ltt_test:seq -c tiny
ok_cmd "start" lttctl start
burst disc
is "$BURST_RC" 0 "a burst of $((T * N)) events"
run lttctl stop
is "$RC" 0 "stop"
stop_err=$ERR
run lttctl list disc
lost=$(printf '%s\n' "$STDOUT" | sed -n 's/^ *discarded events: //p')
like "$lost" '^[0-9]+$' "list: the number of discarded events"
ok "$([ "${lost:-0}" -gt 0 ]; echo $?)" "events were discarded ($lost)"
like "$stop_err" "^Warning: channel 'tiny' of session 'disc' discarded $lost events: its buffers were full\. Give it larger ones \(e\.g\. --subbuf-size 8k, or more with --num-subbuf\)\.\$" \
	"stop warns, with the same count, and suggests larger buffers"

bt "$TEST_TMP/disc" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
recorded=$(count_events "$TEST_TMP/out" ltt_test:seq)
ok "$([ "$recorded" -gt 0 ]; echo $?)" "events were recorded ($recorded)"
is $((recorded + ${lost:-0})) $((T * N)) "recorded + discarded == emitted, exactly"
is "$(discarded "$TEST_TMP/out.err")" "${lost:-none}" "babeltrace2 reports as many discarded events as lttctl list"
is "$(awk '/ ltt_test:seq: / { match($0, /thread = [0-9]+, seq = [0-9]+/); print substr($0, RSTART, RLENGTH) }' "$TEST_TMP/out" | sort | uniq -d | wc -l)" 0 \
	"no event recorded twice"
lttctl destroy disc >/dev/null

# The same with per-PID buffers: the program's trace closes when it exits,
# before stop; its losses still count.
ok_cmd "create" lttctl create pdisc -o "$TEST_TMP/pdisc"
ok_cmd "tiny per-PID discard channel" \
	lttctl enable-channel -u tiny --buffers-pid --subbuf-size 4k --num-subbuf 2
ok_cmd "enable ltt_test:seq in it" lttctl enable-event -u ltt_test:seq -c tiny
ok_cmd "start" lttctl start
burst pdisc
is "$BURST_RC" 0 "a burst of $((T * N)) events, then the program exits"
run lttctl stop
stop_err=$ERR
lost=$(lttctl list pdisc | sed -n 's/^ *discarded events: //p')
ok "$([ "${lost:-0}" -gt 0 ]; echo $?)" "per-PID: list still counts the exited program's discarded events ($lost)"
like "$stop_err" "discarded $lost events" "per-PID: stop warns with that count"
bt "$TEST_TMP/pdisc" "$TEST_TMP/pout"
is $(($(count_events "$TEST_TMP/pout" ltt_test:seq) + ${lost:-0})) $((T * N)) \
	"per-PID: recorded + discarded == emitted, exactly"
is "$(discarded "$TEST_TMP/pout.err")" "${lost:-none}" "per-PID: babeltrace2 agrees"
lttctl destroy pdisc >/dev/null

# --- overwrite ---
# One thread on one CPU: a single stream, so "the newest events" are the
# highest sequence numbers.  The consumer is stopped (SIGSTOP) during the
# burst: overwrite mode never waits for it, and what it finds afterwards
# can only be the last sub-buffers the writer filled.
ok_cmd "create" lttctl create ow -o "$TEST_TMP/ow"
ok_cmd "small overwrite channel: 4 x 4 KiB" \
	lttctl enable-channel -u small --overwrite --subbuf-size 4k --num-subbuf 4
ok_cmd "enable ltt_test:seq in it" lttctl enable-event -u ltt_test:seq -c small
ok_cmd "start" lttctl start
M=200000
# Registered first: its buffers exist (creating them needs the consumer).
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
(close_fifos; exec timeout "$(ust_guard -e "$TEST_TIMEOUT")" taskset -c 0 "$UST_APP" \
	-e "$TEST_TIMEOUT" -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $M -r ow) &
app=$!
wait_ready $ready
cons=$(consumer_pid)
like "$cons" '^[0-9]+$' "the consumer's pid"
# A stopped consumer would outlive the test (it exits when its daemon's
# socket closes, which it cannot see while stopped).
trap 'kill -CONT "$cons" 2>/dev/null; _cleanup' EXIT
stop_proc "$cons"
ok $? "the consumer is stopped"
echo go >&$go
wait $app
is $? 0 "a burst of $M events from one thread on CPU 0, the consumer stopped"
kill -CONT "$cons"
ok_cmd "stop" lttctl stop
bt "$TEST_TMP/ow" "$TEST_TMP/ow.out"
is $? 0 "babeltrace2 reads the overwritten trace without error"
# The seq numbers, in trace order: one run of consecutive numbers ending
# with M-1, as long as 3 to 4 sub-buffers hold: 4096 - 84 bytes each, of
# events of 19 bytes (compact header: 4, "ow": 3, thread: 4, seq: 8) to
# 28 (extended header: 13).
sed -n 's/.* ltt_test:seq: .*seq = \([0-9]*\) }$/\1/p' "$TEST_TMP/ow.out" >"$TEST_TMP/ow.seq"
res=$(awk '
	NR > 1 && $1 != prev + 1 { gaps++ }
	{ prev = $1; n++ }
	END { printf "last=%d gaps=%d count-ok=%s", prev, gaps, (n >= 3 * int(4012 / 28) && n <= 4 * int(4012 / 19)) ? "yes" : n }' "$TEST_TMP/ow.seq")
is "$res" "last=$((M - 1)) gaps=0 count-ok=yes" \
	"overwrite: only the newest events, consecutive, up to the last one"
# Every packet the writer produced is either in the file or counted lost:
# packets in small_0 + lost packets == the last packet_seq_num + 1.
idx="$TEST_TMP/ow/ust/uid/$(id -u)/64-bit/index/small_0.idx"
n=$((($(stat -c %s "$idx") - 16) / 72))
last_seq=$(od -An -tu8 --endian=big -j $((16 + 72 * (n - 1) + 64)) -N8 "$idx" | tr -d ' ')
lost_packets=$(lttctl list ow | sed -n 's/^ *lost packets: //p')
is "$n + $lost_packets" "$n + $((last_seq + 1 - n))" \
	"overwrite: packets written ($n) + lost packets (list) == packets produced ($((last_seq + 1)))"
done_testing
