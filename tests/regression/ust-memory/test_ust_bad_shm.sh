#!/bin/bash
# test_ust_bad_shm.sh - hostile programs.  One speaks the app protocol
# badly (ust_app -B: wrong magic, messages out of order, truncated or
# oversized payloads, fds where none belong, a stalled header, acks of
# nothing): the daemon drops each one and keeps serving a good program.
# Another scribbles over its trace buffers, which the consumer reads: the
# consumer and the daemon survive, and the good program's trace is whole.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 37

N=2000
SOCK="$LTT_RUNDIR/app.sock"
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
open_fifo done "$TEST_TMP/done"

# The session is active before the good program registers: its events
# are enabled before its constructor returns.
ok_cmd "create" lttctl create s1 -o "$TEST_TMP/t1"
ok_cmd "per-PID channel0" lttctl enable-channel -u channel0 --buffers-pid
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start

# A good program, registered, waits while the bad clients come and go.
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r good
good=$BG_PID
wait_ready $ready
ok $? "a good program registered"
good_pid=$READY_PIDS

# bad CASE WANT: ust_app -B CASE prints what the daemon did.
bad() {
	local out
	out=$(LTT_RUNDIR="$TEST_TMP/nowhere" ust_app -B "$1" "$SOCK" 2>&1)
	is "$(echo $out)" "$2" "bad client '$1': $3"
}
bad magic EOF "wrong magic: dropped"
bad early EOF "TRACEPOINTS before REGISTER: dropped"
bad major EOF "protocol major 2: dropped"
bad short EOF "truncated REGISTER: dropped"
bad bits EOF "48-bit longs: dropped"
bad fd EOF "REGISTER with an fd: dropped"
bad huge EOF "2 GiB payload announced: dropped"
bad stall EOF "half a header, then nothing: dropped after the receive timeout"
bad twice "got 2 EOF" "REGISTER twice: REGISTER_OK, then dropped"
bad tps "got 2 EOF" "TRACEPOINTS with log level 99: dropped"
bad ack "got 2 EOF" "ACK of a command never sent: dropped"
bad drip "got 2 dropped before the end EOF" \
	"a message dripping one byte at a time: dropped at its deadline, not at its end"

run lttctl list -u
is "$(printf '%s\n' "$STDOUT" | grep -c '^PID: ')" 1 "list -u: one program"
like "$STDOUT" "^PID: $good_pid - Name: (.*/)?ust_app\$" "list -u: the good one"
like "$(cat "$SESSIOND_LOG")" "speaks app protocol 2\.x, this daemon 1\.x: refused" "the daemon logged the wrong major"
like "$(cat "$SESSIOND_LOG")" "sent malformed tracepoint descriptions: dropped" "the daemon logged the bad descriptions"
like "$(cat "$SESSIOND_LOG")" "sent a malformed or unexpected ACK message: dropped" "the daemon logged the bogus ack"

# The daemon still serves the good program.
echo go >&$go
wait $good
is $? 0 "the good program ran"

# A program that scribbles over its buffers once it has written them, and
# stays alive until killed: its streams are flushed by stop while it
# lives, then closed when it dies.
cons=$(consumer_pid)
like "$cons" '^[0-9]+$' "the consumer's pid"
ust_app_bg -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -S -n $N -r bad >"$TEST_TMP/bad.out"
wait_ready $ready
bad_pid=$READY_PIDS
wait_done $done
ok $? "a program wrote events, then scribbled over its buffers"
like "$(cat "$TEST_TMP/bad.out")" "^scribbled [1-9][0-9]*\$" "it found its buffers to scribble on"
ust_app -n $N -r good2
is $? 0 "a good program ran meanwhile"
run lttctl stop
is "$RC" 0 "stop returns"
kill -KILL "$bad_pid"
{ wait $BG_PID; } 2>/dev/null

# Daemons alive and serving: a new session records a new program.
ok_cmd "create a second session" lttctl create s2 -o "$TEST_TMP/t2"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
ust_app -n $N -r after
ok_cmd "stop" lttctl stop
is "$(consumer_pid)" "$cons" "the consumer survived"
bt "$TEST_TMP/t2" "$TEST_TMP/out2"
is "$(seq_check "$TEST_TMP/out2" after 1 $N)$(wc -l <"$TEST_TMP/out2")" $N \
	"the new session: the new program's $N events"

# The good programs' per-PID traces are whole.
good_dirs=$(find "$TEST_TMP/t1/ust/pid" -mindepth 1 -maxdepth 1 ! -name "ust_app-$bad_pid-*")
timeout "$BT_TIMEOUT" babeltrace2 $good_dirs >"$TEST_TMP/out1" 2>"$TEST_TMP/out1.err"
is $? 0 "babeltrace2 reads the good programs' traces"
is "$(seq_check "$TEST_TMP/out1" good 1 $N)$(seq_check "$TEST_TMP/out1" good2 1 $N)$(wc -l <"$TEST_TMP/out1")" \
	$((2 * N)) "the good programs' events, whole"
ok "$(grep -q 'ust_app (pid '"$bad_pid"'.*unregistered' "$SESSIOND_LOG"; echo $?)" \
	"the scribbler was unregistered when it died"
done_testing
