#!/bin/bash
# test_ust_ctf2.sh - a session created with --trace-format=ctf-2 writes
# CTF 2 (doc/ctf.md): its metadata is a JSON text sequence, not metadata
# packets, and babeltrace2 2.1 (Debian sid's, in a root made by
# scripts/debian-root.sh) reads from it the very text it reads from the
# CTF 1.8 trace of a session that recorded the same events beside it:
# every field type, the contexts, per-user and per-process buffers, one
# ring buffer per channel; a snapshot, rotations' archives, a clear, a
# regeneration, save and load, ltt-crash.  The daemon's --default-trace-format chooses
# for sessions created without one; Debian 12's babeltrace2 (2.0) is not
# handed a CTF 2 trace by lttctl view.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

ust_setup
root_or_skip sid
plan 43

N=300
UIDDIR=ust/uid/$(id -u)/64-bit

# two sessions of one layout, CTF 1.8 and CTF 2, recording the same events
for f in 1.8 2; do
	lttctl -q create "s$f" -F "ctf-$f" -o "$TEST_TMP/t$f" &&
		lttctl -q enable-channel -u -s "s$f" c &&
		lttctl -q add-context -u -s "s$f" -c c -t vpid -t procname -t vtid &&
		lttctl -q enable-event -u -s "s$f" -c c 'ltt_test:*' &&
		lttctl -q start "s$f" || break
done
ok $? "two sessions, -F ctf-1.8 and -F ctf-2, started"
like "$(lttctl list s2)" "Trace format: CTF 2 " "list: the CTF 2 session says so"
unlike "$(lttctl list s1.8)" "Trace format" "list: the CTF 1.8 session, as every session before, says nothing of it"

ust_app -n $N -T -L
ok $? "the program ran: $N seq and $N types events, and the log-level events"
lttctl -q stop s1.8 && lttctl -q stop s2
ok $? "both stopped"

meta=$TEST_TMP/t2/$UIDDIR/metadata
is "$(head -c 1 "$meta" | od -An -tx1 | tr -d ' ')" "1e" \
	"the CTF 2 metadata starts with a record separator, not a packet's magic"
run python3 - "$meta" <<'EOF'
import json, sys
data = open(sys.argv[1], 'rb').read()
frags = [json.loads(f) for f in data.split(b'\x1e')[1:]]
kinds = [f['type'] for f in frags]
print(' '.join(kinds[:4]), kinds.count('event-record-class'))
names = sorted(f['name'] for f in frags if f['type'] == 'event-record-class')
print(' '.join(names))
tc = frags[1]
print(tc['namespace'], tc['environment']['domain'], tc['environment']['tracer_name'])
types = [f for f in frags if f.get('name') == 'ltt_test:types'][0]
print(types['attributes']['lttng.org,2009']['log-level'])
print(' '.join(m['name'] + ':' + m['field-class']['type']
               for m in types['payload-field-class']['member-classes']))
EOF
lines=()
mapfile -t lines <<<"$STDOUT"
is "$RC:${lines[0]}" "0:preamble trace-class clock-class data-stream-class 7" \
	"fragments: preamble, trace class, clock class, the channel, 7 event record classes"
is "${lines[1]}" "ltt_test:crit ltt_test:debug ltt_test:seq ltt_test:types ltt_ust:torn ltt_ust:torn ltt_ust:torn" \
	"one event record class per event, the torn-event classes among them"
is "${lines[2]}" "lttng.org,2009 ust lttng-ust" "the trace class: LTTng's namespace and environment"
is "${lines[3]}" "warning" "a log level as LTTng 2.15 writes it"
is "${lines[4]}" "s8:fixed-length-signed-integer u8:fixed-length-unsigned-integer s16:fixed-length-signed-integer u16:fixed-length-unsigned-integer s32:fixed-length-signed-integer u32:fixed-length-unsigned-integer s64:fixed-length-signed-integer u64:fixed-length-unsigned-integer hex:fixed-length-unsigned-integer f32:fixed-length-floating-point-number f64:fixed-length-floating-point-number str:null-terminated-string arr:static-length-array atext:static-length-string _seq_length:fixed-length-unsigned-integer seq:dynamic-length-array _stext_length:fixed-length-unsigned-integer stext:dynamic-length-string par:fixed-length-signed-integer" \
	"every field type of ltt_test:types, named raw"

bt21 "$TEST_TMP/t1.8" "$TEST_TMP/bt18"
ok $? "babeltrace2 2.1 reads the CTF 1.8 trace"
bt21 "$TEST_TMP/t2" "$TEST_TMP/bt2"
ok $? "babeltrace2 2.1 reads the CTF 2 trace"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/bt2"):$(grep -c ' ltt_test:types: ' "$TEST_TMP/bt2")" \
	"$N:$N" "the CTF 2 trace holds every event the program committed"
is "$(wc -l <"$TEST_TMP/bt2")" "$(wc -l <"$TEST_TMP/bt18")" "as many events in both"
# each session timed its own copy of an event: the rest of each line is the same
untimed() { sed 's/^\[[^]]*\] ([^)]*) //' "$1"; }
if cmp -s <(untimed "$TEST_TMP/bt18") <(untimed "$TEST_TMP/bt2"); then
	ok 0 "babeltrace2 2.1 prints the same events and fields for both traces"
else
	ok 1 "babeltrace2 2.1 prints the same events and fields for both traces"
	diff <(untimed "$TEST_TMP/bt18") <(untimed "$TEST_TMP/bt2") | head -6 | sed 's/^/# /'
fi
is "$(cat "$TEST_TMP/bt2.err")" "" "and says nothing on stderr"
like "$(grep -m 1 ' ltt_test:types: ' "$TEST_TMP/bt2")" \
	"\\{ vpid = [0-9]+, procname = \"ust_app\", vtid = [0-9]+ \\}, \\{ s8 = 0, u8 = 200, s16 = -1000, u16 = 60000, s32 = -100000, u32 = 4000000000, s64 = -5000000000, u64 = 18000000000000000000, hex = 0xDEAD0000, f32 = 0\\.5, f64 = 0\\.25, str = \"[^\"]*\", arr = \\[ \\[0\\] = " \
	"the contexts and the first fields' values"

# lttctl view does not hand a CTF 2 trace to a babeltrace2 that can't read it
bt_version=$(babeltrace2 --version 2>/dev/null | sed -n 's/^Babeltrace \([0-9]*\.[0-9]*\).*/\1/p')
run lttctl view s2
if [ "$bt_version" = 2.0 ]; then
	is "$RC" 1 "view of the CTF 2 session with babeltrace2 2.0: refused"
	like "$ERR" "session 's2' writes CTF 2, which babeltrace2 reads from 2\\.1 on, and this host's babeltrace2 is 2\\.0" \
		"  saying which babeltrace2 reads it"
else
	is "$RC" 0 "view of the CTF 2 session with babeltrace2 $bt_version"
	is "$(grep -c ' ltt_test:seq: ' <<<"$STDOUT")" $N "  its events"
fi
lttctl -q destroy -a

# per-process buffers and one ring buffer for the channel, in CTF 2
lttctl -q create p2 -F ctf-2 -o "$TEST_TMP/p2" &&
	lttctl -q enable-channel -u -s p2 pc --buffers-pid --buffer-allocation=per-channel &&
	lttctl -q add-context -u -s p2 -c pc -t vpid &&
	lttctl -q enable-event -u -s p2 -c pc 'ltt_test:seq' && lttctl -q start p2
ok $? "a CTF 2 session of per-process, per-channel buffers"
ust_app -n $N -t 2 && ust_app -n $N
ok $? "two programs ran"
lttctl -q stop p2
bt21 "$TEST_TMP/p2" "$TEST_TMP/btp"
ok $? "babeltrace2 2.1 reads the per-process traces"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/btp")" $((3 * N)) "every event of both programs"
is "$(find "$TEST_TMP/p2/ust/pid" -name metadata | wc -l)" 2 "a trace per program"
unlike "$(cat "$TEST_TMP/btp")" "cpu_id" "no CPU in the packets of a per-channel ring buffer"
lttctl -q destroy p2

# the other paths of a CTF 2 trace, each read by babeltrace2 2.1 whole
# seqs FILE: the ltt_test:seq events in babeltrace2's text FILE
seqs() { grep -c ' ltt_test:seq: ' "$1"; }
lttctl -q create snap -F ctf-2 --snapshot -o "$TEST_TMP/snap" &&
	lttctl -q enable-event -u -s snap ltt_test:seq && lttctl -q start snap && ust_app -n $N &&
	lttctl -q snapshot record -s snap && bt21 "$TEST_TMP/snap" "$TEST_TMP/btsnap"
is "$?:$(seqs "$TEST_TMP/btsnap")" "0:$N" "a CTF 2 snapshot: every event"
lttctl -q destroy snap
lttctl -q create rot -F ctf-2 -o "$TEST_TMP/rot" &&
	lttctl -q enable-event -u -s rot ltt_test:seq && lttctl -q start rot && ust_app -n $N &&
	lttctl -q rotate rot && ust_app -n $N && lttctl -q stop rot && lttctl -q rotate rot
ok $? "a CTF 2 session rotated twice"
n=0
for a in $(find "$TEST_TMP/rot/archives" -mindepth 1 -maxdepth 1 -type d | sort); do
	bt21 "$a" "$TEST_TMP/btrot" && n=$((n + $(seqs "$TEST_TMP/btrot")))
done
is "$n" $((2 * N)) "  its two archives, each read alone: every event"
lttctl -q start rot && lttctl -q clear rot && ust_app -n 7 &&
	lttctl -q regenerate metadata -s rot && lttctl -q stop rot && lttctl -q rotate rot
ok $? "cleared, 7 events more, the metadata regenerated, stopped, rotated"
last=$(find "$TEST_TMP/rot/archives" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
bt21 "$last" "$TEST_TMP/btclr"
is "$?:$(seqs "$TEST_TMP/btclr")" "0:7" "  the last archive: the 7 events after the clear"
is "$(head -c 1 "$last/$UIDDIR/metadata" | od -An -tx1 | tr -d ' ')" "1e" \
	"  its regenerated metadata still CTF 2's"
lttctl -q save -o "$TEST_TMP/saved" rot && lttctl -q destroy rot &&
	lttctl -q load -i "$TEST_TMP/saved" rot
ok $? "saved, destroyed, loaded"
like "$(lttctl list rot)" "Trace format: CTF 2 " "  the loaded session is CTF 2"
lttctl -q destroy rot
lttctl -q create cr -F ctf-2 --shm-path "$TEST_TMP/shm" -o "$TEST_TMP/cr" &&
	lttctl -q enable-event -u -s cr ltt_test:seq && lttctl -q start cr
CONSUMER=$(consumer_pid) && stop_proc "$CONSUMER" && ust_app -n $N
ok $? "a CTF 2 session in files (--shm-path), its consumer stopped while a program emits"
run "$LTT_TOP_BUILDDIR/src/crash/ltt-crash" -x "$TEST_TMP/x" "$TEST_TMP/shm"
kill -CONT "$CONSUMER"
bt21 "$TEST_TMP/x" "$TEST_TMP/btx"
is "$RC:$?:$(seqs "$TEST_TMP/btx")" "0:0:$N" "ltt-crash extracts a trace babeltrace2 2.1 reads, every event"
lttctl -q destroy cr

# the daemon's default: --default-trace-format, then LTTng's variable
stop_sessiond
start_sessiond "$LTT_RUNDIR" --default-trace-format=ctf-2
lttctl -q create d -o "$TEST_TMP/d"
like "$(lttctl list d)" "Trace format: CTF 2 " "--default-trace-format=ctf-2: a session created without -F is CTF 2"
lttctl -q create d18 -F ctf-1.8 -o "$TEST_TMP/d18"
unlike "$(lttctl list d18)" "Trace format" "  and -F ctf-1.8 is taken over it"
run lttctl create dn -U net://127.0.0.1
is "$RC" 0 "  a streamed session of the CTF 2 default is created (relays of protocol 2.15 take it)"
like "$(lttctl list dn)" "Trace format: CTF 2 " "  as CTF 2"
lttctl -q destroy -a
stop_sessiond
LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT=ctf-2 start_sessiond "$LTT_RUNDIR"
lttctl -q create e -o "$TEST_TMP/e"
like "$(lttctl list e)" "Trace format: CTF 2 " "LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT=ctf-2: the same"
lttctl -q destroy -a
stop_sessiond
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$LTT_RUNDIR" --default-trace-format=ctf-3
is "$RC" 1 "--default-trace-format=ctf-3: the daemon does not start"
is "$ERR" "ltt-sessiond: Error: --default-trace-format=ctf-3: give ctf-1.8 or ctf-2" "  saying what to give"
done_testing
