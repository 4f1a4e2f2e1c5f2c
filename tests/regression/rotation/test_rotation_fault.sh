#!/bin/bash
# test_rotation_fault.sh - a rotation that fails is two-phase: every trace
# moves to the new chunk first, and only when all did is the old chunk
# archived.  Faults are injected by putting a regular file where the new
# chunk's directory (all traces) or one program's trace directory (one
# trace) will go: the daemon names new chunks after a time the test
# gives it, so the place is known exactly, not guessed from the clock.  Checked: lttctl rotate fails with the reason, no
# archive is made while a trace still writes in the old chunk, the
# session goes on recording, the next rotation archives everything, and
# every committed event is in an archive, the last chunk or counted lost.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

# New chunks are named after a fixed time (LTT_SESSIOND_CHUNK_NAME_TIME,
# ltt-sessiond(8)), not the clock: the test knows each chunk's directory
# before the rotation makes it, however slow the machine.
NAME_TIME=1767225600
export LTT_SESSIOND_CHUNK_NAME_TIME=$NAME_TIME
ust_setup
N=200000

count_role() {
	grep -c "role = \"$2\"" "$1"
}

# chunk_dir OUT ID: the directory of chunk ID under OUT (STAMP as chunk.c).
chunk_dir() {
	echo "$1/$(date -d "@$NAME_TIME" +%Y%m%dT%H%M%S%z)-$2"
}

# block OUT ID [REL]: a regular file where chunk ID's directory (or REL
# in it) will go.
block() {
	local d
	d=$(chunk_dir "$1" "$2")
	if [ -n "${3:-}" ]; then
		mkdir -p "$(dirname "$d/$3")" && : >"$d/$3"
	else
		: >"$d"
	fi
}

# unblock OUT ID [REL]: remove what block put there (directories made
# for it only when nothing else went in them).
unblock() {
	local d
	d=$(chunk_dir "$1" "$2")
	if [ -n "${3:-}" ]; then
		rm -f "$d/$3"
		rmdir -p --ignore-fail-on-non-empty "$(dirname "$d/$3")" 2>/dev/null
	else
		[ -f "$d" ] && rm -f "$d"
	fi
	return 0
}

# read_all DIR OUT: every archive and the last chunk, each read alone,
# into OUT; prints how many could not be read.  An empty archive is a
# chunk in which no trace was open (lttctl-rotate(1)): the per-PID
# programs killed at the end may leave before their traces reach the last
# chunk; the count of events recorded + lost says whether any was lost.
read_all() {
	local cur=() d bad
	for d in "$1"/[0-9]*-[0-9]*; do
		[ -d "$d" ] && cur+=("$d")
	done
	read -r bad _ <<<"$(read_chunks -e "$2" $(archives "$1") "${cur[@]}")"
	echo "$bad"
}

# --- 1. no trace can move: nothing changes ----------------------------
lttctl -q create all -o "$TEST_TMP/all" &&
	lttctl -q enable-event -u ltt_test:seq -s all &&
	lttctl -q start all || { echo "Bail out! session all"; exit 1; }
ust_app -n 1000 -r one
block "$TEST_TMP/all" 1
run lttctl rotate all
is "$RC" 1 "rotate fails when no trace can move to the new chunk"
like "$ERR" "no trace of the session could move to a new trace chunk.*nothing was archived" \
	"and says nothing was archived"
ok "$([ ! -e "$TEST_TMP/all/archives" ]; echo $?)" "no archive is made"
like "$(lttctl list all)" "^Session all \($TEST_TMP/all\) \[active\]" "the session records on"
ust_app -n 1000 -r two
unblock "$TEST_TMP/all" 1
run lttctl rotate all
is "$RC" 0 "once the cause is gone, rotate succeeds"
is "$(find "$TEST_TMP/all/archives" -mindepth 1 -maxdepth 1 | wc -l)" 1 "one archive"
lttctl -q stop all
bt "$(find "$TEST_TMP/all/archives" -mindepth 1 -maxdepth 1)" "$TEST_TMP/all.out"
is "$(count_role "$TEST_TMP/all.out" one):$(count_role "$TEST_TMP/all.out" two)" "1000:1000" \
	"the archive holds the events of before and after the failed rotation"
lttctl -q destroy all

# --- 2. one trace can't move: the old chunk is left, not archived ------
lttctl -q create f -o "$TEST_TMP/f" &&
	lttctl -q enable-channel -u c --buffers-pid -s f &&
	lttctl -q enable-event -u ltt_test:seq -c c -s f &&
	lttctl -q start f || { echo "Bail out! session f"; exit 1; }
open_fifo READY "$TEST_TMP/ready" && open_fifo GO "$TEST_TMP/go" && open_fifo DONE "$TEST_TMP/done"
ust_app_bg -n $N -r a -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -k "$TEST_TMP/done"
a_bg=$BG_PID
ust_app_bg -n $N -r b -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -k "$TEST_TMP/done"
b_bg=$BG_PID
wait_ready $READY 2 || { echo "Bail out! the programs did not register"; exit 1; }
b_pid=${READY_PIDS#* }
b_dir=$(ls "$TEST_TMP/f/ust/pid" | grep -- "-$b_pid-")
[ -n "$b_dir" ] || { echo "Bail out! no trace directory for $b_pid"; exit 1; }
block "$TEST_TMP/f" 1 "ust/pid/$b_dir"
close_fd $GO
run lttctl rotate f
is "$RC" 1 "rotate fails when one program's trace can't move"
like "$ERR" "could not move to the new trace chunk.*not archived until" "and says the old chunk is kept"
ok "$([ ! -e "$TEST_TMP/f/archives" ]; echo $?)" "no archive is made while a trace writes in the old chunk"
wait_done $DONE 2 || { echo "Bail out! the programs did not finish"; exit 1; }
like "$(lttctl list f)" "\[active\]" "the session records on"
is "$(ls "$TEST_TMP/f/ust/pid" | wc -l)" 2 "the old chunk still holds both traces (one goes on writing there)"
unblock "$TEST_TMP/f" 1 "ust/pid/$b_dir"
run lttctl rotate f
is "$RC" 0 "the next rotation moves every trace"
is "$(find "$TEST_TMP/f/archives" -mindepth 1 -maxdepth 1 -type d | wc -l)" 2 \
	"and archives the chunk left behind and the one after it"
ok "$([ ! -e "$TEST_TMP/f/ust" ]; echo $?)" "nothing is left at the output's top"
kill "$a_bg" "$b_bg" 2>/dev/null
wait "$a_bg" "$b_bg" 2>/dev/null
lttctl -q stop f
lost=$(list_lost_events f)
lttctl -q destroy f
is "$(read_all "$TEST_TMP/f" "$TEST_TMP/f.out")" 0 "each archive and the last chunk read alone"
a=$(count_role "$TEST_TMP/f.out" a)
b=$(count_role "$TEST_TMP/f.out" b)
is "$((a + b + lost))" $((2 * N)) "committed = recorded + counted lost ($a + $b + $lost)"
ok "$([ "$b" -gt 0 ]; echo $?)" "the program whose trace could not move was recorded"
done_testing
