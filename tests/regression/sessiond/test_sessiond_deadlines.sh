#!/bin/bash
# The session daemon's deadlines (evloop timers in client.c and app-thread.c): a
# client that never says HELLO is disconnected after 5 s, a program that
# connects to app.sock and never says REGISTER after 3 s; the others, and
# the daemon, go on meanwhile.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
plan 12

log="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" -b --rundir "$LTT_RUNDIR" >"$log" 2>&1 ||
	{ echo "Bail out! ltt-sessiond did not start"; exit 1; }
sock="$LTT_RUNDIR/client.sock"
app_sock="$LTT_RUNDIR/app.sock"

now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

# A client that says HELLO, then waits for our word to send a request.
mkfifo "$TEST_TMP/bg.in" "$TEST_TMP/bg.out"
"$PROTO_CLIENT" "$sock" hello pause "req LIST_SESSIONS" <"$TEST_TMP/bg.in" >"$TEST_TMP/bg.out" &
bg_pid=$!
exec {bg_in}>"$TEST_TMP/bg.in" {bg_out}<"$TEST_TMP/bg.out"
read -t "$TEST_TIMEOUT" -r -u "$bg_out" line
like "$line" "^HELLO OK " "a client says HELLO"

# Then two silent connections: each waits for its own deadline.
t0=$(now_ms)
"$PROTO_CLIENT" "$sock" expect-eof >"$TEST_TMP/client.out" 2>&1 &
client_pid=$!
"$PROTO_CLIENT" "$app_sock" expect-eof >"$TEST_TMP/app.out" 2>&1 &
app_pid=$!
run "$PROTO_CLIENT" "$sock" hello "req LIST_SESSIONS"
like "$OUT" "^HELLO OK .*
LIST_SESSIONS OK len=[0-9]+ count=0" "another client is served meanwhile"

wait "$app_pid"
t_app=$(( $(now_ms) - t0 ))
is "$(cat "$TEST_TMP/app.out")" "EOF" "a silent program connection is closed"
ok "$([ "$t_app" -ge 2900 ] && [ "$t_app" -lt 8000 ]; echo $?)" \
	"after its 3 s REGISTER deadline, not before ($t_app ms)"

wait "$client_pid"
t_client=$(( $(now_ms) - t0 ))
is "$(cat "$TEST_TMP/client.out")" "EOF" "a silent client is disconnected"
ok "$([ "$t_client" -ge 4900 ] && [ "$t_client" -lt 10000 ]; echo $?)" \
	"after its 5 s HELLO deadline, not before ($t_client ms)"

like "$(cat "$log")" "said nothing in 5000 ms: disconnected" "the daemon logs the silent client"
like "$(cat "$log")" "no REGISTER in time: dropped" "the daemon logs the silent program"

# The first client connected before the silent one, so it is past 5 s
# too: having said HELLO, it is still served.
read -t "$TEST_TIMEOUT" -r -u "$bg_out" line
is "$line" "PAUSED" "the client that said HELLO is still connected"
echo go >&"$bg_in"
read -t "$TEST_TIMEOUT" -r -u "$bg_out" line
like "$line" "^LIST_SESSIONS OK len=[0-9]+ count=0" "and its request is served after the 5 s"
exec {bg_in}>&- {bg_out}<&-
wait "$bg_pid"

pid=$(sessiond_pid)
ok "$(proc_alive "$pid"; echo $?)" "the daemon runs"
stop_sessiond
ok "$(wait_unlocked; echo $?)" "and stops cleanly"
