#!/bin/bash
# list -p lists every logger a program made before the listing, however
# late the program's thread is to report it: the daemon has each program
# with ltt's python agent send what it knows (LOGGERS_SYNC) before it
# answers, as LTTng's daemon asks its agents at list time.  The race made
# certain: the thread of libltt-ust sleeps 1 s before it sends its first
# LOGGERS (LTT_FAULT="delay loggers-send"), so without the sync a list
# -p just after the program said "ready" finds no logger of it.  And a
# program whose thread never answers (LTT_FAULT="hang loggers-send")
# costs the listing 3 s at most, is not dropped, and the daemon says so.
# A program of app protocol minor 8 (peer_hold, with a logger reported)
# is not asked: the listing does not wait for it; one of minor 9 that
# reads nothing is, and is listed with the logger it reported before.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

python_env || skip_all "configured without the Python package (no python3 with Python.h: python3-dev)"
ust_setup --log
plan 19

python_agent_pkg "$TEST_TMP/py"
APP="$LTT_TOP_SRCDIR/tests/regression/python_agent_app.py"
# pyapp_ready FAULT FIFO ERR: the program in mode hold, with LTT_FAULT=FAULT,
# waiting on FIFO, its stderr in ERR, its pid in held; returns once it
# said "ready PID" (it made qa.app and other before that)
pyapp_ready() {
	mkfifo "$2"
	env "${PYENV[@]}" PYTHONPATH="$TEST_TMP/py" LTT_FAULT="$1" \
		timeout "$TEST_TIMEOUT" "$PYTHON3" -B "$APP" hold "$2" >&$ready 2>"$3" &
	held=$!
	wait_ready $ready
}
now_ms() { date +%s%3N; }
# list_timed: run lttctl list -p, its time in ms in took
list_timed() {
	local start
	start=$(now_ms)
	run lttctl list -p
	took=$(($(now_ms) - start))
}
PEER="$LTT_TOP_BUILDDIR/tests/regression/peer_hold"
# peer_start NAME MINOR LOGGER: peer_hold deaf, registered with MINOR,
# having reported LOGGER; its pid in NAME_pid; it exits once the test
# closes NAME_in (the other end of its standard input)
PEER_INS=
peer_start() {
	local fd f
	mkfifo "$TEST_TMP/$1.in"
	exec {fd}<>"$TEST_TMP/$1.in"
	PEER_INS="$PEER_INS $fd"
	printf -v "${1}_in" %s "$fd"
	(
		for f in $PEER_INS; do	# no peer holds a peer's stdin open
			exec {f}>&-
		done
		PEER_HOLD_MINOR=$2 PEER_HOLD_LOGGER=$3 exec "$PEER" "$LTT_RUNDIR/app.sock" deaf 1
	) <"$TEST_TMP/$1.in" >"$TEST_TMP/$1.out" &
	printf -v "${1}_pid" %s "$!"
	wait_for "$TEST_TMP/$1.out" "^HELD opened=1 registered=1 closed=0"
}

open_fifo ready "$TEST_TMP/ready"

# --- a thread late to report: the listing waits for it
pyapp_ready "delay loggers-send" "$TEST_TMP/go" "$TEST_TMP/late.err"
ok $? "the program (its thread late to send its loggers) said ready"
run lttctl list -p
like "$OUT" "PID: $READY_PIDS - Name: $PYTHON3\$" "list -p just after: the program"
like "$OUT" "    qa.app" "list -p just after: qa.app, made before ready"
like "$OUT" "    other" "list -p just after: other"
grep -q "LTT_FAULT: this thread sleeps at loggers-send" "$TEST_TMP/late.err"
ok $? "the thread was late: it slept before its first LOGGERS"
echo go >"$TEST_TMP/go"
wait $held
is $? 0 "the program ran on"

# --- a thread that never answers: 3 s at most, the program kept
pyapp_ready "hang loggers-send" "$TEST_TMP/go2" "$TEST_TMP/hung.err"
ok $? "the program (its thread stuck before its loggers) said ready"
list_timed
is "$RC" 0 "list -p with a program that does not answer: done"
ok "$([ "$took" -lt 8000 ]; echo $?)" "list -p waited at most 3 s for it (took $took ms)"
grep -q "(pid $READY_PIDS) did not confirm the listing of its python loggers in 3000 ms; what it did not say yet is left out" \
	"$SESSIOND_LOG"
ok $? "the daemon logged the program that did not answer"
run lttctl list -u
like "$OUT" "PID: $READY_PIDS - Name: " "the program is still registered (not dropped)"
echo go >"$TEST_TMP/go2"
wait $held
is $? 0 "the program ran on and exited"

# --- a program of minor 8 is not asked; one of minor 9 that reads nothing is
peer_start old 8 peer.old
ok $? "a program of minor 8 registered, its logger peer.old reported"
list_timed
like "$OUT" "PID: $old_pid - Name: .*peer_hold
    peer\\.old\$" "list -p: its logger"
ok "$([ "$took" -lt 2500 ]; echo $?)" "... without waiting for it: not asked (took $took ms)"
peer_start deaf 9 peer.deaf
ok $? "a program of minor 9 that reads nothing registered, its logger peer.deaf reported"
list_timed
like "$OUT" "PID: $deaf_pid - Name: .*peer_hold
    peer\\.deaf\$" "list -p: the logger it reported before"
ok "$([ "$took" -ge 2900 ] && [ "$took" -lt 8000 ]; echo $?)" "... after waiting for it, 3 s (took $took ms)"
grep -q "peer_hold (pid $deaf_pid) did not confirm the listing of its python loggers" "$SESSIOND_LOG" &&
	! grep -q "peer_hold (pid $old_pid) did not confirm" "$SESSIOND_LOG"
ok $? "the daemon logged the one of minor 9, not the one of minor 8"
close_fd "$old_in"
close_fd "$deaf_in"
wait "$old_pid" "$deaf_pid"
