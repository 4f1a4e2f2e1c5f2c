#!/bin/bash
# test_trigger_owner_stalled.sh - a trigger's actions run as commands of
# its owner, on that owner's worker: a user whose consumer is stopped
# (SIGSTOP) holds up only their own triggers.  User B (nobody) has a
# per-PID session b whose owner thread waits on B's stopped consumer
# (stalled_b_setup: b's lock held in an ADD_TRACE, 5 s deadline).  B's
# trigger, on the start of a rotation of B's session b2, notifies and
# rotates b: the notification goes at once, the rotation waits on B's
# worker behind B's rotation of b2 (which waits for B's stopped
# consumer).  Meanwhile root's trigger on the start of a rotation of
# root's session a stops a and notifies: root's wait-trigger returns
# before the daemon gave up on B's consumer, while B's action still waits
# (b not rotated).  Once B's consumer runs again, B's action rotates b,
# and b lost nothing: recorded + discarded = committed, over its chunks.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
# B's sessions record root's programs too
stalled_b_daemon
plan 24

b_ctl create b2 -o "$nhome/b2" >/dev/null && b_ctl enable-event -u ltt_test:seq -s b2 >/dev/null
ok_cmd "B starts b2" b_ctl start b2
ok_cmd "and stops it (no program's trace to wait for B's consumer)" b_ctl stop b2

N=2000
stalled_b_setup $N
ok_cmd "B's trigger: b2's rotation starts -> notify, rotate b" b_ctl add-trigger --name bstop \
	--condition=session-rotation-starts --session=b2 --action=notify --action=rotate-session b
open_fifo WB "$TEST_TMP/wb"
as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$LTT_RUNDIR" "$LTTCTL_BIN" \
	wait-trigger bstop --timeout "$TEST_TIMEOUT" >"$TEST_TMP/wb.out" 2>&"$WB" &
bwaiter=$!
read_line "$WB" && [[ $LINE == "Waiting for trigger "* ]]
ok $? "B's wait-trigger is subscribed"
# B's rotation of b2 starts: B's trigger fires; the rotation of b it asks
# for waits on B's worker behind it.
b_ctl rotate b2 >/dev/null 2>&1 &
brot=$!
wait $bwaiter
is "$?:$(add_trace_gave_up)" 0:0 "B's trigger fired: its notification went at once"

ok_cmd "root's trigger: a's rotation starts -> stop a, notify" lttctl add-trigger --name astop \
	--condition=session-rotation-starts --session=a --action=stop-session a --action=notify
open_fifo W "$TEST_TMP/w"
lttctl wait-trigger astop --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w.out" 2>&"$W" &
waiter=$!
read_line "$W" && [[ $LINE == "Waiting for trigger "* ]]
ok $? "root's wait-trigger is subscribed"
lttctl -q rotate a >/dev/null
wait $waiter
is "$?:$(add_trace_gave_up)" 0:0 \
	"root's trigger stopped a and notified before the daemon gave up on B's consumer"
like "$(cat "$TEST_TMP/w.out")" "^Trigger astop fired \(#1\): session a" "for session a"
like "$(lttctl list a)" "\[inactive\]" "a is stopped"
is "$(narchives "$nhome/b")" 0 "b is not rotated: B's trigger waits behind B's rotation of b2"

stalled_b_resume
wait $brot
wait_fs "$nhome/b/archives" -- test -d "$nhome/b/archives"
ok $? "B's consumer runs again: B's trigger rotated b"
like "$(b_ctl list-triggers --counters)" "rotate session \`b\`
 *errors: none
 *runs: 1, failures: 0" "its action ran once, and did not fail"
ok_cmd "B stops b" b_ctl stop b
dropped=$(lost_sum b_ctl list b)
ok_cmd "B destroys b (its data written)" b_ctl destroy b
read -r bad _ <<<"$(read_chunks -e "$TEST_TMP/b.out" $(archives "$nhome/b"))"
got=$(grep ' ltt_test:seq: ' "$TEST_TMP/b.out" | grep -c 'role = "p1"')
is "$bad:$((got + dropped))" 0:$N "b: every chunk reads; recorded ($got) + discarded ($dropped) = committed ($N)"
lttctl -q destroy a
