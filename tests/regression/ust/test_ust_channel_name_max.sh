#!/bin/bash
# test_ust_channel_name_max.sh - a channel name is at most 219 bytes
# (LTT_CHANNEL_NAME_MAX: its stream files NAME_CPU_N.idx fit a file name).
# A longer one is refused by enable-channel, by the daemon for any client,
# and by load, changing nothing; one of 219 bytes records every event, as
# do the session's other channels.  (Before, 220 to 255 bytes were
# accepted, the consumer refused the trace, and every channel of the
# session recorded nothing, without a word.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
need_proto_client
plan 17

N=300
OUTDIR="$TEST_TMP/trace"
long=$(printf 'c%.0s' $(seq 220))
max=$(printf 'm%.0s' $(seq 219))
m_name="invalid channel name: use 1 to 219 letters, digits, '_', '-' or '.', not starting with '.' or '-' ('metadata' is reserved)"

ok_cmd "create" lttctl create s -o "$OUTDIR"
run lttctl enable-channel -u "$long" -s s
is "$RC" 1 "a 220-byte channel name: exit 1"
is "$ERR" "Error: channel '${long:0:64}...': $m_name" \
	"a 220-byte channel name: the error names the limit"
run lttctl enable-channel -u "ok,$long" -s s
is "$RC" 1 "a list holding a 220-byte name: exit 1"
run lttctl list s
unlike "$STDOUT" "^- (ok|c+):" "nothing of either list was added"

# Another client, past the library's check: the daemon refuses it too.
run "$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" "hello" \
	"req ENABLE_CHANNEL str:s u32:2 str:$long u64:8192 u64:4 u8:0 u32:0 u32:0 u64:0 u64:0 u32:1"
like "$OUT" "ENABLE_CHANNEL CHANNEL_NAME" "the daemon refuses a 220-byte name from any client"
run lttctl list s
unlike "$STDOUT" "^- c+:" "and adds nothing"

ok_cmd "a 219-byte channel name is taken" lttctl enable-channel -u "$max" -s s
ok_cmd "another channel" lttctl enable-channel -u ok -s s
lttctl -q enable-event -u ltt_test:seq -c "$max" -s s
lttctl -q enable-event -u ltt_test:crit -c ok -s s
ok_cmd "start" lttctl start s
ust_app -n $N -L -r main
is $? 0 "the program ran"
ok_cmd "stop" lttctl stop s
bt "$OUTDIR" "$TEST_TMP/out"
is "$(cat "$TEST_TMP/out.err")" "" "babeltrace2 reads the trace"
is "$(seq_check "$TEST_TMP/out" main 1 $N)" "" "the 219-byte channel: all $N ltt_test:seq events"
is "$(count_events "$TEST_TMP/out" ltt_test:crit)" $N "the other channel: all $N ltt_test:crit events"

# A saved session with a 220-byte channel name: load refuses it, naming
# the limit, and loads nothing.
lttctl -q destroy s
sed "s|<name>metadata</name>|<name>$long</name>|" \
	"$LTT_TOP_SRCDIR/tests/regression/saveload/bad-channel-name.ltt" >"$TEST_TMP/long.ltt"
run lttctl load -i "$TEST_TMP/long.ltt"
like "$ERR" "long\\.ltt:15: .*use 1 to 219 letters" "load: a 220-byte channel name is refused, naming the limit"
run lttctl list
is "$OUT" "No sessions." "load: nothing was loaded"

term_sessiond
done_testing
