#!/bin/bash
# A live session (10 ms timer) streamed through a real ltt-relayd: the
# live timer flushes partial packets (each run of the program waits for
# one more packet at the relay), and only their content travels on
# the data connection (the consumer's bytes sent, as `lttctl list` shows
# them, are the content sizes of the packets the relay indexed, which are
# far smaller than the packets), while the relay's files hold the whole
# packets (their padding zeros) and read as the trace a local session of
# the same program records (babeltrace2's output, timestamps and CPUs
# aside).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

ust_setup --log
relayd_init
N=500		# events of each kind per run
RUNS=4
start_relayd -o "$TEST_TMP/relay-out" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)


# entries DIR: the packets indexed in DIR's index files so far.
entries() {
	local f n=0
	for f in "$1"/index/*.idx; do
		[ -f "$f" ] && n=$((n + ($(stat -c %s "$f") - 16) / 72))
	done
	echo "$n"
}

# wait_entries PATTERN N: until the trace directory PATTERN names holds
# at least N index entries (wait_fs: bounded, woken as the relay writes
# the index files; entries is exported to its condition's bash).
export -f entries
wait_entries() {
	wait_fs "$1/index/*.idx" -- bash -c '
		for d in $0; do
			[ -d "$d/index" ] && [ "$(entries "$d")" -ge "$1" ] && exit 0
		done
		exit 1' "$1" "$2"
}

# record NAME [RELAYDIR] -- OUTPUT-OPTIONS...: RUNS runs of the test
# program (N events of each kind) in a new session, stopped (stop waits
# for the relay).  With RELAYDIR (a pattern), each run waits until the
# live timer has sent one more packet, partial, to the relay's trace
# there: the session is neither flushed nor stopped meanwhile.
record() {
	local name=$1 rdir=$2 r
	shift 3
	lttctl -q create "$name" "$@" &&
		lttctl -q enable-event -u 'ltt_test:*' -s "$name" &&
		lttctl -q start "$name" || return 1
	for ((r = 1; r <= RUNS; r++)); do
		ust_app -n "$N" -T >/dev/null || return 1
		[ -z "$rdir" ] || wait_entries "$rdir" "$r" || return 1
	done
	lttctl -q stop "$name"
}

# to_bytes "12 KiB" | "345 B": the size lttctl prints, in bytes.
to_bytes() {
	local n=${1% *} unit=${1#* }
	case $unit in
	B) echo "$n" ;;
	KiB) echo $((n << 10)) ;;
	MiB) echo $((n << 20)) ;;
	GiB) echo $((n << 30)) ;;
	*) echo "?" ;;
	esac
}

# index_sums DIR: "CONTENT WHOLE PACKETS" over the index files of DIR:
# content_size rounded up to bytes, packet_size in bytes, entries.
index_sums() {
	local f e c=0 w=0 n=0
	for f in "$1"/index/*.idx; do
		while read -r e; do
			[ -n "$e" ] || continue
			w=$((w + 16#${e:16:16} / 8))
			c=$((c + (16#${e:32:16} + 7) / 8))
			n=$((n + 1))
		done < <(od -An -tx1 -v -w72 -j16 "$f" | tr -d ' ')
	done
	echo "$c $w $n"
}

ok_cmd "a local session of $RUNS runs of the program" record loc "" -- -o "$TEST_TMP/local"
ok_cmd "a live session (10 ms timer) of the same runs, each run's packet sent by the live timer" \
	record lv "$TEST_TMP/relay-out/$host/lv-*/ust/uid/*/64-bit" -- \
	--live=10000 -U "net://127.0.0.1:$CPORT:$DPORT"
run lttctl list lv
sent=$(sed -nE 's/.*Relay connection \(user space\): connected, ([0-9]+) packets sent \(([^)]*)\), ([0-9]+) lost.*/\1 \2 \3/p' <<<"$STDOUT")
read -r packets size size_unit lost <<<"$sent"
bytes=$(to_bytes "$size $size_unit")
ok "$([ -n "$packets" ] && [ "$packets" -ge "$RUNS" ] && [ "$lost" = 0 ]; echo $?)" \
	"list: $packets packets sent ($bytes bytes), ${lost:-?} lost"

dir=$(ls -d "$TEST_TMP/relay-out/$host/lv"-*/ust/uid/*/64-bit 2>/dev/null)
ok "$([ -n "$dir" ] && [ -f "$dir/metadata" ]; echo $?)" "the relay wrote the trace ($dir)"
read -r content whole entries <<<"$(index_sums "$dir")"
diag "relay trace: $entries packets, $whole bytes of packets, $content bytes of content"
is "$entries" "$packets" "the relay indexed every packet sent"
is "$bytes" "$content" "the bytes sent on the data connection are the packets' content, no padding"
ok "$([ "$content" -lt "$whole" ]; echo $?)" \
	"the flushed packets are partial: $content of $whole bytes went on the wire"
files=0
for f in "$dir"/*; do
	[ -f "$f" ] && [ "${f##*/}" != metadata ] && files=$((files + $(stat -c %s "$f")))
done
is "$files" "$whole" "the relay's stream files hold the whole packets, padding included"

bt "$TEST_TMP/local" "$TEST_TMP/local.txt"
bt "$dir" "$TEST_TMP/lv.txt"
is "$(count_events "$TEST_TMP/lv.txt" ltt_test:seq)" "$((N * RUNS))" \
	"the relay's trace has the $((N * RUNS)) seq events"
is "$(discarded "$TEST_TMP/lv.txt.err")" 0 "babeltrace2 reads it without complaint"
same=$(diff <(bt_events "$TEST_TMP/local.txt") <(bt_events "$TEST_TMP/lv.txt") | head -n 6)
is "$same" "" "and it reads as the local session's trace (timestamps and CPUs aside)"

ok_cmd "destroy the live session" lttctl destroy lv
ok_cmd "destroy the local session" lttctl destroy loc
is "$(grep -c Error "$RELAYD_LOG")" 0 "no error in the relay's log"
done_testing
