#!/bin/bash
# test_ust_per_channel.sh - enable-channel --buffer-allocation=per-channel
# (LTTng 2.14's): one ring buffer for the whole channel, written from
# every CPU.  A program whose two threads are pinned one to each of two
# CPUs writes N events each: the trace has one stream file for the
# channel (<channel>_0, with its index), babeltrace2 reads exactly 2N
# events, each thread's N once each and in order, and the stream's
# packets carry no cpu_id (LTTng 2.14's per-channel packet context);
# lttng-analyses reads it too.
# Per-UID and per-PID both, and a snapshot.  A small buffer in discard mode: recorded +
# discarded = emitted.  --mem-usage counts one buffer per channel and
# owner; save/load keeps the allocation; the kernel refuses it in one
# sentence.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 53
command -v taskset >/dev/null || { echo "Bail out! taskset is not installed"; exit 1; }

N=5000
# two CPUs when the host has them (taskset -c 0,1), else the one there is
CPUS=0
[ "$(nproc)" -gt 1 ] && CPUS=0,1

# in_order FILE ROLE: each thread's ltt_test:seq events of ROLE come in
# increasing seq order; prints what is wrong, if any.
in_order() {
	awk -v role="$2" "$SEQ_AWK"'
	seq_event(role) {
		if ((T in last) && S <= last[T] && errs++ < 5)
			printf "thread %d: seq %d after %d\n", T, S, last[T]
		last[T] = S
	}' "$1"
}

# index_check DIR STREAM SUBBUF: the index of DIR/STREAM (CTF index 1.1:
# a 16-byte header, 72-byte big-endian entries) has one entry per packet
# of the file, at k x SUBBUF, with stream_instance_id 0 and
# packet_seq_num k; prints what is wrong, if any.
index_check() {
	local idx="$1/index/$2.idx" n k e
	n=$((($(stat -c %s "$idx") - 16) / 72))
	[ "$n" = $(($(stat -c %s "$1/$2") / $3)) ] || echo "$n entries for $(stat -c %s "$1/$2") bytes"
	for ((k = 0; k < n; k++)); do
		e=$(od -An -tu8 --endian=big -j $((16 + 72 * k)) -N72 "$idx" | tr -s ' \n' ' ')
		set -- $e
		[ "$1 $8 $9" = "$((k * $3)) 0 $k" ] || echo "entry $k: offset $1, instance $8, seq $9"
	done
}

# pinned ARGS...: ust_app with its threads pinned one per CPU of $CPUS
pinned() {
	(
		close_fifos
		exec taskset -c "$CPUS" timeout "$(ust_guard "$@")" "$UST_APP" -C "$@"
	)
}

# one_stream BUFFERS TAG: a session whose per-channel channel gets 2 x N
# events from two pinned threads; checks the trace (8 checks).
one_stream() {
	local buffers=$1 tag=$2 out="$TEST_TMP/$2" dir
	ok_cmd "$tag: create" lttctl create "$tag" -o "$out"
	ok_cmd "$tag: a per-channel channel ($buffers)" \
		lttctl enable-channel -u ch --buffer-allocation=per-channel "$buffers" \
		--subbuf-size 256k --num-subbuf 8
	lttctl enable-event -u ltt_test:seq -c ch >/dev/null && lttctl start >/dev/null
	pinned -e "$TEST_TIMEOUT" -t 2 -n $N -r pc
	is $? 0 "$tag: two threads pinned to CPUs $CPUS emit $N events each"
	lttctl stop >/dev/null
	dir=$(dirname "$(find "$out" -name metadata | head -1)")
	is "$(cd "$dir" && ls ch_* index/ch_* | tr '\n' ' ')" "ch_0 index/ch_0.idx " \
		"$tag: one stream file for the channel, with its index"
	is "$(index_check "$dir" ch_0 $((256 * 1024)))" "" \
		"$tag: its index: an entry per packet, instance 0, sequence numbers in order"
	bt "$out" "$TEST_TMP/$tag.txt"
	is "$?:$(cat "$TEST_TMP/$tag.txt.err")" "0:" "$tag: babeltrace2 reads the trace, no warning"
	is "$(count_events "$TEST_TMP/$tag.txt" ltt_test:seq)" $((2 * N)) \
		"$tag: exactly 2 x $N events"
	is "$(seq_check "$TEST_TMP/$tag.txt" pc 2 $N)$(in_order "$TEST_TMP/$tag.txt" pc)" "" \
		"$tag: each thread's $N events once each, in order"
	is "$(grep -c 'cpu_id = ' "$TEST_TMP/$tag.txt")" 0 \
		"$tag: no cpu_id in the packets (one stream for every CPU)"
	lttctl destroy "$tag" >/dev/null
}

one_stream --buffers-uid uid
one_stream --buffers-pid pid

# lttng-analyses (babeltrace 1) reads the stream: a period from each
# ltt_test:seq event to the next, 2N - 1 of them.
if command -v lttng-periodstats >/dev/null; then
	periods=$(timeout "$BT_TIMEOUT" lttng-periodstats --no-progress \
		--period 'seq : $evt.$name == "ltt_test:seq"' "$TEST_TMP/uid" 2>&1 |
		awk '$1 == "seq" && NF > 2 { print $2 }')
	is "$periods" $((2 * N - 1)) "lttng-analyses reads the 2 x $N events (2N - 1 periods)"
else
	ok 0 "# SKIP lttng-analyses not installed (python3-lttnganalyses)"
fi

# The stream's header, as LTTng 2.14 writes it: stream_instance_id 0.
is "$(timeout "$BT_TIMEOUT" babeltrace2 -o ctf-metadata "$(dirname "$(find "$TEST_TMP/uid" -name metadata)")" |
	grep -c '_ltt_padding')" 1 "the metadata declares the stream's packet context without cpu_id"

# A snapshot session (overwrite mode): the snapshot has the one stream,
# each thread's events once each, in order.
ok_cmd "create a snapshot session" lttctl create snap --snapshot -o "$TEST_TMP/snap"
ok_cmd "a per-channel channel" \
	lttctl enable-channel -u ch --buffer-allocation=per-channel --subbuf-size 256k --num-subbuf 8
lttctl enable-event -u ltt_test:seq -c ch >/dev/null && lttctl start >/dev/null
pinned -e "$TEST_TIMEOUT" -t 2 -n 1000 -r snap
run lttctl snapshot record
dir=$(printf '%s\n' "$STDOUT" | tail -n 1)
is "$RC:$(cd "$dir" && find . -name 'ch_*' -path '*ust*' ! -path '*index*' | sed 's|.*/||')" "0:ch_0" \
	"snapshot record: the one stream"
bt "$dir" "$TEST_TMP/snap.txt"
is "$(seq_check "$TEST_TMP/snap.txt" snap 2 1000)$(in_order "$TEST_TMP/snap.txt" snap)" "" \
	"the snapshot: each thread's 1000 events once each, in order"
lttctl destroy snap >/dev/null

# Discard mode, a small buffer: what is not recorded is counted.
ok_cmd "create" lttctl create small -o "$TEST_TMP/small"
ok_cmd "a per-channel channel of 2 x 4 KiB" \
	lttctl enable-channel -u ch --buffer-allocation=per-channel --subbuf-size 4k --num-subbuf 2
lttctl enable-event -u ltt_test:seq -c ch >/dev/null && lttctl start >/dev/null
pinned -e "$TEST_TIMEOUT" -t 2 -n 20000 -r small
is $? 0 "two pinned threads emit 20000 events each"
ok_cmd "stop" lttctl stop
run lttctl list small
discarded=$(printf '%s\n' "$STDOUT" | sed -n 's/^ *discarded events: \([0-9]*\)$/\1/p')
like "$STDOUT" "buffer allocation: per-channel" "list shows the allocation"
bt "$TEST_TMP/small" "$TEST_TMP/small.txt"
recorded=$(count_events "$TEST_TMP/small.txt" ltt_test:seq)
diag "recorded $recorded, discarded $discarded"
ok "$([ "${discarded:-0}" -gt 0 ]; echo $?)" "the small buffer discarded events ($discarded)"
is $((recorded + discarded)) 40000 "recorded + discarded = 40000 emitted"
is "$(in_order "$TEST_TMP/small.txt" small)" "" "what was recorded is in order per thread"

# --mem-usage: one buffer per channel and owner, measured
run lttctl list small --mem-usage=total
is "$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch: \([0-9]*\) bytes .* in \([0-9]*\) buffers$/\1 \2/p')" \
	"$(memfd_bytes "$(sessiond_pid)" | awk '{ s += $1 } END { print s + 0 }') 1" \
	"--mem-usage=total: one buffer, the bytes its memfd holds"
run lttctl list small --mem-usage=full
like "$STDOUT" "^  user space ch, uid $(id -u), every CPU: [0-9]+ bytes " \
	"--mem-usage=full: the buffer that every CPU writes"

# save/load keeps the allocation
ok_cmd "save" lttctl save small -o "$TEST_TMP/saved"
is "$(grep -c '<allocation_policy>PER_CHANNEL</allocation_policy>' "$TEST_TMP/saved/small.ltt")" 1 \
	"the session file says PER_CHANNEL"
xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$TEST_TMP/saved/small.ltt" 2>"$TEST_TMP/xsd.err"
is "$?:$(grep -v ' validates$' "$TEST_TMP/xsd.err")" "0:" "it is valid against xml/session.xsd"
ok_cmd "destroy" lttctl destroy small
ok_cmd "load" lttctl load -i "$TEST_TMP/saved/small.ltt" small
like "$(lttctl list small)" "buffer allocation: per-channel" "loaded: the channel is per-channel again"
ok_cmd "save it again" lttctl save small -o "$TEST_TMP/saved2"
is "$(diff "$TEST_TMP/saved/small.ltt" "$TEST_TMP/saved2/small.ltt")" "" "saved again: the same file"
lttctl destroy small >/dev/null

# LTTng 2.14's session file: a user-space channel PER_CHANNEL
ok_cmd "load LTTng 2.14's per-channel session" \
	lttctl load -i "$LTT_TOP_SRCDIR/tests/regression/saveload-lttng/ust-per-channel.lttng" \
	--override-url "file://$TEST_TMP/pc14"
matches "$(lttctl list pc14)" "shared: \\[enabled\\].*buffer allocation: per-channel" \
	"its channel is per-channel"
lttctl destroy pc14 >/dev/null

# per-cpu is the default, and said
ok_cmd "create" lttctl create cpu -o "$TEST_TMP/cpu"
ok_cmd "a per-cpu channel" lttctl enable-channel -u ch --buffer-allocation=per-cpu
like "$(lttctl list cpu)" "buffer allocation: per-cpu" "list: per-cpu"

# refusals: nothing changes
run lttctl enable-channel -u bad --buffer-allocation=per-thread
is "$RC" 2 "--buffer-allocation=per-thread is refused"
like "$ERR" "give per-cpu or per-channel" "with what to give"
run lttctl enable-channel -k k --buffer-allocation=per-channel
ok "$([ "$RC" -ne 0 ]; echo $?)" "a kernel channel refuses per-channel"
like "$ERR" "one ring buffer for a whole kernel channel .* is not supported by ltt: give --buffer-allocation=per-cpu" \
	"in one sentence: what ltt lacks, what to do"
unlike "$(lttctl list cpu)" "- k:" "no kernel channel was made"
run lttctl enable-channel -u ch --buffer-allocation=per-channel
ok "$([ "$RC" -ne 0 ]; echo $?)" "an existing per-cpu channel can't become per-channel"
lttctl destroy cpu >/dev/null

done_testing
