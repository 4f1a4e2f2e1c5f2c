#!/bin/bash
# test_rotation_owner_stalled.sh - a user who stops (SIGSTOP) their own
# consumer delays only their own scheduled rotations.  Root (A) and
# nobody (B) each have a session of the root daemon rotating on a timer
# (every 500 ms), fed by one program in rounds of N events.  With B's
# consumer stopped, A's archives keep appearing (waited for, bounded):
# each owner's rotations run on that owner's thread.  B's rotations find
# B's consumer does not answer and send no move: B's list answers at once
# and says why B's rotations fail.  After SIGCONT, B's session rotates
# again.  In each session every event is in exactly one archive:
# recorded + discarded = committed, and no (thread, seq) twice.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
can_switch_user || skip_all "needs root, setpriv and the user nobody"
plan 24

root_sessiond --member-reach=all  # B's sessions record root's programs too
nobody_home
# dups_distinct FILE ROLE: "DUPLICATES DISTINCT" (thread, seq) pairs of ROLE
dups_distinct() {
	awk -v role="$2" '
	/ ltt_test:seq: / {
		if (!match($0, /role = "[^"]*"/) || substr($0, RSTART + 8, RLENGTH - 9) != role) next
		match($0, /thread = -?[0-9]+/); t = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /seq = [0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6)
		if (seen[t, s]++) dup++; else distinct++
	}
	END { printf "%d %d\n", dup, distinct }' "$1"
}
discarded_of() {
	"$@" | sed -n 's/.*discarded events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

lttctl -q create a -o "$TEST_TMP/a" && lttctl -q enable-event -u ltt_test:seq -s a &&
	lttctl -q enable-rotation -s a --timer 500000
ok_cmd "A starts a session rotating every 500 ms" lttctl start a
b_ctl create b -o "$nhome/b" >/dev/null && b_ctl enable-event -u ltt_test:seq >/dev/null &&
	b_ctl enable-rotation --timer 500000 >/dev/null
ok_cmd "B starts a session rotating every 500 ms" b_ctl start b
# Each archives a chunk before its program registers: no trace was open
# in it (it holds only its empty ust/, as LTTng's; read_chunks -e passes
# it over), as a program slow to start (a sanitizer's) leaves the first.
wait_archives "$TEST_TMP/a" 1 && wait_archives "$nhome/b" 1
ok $? "both archive a chunk before any program"

T=2 N=20000
open_fifo ready "$TEST_TMP/ready"
open_fifo done "$TEST_TMP/done"
open_fifo rounds "$TEST_TMP/rounds"
(
	close_fifos
	exec timeout $((TEST_TIMEOUT * 8)) "$UST_APP" -t $T -n $N -r r -w "$TEST_TMP/ready" \
		-k "$TEST_TMP/done" -p "$TEST_TMP/rounds"
) &
APP=$!
wait_ready $ready || { echo "Bail out! the program did not register"; exit 1; }
echo go >&$rounds
wait_done $done
ok $? "round 1: $((T * N)) events"
wait_archives "$TEST_TMP/a" 2
ok $? "A's session rotates"
wait_archives "$nhome/b" 2
ok $? "B's session rotates"

cb=$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)
ok "$([ -n "$cb" ]; echo $?)" "B has a consumer of its own (pid $cb)"
kill -STOP "$cb"
echo go >&$rounds
wait_done $done
ok $? "round 2 with B's consumer stopped"
# B's next rotation finds B's consumer does not answer (a statistics
# request first, 500 ms): it sends no move, and tries again each period.
# A's rotations go on meanwhile, on A's thread.
a0=$(narchives "$TEST_TMP/a") b0=$(narchives "$nhome/b")
wait_archives "$TEST_TMP/a" $((a0 + 6))
ok $? "A's archives keep appearing while B's consumer is stopped ($a0 -> $(narchives "$TEST_TMP/a"))"
wait_for "$SESSIOND_LOG" "session 'b': scheduled rotation failed"
ok $? "B's scheduled rotation failed"
a1=$(narchives "$TEST_TMP/a")
wait_archives "$TEST_TMP/a" $((a1 + 4))
ok $? "A's archives appear after that too ($a1 -> $(narchives "$TEST_TMP/a"))"
# B's list waits for no rotation of B's (each would hold B's session for
# the move's 30 s deadline): 5 s for the command.
run b_ctl --timeout 5 list b
is "$RC" 0 "B's list answers within 5 s while B's consumer is stopped"
like "$STDOUT" "Automatic rotation failing since [0-9-]+ [0-9:]+: the consumer daemon is running but did not answer in time" \
	"B's list says its scheduled rotations fail, and why"
stat=$(ps -o stat= -p "$cb")
is "${stat:0:1}" T "B's consumer was stopped all along"
b1=$(narchives "$nhome/b")
is "$b1" "$b0" "B's chunks are not archived while its consumer is stopped"

# Round 3 at once: its events go where the move sent before now puts them.
kill -CONT "$cb"
echo go >&$rounds
wait_done $done
ok $? "round 3 once B's consumer runs again"
wait_archives "$nhome/b" $((b1 + 3))
ok $? "B's session rotates again ($b1 -> $(narchives "$nhome/b"))"
run b_ctl list b
unlike "$STDOUT" "Automatic rotation failing" "B's list no longer shows a failure"
close_fd $rounds
wait $APP
is $? 0 "the program exits"
ok_cmd "A stops" lttctl stop a
ok_cmd "B stops" b_ctl stop b
alost=$(discarded_of lttctl list a)
blost=$(discarded_of b_ctl list b)
lttctl -q destroy a
b_ctl destroy b >/dev/null

C=$((3 * T * N))
read -r bad _ <<<"$(read_chunks -e "$TEST_TMP/a.out" $(archives "$TEST_TMP/a"))"
read -r dup got <<<"$(dups_distinct "$TEST_TMP/a.out" r)"
is "$bad $dup $got $alost" "0 0 $C 0" "A: every archive reads, each of the $C events once, none lost"
read -r bad _ <<<"$(read_chunks -e "$TEST_TMP/b.out" $(archives "$nhome/b"))"
read -r dup got <<<"$(dups_distinct "$TEST_TMP/b.out" r)"
is "$bad $dup" "0 0" "B: every archive reads, no event twice"
is "$((got + blost))" $C "B: recorded ($got) + discarded ($blost) = committed ($C)"
done_testing
