#!/bin/bash
# test_kernel_tracefs_block.sh - the block events through tracefs as
# lttng-modules writes them: rwbs an integer of flags (bit 0: a write),
# block_rq_issue with the issuing thread's tid.  A known load: dd writes
# 256 KiB with O_DIRECT to a file of the test's directory (on a block
# device), and its requests are recorded with its tid, as writes, each
# completed; lttng-iolatencytop and lttng-iousagetop read the trace
# without an error.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
dev=$(findmnt -n -o SOURCE --target "$TEST_TMP" 2>/dev/null)
case $dev in
/dev/*) ;;
*) skip_all "the test's directory is not on a block device ($dev)" ;;
esac
tracefs_setup 11
LA_TIMEOUT=300

lttctl -q create b -o "$TEST_TMP/b" &&
	lttctl -q enable-event -k block_rq_issue,block_rq_complete,sched_switch &&
	lttctl -q enable-event -k --syscall openat,write,close,fsync &&
	lttctl -q enable-event -k 'lttng_statedump_*' &&
	lttctl -q start
ok $? "a session of the block requests"
dd if=/dev/zero of="$TEST_TMP/file" bs=64k count=4 oflag=direct conv=fsync status=none &
ddpid=$!
wait "$ddpid"
is $? 0 "dd wrote 256 KiB with O_DIRECT (pid $ddpid)"
lttctl -q stop && lttctl -q destroy
babeltrace2 "$TEST_TMP/b" >"$TEST_TMP/b.txt" 2>"$TEST_TMP/b.err"
is $? 0 "babeltrace2 reads the trace"
issued=$(grep -E " block_rq_issue: .* tid = $ddpid, " "$TEST_TMP/b.txt")
writes=$(grep -E 'bytes = 65536, .* rwbs = [0-9]*[13579], ' <<<"$issued")
is "$(grep -c . <<<"$writes")" 4 "block_rq_issue: dd's four 64 KiB writes, with its tid, rwbs odd (a write)"
like "$(head -n 1 <<<"$writes")" 'dev = [0-9]+, sector = [0-9]+, nr_sector = 128, bytes = 65536, tid = [0-9]+, ioprio = [0-9]+, rwbs = [0-9]+, comm = "dd"' \
	"... lttng-modules' fields, in its order, comm dd"
# every request of dd's is a read (bit 2) or a write (bit 0), not both
both=$(sed -nE 's/.* rwbs = ([0-9]+), .*/\1/p' <<<"$issued" | while read -r r; do
	[ $(((r & 1) + ((r >> 2) & 1))) = 1 ] || echo "$r"; done)
is "$both" "" "each of dd's $(grep -c . <<<"$issued") requests a read or a write"
# each write completed: its sector among the completions of writes
sectors=$(sed -nE 's/.* sector = ([0-9]+), .*/\1/p' <<<"$writes" | sort -u)
done_sectors=$(grep ' block_rq_complete: ' "$TEST_TMP/b.txt" | grep -E 'rwbs = [0-9]*[13579], ' |
	sed -nE 's/.* sector = ([0-9]+), .*/\1/p' | sort -u)
is "$(comm -23 <(echo "$sectors") <(echo "$done_sectors") | grep -c .)" 0 \
	"block_rq_complete: each of them completed, as a write"
# rwbs and sched_switch's prev_state are integers, as lttng-modules 2.13
# writes them unless built with CONFIG_LTTNG_EXPERIMENTAL_BITWISE_ENUM (off
# by default, in Debian's package too): lttng-analyses compute rwbs % 2,
# where babeltrace 1's bindings would give them an enumeration's label.
decl=$(babeltrace2 --output-format=ctf-metadata "$TEST_TMP/b/kernel" | grep -E ' _(rwbs|prev_state);$')
is "$(grep -cE '^\s*integer \{ size = (32; align = [0-9]+; signed = 0|64; align = [0-9]+; signed = 1);.* _(rwbs|prev_state);$' <<<"$decl") of $(grep -c . <<<"$decl")" "3 of 3" \
	"the metadata declares both rwbs (u32) and prev_state (s64) plain integers, not enumerations"

if command -v lttng-iolatencytop >/dev/null; then
	timeout "$LA_TIMEOUT" lttng-iolatencytop --no-progress "$TEST_TMP/b" >"$TEST_TMP/io.txt" 2>&1
	is $? 0 "lttng-iolatencytop reads the trace"
	unlike "$(cat "$TEST_TMP/io.txt")" "Error|Traceback" "... without an error"
else
	skip 2 "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
fi
stop_sessiond
