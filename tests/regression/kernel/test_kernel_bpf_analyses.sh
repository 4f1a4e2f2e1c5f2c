#!/bin/bash
# test_kernel_bpf_analyses.sh - lttng-analyses' I/O analyses on a trace
# whose system call paths come from the BPF system call source
# (doc/kernel-bpf.md), natively on a kernel that refuses event probes
# (this development machine's): dd writes 24 blocks of 4 KiB to a file
# of this test's, another dd reads them back; lttng-syscallstats counts
# each dd's 24 writes under its tid, and lttng-iousagetop names
# the file, with the 96 KiB written and read, which it can only do when
# openat's filename is the path (an address names no file).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
command -v lttng-iousagetop >/dev/null ||
	skip_all "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
bpf_source_or_skip
command -v babeltrace >/dev/null || skip_all "babeltrace (1) is not installed"
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 10

F=$TEST_TMP/ltt-bpf-io-$$
# record: the session t, the two dds; LIST, its listing
record() {
	switch_watch_begin
	lttctl -q create t -o "$TEST_TMP/t" &&
		lttctl -q enable-event -k sched_switch,sched_process_exec,sched_process_fork &&
		lttctl -q enable-event -k 'lttng_statedump_*' &&
		lttctl -q enable-event -k --syscall openat,read,write,close,dup2,dup3 &&
		lttctl -q add-context -k -t procname -t tid &&
		lttctl -q start || { echo "Bail out! session t"; exit 1; }
	dd if=/dev/zero of="$F" bs=4096 count=24 status=none &
	wpid=$!
	wait $wpid
	dd if="$F" of=/dev/null bs=4096 status=none &
	rpid=$!
	wait $rpid
	lttctl -q stop && LIST=$(lttctl list t) && lttctl -q destroy
	switch_watch_end "$TEST_TMP/t/kernel" "$try"
}
# lttng-analyses name a CPU's task by its recorded switches: a trace
# where the kernel left out one into a dd (lib.sh, switch_gaps) is
# recorded again, three times at most.  Each recording's switches are
# compared with a raw ftrace instance's (lib.sh, switch_watch_end): a gap ltt
# made would fail there, not be skipped below.
for try in 1 2 3; do
	rm -rf "$TEST_TMP/t" "$F"
	record
	gaps=$(switch_gaps "$TEST_TMP/t/kernel" "$wpid" "$rpid")
	[ "$gaps" = 0 ] && break
	diag "recording $try: $gaps records of the dds follow no switch to them; again"
done
is "$SW_DROPPED" "" "each recording's switches, CPU by CPU, are those a raw ftrace instance got over the same time: ltt dropped none ($try recordings)"
# babeltrace 1: babeltrace2 2.0 shows a path not read ("") as an earlier
# event's path, this one's too (doc/kernel-bpf.md)
is "$(timeout "$BT_TIMEOUT" babeltrace "$TEST_TMP/t/kernel" | grep -c "syscall_entry_openat: .*filename = \"$F\"")" 2 \
	"the trace holds both opens of the file, by its path"

# lttng-analyses' default range, the streams' intersection: every CPU's
# stream covers the session (test_kernel_tracefs_span.sh), one whose CPU
# ran another task the whole session (this machine's tokio-rt-worker)
# too, so the range holds both dds.
analysis syscallstats
is $? 0 "lttng-syscallstats reads the trace"
# each dd's writes, by tid (kload-lib.sh, syscallstats_calls; its name is the
# shell's: lttng-analyses name a task at its fork)
got=$(syscallstats_calls "$wpid" write):$(syscallstats_calls "$rpid" write)
if [ "$gaps" = 0 ]; then
	is "$got" "24:24" "each dd's 24 writes (to the file, to /dev/null), under its tid"
else
	skip 1 "the kernel left out a switch into a dd in 3 recordings: lttng-analyses can't name its task"
fi
[ "$got" = 24:24 ] ||
	diag "dd $wpid and $rpid; the analysis's first lines and the session's counts:" \
		"$(head -n 12 "$TEST_TMP/syscallstats.txt")" "$(grep -iE 'discarded|lost' <<<"$LIST")"
unlike "$(cat "$TEST_TMP/syscallstats.txt")" "Error" "... no error"

analysis iousagetop
is $? 0 "lttng-iousagetop reads the trace"
# its per-file tables: "BAR SIZE PATH" lines (dd's file is its fd 1, then
# 0: dup2, which the analyses follow); the file's line in each
file_line() {
	sed -n "/Per-file I\/O $1/,/^\$/p" "$TEST_TMP/iousagetop.txt" | awk -v f="$F" '$NF == f'
}
if [ "$gaps" = 0 ]; then
	like "$(file_line Write)" "96\\.00 KiB $F" "... the file by its path, 96 KiB written" ||
		diag "$(cat "$TEST_TMP/iousagetop.txt")"
	like "$(file_line Read)" "96\\.00 KiB $F" "... and 96 KiB read"
else
	skip 2 "the kernel left out a switch into a dd in 3 recordings: lttng-analyses can't follow its files"
fi
unlike "$(cat "$TEST_TMP/iousagetop.txt")" "Error" "... no error"
stop_sessiond
done_testing
