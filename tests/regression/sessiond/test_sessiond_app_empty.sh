#!/bin/bash
# test_sessiond_app_empty.sh - a program of another user that announces
# no event, twice (REGISTER with none, then an empty TRACEPOINTS, as
# peer_hold idle does around a python agent's LOGGERS) and leaves: the
# root daemon lives on and serves.  The daemon grew the program's list of
# descriptions by 0 entries with realloc(), which frees the list and gives
# NULL, kept it as freed, and freed it again when the program left: a
# double free (ASan, test_python_agent_list) that killed the daemon
# (plain build: the daemon a zombie after the program went).
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

PEER="$LTT_TOP_BUILDDIR/tests/regression/peer_hold"

test_init
can_switch_user || skip_all "needs root, setpriv and a nobody user"
[ -x "$PEER" ] || { echo "Bail out! $PEER not built"; exit 1; }
plan 5

LOG="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv \
	</dev/null >/dev/null 2>"$LOG" || { echo "Bail out! the session daemon did not start"; exit 1; }
pid=$(sessiond_pid)

mkfifo "$TEST_TMP/in" "$TEST_TMP/out"
as_nobody env PEER_HOLD_LOGGER=qa.empty "$PEER" "$LTT_RUNDIR/app.sock" idle 1 \
	<"$TEST_TMP/in" >"$TEST_TMP/out" &
peer=$!
exec {in}>"$TEST_TMP/in" {out}<"$TEST_TMP/out"
read -r -t "$TEST_TIMEOUT" -u "$out" LINE
is "$LINE" "HELD opened=1 registered=1 closed=0" \
	"a program of nobody's with no event, announced twice, registered"
run lttctl list -p
like "$OUT" "    qa.empty" "its logger is listed"
exec {in}>&- {out}<&-
wait "$peer"
wait_for "$LOG" "peer_hold \\(pid [0-9]+\\) unregistered" || diag "$(tail -n 5 "$LOG")"
run lttctl list
is "$RC:$OUT" "0:No sessions." "once it left, the daemon serves"
ok "$(proc_alive "$pid"; echo $?)" "... and runs"
unlike "$(cat "$LOG")" "double free|AddressSanitizer" "... and said nothing of a double free"
stop_sessiond
done_testing
