#!/bin/bash
# test_ust_crash.sh - lttctl create --shm-path and ltt-crash: a program
# killed with SIGKILL once it has emitted, with its consumer (stopped
# before the program emitted, so it wrote nothing out) and the session
# daemon (killed first, so that no new consumer takes the trace over and
# writes it out); ltt-crash makes a trace of the ring buffer files,
# and babeltrace2 reads every event committed, with its field values:
# full sub-buffers and the one being written at the crash.  Also: the
# layout under the shared memory path, files made only when a program
# registers, a per-PID trace's files gone with its program, the files
# left as they were by the reader, packets the consumer wrote out read
# again, save and load keeping the path, and bad input refused.  A copy
# whose packet was damaged: its events counted lost, unless the consumer
# had written that packet out.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

CRASH="$LTT_TOP_BUILDDIR/src/crash/ltt-crash"
ust_setup
[ -x "$CRASH" ] || { echo "Bail out! $CRASH not built"; exit 1; }
plan 55

# damage FILE: overwrite the magic of the first packet in ring buffer file
# FILE (the first 0xC1FC1FC1 at an 8-byte boundary) with zeros; its offset
# on stdout, nothing when there is none.
damage() {
	python3 - "$1" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    data = f.read()
    at = data.find(bytes.fromhex("c11ffcc1"))
    while at >= 0 and at % 8:
        at = data.find(bytes.fromhex("c11ffcc1"), at + 1)
    if at >= 0:
        f.seek(at)
        f.write(bytes(4))
        print(at)
PY
}

# crash_counts ERR: "RECOVERED LOST" of ltt-crash -v's total line in ERR.
crash_counts() {
	sed -n 's/^1 traces, [0-9]* streams: [0-9]* packets, \([0-9]*\) events recovered, \([0-9]*\) lost$/\1 \2/p' <<<"$1"
}

T=2 N=1500
SHM="$TEST_TMP/shm"
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
open_fifo done "$TEST_TMP/done"

# Bad input changes nothing.
run lttctl create bad --shm-path ""
[ "$RC" != 0 ]
ok $? "an empty --shm-path is refused"
like "$OUT" "shared memory path" "it says what is wrong with it"
run lttctl list
# its list line: the test directory's random name may hold "bad"
unlike "$OUT" "[0-9]\\) bad " "nothing was created"

# A relative path is taken from the current directory.
mkdir "$SHM"
run bash -c "cd '$TEST_TMP' && '$LTTCTL_BIN' create crash --shm-path shm -o '$TEST_TMP/out'"
ok $RC "create with --shm-path shm (relative)"
like "$STDOUT" "^Shared memory path set to $TEST_TMP/shm\$" "it says where, made absolute (LTTng's line)"
ok_cmd "a channel of small sub-buffers: several fill" \
	lttctl enable-channel -u channel0 --subbuf-size 4096 --num-subbuf 64
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
is "$(find "$SHM" -mindepth 1 | wc -l)" 0 "no file before a program registers"

ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -k "$TEST_TMP/done" -t $T -n $N -r killed
wait_ready $ready
ok $? "the program registered"
APP=$READY_PIDS
TRACE=$(echo "$SHM"/crash-*/ust/uid/"$(id -u)"/64-bit)
[ -f "$TRACE/metadata" ]
ok $? "its trace's metadata file: $TRACE"
is "$(cd "$TRACE" && ls channel0_* | wc -l)" "$(nproc)" "one stream file per CPU"
CONSUMER=$(consumer_pid)
ok $? "the consumer runs"
stop_proc "$CONSUMER"
ok $? "the consumer is stopped: it writes nothing out"
echo go >&$go
wait_done $done
ok $? "the program emitted $T x $N events"
# The daemon first, and gone before the consumer dies: a daemon that sees
# its consumer die hands the traces to a new one at once (a takeover),
# which writes every packet out; killed in one kill(1), the daemon could
# still do that between the consumer's signal and its own.
SPID=$(sessiond_pid)
kill -KILL "$SPID" && wait_pid_exit "$SPID"
ok $? "the session daemon is killed, and gone before its consumer dies"
kill -KILL "$APP" "$CONSUMER"
{ wait $BG_PID; } 2>/dev/null
is $? $((128 + 9)) "the program was killed by SIGKILL"
wait_pid_exit "$CONSUMER"
ok $? "the consumer is gone too"
is "$(cat "$TEST_TMP"/out/ust/uid/"$(id -u)"/64-bit/channel0_* 2>/dev/null | wc -c)" 0 \
	"no consumer wrote a packet out (none took the trace over)"
SUMS=$(cd "$TRACE" && cat metadata channel0_* | md5sum)

run "$CRASH" -v -x "$TEST_TMP/x" "$SHM"
is "$RC" 0 "ltt-crash -x extracts"
like "$ERR" "^1 traces, $(nproc) streams: [0-9]+ packets, $((T * N)) events recovered, 0 lost$" \
	"it counts every event committed as recovered, none lost"
bt "$TEST_TMP/x" "$TEST_TMP/bt"
is "$?" 0 "babeltrace2 reads the extracted trace"
is "$(seq_check "$TEST_TMP/bt" killed $T $N)$(wc -l <"$TEST_TMP/bt")" $((T * N)) \
	"the program's $T x $N events, each once, with their thread and sequence fields"
is "$(discarded "$TEST_TMP/bt.err")" 0 "nothing reported discarded"
PACKETS=$(sed -n 's/^1 traces, [0-9]* streams: \([0-9]*\) packets.*/\1/p' <<<"$ERR")
[ "${PACKETS:-0}" -gt "$(nproc)" ]
ok $? \
	"$PACKETS packets: full sub-buffers and the open ones"
is "$(cd "$TRACE" && cat metadata channel0_* | md5sum)" "$SUMS" "the files are left as they were"

# A damaged packet: not in the trace, its events counted lost.
cp -r "$SHM" "$TEST_TMP/shmbad"
BAD=$(cd "$TEST_TMP/shmbad"/crash-*/ust/uid/"$(id -u)"/64-bit &&
	for f in channel0_*; do [ -n "$(damage "$f")" ] && { echo "$f"; break; }; done)
run "$CRASH" -v -x "$TEST_TMP/xbad" "$TEST_TMP/shmbad"
read -r GOT LOST <<<"$(crash_counts "$ERR")"
[ "$RC" = 0 ] && [ -n "$BAD" ] && [ "${LOST:-0}" -gt 0 ] && [ $((GOT + LOST)) = $((T * N)) ]
ok $? "a packet damaged in $BAD: $GOT events recovered, its $LOST counted lost (committed $((T * N)))"
like "$ERR" "/$BAD: [0-9]+ packets, [0-9]+ events, $LOST lost \\(0 torn, 0 in 0 packets given up, $LOST in corrupt packets\\)" \
	"-v says the stream lost them in a corrupt packet"

# Without -x: babeltrace2 prints it, from a temporary directory removed after.
is "$(TMPDIR="$TEST_TMP/tmp" && mkdir "$TMPDIR" && export TMPDIR &&
	"$CRASH" "$SHM" | grep -c ' ltt_test:seq: ')$(ls "$TEST_TMP/tmp")" $((T * N)) \
	"ltt-crash PATH shows the $((T * N)) events, and leaves no temporary directory"

run "$CRASH" -x "$TEST_TMP/x" "$SHM"
[ "$RC" = 1 ]
ok $? "an output directory that exists is refused"
like "$ERR" "can't make the output directory" "and said so"
run "$CRASH"
[ "$RC" = 1 ]
ok $? "no PATH: a usage error, exit 1"
like "$ERR" "give exactly one PATH" "and says what to give"
run "$CRASH" -x "$TEST_TMP/x3" -e babeltrace2 "$SHM"
is "$RC:$(ls -d "$TEST_TMP/x3" 2>/dev/null)" "1:" "-x DIR with -e VIEWER: refused, nothing made"
like "$ERR" "give one of them" "... saying to give one of them"
run "$CRASH" -e /nonexistent-viewer "$SHM"
[ "$RC" != 0 ]
ok $? "-e VIEWER that can't run: a failure ($RC)"
like "$ERR" "can't run the viewer '/nonexistent-viewer'" "... saying which viewer"
run "$CRASH" --help
is "$RC:$(head -n 1 <<<"$STDOUT")" "0:Usage: $CRASH [OPTIONS] PATH" "--help: the usage, exit 0"
mkdir "$TEST_TMP/empty"
run "$CRASH" -x "$TEST_TMP/x2" "$TEST_TMP/empty"
[ "$RC" = 1 ]
ok $? "a path without a trace fails"
like "$ERR" "no trace under it" "and says so"

# Per-PID: the files go with the program.
start_sessiond
ok_cmd "pid: create with --shm-path" lttctl create pid --shm-path "$TEST_TMP/shm2" -o "$TEST_TMP/out2"
ok_cmd "pid: a per-PID channel, started" \
	bash -c "$LTTCTL_BIN enable-channel -u chan --buffers-pid >/dev/null && $LTTCTL_BIN enable-event -u ltt_test:seq -c chan >/dev/null && $LTTCTL_BIN start >/dev/null"
# Saved and loaded with it: ltt's format and LTTng's.
mkdir "$TEST_TMP/saved" "$TEST_TMP/saved2"
lttctl -q save pid -o "$TEST_TMP/saved/pid.ltt"
is "$(grep -c "<shm_path>$TEST_TMP/shm2</shm_path>" "$TEST_TMP/saved/pid.ltt")" 1 \
	"pid: save keeps the shm path (ltt's format)"
lttctl -q save pid -o "$TEST_TMP/saved/pid.lttng"
is "$(grep -c "<shared_memory_path>$TEST_TMP/shm2</shared_memory_path>" "$TEST_TMP/saved/pid.lttng")" 1 \
	"pid: and in LTTng's (<shared_memory_path>)"
run lttctl load -i "$TEST_TMP/saved/pid.ltt" --override-name pid2 pid
is "$RC" 0 "pid: the saved session loads as pid2"
lttctl -q save pid2 -o "$TEST_TMP/saved2/pid2.ltt"
is "$(grep -c "<shm_path>$TEST_TMP/shm2</shm_path>" "$TEST_TMP/saved2/pid2.ltt")" 1 \
	"pid: pid2 has the shm path"
lttctl -q destroy pid2
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -t 1 -n 10 -r pid
wait_ready $ready
ok $? "pid: the program registered"
PTRACE=$(echo "$TEST_TMP"/shm2/pid-*/ust/pid/*-"$READY_PIDS"-*)
[ -f "$PTRACE/metadata" ] && [ -f "$PTRACE/chan_0" ]
ok $? \
	"pid: its trace's files: $PTRACE"
echo go >&$go
wait $BG_PID
ok $? "pid: the program ran to its end"
pdir=$(dirname "$(dirname "$(dirname "$PTRACE")")")
wait_fs "$pdir" -- bash -c '[ ! -e "$0" ]' "$pdir"
ok $? "pid: its exit removed its trace's files and the directories up to NAME-DATE"

# Stopped: the consumer wrote every packet out, and they are still in the
# buffers until the writers come round: ltt-crash reads them back.
ok_cmd "stopped: create, enable, start" bash -c "$LTTCTL_BIN create stopped --shm-path '$TEST_TMP/shm3' -o '$TEST_TMP/out3' >/dev/null && $LTTCTL_BIN enable-event -u ltt_test:seq >/dev/null && $LTTCTL_BIN start >/dev/null"
ust_app -t 1 -n 100 -r stopped && lttctl -q stop stopped
ok $? "stopped: 100 events recorded, the session stopped (all written out)"
is "$("$CRASH" "$TEST_TMP/shm3" | grep -c ' ltt_test:seq: ')" 100 \
	"stopped: ltt-crash still reads the 100 events from the buffers' files"
# The consumer wrote that packet out: damaged since (the consumer gives
# back its pages, zeros then), it is no loss.
cp -r "$TEST_TMP/shm3" "$TEST_TMP/shm3bad"
BAD=$(cd "$TEST_TMP/shm3bad"/stopped-*/ust/uid/"$(id -u)"/64-bit &&
	for f in channel0_*; do [ -n "$(damage "$f")" ] && { echo "$f"; break; }; done)
run "$CRASH" -v -x "$TEST_TMP/x3bad" "$TEST_TMP/shm3bad"
read -r GOT LOST <<<"$(crash_counts "$ERR")"
[ "$RC" = 0 ] && [ -n "$BAD" ] && [ "${GOT:-100}" -lt 100 ]
ok $? "stopped: a packet written out, damaged in $BAD: left out ($GOT of 100 events read)"
is "$LOST" 0 "... and not counted lost: the consumer wrote it"
done_testing
