#!/bin/bash
# test_sessiond_client_budget.sh - one user's flood of large client requests, held
# half-sent on many connections, takes at most the bytes a user may hold
# in the daemon at once (--max-bytes-per-uid): a request past it is read
# without being kept and answered CLIENT_BYTES, another user's large
# request and commands go through meanwhile, and the daemon's peak
# resident size grows by about the budget, not by what was sent (issue
# 51: 64 such connections took a root daemon from 4.8 MB to 269 MB); the
# same user's program registers meanwhile and its events are kept
# (programs have a budget of their own).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
PEER="$LTT_TOP_BUILDDIR/tests/regression/peer_hold"
[ -x "$PEER" ] || { echo "Bail out! $PEER not built"; exit 1; }
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup to act as two other users"
plan 13

# Two users without a passwd entry, admitted by their primary group.
U1=4101 U2=4102
run_dir="$TEST_TMP/grun"
log="$TEST_TMP/sessiond.log"
mkdir -p "$run_dir"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$run_dir" --group nogroup --no-kernel \
	--max-bytes-per-uid=16M </dev/null >/dev/null 2>"$log" ||
	{ echo "Bail out! the root daemon did not start"; exit 1; }
sock="$run_dir/client.sock"
pid=$(cat "$run_dir/sessiond.pid")
group_homes "$run_dir" $U1 $U2
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status"; }

base=$(hwm)
# U1: 8 connections each announce 8 MB and send 4 MB (32 MB in all), then
# a whole 6 MB request; the connections are held until told to go on.
mkfifo "$TEST_TMP/in" "$TEST_TMP/out"
TEST_TIMEOUT=$((TEST_TIMEOUT * 2)) as_gid_user $U1 "$PROTO_CLIENT" "$sock" "hello" "conns 8" \
	"bigreqs 8000000 4000000" "req LIST_SESSIONS zeros:6000000" "pause" \
	<"$TEST_TMP/in" >"$TEST_TMP/out" &
bg=$!
exec {IN}>"$TEST_TMP/in" {OUT}<"$TEST_TMP/out"
lines=
for i in 1 2 3 4 5; do
	read -t "$TEST_TIMEOUT" -r -u "$OUT" LINE || break
	lines="$lines$LINE
"
done
like "$lines" "CONNS ok=8 " "user $U1: 8 connections"
like "$lines" "BIGREQS sent=8 failed=0" "... each sent 4 MB of an 8 MB request (read by the daemon)"
like "$lines" "LIST_SESSIONS CLIENT_BYTES len=0" \
	"... a whole 6 MB request of the same user, past the budget: answered CLIENT_BYTES"
like "$lines" "PAUSED" "... and the connections held"

# Meanwhile another user's large request and commands go through.
run as_gid_user $U2 "$PROTO_CLIENT" "$sock" "hello" "req LIST_SESSIONS zeros:2000000"
unlike "$OUT" "CLIENT_BYTES" "user $U2's 2 MB request is not refused for $U1's bytes ($(tail -n 1 <<<"$OUT"))"
run as_gid_user $U2 "$LTTCTL_BIN" create other --no-output
is "$RC" 0 "user $U2 creates a session meanwhile"
run lttctl --rundir "$run_dir" list
like "$OUT" "other" "root lists it meanwhile"

# Meanwhile U1's own program registers and its events are kept: programs
# have a budget of their own (issue 61: U1's pending requests had its
# program's descriptions refused, its events untraced)
mkfifo "$TEST_TMP/pin" "$TEST_TMP/pout"
as_gid_user $U1 "$PEER" "$run_dir/app.sock" idle 1 40 <"$TEST_TMP/pin" >"$TEST_TMP/pout" &
pbg=$!
exec {PIN}>"$TEST_TMP/pin" {POUT}<"$TEST_TMP/pout"
read -t "$TEST_TIMEOUT" -r -u "$POUT" LINE
is "$LINE" "HELD opened=1 registered=1 closed=0" "user $U1's program registers meanwhile"
run lttctl --rundir "$run_dir" list -u
is "$(grep -c '^    peer_hold:ev' <<<"$STDOUT")" 40 \
	"... and its 40 events are kept: its requests' bytes don't refuse its program's descriptions"
exec {PIN}>&- {POUT}<&-
wait $pbg

grow=$(( ($(hwm) - base) / 1024 ))
if [ -n "${ASAN_OPTIONS:-}" ]; then
	skip 1 "peak size under AddressSanitizer (its quarantine keeps freed buffers)"
else
	ok $(( grow >= 26 )) "the daemon's peak size grew by $grow MiB for 38 MB sent (budget 16 MiB; at most 26)"
fi
echo go >&$IN
exec {IN}>&- {OUT}<&-
wait $bg
is $? 0 "user $U1's client ran every step"
like "$(cat "$log")" \
	"would pass the 16777216 bytes its user may hold at once \\(ltt-sessiond --max-bytes-per-uid\\): refused" \
	"the daemon's log says why"
run "$SESSIOND" --rundir "$TEST_TMP/bad" --max-bytes-per-uid=1M
like "$ERR" "^ltt-sessiond: Error: --max-bytes-per-uid=1M: give a size \\(e.g. 4M\\) from 8388608 to 17179869184$" \
	"--max-bytes-per-uid below the largest request is refused, saying the range"
done_testing
