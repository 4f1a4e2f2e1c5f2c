#!/bin/bash
# test_ust_daemon_restart.sh - a traced program outlives its session
# daemon: killed with SIGKILL, then stopped with SIGTERM, each time
# restarted; the program keeps running, registers with the new daemon,
# and a new session records its events.  What the killed daemon's session
# had recorded is written by its consumer, which then exits; the stale
# pid file and sockets the SIGKILL left are replaced at the next start.  Without a daemon a program runs
# normally and at once (its constructor connects once and does not wait
# for the library's thread); with a daemon that does not answer, it waits
# LTT_UST_REGISTER_TIMEOUT ms, and not at all with 0.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 35

N=1000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
open_fifo log "$TEST_TMP/log"

# restart_sessiond: a new daemon in the same run directory, its log (-v)
# into the FIFO "log", so the test can wait for a registration.
restart_sessiond() {
	(
		close_fifos
		exec timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -v \
			</dev/null >/dev/null 2>"$TEST_TMP/log"
	)
}

# wait_registered PID: the daemon logged PID's registration (REGISTER),
# then lttctl list -u shows its events (TRACEPOINTS handled, a moment
# later: retried without sleeping, bounded).
wait_registered() {
	local i
	for ((i = 0; i < 1000; i++)); do
		read_line $log || return 1
		case $LINE in
		*"ust_app (pid $1, uid $(id -u)) registered"*) break ;;
		esac
	done
	timeout "$TEST_TIMEOUT" bash -c \
		'until "$0" list -u 2>/dev/null | grep -q "^    ltt_test:seq "; do :; done' "$LTTCTL_BIN"
}

# wait_log REGEX: a line of the daemon's log matching REGEX (bounded); it is in LINE.
wait_log() {
	local i
	for ((i = 0; i < 1000; i++)); do
		read_line $log || return 1
		[[ $LINE =~ $1 ]] && return 0
	done
	return 1
}

# A program registered with the first daemon, which has an active session
# (the program maps its buffers), waits.
ok_cmd "create in the first daemon" lttctl create s1 -o "$TEST_TMP/t1"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r survivor
app=$BG_PID
wait_ready $ready
ok $? "a program registered"
pid=$READY_PIDS
ust_app -n $N -r before
is $? 0 "a program recorded $N events in the first daemon's session"
cons=$(consumer_pid)

# SIGKILL: nothing is cleaned up; the new daemon replaces the stale socket.
d1=$(sessiond_pid)
kill -KILL "$d1"
wait_unlocked	# the kernel releases the run directory's lock at its death
ok $? "the first daemon is gone (SIGKILL)"
ok "$(proc_alive "$pid"; echo $?)" "the program is still running"
ok "$([ "$(sessiond_pid)" = "$d1" ] && [ -S "$LTT_RUNDIR/client.sock" ]; echo $?)" \
	"the dead daemon's pid file and socket are left behind"
# its consumer sees the command socket close: writes what it holds, exits
wait_pid_exit "$cons"
ok $? "the orphaned consumer exited"
bt "$TEST_TMP/t1" "$TEST_TMP/out1"
is "$(seq_check "$TEST_TMP/out1" before 1 $N)" "" \
	"the killed daemon's session has the $N events recorded before its death"
restart_sessiond
ok $? "a second daemon started"
ok "$(d=$(sessiond_pid) && [ "$d" != "$d1" ] && proc_alive "$d"; echo $?)" \
	"the stale pid file now names the second daemon"
wait_registered "$pid"
ok $? "the program registered with the second daemon"
wait_log "ust_app \\(pid $pid, uid [0-9]+\\) registered again [0-9]+\\.[0-9] s after its previous session daemon went away; it was recording into 1 channels then: what it did in between is in no trace"
ok $? "the second daemon says the program was recorded when the first went, and that the gap is in no trace (${LINE##*: Warning: })"
run lttctl list -u
like "$STDOUT" "PID: $pid - Name: (.*/)?ust_app" "list -u: the program, by its pid"

# SIGTERM: the daemon shuts down cleanly (sessions destroyed, the
# program's channels removed).
ok_cmd "create in the second daemon" lttctl create s2 -o "$TEST_TMP/t2"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
d2=$(sessiond_pid)
kill -TERM "$d2"
wait_unlocked	# released last, once it has shut down
ok $? "the second daemon is gone (SIGTERM)"
ok "$(proc_alive "$pid"; echo $?)" "the program is still running"
restart_sessiond
ok $? "a third daemon started"
wait_registered "$pid"
ok $? "the program registered with the third daemon"
wait_log "ust_app \\(pid $pid, uid [0-9]+\\) registered again [0-9]+\\.[0-9] s after its previous session daemon went away \\(no session recorded it then\\)"
ok $? "the third daemon says the gap, with nothing recording the program then (the second destroyed its session)"

ok_cmd "create in the third daemon" lttctl create s3 -o "$TEST_TMP/t3"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
echo go >&$go
wait $app
is $? 0 "the program, released, ran to completion"
ok_cmd "stop" lttctl stop
bt "$TEST_TMP/t3" "$TEST_TMP/out"
is "$(seq_check "$TEST_TMP/out" survivor 1 $N)$(wc -l <"$TEST_TMP/out")" $N \
	"the new session has the program's $N events"

# ms CMD...: run CMD, print how long it took in ms; RC is its status.
ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	RC=$?
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# No daemon at all: an empty run directory.  Given an hour's timeout, the
# program ends (bounded by its guard): it did not wait, whatever the load.
mkdir "$TEST_TMP/empty"
LTT_RUNDIR="$TEST_TMP/empty" LTT_UST_REGISTER_TIMEOUT=3600000 ust_app -n $N
is "$?" 0 "no daemon: the program runs, without waiting (an hour's timeout)"
# Nobody listening, as the constructor's own connect finds it (no socket,
# or a dead daemon's: connection refused): the constructor neither
# connects again nor waits for the library's thread to find the same (it
# said "registration: waiting" each time: the thread needs the lock the
# constructor holds until its wait); the thread still tries on its own.
LTT_UST_DEBUG=1 LTT_RUNDIR="$TEST_TMP/empty" ust_app -n 10 2>"$TEST_TMP/absent.err"
rc=$?
ok "$([ "$rc" = 0 ] && ! grep -q 'registration: waiting' "$TEST_TMP/absent.err"; echo $?)" \
	"no daemon: the constructor does not wait for the library's thread"
diag "$(cat "$TEST_TMP/absent.err")"
mkdir "$TEST_TMP/dead"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$TEST_TMP/dead/app.sock"
LTT_UST_DEBUG=1 LTT_RUNDIR="$TEST_TMP/dead" ust_app -n 10 2>"$TEST_TMP/dead.err"
rc=$?
ok "$([ "$rc" = 0 ] && [ -S "$TEST_TMP/dead/app.sock" ] &&
	! grep -q 'registration: waiting' "$TEST_TMP/dead.err"; echo $?)" \
	"a dead daemon's socket (connection refused): no wait either"
diag "$(cat "$TEST_TMP/dead.err")"
if command -v strace >/dev/null; then
	# (LeakSanitizer does not work under ptrace: no leak check there)
	LTT_RUNDIR="$TEST_TMP/empty" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		timeout "$TEST_TIMEOUT" strace -f -qq -e trace=execve,connect -o "$TEST_TMP/absent.strace" \
		"$UST_APP" -n 10
	is "$(awk 'NR == 1 { main = $1 } $1 == main && /connect\(.*app\.sock/ { n++ } END { print n + 0 }' \
		"$TEST_TMP/absent.strace")" 1 "no daemon: the program's first thread connects once"
else
	skip 1 "strace is not installed"
fi

# A daemon that does not answer (stopped): the wait is bounded, and 0
# means no wait.  The 600 ms wait is shown by a program started first with
# an hour's timeout, still waiting when the 600 ms one has run (no
# wall-clock upper bound, which a loaded machine stretches); the lower
# bound holds from before the start.
d3=$(sessiond_pid)
kill -STOP "$d3"
LTT_UST_REGISTER_TIMEOUT=3600000 ust_app_bg -n 10
hour=$BG_PID
# (ms sets RC in the command substitution's shell: printed after the time)
out=$(LTT_UST_REGISTER_TIMEOUT=600 ms ust_app -n 10; echo "$RC")
t=$(sed -n 1p <<<"$out") rc=$(sed -n 2p <<<"$out")
ok "$([ "$rc" = 0 ] && [ "$t" -ge 600 ] && kill -0 "$hour" 2>/dev/null; echo $?)" \
	"silent daemon, LTT_UST_REGISTER_TIMEOUT=600: waits 600 ms ($t), then runs; given an hour, one still waits"
kill "$hour" 2>/dev/null
wait "$hour" 2>/dev/null
# 0: no wait at all, as the library says with LTT_UST_DEBUG (no
# wall-clock upper bound, which a loaded machine stretches)
LTT_UST_DEBUG=1 LTT_UST_REGISTER_TIMEOUT=0 ust_app -n 10 2>"$TEST_TMP/nowait.err"
rc=$?
ok "$([ "$rc" = 0 ] && grep -q 'registration: not waiting' "$TEST_TMP/nowait.err" &&
	! grep -q 'registration: waiting' "$TEST_TMP/nowait.err"; echo $?)" \
	"silent daemon, LTT_UST_REGISTER_TIMEOUT=0: runs without waiting"
diag "$(cat "$TEST_TMP/nowait.err")"
kill -CONT "$d3"
done_testing
