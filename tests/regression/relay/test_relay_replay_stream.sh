#!/bin/bash
# Streams through ltt-relayd are written as local sessions write them: a
# trace recorded locally, replayed packet by packet through the relay
# (relay_client), comes out byte for byte the same (metadata, stream
# files, index files) and babeltrace2 reads the same events, whether the
# packets' padding travels (padding_size 0) or not (the relay adds it); indexes
# before or after their packets; two sessions from two hosts at once;
# base paths; tracefile size/count rotation; no trace overwritten; data
# pending while a packet is half sent.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

ust_setup
relayd_init
plan 39

LOCAL=$(make_local_trace "$TEST_TMP/local" 3000)
ok $? "a local session recorded a trace"
bt "$LOCAL" "$TEST_TMP/local.txt"
nevents=$(wc -l <"$TEST_TMP/local.txt")
ok "$([ "$nevents" -gt 100 ]; echo $?)" "babeltrace2 reads $nevents events from it"
npackets=$(cat "$LOCAL"/index/*.idx | wc -c)
diag "local trace: $nevents events, $(((npackets - 16 * $(ls "$LOCAL"/index | wc -l)) / 72)) packets"

start_relayd -o "$TEST_TMP/relay"
is $? 0 "the relay started"
OUT_ROOT="$TEST_TMP/relay"

# replay_check DESC ARGS...: replay $LOCAL; the copy must equal it.
replay_check() {
	local desc=$1 out dir
	shift
	out=$(relay_client "$@" replay "$CPORT" "$DPORT" "$LOCAL")
	is $? 0 "$desc: the relay took every packet"
	dir=$(printf '%s\n' "$out" | sed -n 's/^OUTPUT //p')/ust/uid/0/64-bit
	REPLAY_DIR=$dir
	same_files "$LOCAL" "$dir" >"$TEST_TMP/diff" 2>&1
	ok $? "$desc: metadata, streams and indexes are byte for byte the local ones"
	[ -s "$TEST_TMP/diff" ] && diag "$(head -5 "$TEST_TMP/diff")"
	bt "$dir" "$TEST_TMP/relay.txt"
	is "$(md5sum <"$TEST_TMP/relay.txt")" "$(md5sum <"$TEST_TMP/local.txt")" \
		"$desc: babeltrace2 reads the same $nevents events"
}

replay_check "indexes after packets" --host hostA --session s1
like "$REPLAY_DIR" "^$OUT_ROOT/hostA/s1-[0-9]{8}-[0-9]{6}/ust/uid/0/64-bit$" \
	"the layout is OUTDIR/HOST/SESSION-DATE/PATHNAME"
replay_check "indexes before packets" --host hostA --session s2 --index-first
replay_check "padding sent as bytes (padding_size 0)" --host hostA --session s4 --whole
replay_check "a base path" --host hostB --session s3 --base-path "custom/dir"
is "$REPLAY_DIR" "$OUT_ROOT/hostB/custom/dir/ust/uid/0/64-bit" "a base path replaces SESSION-DATE"

# The same base path again: the trace there is not overwritten.
before=$(cd "$REPLAY_DIR" && md5sum metadata)
run relay_client --host hostB --session s3 --base-path "custom/dir" replay "$CPORT" "$DPORT" "$LOCAL"
is "$RC" 1 "a second trace into the same directory is refused"
like "$OUT" "ADD_STREAM metadata: .*exist" "with the relay's reason (it exists)"
is "$(cd "$REPLAY_DIR" && md5sum metadata)" "$before" "the first trace is untouched"
like "$(cat "$RELAYD_LOG")" "can't create ust/uid/0/64-bit/metadata: File exists \\(a trace is there already\\)" \
	"the relay logs why"

# Two hosts at once, interleaved on the relay's one thread.
relay_client --host two1 --session par replay "$CPORT" "$DPORT" "$LOCAL" >"$TEST_TMP/p1" &
p1=$!
relay_client --host two2 --session par --index-first replay "$CPORT" "$DPORT" "$LOCAL" >"$TEST_TMP/p2" &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
is "$r1,$r2" "0,0" "two sessions from two hosts at once"
for h in 1 2; do
	d=$(sed -n 's/^OUTPUT //p' "$TEST_TMP/p$h")
	like "$d" "^$OUT_ROOT/two$h/par-" "host two$h: its own directory"
	same_files "$LOCAL" "$d/ust/uid/0/64-bit" >/dev/null 2>&1
	ok $? "host two$h: identical to the local trace"
done

# Tracefile rotation: the relay names and rotates files as the consumer does.
limit=20000
out=$(relay_client --host rot --session r --tracefile-size $limit --tracefile-count 2 \
	replay "$CPORT" "$DPORT" "$LOCAL")
is $? 0 "rotation: replayed"
rdir=$(printf '%s\n' "$out" | sed -n 's/^OUTPUT //p')/ust/uid/0/64-bit
files=$(cd "$rdir" && ls | grep -v -e metadata -e index)
like "$(echo $files)" '^(channel0_[01]_[0-9]+ ?)+$' "rotation: stream files are CHANNEL_CPU_N ($(echo $files))"
for cpu in 0 1; do
	n=$(cd "$rdir" && ls | grep -c "^channel0_${cpu}_")
	ok "$([ "$n" -ge 1 ] && [ "$n" -le 2 ]; echo $?)" "rotation: cpu $cpu keeps at most 2 files ($n)"
done
# packet sizes (bytes) in an index file, one a line
idx_sizes() {
	od -An -tx1 -v -w72 -j16 "$1" | tr -d ' ' |
		while read -r e; do echo $((16#${e:16:16} / 8)); done
}
bad=
for f in $files; do
	idx="$rdir/index/$f.idx"
	[ -f "$idx" ] || { bad="$bad $f:no-index"; continue; }
	# each file holds whole packets: its index entries cover it exactly
	sum=$(idx_sizes "$idx" | awk '{ s += $1 } END { print s + 0 }')
	[ "$sum" = "$(stat -c %s "$rdir/$f")" ] || bad="$bad $f:$sum"
	# a file exceeds the limit only when one packet alone does
	[ "$(idx_sizes "$idx" | wc -l)" = 1 ] || [ "$(stat -c %s "$rdir/$f")" -le $limit ] ||
		bad="$bad $f:too-big"
done
is "$bad" "" "rotation: every file has its index, whole packets, within the size limit"
bt "$rdir" "$TEST_TMP/rot.txt"
is $? 0 "rotation: babeltrace2 reads what is left"
is "$(tail -1 "$TEST_TMP/rot.txt")" "$(tail -1 "$TEST_TMP/local.txt")" \
	"rotation: the newest events are kept"

# DATA_PENDING answers 1 while a packet is half received, 0 once written.
run relay_client --session pend pending "$CPORT" "$DPORT"
like "$OUT" $'HALF pending=1 end_pending=1\nFULL pending=0 end_pending=0' \
	"data pending: 1 while half sent, 0 once written (stream and session)"
pdir=$(printf '%s\n' "$OUT" | sed -n 's/^OUTPUT //p')/ust/uid/0/64-bit
is "$(stat -c %s "$pdir/chan_0")" 4096 "data pending: the packet is whole in its file"
is "$(stat -c %s "$pdir/index/chan_0.idx")" $((16 + 72)) "data pending: and indexed"

ok "$(proc_alive "$RELAYD_PID"; echo $?)" "the relay still runs"
stop_relayd TERM
is $? 0 "the relay stops on SIGTERM"
is "$(grep Error "$RELAYD_LOG" | grep -v "a trace is there already")" "" \
	"no other error in the relay's log"

done_testing
