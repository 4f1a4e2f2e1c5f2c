#!/bin/bash
# A per-PID trace of four channels streamed to a relay that stopped
# answering (SIGSTOP) while its program ran and exited: the consumer's
# removal of the first channel waits for the relay (2 s at most), and
# the three others, whose streams wait on the same relay that took
# nothing since, are closed at once, not 2 s each (8 s in all): one
# bound for every channel.  What they could not send is counted lost in
# the session's channels (list shows it; it was read before the removal
# and lost), and the relay, continued, serves the session on.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
N=40
plan 7

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
lttctl -q create s -U "net://127.0.0.1:$CPORT:$DPORT" || { echo "Bail out! create"; exit 1; }
for c in c1 c2 c3 c4; do
	lttctl -q enable-channel -u --buffers-pid -s s $c &&
		lttctl -q enable-event -u ltt_test:seq -s s -c $c || { echo "Bail out! $c"; exit 1; }
done
lttctl -q start s || { echo "Bail out! start"; exit 1; }

kill -STOP "$RELAYD_PID"
ust_app -n "$N" >/dev/null
ok $? "the program ran and exited, the relay stopped"
t0=$(date +%s%N)
# the four channels closed in the consumer
TEST_TIMEOUT=20 wait_for "$SESSIOND_LOG" "channel [0-9]+ \(c[1-4]\) closed" 4
ok $? "the exited program's four channels are closed"
ms=$((($(date +%s%N) - t0) / 1000000))
ok "$((ms < 5000 ? 0 : 1))" "... within 5 s ($ms ms; one 2 s wait for the relay, not four)"
is "$(grep -cE 'channel c[1-4]: its removal waits for [0-9]+ stream' "$SESSIOND_LOG")" 1 \
	"one channel's removal waited for the relay"
at_once=$(grep -cE 'channel c[1-4]: [0-9]+ stream\(s\) whose output took nothing since a removal waited 2000 ms for it: closed at once' "$SESSIOND_LOG")
is "$at_once" 3 "the three others' streams, on the relay that took nothing since, were closed at once"
lost=$(lttctl list s | sed -n 's/^ *lost packets: //p' | awk '{ s += $1 } END { print s + 0 }')
ok "$((lost > 0 ? 0 : 1))" "list counts what the closed streams could not send: $lost packets lost"
kill -CONT "$RELAYD_PID"
lttctl -q stop s
lttctl -q destroy s
ok $? "the relay continued, the session stops and goes"
done_testing
