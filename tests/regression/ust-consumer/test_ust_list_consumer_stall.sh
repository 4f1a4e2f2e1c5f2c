#!/bin/bash
# test_ust_list_consumer_stall.sh - `lttctl list SESSION` says when the
# session's consumer daemon is stalled, since when, the command it owes,
# and what waits for it (client minor 14), in the text (LTTng's MI has no
# place for it: --mi xml answers meanwhile with the session); the
# line goes once the consumer runs again, and nothing is lost.
#
# A per-PID session's consumer is stopped (SIGSTOP); a program registers:
# the daemon gives it its buffers and sends its trace's ADD_TRACE to the
# stopped consumer, waiting for the reply (5 s) with the session's gate
# held (its state lock given back).  list answers meanwhile, from the
# session as it is, and already says the consumer is stalled on ADD_TRACE;
# once the daemon gives up, list says the program's trace waits.  The
# program records N events and exits (its trace is kept, closing).  After
# SIGCONT the consumer takes the trace, list no longer says stalled, stop
# succeeds and the trace holds the N events once each: committed =
# recorded + 0.  How long list took is reported, not asserted.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 18
N=2000

gave_up() {
	grep -c 'did not answer ADD_TRACE' "$SESSIOND_LOG"
}
# stall_line: list's stalled-consumer lines of session s, on one line
stall_line() {
	"$LTTCTL_BIN" list s 2>&1 | grep -A1 '^Consumer daemon:' | tr '\n' ' '
}
# list_ms: run `lttctl list s` into OUT; its time in ms into MS (reported, not asserted)
list_ms() {
	local t0=$EPOCHREALTIME
	OUT=$("$LTTCTL_BIN" list s 2>&1)
	RC=$?
	MS=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }')
	[ "$MS" -le "${MAX_MS:-0}" ] || MAX_MS=$MS
}

{
	lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-channel -u c --buffers-pid &&
	lttctl -q enable-event -u ltt_test:seq -c c &&
	lttctl -q start
} || { echo "Bail out! the session could not be set up"; exit 1; }
cpid=$(consumer_pid)
ok "$([ -n "$cpid" ]; echo $?)" "the session has a consumer (pid $cpid)"
run lttctl list s
like "$RC:${OUT//$'\n'/ }" '^0:.*ltt_test:seq' "list answers while the consumer runs"
unlike "$OUT" 'Consumer daemon:' "a running consumer: list says nothing about it"

stop_proc "$cpid"
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r st
app=$BG_PID
wait_ready $ready
ok $? "a program registers while the consumer is stopped (it has its buffers)"

# While the daemon waits for the ADD_TRACE's reply (the session's gate held):
# list answers, and says stalled once the call has waited a second.
deadline=$((SECONDS + TEST_TIMEOUT))
until list_ms; [[ $OUT == *'Consumer daemon: stalled'* ]] || [ $SECONDS -ge $deadline ]; do :; done
early=$(gave_up)
is "$RC" 0 "list answers while the daemon waits for the stopped consumer"
like "${OUT//$'\n'/ }" 'Consumer daemon: stalled, not answering since [0-9-]+ [0-9:]+ \(ADD_TRACE owed\)' \
	"list says the consumer is stalled, since when, and the command it owes"
diag "the first such list came before the daemon gave up on ADD_TRACE: $([ "$early" = 0 ] && echo yes || echo no)"

# Once the daemon gave up (the gate is free): the program's trace waits.
wait_for "$SESSIOND_LOG" "did not answer ADD_TRACE"
ok $? "the daemon gives up waiting for the ADD_TRACE (its log)"
until list_ms; [[ $OUT == *'1 trace waits'* ]] || [ $SECONDS -ge $deadline ]; do :; done
like "${OUT//$'\n'/ }" 'Consumer daemon: stalled.*\(ADD_TRACE owed\).* 1 trace waits to be written once it runs again: resume it' \
	"list: 1 trace waits for the consumer, and what to do"
diag "$(grep -A1 '^Consumer daemon:' <<<"$OUT")"
since=$(sed -n 's/^Consumer daemon: stalled, not answering since \([0-9-]* [0-9:]*\) .*/\1/p' <<<"$OUT")
now=$(date +%s)
s=$(date -d "$since" +%s 2>/dev/null || echo 0)
ok "$([ "$s" -le "$now" ] && [ "$s" -ge $((now - 2 * TEST_TIMEOUT)) ]; echo $?)" \
	"its since ($since) is a time of this test"

# --mi xml answers too, with LTTng's names: the stall is in the text only
# (LTTng's schema has no element for it)
"$LTTCTL_BIN" --mi xml list s >"$TEST_TMP/list.xml" 2>/dev/null
is "$(mi_xp 'concat(//domain/type, ":", //domain/channels/channel/name, ":", count(//consumerStall))' "$TEST_TMP/list.xml")" \
	"UST:c:0" "--mi xml: the session's UST domain and channel while the consumer is stalled"
is "$(mi_valid "$TEST_TMP/list.xml")" "$TEST_TMP/list.xml validates" "--mi xml: the document validates against LTTng's schema"

# The program records and exits: its trace is kept, still waiting
echo go >&$go
wait $app
is $? 0 "the program recorded $N events and exited"
list_ms
like "${OUT//$'\n'/ }" 'Consumer daemon: stalled.*1 trace waits' \
	"after the program left, list still says its trace waits"
kill -CONT "$cpid"
deadline=$((SECONDS + TEST_TIMEOUT))
until line=$(stall_line); [ -z "$line" ] || [ $SECONDS -ge $deadline ]; do :; done
is "$line" "" "once the consumer runs again, list no longer says it is stalled"
diag "the slowest list took $MAX_MS ms"
ok_cmd "stop succeeds" lttctl stop s

bt "$TEST_TMP/s" "$TEST_TMP/s.out"
lost=$(list_lost_events s)
is "$(seq_check "$TEST_TMP/s.out" st 1 $N)" "" "the $N events the program recorded, once each"
is "$(count_events "$TEST_TMP/s.out" ltt_test:seq):$lost" "$N:0" "recorded = committed ($N), nothing discarded"
ok_cmd "destroy" lttctl destroy s
close_fd $go
done_testing
