#!/bin/bash
# test_ust_exit_owner.sh - a program's exit wakes the owner's thread only
# of the sessions that may hold a per-PID trace of it to close: a session
# whose user domain is per-UID is skipped (the daemon says so at -vvv),
# a per-PID one still gets the job, and both traces hold every event of
# both programs.  (Each owner's thread woken at a program's exit ran while
# the program exited, on a busy 2-CPU machine its parent's wake-up after
# it: bench/README.md, issue 60.)
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 9
N=50

ok_cmd "per-UID session u" lttctl create u -o "$TEST_TMP/u"
ok_cmd "its event" lttctl enable-event -u ltt_test:seq -s u
ok_cmd "per-PID session p" lttctl create p -o "$TEST_TMP/p"
ok_cmd "its per-PID channel" lttctl enable-channel -u c --buffers-pid -s p
ok_cmd "its event" lttctl enable-event -u ltt_test:seq -c c -s p
lttctl -q start u && lttctl -q start p
for r in a b; do
	ust_app -n $N -r $r || diag "program $r failed"
done
wait_for "$SESSIOND_LOG" "\(pid [0-9]+\) left: session 'u' is per-UID" 2
is "$(grep -c "left: session 'u' is per-UID, nothing of it to close" "$SESSIOND_LOG")" 2 \
	"each program's exit: session u's owner not woken (per-UID: nothing to close)" ||
	diag "$(grep -i 'left\|unregistered' "$SESSIOND_LOG")"
is "$(grep -c "left: session 'p'" "$SESSIOND_LOG")" 0 \
	"session p (per-PID) gets its job: each program's trace closed by its owner"
lttctl -q stop u && lttctl -q stop p
bt "$TEST_TMP/u" "$TEST_TMP/u.txt"
bt "$TEST_TMP/p" "$TEST_TMP/p.txt"
is "$(count_events "$TEST_TMP/u.txt" ltt_test:seq)" $((2 * N)) "session u: both programs' $N events"
is "$(ls -d "$TEST_TMP"/p/ust/pid/*/ 2>/dev/null | wc -l)/$(count_events "$TEST_TMP/p.txt" ltt_test:seq)" \
	"2/$((2 * N))" "session p: two per-PID traces, both programs' $N events"
