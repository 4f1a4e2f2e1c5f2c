#!/bin/bash
# test_sessiond_crash_state.sh - what a crash leaves on disk is never corrupt.
# Processes are killed at chosen phases with LTT_FAULT (src/common/base/
# durable.h: NAME or NAME:N, SIGKILL to self there), never raced:
#  - consumer and session daemon both dead, a stream file left with half
#    a packet its index does not hold (babeltrace2 spins on such a file):
#    the next daemon cuts it (and a torn metadata packet, a torn index
#    entry) and the trace reads, every whole packet's events in it; the
#    journal in the state directory $LTT_STATEDIR, the run directory
#    emptied between the two daemons as a reboot empties /run; a
#    relative $LTT_STATEDIR, and one another daemon holds, refused;
#  - the session daemon killed, its consumer alive and holding events:
#    the next daemon's repair leaves the directory the consumer holds
#    (its flock()) alone, and the consumer writes every event;
#  - a rotation killed after its traces moved, inside chunk 0's archive,
#    after the archive: the next daemon completes each archive and
#    archives the dead session's live chunk (as destroy would), each
#    event in exactly one archive, nothing left looking like a live chunk;
#  - `lttctl save` killed before and after its rename: the saved file is
#    the old one or the new one, whole, and loads.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
command -v python3 >/dev/null || skip_all "python3 is not installed"
plan 59

open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# packets_events DIR: events in DIR's trace per babeltrace2, or "unreadable".
read_events() {
	if bt "$1" "$TEST_TMP/bt.out"; then
		count_events "$TEST_TMP/bt.out" ltt_test:seq
	else
		echo unreadable
	fi
}

# daemon_start [CRASH_AT]: a session daemon in the test's run directory,
# -vv into $TEST_TMP/sessiond.N.log; with CRASH_AT, LTT_FAULT="kill CRASH_AT" for it
# and its consumers.
NLOG=0
daemon_start() {
	NLOG=$((NLOG + 1))
	LOG="$TEST_TMP/sessiond.$NLOG.log"
	(
		close_fifos
		[ -n "${1:-}" ] && export LTT_FAULT="kill $1"
		exec timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv \
			</dev/null >/dev/null 2>"$LOG"
	)
}

# --- A stream file torn, both daemons dead, then a reboot -----------------
export LTT_STATEDIR="$TEST_TMP/state"
daemon_start packet-torn:2
ok $? "a daemon started, its consumer to die inside its second packet"
lttctl -q create t -o "$TEST_TMP/t" &&
	lttctl -q enable-channel -u c --subbuf-size 4k --num-subbuf 16 &&
	lttctl -q enable-event -u -c c ltt_test:seq &&
	lttctl -q start
ok $? "session t records into 4 KiB packets"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 300 -r torn
wait_ready $ready
cons=$(consumer_pid)
# the consumer stopped: the program's packets wait in its buffers
kill -STOP "$cons"
echo go >&$go
wait $BG_PID
is $? 0 "the program recorded 300 events (several packets) while the consumer was stopped"
d1=$(sessiond_pid)
kill -KILL "$d1"
wait_unlocked
kill -CONT "$cons"
# orphaned, it writes what the buffers hold and dies inside its second packet
wait_pid_exit "$cons"
ok $? "the consumer died (LTT_FAULT="kill packet-torn:2")"
is "$(torn_streams "$TEST_TMP/t")" 1 "one stream file holds half a packet its index does not"
# as a crash inside other writes would leave them too
md=$(dirname "$(find "$TEST_TMP/t" -name metadata | head -1)")
msize=$(stat -c %s "$md/metadata")
head -c 1000 "$md/metadata" >>"$md/metadata"
idx=$(find "$md/index" -name '*.idx' -size +16c | head -1)
isize=$(stat -c %s "$idx")
head -c 30 /dev/zero >>"$idx"
ok "$([ -n "$idx" ] && [ "$msize" -gt 0 ]; echo $?)" \
	"a torn metadata packet and a torn index entry added"
is "$([ -f "$LTT_STATEDIR/chunks/$d1-1" ]; echo $?) $(stat -c %a "$LTT_STATEDIR" "$LTT_STATEDIR/chunks" | tr '\n' ' ')$(ls "$LTT_RUNDIR" | grep -c chunks)" \
	"0 700 700 0" "the dead daemon's journal of session t is left in \$LTT_STATEDIR (made 0700), none in the run directory"
# a reboot: /run emptied, the state directory kept
rm -r "$LTT_RUNDIR" && mkdir "$LTT_RUNDIR"
daemon_start
ok $? "a new daemon started, its run directory empty"
like "$(cat "$LOG")" "stream file|channel|cut from" "it logged the cuts"
is "$(torn_streams "$TEST_TMP/t")" 0 "no stream file is torn any more"
is "$(stat -c %s "$md/metadata")" "$msize" "the metadata is back to its whole packets"
is "$(stat -c %s "$idx")" "$isize" "the index is back to its whole entries"
ok "$([ ! -e "$LTT_STATEDIR/chunks/$d1-1" ]; echo $?)" "the journal is gone"
like "$(cat "$LOG")" "Warning: session 't' of a daemon that died: its traces in $TEST_TMP/t are made whole" \
	"... and a warning says a daemon died"
n=$(read_events "$TEST_TMP/t")
ok "$([[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] && [ "$n" -lt 300 ]; echo $?)" \
	"babeltrace2 reads the trace: $n events of the whole packets (the torn one's are lost: no counter outlived both daemons)"
is "$(dups_and_range "$TEST_TMP/bt.out" torn 1 300)" "0 0 $n" "no event twice, none out of range"
# a second daemon of another run directory, the same state directory: refused
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run2"
is "$RC" 1 "a daemon of another run directory with the same \$LTT_STATEDIR: exit 1"
like "$ERR" "$LTT_STATEDIR/chunks: another session daemon keeps its journals there: give each daemon a state directory of its own \(LTT_STATEDIR\)" \
	"... saying the state directory is another daemon's"
stop_sessiond
wait_unlocked
run timeout "$TEST_TIMEOUT" env LTT_STATEDIR=state "$SESSIOND" --rundir "$TEST_TMP/never"
is "$RC:$ERR" "1:ltt-sessiond: Error: LTT_STATEDIR=state: give the absolute path of a directory on disk, where the daemon keeps its journals across a reboot, or unset it to keep them in the run directory" \
	"a relative \$LTT_STATEDIR: exit 1, saying what to give"
ok "$([ ! -e "$TEST_TMP/never" ] && [ ! -e state ]; echo $?)" "... nothing made"
: >"$TEST_TMP/afile"
run timeout "$TEST_TIMEOUT" env LTT_STATEDIR="$TEST_TMP/afile/state" "$SESSIOND" --rundir "$TEST_TMP/r3"
is "$RC" 1 "a \$LTT_STATEDIR that can't be made (below a file): exit 1"
like "$ERR" "LTT_STATEDIR=$TEST_TMP/afile/state: can't make it \(Not a directory\): give a directory the daemon can write, or unset LTT_STATEDIR to keep the journals in the run directory" \
	"... saying why, and what to do"
unset LTT_STATEDIR

# --- A daemon restarted while its orphaned consumer still writes ----------
# The consumer holds a shared flock() on each trace directory it writes
# (ltt_trace_dir_hold(), on a read-only descriptor: flock() on its O_PATH
# ones fails with EBADF, and it held nothing).  The next daemon's repair
# leaves such a directory to it; the consumer writes every event.
daemon_start
lttctl -q create o -o "$TEST_TMP/o" &&
	lttctl -q enable-channel -u c --subbuf-size 4k --num-subbuf 16 &&
	lttctl -q enable-event -u -c c ltt_test:seq &&
	lttctl -q start
ok $? "session o records"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 300 -r orphan
wait_ready $ready
cons=$(consumer_pid)
tdir="$TEST_TMP/o/ust/uid/$(id -u)/64-bit"
ino=$(stat -c %i "$tdir")
# /proc/locks: "N: FLOCK  ADVISORY  READ  PID MAJ:MIN:INODE 0 EOF"
is "$(awk -v pid="$cons" -v ino="$ino" '$2 == "FLOCK" && $4 == "READ" && $5 == pid &&
	$6 ~ (":" ino "$") { n++ } END { print (n > 0) }' /proc/locks)" 1 \
	"the consumer holds a shared lock on the trace directory (/proc/locks)"
ok "$(! flock -n -x "$tdir" true; echo $?)" "a second, exclusive holder is refused"
kill -STOP "$cons"
echo go >&$go
wait $BG_PID
is $? 0 "the program recorded 300 events while the consumer was stopped"
kill -KILL "$(sessiond_pid)"
wait_unlocked
daemon_start
ok $? "a new daemon started, the orphaned consumer still alive"
like "$(cat "$LOG")" "trace $tdir: still written by a consumer: left to it" \
	"its repair left the consumer's directory alone"
like "$(cat "$LOG")" "session 'o': 1 trace directories looked at, 0 files cut .*, 1 still written" \
	"and said so in its summary"
kill -CONT "$cons"
wait_pid_exit "$cons"
ok $? "the orphaned consumer wrote what it held and exited"
ok "$(flock -n -x "$tdir" true; echo $?)" "its lock went with it"
n=$(read_events "$TEST_TMP/o")
is "$n:$(dups_and_range "$TEST_TMP/bt.out" orphan 1 300)" "300:0 0 300" \
	"babeltrace2 reads all 300 events, once each (nothing was discarded)"
unlike "$(cat "$TEST_TMP"/sessiond.*.log)" "being repaired or locked" \
	"no consumer wrote a trace without its lock"
stop_sessiond
wait_unlocked

# --- A rotation interrupted ------------------------------------------------
# rotate_case POINT: session r_POINT records 200 events and rotates, the
# daemon dying at POINT (its orphaned consumer writes what it holds and
# exits); the next daemon finishes the rotation and archives the live
# chunk the dead session left.
rotate_case() {
	local p=$1 s=r_$1 out=$TEST_TMP/r_$1 d c total=0 bad=0 a n left
	daemon_start "$p"
	lttctl -q create "$s" -o "$out" &&
		lttctl -q enable-event -u ltt_test:seq &&
		lttctl -q start
	ok $? "$p: session $s records"
	ust_app -n 200 -r before >/dev/null
	c=$(consumer_pid)
	d=$(sessiond_pid)
	lttctl -q rotate "$s" >/dev/null 2>&1
	wait_pid_exit "$d"
	ok "$(! proc_alive "$d"; echo $?)" "$p: the daemon died in the rotation"
	wait_pid_exit "$c"
	wait_unlocked
	daemon_start
	ok $? "$p: a new daemon started"
	for a in $(find "$out/archives" -mindepth 1 -maxdepth 1 -type d | sort); do
		n=$(read_events "$a")
		[ "$n" = unreadable ] && bad=$((bad + 1)) && continue
		total=$((total + n))
		cat "$TEST_TMP/bt.out" >>"$TEST_TMP/$s.all"
	done
	is "$bad:$(find "$out/archives" -mindepth 1 -maxdepth 1 -type d | wc -l)" "0:2" \
		"$p: two archives (chunks 0 and 1), each read by babeltrace2"
	left=$(find "$out" -mindepth 1 -maxdepth 1 ! -name archives | wc -l)
	is "$left" 0 "$p: nothing left beside archives/ (no half-moved or live-looking chunk)"
	touch "$TEST_TMP/$s.all"
	is "$total:$(seq_check "$TEST_TMP/$s.all" before 1 200)" "200:" \
		"$p: each of the 200 events in exactly one archive"
	like "$(cat "$LOG")" "session '$s': chunk 1 .* archived in $out/archives/" \
		"$p: the new daemon logged the archive of the dead session's live chunk"
	stop_sessiond
	wait_unlocked
}
rotate_case rotate-moved
rotate_case archive-chunk0-partial
rotate_case rotate-archived

# --- lttctl save killed -----------------------------------------------------
daemon_start
lttctl -q create sv -o "$TEST_TMP/sv" && lttctl -q enable-event -u ltt_test:seq
lttctl -q save sv
f="$HOME/.lttng/sessions/sv.lttng"
ok "$([ -s "$f" ]; echo $?)" "save: a first version saved"
old=$(cat "$f")
lttctl -q enable-event -u ltt_test:other
LTT_FAULT="kill replace-written" lttctl -q save -f sv 2>/dev/null
is "$(cat "$f")" "$old" "save killed before its rename: the old file, whole"
LTT_FAULT="kill replace-renamed" lttctl -q save -f sv 2>/dev/null
new=$(cat "$f")
like "$new" "ltt_test:other" "save killed after its rename: the new file, whole"
lttctl -q destroy sv
ok_cmd "the saved file loads" lttctl load sv
like "$(lttctl list sv)" "ltt_test:other" "with its events"
stop_sessiond
