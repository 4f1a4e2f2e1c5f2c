#!/bin/bash
# test_ust_output_blocked.sh - one user's output that stops answering
# stalls nobody else.  The root daemon gives each session owner a
# consumer daemon of their own, running as that user: user 1's trace
# goes to a FUSE file system (stuckfs) that stops answering mid-run, as
# an NFS server that went away would, and the consumer writing it blocks
# in write(); meanwhile user 2's session records every event, its stop
# and list answer, and the blocked session's list answers too.  Once the
# file system answers again, the blocked session stops cleanly and counts
# exactly what it lost: recorded + discarded = committed.  The files are
# their owner's; a dead consumer is replaced for its owner alone.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup to act as two users"
U1=4121
U2=4122
back="$TEST_TMP/backing"
mnt="$TEST_TMP/mnt"
mkdir -p "$back/u1" "$mnt" "$TEST_TMP/home$U1" "$TEST_TMP/home$U2/out"
chown $U1:nogroup "$back/u1" "$TEST_TMP/home$U1"
chown $U2:nogroup "$TEST_TMP/home$U2" "$TEST_TMP/home$U2/out"
stuckfs_start "$back" "$mnt"
plan 31

root_sessiond --member-reach=all  # the users' sessions record root's programs too
# as UID lttctl ARGS...
as() {
	local u=$1
	shift
	timeout "$TEST_TIMEOUT" setpriv --reuid="$u" --regid=nogroup --clear-groups \
		env HOME="$TEST_TMP/home$u" LTT_HOME="$TEST_TMP/home$u" LTT_RUNDIR="$LTT_RUNDIR" \
		"$LTTCTL_BIN" "$@"
}
# consumer_of UID: the pid of our daemon's consumer running as UID
consumer_of() {
	pgrep -P "$spid" -u "$1" -x ltt-consumerd | head -1
}
# read_trace DIR: babeltrace2's text of DIR, for trace_events
read_trace() {
	bt "$1" "$TEST_TMP/bt.out"
}
# trace_events ROLE: how many ltt_test:seq events of ROLE the trace read
# last holds, and how many of them are duplicates ("COUNT DUPS")
trace_events() {
	awk -v role="$1" '/ ltt_test:seq: / && index($0, "role = \"" role "\"") {
		match($0, /seq = [0-9]+/); s = substr($0, RSTART, RLENGTH)
		n++; if (seen[s]++) d++ }
		END { printf "%d %d\n", n, d }' "$TEST_TMP/bt.out"
}
# discarded_of UID SESSION: the discarded events lttctl list shows
discarded_of() {
	as "$1" list "$2" | sed -n 's/.*discarded events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

as $U1 create a -o "$mnt/u1/a" >/dev/null &&
	as $U1 enable-event -u ltt_test:seq -s a >/dev/null
ok_cmd "user $U1 starts a session writing to the FUSE mount" as $U1 start a
as $U2 create b -o "$TEST_TMP/home$U2/out/b" >/dev/null &&
	as $U2 enable-event -u ltt_test:seq -s b >/dev/null
ok_cmd "user $U2 starts a session writing to a local directory" as $U2 start b
c1=$(consumer_of $U1)
c2=$(consumer_of $U2)
ok "$([ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ]; echo $?)" \
	"each owner has a consumer daemon of their own, running as them ($c1 as $U1, $c2 as $U2)"
is "$(pgrep -P "$spid" -u 0 -x ltt-consumerd)" "" "no consumer runs as root for them"

# A program registers with both sessions, then the file system stops
# answering, then the program records flat out.
N=200000
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r first
wait_ready $ready
P1=$BG_PID
kill -USR1 "$FS_PID"
fs_wait stuck
ok $? "the FUSE file system stops answering"
echo go >&$go
wait $P1
is $? 0 "a program records $N events while one output blocks"
fs_wait waiting
ok $? "user $U1's consumer is blocked on its output"

# Meanwhile user 2's session goes on: a second program, stop, everything.
M=20000
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $M -r second
wait_ready $ready
echo go >&$go
wait $BG_PID
is $? 0 "another program runs and records while the output blocks"
ok_cmd "user $U2 stops b while user $U1's output blocks" as $U2 stop b
read_trace "$TEST_TMP/home$U2/out/b"
is "$(trace_events first)" "$N 0" "b holds all $N events of the first program, once each"
is "$(trace_events second)" "$M 0" "b holds all $M events of the second program"
is "$(discarded_of $U2 b)" 0 "b lost nothing"
run timeout 4 setpriv --reuid=$U1 --regid=nogroup --clear-groups \
	env LTT_HOME="$TEST_TMP/home$U1" LTT_RUNDIR="$LTT_RUNDIR" "$LTTCTL_BIN" list a
is "$RC" 0 "user $U1's list answers while the output blocks"
ok "$(proc_alive "$c1"; echo $?)" "the blocked consumer is not taken for dead"

# The file system answers again: a stops cleanly and counts what it lost.
kill -USR2 "$FS_PID"
fs_wait running
ok_cmd "user $U1 stops a once the output answers again" as $U1 stop a
read_trace "$back/u1/a"
read -r got1 dup1 <<<"$(trace_events first)"
read -r got2 dup2 <<<"$(trace_events second)"
lost=$(discarded_of $U1 a)
is "$((got1 + got2 + lost))" "$((N + M))" \
	"a: recorded ($got1 + $got2) + discarded ($lost) = committed ($((N + M)))"
ok "$([ "$lost" -gt 0 ]; echo $?)" "a counted its losses while blocked ($lost events)"
is "$dup1/$dup2" "0/0" "a recorded no event twice"
is "$(stat -c %u "$back/u1/a/ust/uid/0/64-bit/metadata")" $U1 "a's trace files are user $U1's"
is "$(stat -c %u "$TEST_TMP/home$U2/out/b/ust/uid/0/64-bit/metadata")" $U2 "b's trace files are user $U2's"

# A dead consumer is replaced for its owner; the other's goes on.
kill -KILL "$c1"
# woken by the daemon's log line that it started a consumer
wait_fs "$SESSIOND_LOG" -- bash -c \
	'pgrep -P "$0" -u "$1" -x ltt-consumerd | grep -vqx "$2"' "$spid" $U1 "$c1"
ok $? "user $U1's consumer, killed, is replaced by a new one running as $U1"
is "$(consumer_of $U2)" "$c2" "user $U2's consumer was not touched"
K=5000
ok_cmd "user $U1 starts a again" as $U1 start a
ust_app -n $K -r third >/dev/null
ok_cmd "user $U1 stops a" as $U1 stop a
read_trace "$back/u1/a"
is "$(trace_events third)" "$K 0" "the new consumer records all $K events into the same trace"

# Destroyed while its output blocks: destroy answers (the consumer's
# deadlines), the other user's session goes on.
kill -USR1 "$FS_PID"
fs_wait stuck
as $U1 start a >/dev/null
ok_cmd "user $U2 starts b again" as $U2 start b
ust_app -n $N -r fourth >/dev/null
fs_wait waiting
ok $? "user $U1's output blocks again"
run as $U1 destroy a
is "$RC/$OUT" "0/Session a destroyed." "user $U1 destroys a while its output blocks"
ust_app -n $K -r fifth >/dev/null
ok_cmd "user $U2 stops b" as $U2 stop b
read_trace "$TEST_TMP/home$U2/out/b"
is "$(trace_events fifth)" "$K 0" "b records all $K events after a's destroy"
is "$(trace_events fourth)" "$N 0" "and all $N events of the program a lost"
kill -USR2 "$FS_PID"
fs_wait running
as $U2 destroy b >/dev/null
done_testing
