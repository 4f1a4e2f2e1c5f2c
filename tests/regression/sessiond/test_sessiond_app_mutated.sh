#!/bin/bash
# test_sessiond_app_mutated.sh - what the session daemon keeps of mutated
# registrations (a real REGISTER and TRACEPOINTS with a few bytes changed,
# as a mutational fuzzer sends them, peer_hold mutate): nothing beyond
# the buffers an honest program of each ABI would have made.  Under
# UBSan it first found a REGISTER of length 0 killing the daemon: the
# codec offset the NULL data of an empty message (codec.c, test_codec).
#
# A registration names its program's word size (bits_per_long, 32 or
# 64); a per-user session keeps one set of buffers per user and word
# size for as long as it lives, as LTTng's does, so a registration that
# says 32 from a 64-bit process makes the user's 32-bit set once, and it
# stays until the session is destroyed.  That was the growth a fuzzing
# run saw (issue 77: 33 descriptors to 43 after 1,000 mutated
# registrations, with a per-user session active): the 32-bit set, not a
# leak.  Here: an honest 64-bit and an honest 32-bit registration set the
# ceiling; 2 x 500 mutated ones (per-user and per-process sessions
# active) stay under it, the daemon serves, and destroying the sessions
# gives back every descriptor the daemon had before them.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

PEER="$LTT_TOP_BUILDDIR/tests/regression/peer_hold"

test_init
[ -x "$PEER" ] || { echo "Bail out! $PEER not built"; exit 1; }
plan 10

LOG="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv \
	</dev/null >/dev/null 2>"$LOG" || { echo "Bail out! the session daemon did not start"; exit 1; }
pid=$(sessiond_pid)

fds() {
	local n
	n=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
	echo "$n"
}

# fds_until OP N: until the daemon's descriptor count is OP N (-le, -eq),
# bounded: the daemon closes a connection when it sees its hang-up; 0
# when the daemon is gone
fds_until() {
	local deadline=$((SECONDS + TEST_TIMEOUT))
	until [ "$(fds)" "$1" "$2" ] || ! proc_alive "$pid" || [ $SECONDS -ge $deadline ]; do :; done
	fds
}

# honest BITS: one registration of a BITS-bit program with 2 events, held
# until it has its channels, then closed; waits for the daemon's log of
# its leaving (the Nth such line)
UNREG=0
honest() {
	mkfifo "$TEST_TMP/in.$1" "$TEST_TMP/out.$1"
	env PEER_HOLD_BITS="$1" "$PEER" "$LTT_RUNDIR/app.sock" idle 1 2 \
		<"$TEST_TMP/in.$1" >"$TEST_TMP/out.$1" &
	local p=$! in out
	exec {in}>"$TEST_TMP/in.$1" {out}<"$TEST_TMP/out.$1"
	read -r -t "$TEST_TIMEOUT" -u "$out" LINE
	exec {in}>&- {out}<&-
	wait "$p"
	UNREG=$((UNREG + 1))
	wait_for "$LOG" "peer_hold \\(pid [0-9]+\\) unregistered" "$UNREG" ||
		diag "$(tail -n 5 "$LOG")"
}

# the count before: the sessions made (the consumer daemons, which
# outlive them, started), no program registered, nothing started
lttctl create u -o "$TEST_TMP/u" >/dev/null && lttctl create p -o "$TEST_TMP/p" >/dev/null ||
	{ echo "Bail out! the sessions were not made"; exit 1; }
before=$(fds)
lttctl enable-event -u -a -s u >/dev/null && lttctl start u >/dev/null ||
	{ echo "Bail out! the per-user session was not started"; exit 1; }

honest 64
is "$LINE" "HELD opened=1 registered=1 closed=0" "an honest 64-bit program registered"
c64=$(fds)
honest 32
is "$LINE" "HELD opened=1 registered=1 closed=0" "an honest 32-bit program registered"
ceiling=$(fds)
ok "$([ "$before" -lt "$c64" ] && [ "$c64" -lt "$ceiling" ]; echo $?)" \
	"the per-user session keeps a set of buffers per word size ($before descriptors before any program, $c64 after the 64-bit one, $ceiling after the 32-bit one)"
# the per-process session after the counts: its buffers go (asynchronously) with each program
lttctl enable-channel -u --buffers-pid c -s p >/dev/null &&
	lttctl enable-event -u -a -c c -s p >/dev/null && lttctl start p >/dev/null ||
	{ echo "Bail out! the per-process session was not started"; exit 1; }

run "$PEER" "$LTT_RUNDIR/app.sock" mutate 500 77
like "$OUT" "^MUTATED sent=500 registered=[1-9][0-9]* closed=[0-9]+$" \
	"500 mutated registrations sent, some whole enough to register"
diag "$OUT"
got=$(fds_until -le "$ceiling")
ok "$([ "$got" -gt 0 ] && [ "$got" -le "$ceiling" ]; echo $?)" \
	"the daemon lives and holds no more descriptors than after the honest ones ($got, at most $ceiling)"
run "$PEER" "$LTT_RUNDIR/app.sock" mutate 500 1977
diag "$OUT"
got=$(fds_until -le "$ceiling")
ok "$([ "$got" -gt 0 ] && [ "$got" -le "$ceiling" ]; echo $?)" "nor after 500 more ($got, at most $ceiling)"

ok "$(proc_alive "$pid"; echo $?)" "the daemon runs"
run lttctl list
is "$RC:$(grep -c '^  [0-9]) [up] ' <<<"$OUT")" "0:2" "and serves: both sessions listed"

lttctl destroy u >/dev/null && lttctl destroy p >/dev/null
got=$(fds_until -eq "$before")
is "$got" "$before" "destroying the sessions gives back every descriptor they took"
unlike "$(cat "$LOG")" "(AddressSanitizer|LeakSanitizer|runtime error)" "no sanitizer report"
