#!/bin/bash
# test_kernel_tracefs_outputs.sh - the tracefs kernel backend's traces
# through every output, natively (no VM): a rotation splits a known load
# exactly between its chunks; a session streamed to a relay writes it
# there whole; a live session shows it to a live viewer before the
# session stops.  The consumer's trace layer is the module's: these are
# the module backend's scenarios, run on tracefs.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

test_init
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
live_init
plan 10
kernel_lock

KLOAD="$LTT_TOP_BUILDDIR/tests/regression/kload"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"
[ -x "$KLOAD" ] || { echo "Bail out! $KLOAD not built"; exit 1; }
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv --kernel-backend=tracefs \
	</dev/null >/dev/null 2>"$TEST_TMP/sessiond.log" ||
	{ echo "Bail out! ltt-sessiond did not start"; exit 1; }

# getppid_session NAME ARGS...: a session of getppid with the tid context.
getppid_session() {
	local s=$1
	shift
	lttctl -q create "$s" "$@" &&
		lttctl -q enable-event -k --syscall getppid -s "$s" &&
		lttctl -q add-context -k -t tid -s "$s"
}

# entries TRACE TID: getppid entries of TID in TRACE.
entries() {
	timeout "$BT_TIMEOUT" babeltrace2 "$1" 2>/dev/null |
		grep -c " syscall_entry_getppid: .*{ tid = $2 }" || true
}

# load N: N getppid calls by a new program; its tid in T.
load() {
	"$KLOAD" getppid "$1" >"$TEST_TMP/load" || echo "Bail out! kload failed"
	T=$(sed -n 's/^tid //p' "$TEST_TMP/load")
}

# Rotation: each chunk holds its own program's calls, none twice.
getppid_session r -o "$TEST_TMP/r"
lttctl -q start r || diag "$(grep -iE "error|warn" "$TEST_TMP/sessiond.log")"
load 100
ta=$T
run lttctl rotate r
is "$RC" 0 "rotate while tracing"
load 200
tb=$T
lttctl -q stop r
lttctl -q rotate r
chunks=("$TEST_TMP"/r/archives/*)
is "${#chunks[@]}" 2 "two archived chunks"
is "$(entries "${chunks[0]}" "$ta")/$(entries "${chunks[0]}" "$tb")" "100/0" \
	"the first chunk: the first program's 100 calls, none of the second's"
is "$(entries "${chunks[1]}" "$ta")/$(entries "${chunks[1]}" "$tb")" "0/200" \
	"the second chunk: the second program's 200 calls, none of the first's"
lttctl -q destroy r

# Streaming to a relay: the relay writes the whole trace.
start_relayd -o "$TEST_TMP/relay" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
getppid_session n --set-url "net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "start a session streamed to the relay" lttctl start n
load 300
lttctl -q stop n
meta=$(find "$TEST_TMP/relay" -path "*/kernel/metadata" | head -1)
ok "$([ -n "$meta" ]; echo $?)" "the relay wrote a kernel trace (${meta:-none})"
is "$(entries "$(dirname "${meta:-/nonexistent}")" "$T")" 300 "... with all 300 calls"
lttctl -q destroy n

# Live: a viewer sees the calls while the session runs.
getppid_session lv --live=200ms --set-url "net://127.0.0.1:$CPORT:$DPORT"
lttctl -q start lv
timeout "$BT_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "net://127.0.0.1:$LPORT/host/$(hostname)/lv" \
	>"$TEST_TMP/live.txt" 2>"$TEST_TMP/live.err" &
viewer=$!
# babeltrace2 attaches from the last packet: the calls come once it has
# (the consumer sends between live ticks, so a call made before could
# be in a packet the viewer never asks for)
wait_for "$RELAYD_LOG" "attached session [0-9]+ lv " ||
	diag "the viewer did not attach within ${TEST_TIMEOUT}s"
load 250
wait_for "$TEST_TMP/live.txt" " syscall_entry_getppid: .*\\{ tid = $T \\}" 250
ok $? "the live viewer shows all 250 calls while the session is active"
run lttctl list lv
like "$OUT" "\\[active\\]" "... before the session stops"
lttctl -q stop lv
lttctl -q destroy lv
wait "$viewer"
is "$?" 0 "the viewer ends with the session"
stop_sessiond
done_testing
