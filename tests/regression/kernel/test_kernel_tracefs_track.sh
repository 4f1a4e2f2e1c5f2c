#!/bin/bash
# test_kernel_tracefs_track.sh - the kernel pid tracker through tracefs,
# natively (no VM): `lttctl track -k --pid` writes the process and its
# threads to each instance's set_event_pid, with options/event-fork on.
# Programs (kload gated) wait at a gate until the test has changed the
# tracker, then make a known number of getppid calls: a tracked process's
# calls are all recorded (its threads', those born before the change and
# after it, included), an untracked one's none; untrack --pid --all
# records no process, track --pid --all every one; a set made smaller
# leaves out exactly the process taken away; a tracker set before the
# session starts applies to every channel; a tracked process's children
# are tracked (ftrace follows forks).  The other trackers (--uid...)
# are refused naming tracefs, and nothing changes.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 34
spid=$(sessiond_pid)
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)

# calls NAME: getppid entries recorded of each of NAME's threads ("N N ...").
calls() {
	local t out=""
	for t in ${TIDS[$1]}; do
		out="$out${out:+ }$(grep -c " syscall_entry_getppid: .*{ tid = $t }" "$TEST_TMP/s.txt")"
	done
	echo "$out"
}

# event_pids: the sorted set_event_pid of the session's instances, one line each.
event_pids() {
	local f
	for f in "$tfs/instances/ltt-$spid-"*/set_event_pid; do
		tr ' ' '\n' <"$f" | grep . | sort -n | tr '\n' ' '
		echo
	done
}

# A tracker set before the session starts: two channels, each an instance.
lttctl -q create s -o "$TEST_TMP/s"
lttctl -q enable-channel -k c1 -s s
lttctl -q enable-channel -k c2 -s s
lttctl -q enable-event -k --syscall getppid -c c1 -s s
lttctl -q enable-event -k --syscall getppid -c c2 -s s
lttctl -q add-context -k -t tid -c c1 -s s
lttctl -q add-context -k -t tid -c c2 -s s
gated a 1000 0 0
gated b 1000 0 0
run lttctl track -k --pid "${GPID[a]}" -s s
is "$RC" 0 "track -k --pid A before start: taken"
ok_cmd "start s" lttctl start s
is "$(event_pids)" "${GPID[a]} "$'\n'"${GPID[a]} " \
	"each of the two instances has set_event_pid A, measured"
is "$(cat "$tfs/instances/ltt-$spid-"*/options/event-fork | sort -u)" 1 \
	"... and options/event-fork on"
run lttctl list s
like "$OUT" "process ids \\(pid\\) +${GPID[a]}\$" "list s shows the kernel pid tracker"
go a b

# untrack --pid --all: no process.
run lttctl untrack -k --pid --all -s s
is "$RC" 0 "untrack -k --pid --all: taken"
is "$(event_pids | sort -u)" "4194304 " "set_event_pid: a pid no task has (4194304), measured"
gated c 1000 0 0
go c

# track --pid --all: every process.
gated d 1000 0 0
gated e 1000 0 0
run lttctl track -k --pid --all -s s
is "$RC" 0 "track -k --pid --all: taken"
is "$(event_pids | sort -u)" "" "set_event_pid: empty, measured"
go d e

# A process with threads: 2 born before the track, 2 after.
gated m 500 2 2
run lttctl track -k --pid "${GPID[m]}" -s s
is "$RC" 0 "track -k --pid M (a process with 2 threads): taken"
is "$(event_pids | sort -u | wc -w)" 3 "set_event_pid: its pid and its 2 threads' tids, measured"
gated n 500 0 0
go m n

# A set made smaller while recording: the process taken away is not recorded.
gated f 1000 0 0
gated g 1000 0 0
lttctl -q track -k --pid "${GPID[f]},${GPID[g]}" -s s
run lttctl untrack -k --pid "${GPID[m]}" -s s
is "$RC" 0 "untrack -k --pid M: taken"
run lttctl untrack -k --pid "${GPID[g]}" -s s
is "$RC" 0 "untrack -k --pid G: taken"
is "$(event_pids | sort -u)" "${GPID[f]} " "set_event_pid: F alone, measured"
go f g

# The other trackers: refused, naming tracefs; the pid tracker unchanged.
run lttctl track -k --uid 0 -s s
like "$RC.$ERR" "^1.Error: .*through tracefs" "track -k --uid: refused, naming the backend"
like "$(cat "$LOG")" "kernel uid tracker change refused: the kernel tracing backend is tracefs, which tracks process ids only" \
	"... and the log says tracefs tracks process ids only"
run lttctl track -k --vpid 1 -s s
like "$RC.$ERR" "^1.Error: .*through tracefs" "track -k --vpid: refused too"
run lttctl untrack -k --gid --all -s s
like "$RC.$ERR" "^1.Error: .*through tracefs" "untrack -k --gid --all: refused too"
run lttctl list s
like "$OUT" "user ids \\(uid\\) +all\$" "list s: the uid tracker is still all"
like "$OUT" "process ids \\(pid\\) +${GPID[f]}\$" "... and the pid tracker F"

# A tracked process's children are tracked too (ftrace's event-fork
# follows every fork; the module's pid tracker does not).
mkfifo "$TEST_TMP/sh.in"
bash -c 'read -r _; "$0" getppid 300 & wait $!' "$KLOAD" <"$TEST_TMP/sh.in" >"$TEST_TMP/sh.out" &
sh=$!
exec {shin}>"$TEST_TMP/sh.in"
run lttctl track -k --pid "$sh" -s s
is "$RC" 0 "track -k --pid SH (a shell that will start a program): taken"
exec {shin}>&-
wait "$sh"
TIDS[child]=$(sed -n 's/^tid //p' "$TEST_TMP/sh.out")

ok_cmd "stop s" lttctl stop s
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/s" >"$TEST_TMP/s.txt" 2>"$TEST_TMP/s.err"
is "$?" 0 "babeltrace2 reads the trace"
# each call is recorded once per channel: 2000 for 1000 calls
is "$(calls a)" 2000 "tracked A: each of its 1000 calls, in each channel"
is "$(calls b)" 0 "untracked B: none of its calls"
is "$(calls c)" 0 "untrack --all: none of C's calls"
is "$(calls d) $(calls e)" "2000 2000" "track --all: every call of D and E"
is "$(calls m)" "1000 1000 1000 1000 1000" \
	"tracked M: every call of each thread, those born after the track included"
is "$(calls n)" 0 "untracked N (beside M): none"
is "$(calls f) $(calls g)" "2000 0" "the set made smaller: F's calls, none of G's"
is "$(calls child)" 600 "the program the tracked shell started (tid ${TIDS[child]}, not $sh): its calls"

run lttctl list s
like "$OUT" "discarded events: 0" "list s: nothing discarded"
ok_cmd "destroy s" lttctl destroy s
stop_sessiond
done_testing
