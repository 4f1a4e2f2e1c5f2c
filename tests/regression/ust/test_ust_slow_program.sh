#!/bin/bash
# test_ust_slow_program.sh - a program that stops answering makes the
# commands that wait for it (start, stop) wait, boundedly, but the other
# clients are served meanwhile: those commands run off the client thread.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 9

open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ok_cmd "create s" lttctl create s -o "$TEST_TMP/s"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 10 -r frozen
wait_ready $ready
ok $? "a program registered"
stop_proc "$READY_PIDS"
ok $? "and frozen (SIGSTOP): it will not acknowledge anything"

# start waits for the frozen program's ack (3 s at most)...
"$LTTCTL_BIN" start >"$TEST_TMP/start.out" 2>&1 &
start_pid=$!
# ...and meanwhile the session shows as active to another client: the
# daemon answers it while start is still waiting.
timeout "$TEST_TIMEOUT" bash -c 'until "$0" list | grep -q "^  1) s (.*) \[active\]"; do :; done' \
	"$LTTCTL_BIN"
ok $? "another client sees the session active while start waits"
ok "$(kill -0 $start_pid 2>/dev/null; echo $?)" "start was still waiting then"
run lttctl create other --no-output
is "$RC" 0 "and another client can create a session meanwhile"
wait $start_pid
is $? 0 "start returns once it gave up waiting"
like "$(cat "$TEST_TMP/start.out")" "Tracing started for session s\." "and says tracing started"
kill -CONT "$READY_PIDS"
close_fd $go
wait $BG_PID
done_testing
