#!/bin/bash
# test_ust_mem_usage.sh - lttctl list --mem-usage: the memory each ring
# buffer holds, measured.  A program pinned to CPU 0 writes into CPU 0's
# buffer only: --mem-usage=full shows more bytes for it than for any
# other CPU's, and each figure is what the kernel says of that buffer's
# shared memory (st_blocks of the session daemon's memfds, read here on
# their own through /proc/PID/fd).  total and compact add them up.
# --buffer-preallocation: on-demand (user space's default) leaves the
# CPUs that never wrote with their header pages alone, no sub-buffer
# page; preallocate takes every page of every CPU's buffer at once.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 35
command -v taskset >/dev/null || { echo "Bail out! taskset is not installed"; exit 1; }

ok_cmd "create" lttctl create mem -o "$TEST_TMP/mem"
ok_cmd "an on-demand channel of 4 x 64 KiB" \
	lttctl enable-channel -u ch --subbuf-size 64k --num-subbuf 4 --buffer-preallocation=on-demand
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq -c ch
ok_cmd "start" lttctl start
(
	close_fifos
	exec taskset -c 0 timeout "$(ust_guard -e "$TEST_TIMEOUT" -n 20000)" "$UST_APP" \
		-e "$TEST_TIMEOUT" -n 20000
)
is $? 0 "a program pinned to CPU 0 emits 20000 events"

run lttctl list mem --mem-usage=full
is "$RC" 0 "list --mem-usage=full"
cpu0=$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch, uid [0-9]*, CPU 0: \([0-9]*\) bytes .*/\1/p')
others=$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch, uid [0-9]*, CPU [1-9][0-9]*: \([0-9]*\) bytes .*/\1/p' | sort -n | tail -1)
diag "CPU 0: $cpu0 bytes; the fullest other CPU: ${others:-none}"
ok "$([ "${cpu0:-0}" -gt $((64 * 1024)) ]; echo $?)" "CPU 0's buffer holds the pages written ($cpu0 bytes > one sub-buffer)"
ok "$([ -z "$others" ] || [ "$others" -lt "$cpu0" ]; echo $?)" "every other CPU's holds less (${others:-none})"
is "$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch, .*: \([0-9]*\) bytes .*/\1/p' | sort -n | tr '\n' ' ')" \
	"$(memfd_bytes "$(sessiond_pid)" | tr '\n' ' ')" \
	"each buffer's figure is its memfd's st_blocks * 512, read independently"
full_total=$(printf '%s\n' "$STDOUT" | sed -n 's/^  total: \([0-9]*\) bytes.*/\1/p')
is "$full_total" "$(memfd_bytes "$(sessiond_pid)" | awk '{ s += $1 } END { print s + 0 }')" \
	"the total is the sum of the memfds'"

run lttctl list mem --mem-usage=total
is "$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch: \([0-9]*\) bytes .* in \([0-9]*\) buffers$/\1 \2/p')" \
	"$full_total $(nproc --all 2>/dev/null || getconf _NPROCESSORS_CONF)" \
	"total: one line per channel, the sum of its buffers"
run lttctl list mem --mem-usage=compact
like "$(printf '%s\n' "$STDOUT" | grep '^  user space ch, uid')" "^  user space ch, uid $(id -u): $full_total bytes " \
	"compact: one line per channel and owner"

# --mi xml: LTTng 2.15's <data_stream_info_sets> in the channel (its MI schema 4.2)
lttctl --mi xml list mem --mem-usage=full >"$TEST_TMP/mem.xml"
is "$?" 0 "--mi xml list --mem-usage=full"
like "$(mi_valid "$TEST_TMP/mem.xml")" "validates" "the document is valid against LTTng 2.15's mi-lttng-4.2.xsd"
grep -q ' schemaVersion="4.2"' "$TEST_TMP/mem.xml"
ok $? "and says schemaVersion 4.2"
sets=/command/output/sessions/session/domains/domain/channels/channel/data_stream_info_sets
is "$(mi_xp "$sets/total_memory_usage_bytes" "$TEST_TMP/mem.xml")" "$full_total" \
	"the channel's total is the text's"
is "$(mi_xp "$sets/sets/data_stream_info_set/uid/id" "$TEST_TMP/mem.xml"):$(mi_xp "$sets/sets/data_stream_info_set/total_memory_usage_bytes" "$TEST_TMP/mem.xml")" \
	"$(id -u):$full_total" "one set: the user's, with its total"
is "$(mi_xp "count($sets/sets/data_stream_info_set/data_stream_info_list/data_stream_info)" "$TEST_TMP/mem.xml"):$(mi_xp "$sets/sets/data_stream_info_set/data_stream_info_list/data_stream_info[cpu_id=0]/memory_usage_bytes" "$TEST_TMP/mem.xml")" \
	"$(nproc --all 2>/dev/null || getconf _NPROCESSORS_CONF):$cpu0" \
	"a data_stream_info per CPU; CPU 0's bytes are the text's"
lttctl --mi xml list mem >"$TEST_TMP/nomem.xml"
grep -q 'schemaVersion="4.1"' "$TEST_TMP/nomem.xml" && ! grep -q data_stream_info "$TEST_TMP/nomem.xml"
ok $? "without --mem-usage: schema 4.1, no memory figures"

run lttctl list mem --mem-usage=some
is "$RC" 2 "--mem-usage=some is refused"
like "$ERR" "say total, compact or full" "with what to say"
run lttctl list --mem-usage=full
like "$ERR" "give the session's NAME" "--mem-usage without a session is refused"

# on-demand: a CPU that never wrote holds no page of its sub-buffers
run lttctl list mem --mem-usage=full
size=$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch, .* of \([0-9]*\) (.*/\1/p' | head -1)
header=$((size - 4 * 64 * 1024))
ok "$([ "$header" -gt 0 ] && [ "$header" -lt $((64 * 1024)) ]; echo $?)" \
	"a buffer is its header ($header bytes) and its 4 sub-buffers ($size bytes)"
if [ "$(nproc --all 2>/dev/null || echo 1)" -gt 1 ]; then
	ok "$([ "$others" -le "$header" ]; echo $?)" \
		"on-demand: the other CPUs hold their header pages at most ($others <= $header bytes)"
else
	ok 0 "# SKIP one CPU: no other CPU's buffer"
fi
like "$(lttctl list mem)" "buffer preallocation: on-demand" "list shows the preallocation"
lttctl destroy mem >/dev/null

ok_cmd "create" lttctl create pre -o "$TEST_TMP/pre"
ok_cmd "a preallocated channel of 4 x 64 KiB" \
	lttctl enable-channel -u ch --subbuf-size 64k --num-subbuf 4 --buffer-preallocation=preallocate
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq -c ch
run lttctl enable-channel -k k --buffer-preallocation=on-demand
like "$ERR" "kernel channels can't take their buffers' memory on demand" \
	"a kernel channel refuses on-demand, saying why"
ok_cmd "start" lttctl start
ust_app -e "$TEST_TIMEOUT" -n 10
is $? 0 "a program registers and emits 10 events"
run lttctl list pre --mem-usage=full
is "$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch, .*: \([0-9]*\) bytes .* of \([0-9]*\) (.*/\1 \2/p' | awk '$1 != $2' | wc -l)" 0 \
	"preallocate: every CPU's buffer holds all its pages"
is "$(printf '%s\n' "$STDOUT" | sed -n 's/^  user space ch, .*: \([0-9]*\) bytes .*/\1/p' | sort -n | tr '\n' ' ')" \
	"$(memfd_bytes "$(sessiond_pid)" | tr '\n' ' ')" \
	"as the memfds' st_blocks say"
lttctl destroy pre >/dev/null

run lttctl enable-channel -u x --buffer-preallocation=lazy
like "$ERR" "give preallocate or on-demand" "--buffer-preallocation=lazy is refused"
run lttctl enable-channel -k x --buffer-allocation=per-channel
like "$ERR" "one ring buffer for a whole kernel channel .* is not supported by ltt" "per-channel kernel buffers are refused in one sentence"
