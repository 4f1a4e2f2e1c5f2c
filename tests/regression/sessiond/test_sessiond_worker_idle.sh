#!/bin/bash
# test_sessiond_worker_idle.sh - a user's worker thread (doc/sessiond.md,
# "Threads") is kept idle after the user's last command for the next one,
# then stops: after commands in a row, and after two commands at once,
# the daemon runs as many threads as before the first command (bounded
# wait), and it still answers.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

test_init
plan 6

sessiond_or_bail "$LTT_RUNDIR" --no-kernel
spid=$(sessiond_pid)
# back_to N: wait (bounded, without sleeping) until the daemon runs N threads
back_to() {
	timeout "$TEST_TIMEOUT" bash -c 'until [ "$(ls "/proc/$1/task" | wc -l)" = "$2" ]; do :; done' \
		bash "$spid" "$1"
}
base=$(ls "/proc/$spid/task" | wc -l)

ok_cmd "create" lttctl create s -o "$TEST_TMP/s"
lttctl -q enable-event -u -a -s s
ok_cmd "destroy, the third command in a row" lttctl destroy s
back_to "$base"
ok $? "the idle worker stops after its grace: $base threads again"

lttctl -q create a -o "$TEST_TMP/a" &
lttctl -q create b -o "$TEST_TMP/b"
wait $!
is "$(lttctl list | grep -c -E '^ *[0-9]+\) [ab] ')" 2 "two commands at once: both sessions made"
lttctl -q destroy -a
back_to "$base"
ok $? "the worker stops after its grace again: $base threads"
is "$(lttctl list | grep -c -E '^ *[0-9]+\) ')" 0 "the daemon answers: no session left"
done_testing
