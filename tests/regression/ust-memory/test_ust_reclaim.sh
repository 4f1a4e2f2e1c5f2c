#!/bin/bash
# test_ust_reclaim.sh - lttctl reclaim-memory: the pages of the
# sub-buffers the consumer has read are given back while the session
# records.  After a burst on CPU 0, reclaim-memory gives back sub-buffers
# and the buffer's memfd holds that many bytes less (st_blocks, read
# independently); recording goes on into the buffer given back, and a
# reclaim run again and again during a burst loses nothing uncounted:
# recorded + discarded == emitted, each event once.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 23
command -v taskset >/dev/null || { echo "Bail out! taskset is not installed"; exit 1; }

# memfd_total PID: the bytes the ring buffer memfds of PID hold.
memfd_total() {
	memfd_bytes "$1" | awk '{ s += $1 } END { print s + 0 }'
}

# burst N: a program pinned to CPU 0 emits N events; its exit status.
burst() {
	(
		close_fifos
		exec taskset -c 0 timeout "$(ust_guard -e "$TEST_TIMEOUT")" "$UST_APP" \
			-e "$TEST_TIMEOUT" -n "$1"
	)
}

ok_cmd "create" lttctl create rec -o "$TEST_TMP/rec"
ok_cmd "a discard channel of 8 x 64 KiB" lttctl enable-channel -u ch --subbuf-size 64k --num-subbuf 8
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq -c ch
ok_cmd "with the vpid: the programs' events apart" lttctl add-context -u -c ch -t vpid
ok_cmd "start" lttctl start
burst 30000
is $? 0 "a burst of 30000 events on CPU 0"
# what is complete is read before the reclaim (the consumer drains first)
before=$(memfd_total "$(sessiond_pid)")
run lttctl reclaim-memory -u -s rec ch
is "$RC" 0 "reclaim-memory -u ch"
after=$(memfd_total "$(sessiond_pid)")
subbufs=$(sed -n 's/.*: \([0-9]*\) sub-buffers reclaimed, .*/\1/p' <<<"$STDOUT")
bytes=$(sed -n 's/.* reclaimed, \([0-9]*\) bytes .*/\1/p' <<<"$STDOUT")
diag "before $before, after $after bytes; $subbufs sub-buffers, $bytes bytes given back"
ok "$([ "${subbufs:-0}" -gt 0 ]; echo $?)" "sub-buffers were given back ($subbufs)"
ok "$([ "$after" -lt "$before" ]; echo $?)" "the memfds hold less ($before -> $after bytes)"
is "$bytes" "$((before - after))" "what it says it gave back is what the memfds lost"
run lttctl list rec --mem-usage=total
is "$(sed -n 's/^  total: \([0-9]*\) bytes.*/\1/p' <<<"$STDOUT")" "$after" "list --mem-usage agrees"

burst 30000
is $? 0 "recording goes on: 30000 more events"
run lttctl reclaim-memory -u -a
is "$RC" 0 "reclaim-memory -u -a"

# reclaims while a program writes: nothing lost that is not counted
(
	close_fifos
	exec taskset -c 0 timeout "$(ust_guard -e "$TEST_TIMEOUT")" "$UST_APP" -e "$TEST_TIMEOUT" \
		-t 2 -n 200000
) &
app=$!
n=0
while kill -0 "$app" 2>/dev/null && [ $n -lt 2000 ]; do
	lttctl reclaim-memory -u -s rec ch >/dev/null || break
	n=$((n + 1))
done
wait "$app"
is $? 0 "400000 events while reclaim-memory ran $n times"
ok_cmd "stop" lttctl stop rec
lost=$(lttctl list rec | sed -n 's/^ *discarded events: //p')
bt "$TEST_TMP/rec" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
recorded=$(count_events "$TEST_TMP/out" ltt_test:seq)
diag "recorded $recorded, discarded $lost"
is $((recorded + ${lost:-0})) 460000 "recorded + discarded == emitted, exactly"
is "$(awk '/ ltt_test:seq: / { match($0, /vpid = [0-9]+/); p = substr($0, RSTART, RLENGTH)
	match($0, /thread = [0-9]+, seq = [0-9]+/); print p, substr($0, RSTART, RLENGTH) }' \
	"$TEST_TMP/out" | sort | uniq -d | wc -l)" 0 \
	"no event recorded twice"

lttctl --mi xml reclaim-memory -u -s rec ch >"$TEST_TMP/mi.xml"
is "$?" 0 "--mi xml reclaim-memory"
like "$(mi_valid "$TEST_TMP/mi.xml")" "validates" "its document is valid against xml/mi.xsd"
is "$(mi_xp /command/output/reclaims/reclaim/channel "$TEST_TMP/mi.xml")" ch "and names the channel"
run lttctl reclaim-memory -u -s rec nosuch
like "$ERR" "[Cc]hannel" "an unknown channel is refused"
run lttctl reclaim-memory -s rec ch
is "$RC" 2 "without -u: a usage error"
lttctl destroy rec >/dev/null
