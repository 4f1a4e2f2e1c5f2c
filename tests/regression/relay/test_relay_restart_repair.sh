#!/bin/bash
# A relay's death, repaired by the next relay of its run directory
# (doc/relayd.md, "A relay's death: the next relay repairs"): ltt-relayd
# kills itself at its fault point packet-written (a packet's data in its
# file, its index entry not), and no consumer ever asks it again (the
# session is stopped and destroyed while no relay runs).  Before: the
# packet stayed in the file, babeltrace2 (which indexes a data file
# itself when its index is short) read it, and the consumer counted it
# lost too.  Now the relay started next in the same run directory reads
# the dead one's journal (relayd-writing.PID: the session directories it
# wrote) and cuts what no index covers before it serves: every stream
# file ends on its last indexed packet, and babeltrace2 reads fewer
# events, none short of what was emitted (no relay answered the
# consumer: what it counts lost stays conservative).  The journal is in
# the state directory $LTT_STATEDIR, and the next relay has another run
# directory (a reboot empties /run): it repairs all the same.  A live
# relay's journal is left to it; a clean exit removes its own; while it
# writes a trace, the relay holds a shared lock on the trace's directory
# (a repair leaves it alone).  Without $LTT_STATEDIR the journal is in
# the run directory; a relative one is refused.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
plan 24
N=20000		# in 4 KiB packets: a few hundred
K=10		# the packet at whose data the relay dies
out=$TEST_TMP/out
state=$TEST_TMP/state
journals() { ls "$1" | grep -c '^relayd-writing\.' || true; }

LTT_STATEDIR=$state LTT_FAULT="kill packet-written:$K" start_relayd -o "$out" ||
	{ echo "Bail out! ltt-relayd did not start"; exit 1; }
dead=$RELAYD_PID
ok_cmd "a streamed session" lttctl -q create s -U "net://127.0.0.1:$CPORT:$DPORT"
# blocking: every event reaches the consumer, so the relay gets its K-th packet
lttctl -q enable-channel -u chan -s s --subbuf-size 4k --num-subbuf 8 --blocking-timeout=inf &&
	lttctl -q enable-event -u 'ltt_test:*' -s s -c chan && lttctl -q start s
ok $? "a blocking channel of 4 KiB sub-buffers, its events, started"
LTT_UST_ALLOW_BLOCKING=1 ust_app -n "$N" >/dev/null
ok $? "the program emits $N events"
wait_pid_exit "$dead"
ok $? "the relay is gone"
is "$(journals "$state") $(journals "$LTT_RUNDIR")" "1 0" "its journal is in \$LTT_STATEDIR, not in the run directory"
like "$(cat "$RELAYD_LOG")" "LTT_FAULT: killed at packet-written" "killed with a packet's data written, not its index"

run lttctl stop s
is "$RC" 1 "stop, no relay to answer: exit 1"
lost=$(list_lost_events s)
ok_cmd "destroy, no relay to answer" lttctl -q destroy s
dir=$(ls -d "$out"/*/s-*)
torn=$(torn_streams "$dir")
ok "$([ "$torn" -ge 1 ]; echo $?)" "before the next relay: $torn stream files hold data their index does not"
bt "$dir" "$TEST_TMP/before.txt"
before=$(count_events "$TEST_TMP/before.txt" ltt_test:seq)
diag "before the next relay: babeltrace2 reads $before, counted lost $lost, emitted $N"

# the next relay: another run directory (/run emptied by a reboot), the same state directory
mkdir "$TEST_TMP/run-next"
LTT_RUNDIR=$TEST_TMP/run-next LTT_STATEDIR=$state start_relayd -o "$TEST_TMP/out-next" ||
	{ echo "Bail out! ltt-relayd did not start again"; exit 1; }
like "$(cat "$RELAYD_LOG")" "trace $dir/[^ ]*: chan_[0-9]* cut from [0-9]* to [0-9]* bytes" \
	"the next relay, of another run directory, cuts the dead one's stream file back to its indexed packets"
like "$(cat "$RELAYD_LOG")" "1 dead relays' journals in $state: 1 session directories looked at, [1-9][0-9]* files cut" \
	"and says what it repaired"
ok "$([ ! -e "$state/relayd-writing.$dead" ]; echo $?)" "the dead relay's journal is gone"
is "$(torn_streams "$dir")" 0 "every stream file ends on its last indexed packet"
bt "$dir" "$TEST_TMP/after.txt"
ok $? "babeltrace2 reads the trace"
got=$(count_events "$TEST_TMP/after.txt" ltt_test:seq)
diag "after: recorded $got, counted lost $lost, emitted $N"
# no relay answered the consumer: packets indexed and unconfirmed at the
# death stay counted lost too (doc/relayd.md: the count of a relay that
# never comes back is conservative), what no index covers no longer
ok "$([ "$got" -lt "$before" ] && [ "$((got + lost))" -ge "$N" ]; echo $?)" \
	"babeltrace2 no longer reads the packet no index covers: $got < $before recorded, none short of emitted"

# while it writes: its journal names the session's directory, and it
# holds a shared lock on the trace's (a repair leaves it alone)
live=$RELAYD_PID
journal=$state/relayd-writing.$live
lttctl -q create s2 -U "net://127.0.0.1:$CPORT:$DPORT" && lttctl -q enable-event -u 'ltt_test:*' -s s2 &&
	lttctl -q start s2 && ust_app -n 10 >/dev/null
ok $? "a session streamed to the next relay, a program's 10 events"
is "$(cat "$journal")" "$(ls -d "$TEST_TMP/out-next"/*/s2-*)" \
	"the relay's journal names the session directory it writes"
ino=$(stat -c %i "$(dirname "$(find "$TEST_TMP/out-next" -name metadata | head -1)")")
# /proc/locks: "N: FLOCK  ADVISORY  READ  PID MAJ:MIN:INODE 0 EOF"
is "$(awk -v pid="$live" -v ino="$ino" '$2 == "FLOCK" && $4 == "READ" && $5 == pid &&
	$6 ~ (":" ino "$") { n++ } END { print (n > 0) }' /proc/locks)" 1 \
	"the relay holds a shared lock on the trace directory it writes"
lttctl -q destroy s2
wait_fs "$state" -- bash -c '[ -e "$1" ] && [ ! -s "$1" ]' _ "$journal"
ok $? "the session destroyed, its files whole: out of the journal"

# a relay of the same state directory that lives: its journal is left to it
RELAYD_PIDFILE=$TEST_TMP/relayd-second.pid LTT_STATEDIR=$state start_relayd -o "$TEST_TMP/out-second" ||
	{ echo "Bail out! a second ltt-relayd did not start"; exit 1; }
ok "$([ -e "$state/relayd-writing.$live" ]; echo $?)" \
	"a second relay of the state directory leaves a live relay's journal"
stop_relayd TERM
# without $LTT_STATEDIR: the run directory's
RELAYD_PIDFILE=$TEST_TMP/relayd-third.pid start_relayd -o "$TEST_TMP/out-third" ||
	{ echo "Bail out! a third ltt-relayd did not start"; exit 1; }
ok "$([ -e "$LTT_RUNDIR/relayd-writing.$RELAYD_PID" ]; echo $?)" \
	"without \$LTT_STATEDIR, a relay keeps its journal in its run directory"
stop_relayd TERM
RELAYD_PID=$live stop_relayd TERM
is "$(journals "$state") $(journals "$LTT_RUNDIR")" "0 0" "the relays exit cleanly: no journal left"
run timeout "$TEST_TIMEOUT" env LTT_STATEDIR=state "$RELAYD" -o "$TEST_TMP/never"
is "$RC:$ERR" "1:ltt-relayd: Error: LTT_STATEDIR=state: give the absolute path of a directory on disk, where the daemon keeps its journals across a reboot, or unset it to keep them in the run directory" \
	"a relative \$LTT_STATEDIR: exit 1, saying what to give"
ok "$([ ! -e "$TEST_TMP/never" ] && [ ! -e state ]; echo $?)" "... nothing made"

done_testing
