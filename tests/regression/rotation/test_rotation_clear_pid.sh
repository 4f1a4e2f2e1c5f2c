#!/bin/bash
# test_rotation_clear_pid.sh - lttctl clear of a session with per-PID buffers:
# the traces of programs that exited go (their directories too), a live
# program's trace is cleared in place, and the trace read afterwards holds
# only what was recorded after the clear.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup

count_role() {
	grep -c "role = \"$2\"" "$1"
}

lttctl -q create p -o "$TEST_TMP/p" &&
	lttctl -q enable-channel -u c --buffers-pid -s p &&
	lttctl -q enable-event -u ltt_test:seq -c c -s p &&
	lttctl -q start p || { echo "Bail out! session p"; exit 1; }
# Two programs that exit, one that stays (it waits on the kill FIFO).
ust_app -n 300 -r gone1
ust_app -n 300 -r gone2
open_fifo DONE "$TEST_TMP/done"
ust_app_bg -n 200 -r live -k "$TEST_TMP/done"
live=$BG_PID
wait_done $DONE || { echo "Bail out! the live program did not finish emitting"; exit 1; }
is "$(ls "$TEST_TMP/p/ust/pid" | wc -l)" 3 "three per-PID traces before the clear"

run lttctl clear p
is "$RC" 0 "clear"
is "$(ls "$TEST_TMP/p/ust/pid" | wc -l)" 1 "the two exited programs' traces are gone"
live_pid=$(pgrep -P "$live" -n)
like "$(ls "$TEST_TMP/p/ust/pid")" "-$live_pid-[0-9]{8}-[0-9]{6}\$" "the live program's trace stays"

ust_app -n 100 -r after
kill "$live" 2>/dev/null
wait "$live" 2>/dev/null
lttctl -q stop p
bt "$TEST_TMP/p" "$TEST_TMP/p.out"
is $? 0 "babeltrace2 reads the trace after the clear"
is "$(count_role "$TEST_TMP/p.out" gone1):$(count_role "$TEST_TMP/p.out" gone2)" "0:0" \
	"no event of the exited programs"
is "$(count_role "$TEST_TMP/p.out" live)" 0 "the live program's events before the clear are cleared"
is "$(count_role "$TEST_TMP/p.out" after)" 100 "every event recorded after the clear"
lttctl -q destroy p
done_testing
