#!/bin/bash
# test_trigger_consumer_wait.sh - a trigger's action is not lost to a
# busy consumer (issue 48).  channel-buffer-usage-ge fires exactly when
# the consumer is behind: here its consumer is held still (SIGSTOP) while
# a program writes flat out, so the rotation the trigger asks for finds
# the consumer not answering (CONSUMERD_STALLED).  The action waits for
# it: list-triggers shows it pending, not failed, and nothing rotates;
# once the consumer runs again (SIGCONT) the rotation happens, the
# action counted run once and never failed, and the chunks hold every
# event: recorded + discarded = committed, none twice.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 16

N=20000
ok_cmd "create session bw" lttctl create bw -o "$TEST_TMP/bw"
lttctl -q enable-channel -u small -s bw --subbuf-size 4k --num-subbuf 4 &&
	lttctl -q enable-event -u ltt_test:seq -s bw -c small && lttctl -q start bw
ok $? "bw records ltt_test:seq into a 16 KiB channel"
ok_cmd "buffer usage >= 50% -> rotate bw" lttctl add-trigger --name half \
	--condition=channel-buffer-usage-ge --session=bw --channel=small -u \
	--threshold-ratio=0.5 --action=rotate-session bw
ok_cmd "rotation finishes on bw -> notify" lttctl add-trigger --name done \
	--condition=session-rotation-finishes --session=bw --action=notify

open_fifo R "$TEST_TMP/ready"
open_fifo G "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r bw
wait_ready "$R"
cons=$(consumer_pid)
stop_proc "$cons"
ok $? "the consumer (pid $cons) is held still"
open_fifo W "$TEST_TMP/w"
lttctl wait-trigger done --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w.out" 2>&"$W" &
waiter=$!
read_line "$W" && [[ $LINE == "Waiting for trigger "* ]]
ok $? "a subscriber waits for bw's rotation to finish"
echo go >&"$G"
wait $BG_PID
is $? 0 "the program wrote its $N events flat out"

# the trigger fires on the daemon's next look at the buffers; its
# rotation finds the consumer stopped and waits for it
timeout "$TEST_TIMEOUT" bash -c 'until "$0" list-triggers --counters 2>/dev/null |
	grep -q "pending: 1 (waiting for the consumer since "; do :; done' "$LTTCTL_BIN"
ok $? "list-triggers shows the rotation pending, waiting for the consumer"
# 'half' has the only rotate-session action: the only "pending" line
like "$(lttctl list-triggers --counters)" \
	"^ *runs: 1, failures: 0, pending: 1 \(waiting for the consumer since [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\)$" \
	"the waiting action is not counted failed"
is "$(narchives "$TEST_TMP/bw")" 0 "nothing rotated while the consumer is stopped"

kill -CONT "$cons"
wait $waiter
is $? 0 "the rotation finished once the consumer ran again"
is "$(trigger_count half runs):$(trigger_count half failures):$(lttctl list-triggers | grep -c pending)" \
	1:0:0 "the action ran once, did not fail, and waits no more"
grep -q "trigger 'half' (uid [0-9]*): rotate-session of session 'bw' waits for the consumer" \
	"$SESSIOND_LOG"
ok $? "the daemon logged that the rotation waited for the consumer"

lttctl -q stop bw
lost=$(list_lost_events bw)
ok_cmd "destroy bw (its data written)" lttctl destroy bw
first=$(archives "$TEST_TMP/bw" | head -1)
bt "$first" "$TEST_TMP/first.txt"
ok "$([ "$(count_events "$TEST_TMP/first.txt" ltt_test:seq)" -gt 0 ]; echo $?)" \
	"the trigger's chunk ($(basename "$first")) holds the program's events"
bad=$(read_archives "$TEST_TMP/bw" "$TEST_TMP/bw.txt")
set -- $(dups_and_range "$TEST_TMP/bw.txt" bw 1 $N)
is "$bad:$1:$2:$(($3 + lost))" "0:0:0:$N" \
	"every chunk reads; recorded ($3) + discarded ($lost) = committed ($N), none twice"
