#!/bin/bash
# test_trigger_usage_stalled.sh - buffer usage is sampled for every
# stream the daemon made, whether or not the consumer has taken its trace
# yet (issue 61, 6).  A per-PID session's consumer is held still
# (SIGSTOP) before a program registers: the program's trace is owed to
# the consumer, yet the program has its buffers and writes flat out into
# a 16 KiB channel.  channel-buffer-usage-ge at 50% fires while the
# consumer is still stopped, while the daemon still waits (5 s) to hand
# the trace over, holding the session for changes (before: the look
# waited for that wait to end; a program that ran 2 s and left was never
# seen); once the consumer runs, the trace is written: recorded +
# discarded = committed.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 10

N=20000
lttctl -q create bw -o "$TEST_TMP/bw" &&
	lttctl -q enable-channel -u small -s bw --buffers-pid --subbuf-size 4k --num-subbuf 4 &&
	lttctl -q enable-event -u ltt_test:seq -s bw -c small && lttctl -q start bw
ok $? "bw records ltt_test:seq into a per-PID 16 KiB channel"
ok_cmd "buffer usage >= 50% -> notify" lttctl add-trigger --name half \
	--condition=channel-buffer-usage-ge --session=bw --channel=small -u \
	--threshold-ratio=0.5 --action=notify

# a first program, idle, makes the daemon spawn the consumer
open_fifo R "$TEST_TMP/ready"
open_fifo G "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 0 -r idle
idle=$BG_PID
wait_ready "$R"
cons=$(consumer_pid)
stop_proc "$cons"
ok $? "the consumer (pid $cons) is held still"

# the second registers now: its trace waits for the consumer
open_fifo K "$TEST_TMP/k"
ust_app_bg -n $N -r flat -k "$TEST_TMP/k"
flat=$BG_PID
read_line "$K"
is "$LINE" done "a program registered with the consumer stopped wrote $N events flat out"
end=$((SECONDS + TEST_TIMEOUT))
until [ "$(trigger_count half fired)" -ge 1 ] 2>/dev/null || [ $SECONDS -ge $end ]; do :; done
is "$(trigger_count half fired)" 1 "the trigger fired once while the consumer was stopped"
# the trace's hand-over waits 5 s for the consumer, holding the session
# for changes: the look at the buffers did not wait for it to give up
unlike "$(cat "$SESSIOND_LOG")" "did not answer ADD_TRACE" \
	"it fired while the daemon still waited to hand the program's trace over"
stat=$(ps -o stat= -p "$cons")
is "${stat:0:1}" T "the consumer was stopped all along"

kill -CONT "$cons"
lttctl -q stop bw
ok $? "bw stops once the consumer runs again"
lost=$(list_lost_events bw)
kill "$flat" "$idle" 2>/dev/null
wait "$flat" "$idle" 2>/dev/null
ok_cmd "destroy bw (its data written)" lttctl destroy bw
bt "$TEST_TMP/bw" "$TEST_TMP/bw.txt"
got=$(count_events "$TEST_TMP/bw.txt" ltt_test:seq)
is "$((got + lost))" $N "recorded ($got) + discarded ($lost) = committed ($N)"
