#!/bin/bash
# 20 concurrent 'lttctl create' on a fresh home: one session daemon is
# started (the lttctl processes that would start one take turns on the run
# directory's spawn.lock; the others find it answering), and all 20
# sessions exist.  A second daemon never takes over a live one, even when
# the lock file was deleted under it (it checks the socket: a live
# daemon, even a stopped one, answers), while a dead daemon's leftovers
# (stale socket, no lock file) do not stop a new one.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
# A personal daemon's run directory in the fresh home, not there yet
# (root's default, /run/ltt, is the system's: not for a test).
rundir="$HOME/.ltt"
export LTT_RUNDIR="$rundir"
N=20

pids=()
for i in $(seq $N); do
	timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" create "s$i" --no-output >"$TEST_TMP/c$i.out" 2>&1 &
	pids+=($!)
done
fails=0
for i in $(seq $N); do
	wait "${pids[$((i - 1))]}" || { fails=$((fails + 1)); diag "create s$i: $(cat "$TEST_TMP/c$i.out")"; }
done
is "$fails" 0 "$N concurrent creates on a fresh home: none failed"
is "$(cat "$TEST_TMP"/c*.out | grep -c '^Spawned a session daemon')" 1 "exactly one of them started a daemon"
is "$(grep -c "^Session s[0-9]* created.\$" "$TEST_TMP"/c*.out | awk -F: '{ s += $2 } END { print s }')" $N \
	"each said its session was created"
run lttctl list
is "$(grep -c '^ *[0-9]*) s[0-9]* (no output) \[inactive\]$' <<<"$OUT")" $N "the daemon has the $N sessions"
pid=$(sessiond_pid "$rundir")
daemons=0
for p in $(pgrep -x ltt-sessiond); do
	[ "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)" = "ltt-sessiond --daemonize --rundir $rundir " ] &&
		daemons=$((daemons + 1))
done
is "$daemons" 1 "one ltt-sessiond runs for the run directory"

# --- the lock file deleted under the live daemon
rm -f "$rundir/sessiond.lock"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$rundir"
is "$RC" 1 "a second daemon, the lock file deleted: refuses to start"
like "$ERR" "another ltt-sessiond \\(pid $pid\\) answers on $rundir/client.sock although $rundir/sessiond.lock was not locked \\(deleted\\?\\)" \
	"it names the live daemon and why"
is "$(sessiond_pid "$rundir")" "$pid" "the pid file is still the live daemon's"
run lttctl list
is "$(grep -c '^ *[0-9]*) s[0-9]*' <<<"$OUT")" $N "the live daemon still serves its $N sessions"
# Stopped, it still holds its socket: a new one still must not take over.
rm -f "$rundir/sessiond.lock"
kill -STOP "$pid"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$rundir"
is "$RC" 1 "the live daemon stopped and the lock file deleted: a second one still refuses"
kill -CONT "$pid"
run lttctl list
is "$(grep -c '^ *[0-9]*) s[0-9]*' <<<"$OUT")" $N "continued, the first daemon serves its sessions"

# --- a dead daemon's leftovers do not block the next one
kill -KILL "$pid"
wait_pid_exit "$pid"
rm -f "$rundir/sessiond.lock"
ok "$([ -S "$rundir/client.sock" ]; echo $?)" "the killed daemon left its socket"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$rundir"
is "$RC" 0 "a new daemon starts over a dead one's stale socket"
run lttctl list
is "$RC/$OUT" "0/No sessions." "and serves"
term_sessiond "$rundir"
done_testing
