#!/bin/bash
# test_ust_basic.sh - one traced program end to end: every event once, the
# exact value of every field type, the metadata, the trace layout, the
# index files, lttctl list -u / -f while the program runs, lttctl view,
# and stop returning with everything on disk.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 52

N=200
OUTDIR="$TEST_TMP/trace"
TRACE="$OUTDIR/ust/uid/$(id -u)/64-bit"
SUBBUF=$((16 * 1024))

ok_cmd "create" lttctl create s1 -o "$OUTDIR"
# Small sub-buffers, so that the trace has several packets to index.
ok_cmd "channel0 with 16 KiB sub-buffers" \
	lttctl enable-channel -u channel0 --subbuf-size 16k --num-subbuf 8
ok_cmd "enable every test event" lttctl enable-event -u 'ltt_test:*'
ok_cmd "start" lttctl start

# The program registers, says so, then waits on the start FIFO while we
# look at what the daemon knows of it.
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -T -L
app=$BG_PID
wait_ready $ready
ok $? "the program registered"
pid=$READY_PIDS

run lttctl list -u
is "$(grep "^PID: $pid " <<<"$STDOUT")" "PID: $pid - Name: $UST_APP" \
	"list -u: the program, by pid and the path it was started by (argv[0], as LTTng's list -u)"
like "$(lttctl --mi xml list -u | tr -d ' \n')" "<pid><id>$pid</id><name>$UST_APP</name>" \
	"  and in the MI (<pid>'s <name>)"
for ev in "seq (loglevel: DEBUG_LINE (13))" "types (loglevel: WARNING (4))" \
	"crit (loglevel: CRIT (2))" "debug (loglevel: DEBUG (14))"; do
	like "$STDOUT" "^    ltt_test:${ev//[()]/.}\$" "list -u: ltt_test:$ev"
done

# fields_of EVENT: the "field:" lines under EVENT in $STDOUT, joined by ';'.
fields_of() {
	printf '%s\n' "$STDOUT" | awk -v ev="$1" '
		$1 == ev { on = 1; next }
		/^    [^ ]/ || /^$/ { on = 0 }
		on && /^        field: / { sub(/^ *field: /, ""); printf "%s;", $0 }'
}
run lttctl list -u -f
is "$RC" 0 "list -u -f succeeds"
is "$(fields_of ltt_test:types)" "s8 (integer);u8 (integer);s16 (integer);u16 (integer);s32 (integer);u32 (integer);s64 (integer);u64 (integer);hex (integer (hex));f32 (float);f64 (double);str (string);arr (integer array);atext (text array);seq (integer sequence);stext (text sequence);par (enum);" \
	"list -u -f: the fields of ltt_test:types and their types"
is "$(fields_of ltt_test:seq)" "role (string);thread (integer);seq (integer);" \
	"list -u -f: the fields of ltt_test:seq"

echo go >&$go
wait $app
is $? 0 "the program ran to completion"

run lttctl stop s1
is "$RC" 0 "stop"
is "$ERR" "" "stop: nothing lost, no warning"

# Read at once: stop returns once everything is on disk.
bt "$OUTDIR" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
is "$(cat "$TEST_TMP/out.err")" "" "babeltrace2: no warning"
is "$(count_events "$TEST_TMP/out" ltt_test:seq)" $N "$N ltt_test:seq events"
is "$(count_events "$TEST_TMP/out" ltt_test:types)" $N "$N ltt_test:types events"
is "$(count_events "$TEST_TMP/out" ltt_test:crit)" $N "$N ltt_test:crit events"
is "$(count_events "$TEST_TMP/out" ltt_test:debug)" $N "$N ltt_test:debug events"
is "$(wc -l <"$TEST_TMP/out")" $((4 * N)) "nothing else"
is "$(seq_check "$TEST_TMP/out" main 1 $N)" "" "ltt_test:seq 0..$((N - 1)), once each"
is "$(grep ' ltt_test:crit: ' "$TEST_TMP/out" | sed 's/.*{ i = \([0-9]*\) }$/\1/' | sort -n | tr '\n' ' ')" \
	"$(seq 0 $((N - 1)) | tr '\n' ' ')" "ltt_test:crit i = 0..$((N - 1))"

# Every field type, exactly, for a few i: what ust_app.c and test_tp.h say.
texts=("alpha" "beta-text" "" "gamma")
vals_of() { # i: the array [i, -i, 7], its first $2 elements
	local i=$1 n=$2 v=("$1" "$((-$1))" 7) k out=
	for ((k = 0; k < n; k++)); do out="$out[$k] = ${v[k]}, "; done
	[ -n "$out" ] && echo "[ ${out%, } ]" || echo "[ ]"
}
for i in 0 1 2 3 37; do
	t=${texts[i % 4]}
	par=EVEN
	[ $((i % 2)) = 1 ] && par=ODD
	want="s8 = $((-(i % 100))), u8 = $((200 + i % 50)), s16 = $((-(1000 + i))), u16 = $((60000 + i % 1000)), s32 = $((-(100000 + i))), u32 = $((4000000000 + i)), s64 = $((-(5000000000 + i))), u64 = 180000000000000000$(printf %02d $i), hex = 0x$(printf %08X $((0xdead0000 + i))), f32 = $i.5, f64 = $i.25, str = \"$t\", arr = $(vals_of $i 3), atext = \"${t:0:4}\", _seq_length = $((i % 4)), seq = $(vals_of $i $((i % 4))), _stext_length = ${#t}, stext = \"$t\", par = ( \"$par\" : container = $((i % 2)) )"
	is "$(event_line "$TEST_TMP/out" ltt_test:types "u32 = $((4000000000 + i)),")" "$want" \
		"ltt_test:types i=$i: every field's value"
done

# The metadata: names, log levels and field types.
meta=$(babeltrace2 --output-format=ctf-metadata "$TRACE" 2>&1)
is "$(printf '%s\n' "$meta" | awk '/^\tname = "ltt_test:/ { n = $3 } /^\tloglevel = / { print n, $3 }' | sort | tr -d '";' | tr '\n' ' ')" \
	"ltt_test:crit 2 ltt_test:debug 14 ltt_test:seq 13 ltt_test:types 4 " \
	"metadata: the four events and their log levels"
types_decl=$(printf '%s\n' "$meta" | sed -n '/name = "ltt_test:types"/,/^};/p')
like "$types_decl" "size = 64; align = 8; signed = 1; .* _s64;" "metadata: s64 is a signed 64-bit integer"
like "$types_decl" "size = 32; align = 8; signed = 0; encoding = none; base = 16; } _hex;" "metadata: hex is shown in base 16"
like "$types_decl" "floating_point \{ exp_dig = 11; mant_dig = 53;.* _f64;" "metadata: f64 is a double"
like "$types_decl" "_seq\[ __seq_length \];" "metadata: seq is a sequence of _seq_length elements"
like "$types_decl" '"ODD" = 1' "metadata: the enum's labels"

# The layout: ust/uid/UID/64-bit/{metadata, channel files, index/}.
ok "$([ -s "$TRACE/metadata" ]; echo $?)" "ust/uid/$(id -u)/64-bit/metadata"
ncpu=$(getconf _NPROCESSORS_CONF)
missing= bad_idx= packets=0
for ((cpu = 0; cpu < ncpu; cpu++)); do
	f="$TRACE/channel0_$cpu" idx="$TRACE/index/channel0_$cpu.idx"
	if [ ! -f "$f" ] || [ ! -f "$idx" ]; then
		missing="$missing $cpu"
		continue
	fi
	size=$(stat -c %s "$f") isize=$(stat -c %s "$idx")
	n=$(((isize - 16) / 72))
	packets=$((packets + n))
	# One 72-byte entry per packet, each packet one whole sub-buffer.
	if [ $((size % SUBBUF)) != 0 ] || [ $(((isize - 16) % 72)) != 0 ] ||
		[ $n != $((size / SUBBUF)) ] ||
		[ "$(od -An -tx1 -N16 "$idx" | tr -d ' \n')" != c1f1dcc1000000010000000100000048 ]; then
		bad_idx="$bad_idx $cpu"
		continue
	fi
	for ((k = 0; k < n; k++)); do
		off=$(od -An -tu8 --endian=big -j $((16 + 72 * k)) -N8 "$idx" | tr -d ' ')
		psize=$(od -An -tu8 --endian=big -j $((16 + 72 * k + 8)) -N8 "$idx" | tr -d ' ')
		[ "$off" = $((k * SUBBUF)) ] && [ "$psize" = $((SUBBUF * 8)) ] || bad_idx="$bad_idx $cpu:$k"
	done
done
is "$missing" "" "channel0_CPU and index/channel0_CPU.idx for each of the $ncpu CPUs"
is "$bad_idx" "" "each index: its header, then one entry per packet (offset, size)"
# 4N events of 12..110 bytes, about 29 KiB: at least 2 packets of 16 KiB.
ok "$([ $packets -ge 2 ]; echo $?)" "the index files describe the packets ($packets)"

# lttctl view runs babeltrace2 on the session's trace.
bt "$OUTDIR" "$TEST_TMP/out.all"
lttctl view s1 >"$TEST_TMP/view" 2>"$TEST_TMP/view.err"
is $? 0 "view"
ok "$(cmp -s "$TEST_TMP/view" "$TEST_TMP/out.all"; echo $?)" "view prints what babeltrace2 prints"
is "$(wc -l <"$TEST_TMP/view")" $((4 * N)) "view: the $((4 * N)) events"

# Started again, the session records a second run; the first is still there.
ok_cmd "start again" lttctl start s1
ust_app -n 5 -r again
is $? 0 "a second program ran"
ok_cmd "stop again" lttctl stop s1
bt "$OUTDIR" "$TEST_TMP/out2"
is "$(seq_check "$TEST_TMP/out2" again 1 5)" "" "second run: its 5 events"
is "$(seq_check "$TEST_TMP/out2" main 1 $N)" "" "second run: the first run's events are still there"
is "$(count_events "$TEST_TMP/out2" ltt_test:seq)" $((N + 5)) "second run: $((N + 5)) ltt_test:seq in all"

ok_cmd "destroy" lttctl destroy s1
bt "$OUTDIR" "$TEST_TMP/out3"
is "$(wc -l <"$TEST_TMP/out3")" $((4 * N + 5)) "the trace outlives its session"
done_testing
