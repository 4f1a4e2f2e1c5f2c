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

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

python_env || skip_all "configured without the Python package (no python3 with Python.h: python3-dev)"
ust_setup --log
plan 12

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
start=$(now_ms)
run lttctl list -p
took=$(($(now_ms) - start))
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
