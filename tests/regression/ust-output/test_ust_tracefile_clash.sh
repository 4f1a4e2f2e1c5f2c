#!/bin/bash
# Two channels never write the same file.  Stream files are CHANNEL_CPU,
# or CHANNEL_CPU_N with a tracefile size, so a rotating channel "a" and a
# non-rotating "a_0" would both write a_0_N (a's CPU 0 file N, a_0's CPU
# N): the second of such a pair is refused, in either order, by lttctl
# and by the daemon, and changes nothing.  Neighbours that cannot clash
# are accepted, and each records every event into files of its own.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
need_proto_client
sock="$LTT_RUNDIR/client.sock"
state() { "$PROTO_CLIENT" "$sock" dump; }
m_clash="two channels of the domain would write files of the same name: a channel NAME with --tracefile-size writes NAME_CPU_N, which a channel NAME_CPU without it writes too; rename one of them"

# --- refused, in both orders, by lttctl
lttctl -q create r --no-output
lttctl -q enable-channel -u a --subbuf-size 4k --tracefile-size 8k
lttctl -q enable-channel -u b_12
STATE=$(state)
run lttctl enable-channel -u a_0
is "$RC/$ERR" "1/Error: channel 'a_0' of session 'r' (channel 'a' is there): $m_clash" \
	"a_0 (plain) next to a (rotating): refused, naming both"
run lttctl enable-channel -u a_17
is "$RC" 1 "a_17 next to a (rotating): refused (any CPU number)"
run lttctl enable-channel -u b --subbuf-size 4k --tracefile-size 8k
is "$RC/$ERR" "1/Error: channel 'b' of session 'r' (channel 'b_12' is there): $m_clash" \
	"b (rotating) next to b_12 (plain): refused"
run lttctl enable-channel -u c,c_1 --subbuf-size 4k --tracefile-size 8k
is "$RC" 0 "c and c_1, both rotating, do not clash: accepted"
run lttctl enable-channel -u d,d_3 --tracefile-size 0
is "$RC" 0 "d and d_3, neither rotating, do not clash: accepted"
STATE=$(state)
run lttctl enable-channel -u e,f,e_2 --subbuf-size 4k --tracefile-size 8k
is "$RC" 0 "e, f, e_2, all rotating in one list: accepted"
lttctl -q enable-channel -u q --subbuf-size 4k --tracefile-size 8k
STATE=$(state)
run lttctl enable-channel -u z,q_0,q_1
is "$RC/$ERR" "1/Error: channel 'q_0' of session 'r' (channel 'q' is there): $m_clash" \
	"a list whose second channel clashes: refused"
is "$(state)" "$STATE" "the refused list added nothing, not even its first channel (z)"
run lttctl enable-channel -u w,w_01,w_x,w_1x,wx_1 --subbuf-size 4k --tracefile-size 8k
is "$RC" 0 "w with w_01, w_x, w_1x, wx_1: no CPU number can make these clash: accepted"

# --- refused by the daemon (a client that skips lttctl's check)
channel() { echo "str:$1 u32:$2 str:$3 u64:$4 u64:$5 u8:$6 u32:$7 u32:$8 u64:$9 u64:${10} u32:${11}"; }
STATE=$(state)
run "$PROTO_CLIENT" "$sock" hello "req ENABLE_CHANNEL $(channel r 2 a_3 4096 4 0 0 0 0 0 1)"
is "$(tail -n 1 <<<"$OUT")" "ENABLE_CHANNEL TRACEFILE_CLASH len=0" \
	"the daemon refuses a_3 (plain) next to a (rotating): TRACEFILE_CLASH"
run "$PROTO_CLIENT" "$sock" hello "req ENABLE_CHANNEL $(channel r 2 b 4096 4 0 0 0 8192 0 1)"
is "$(tail -n 1 <<<"$OUT")" "ENABLE_CHANNEL TRACEFILE_CLASH len=0" \
	"the daemon refuses b (rotating) next to b_12 (plain): TRACEFILE_CLASH"
is "$(state)" "$STATE" "the daemon's refusals changed nothing"
lttctl -q destroy r

# --- neighbours that may coexist record every event in files of their own
N=3000
OUT_DIR="$TEST_TMP/trace"
TRACE="$OUT_DIR/ust/uid/$(id -u)/64-bit"
lttctl -q create s -o "$OUT_DIR"
# 512 KiB per CPU hold every event: none is discarded.
lttctl -q enable-channel -u a,a_0 --subbuf-size 32k --num-subbuf 16 --tracefile-size 32k
lttctl -q enable-channel -u a_x --subbuf-size 32k --num-subbuf 16
for c in a a_0 a_x; do
	lttctl -q enable-event -u ltt_test:seq -c $c
done
lttctl -q start
# on one CPU, so that one CPU's files hold every event and channel a's
# rotate (a program that migrated halfway split them under load, ASan's)
(taskset -p -c 0 "$BASHPID" >/dev/null && ust_app -n $N >/dev/null)
lttctl -q stop
bt "$OUT_DIR" "$TEST_TMP/s.txt"
is "$(count_events "$TEST_TMP/s.txt" ltt_test:seq)" $((3 * N)) \
	"a, a_0 (both rotating) and a_x recorded all ${N} events each"
is "$(awk '/ ltt_test:seq: / { match($0, /seq = [0-9]+/); seen[substr($0, RSTART + 6, RLENGTH - 6) + 0]++ }
	END { for (s = 0; s < '$N'; s++) if (seen[s] != 3) bad++; print bad + 0 }' "$TEST_TMP/s.txt")" 0 \
	"every event 0..$((N - 1)) is there three times, once per channel"
# the CPU that recorded the most (CPU 0, where the program ran)
cpu=$(cd "$TRACE" && ls -S a_x_* | head -n 1 | sed 's/^a_x_//')
ok "$([ -f "$TRACE/a_${cpu}_0" ] && [ -f "$TRACE/a_${cpu}_1" ] && [ -f "$TRACE/a_0_${cpu}_0" ] &&
	[ -f "$TRACE/a_x_${cpu}" ]; echo $?)" \
	"channel a wrote a_${cpu}_0, a_${cpu}_1..., a_0 wrote a_0_${cpu}_0..., a_x wrote a_x_${cpu}"

done_testing
