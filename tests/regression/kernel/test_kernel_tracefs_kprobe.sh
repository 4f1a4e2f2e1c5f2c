#!/bin/bash
# test_kernel_tracefs_kprobe.sh - kernel probes (enable-event -k --probe,
# --function) through the tracefs kernel backend on a kernel without
# kprobe_events (this development machine's): refused at enable-event in
# one sentence that names what the kernel lacks, exit 1, no rule made,
# nothing placed.  Where the kernel has kprobe_events they are recorded:
# tests/kernel/test_kernel_kprobe.sh, in Debian's kernel.  And a kernel
# that refuses event probes (e:, this one too): list -k and the trace's
# env say that system call paths are recorded as their addresses (the BPF
# program that would read them turned off: LTT_KERNEL_BPF=off).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
tracefs_or_skip
if [ -e "$tfs/kprobe_events" ]; then
	skip_all "this kernel has kprobe_events: tests/kernel/test_kernel_kprobe.sh records them"
fi
plan 15
kernel_lock

LOG="$TEST_TMP/sessiond.log"
# LTT_KERNEL_BPF=off: the addresses, not the BPF program's strings
# (test_kernel_bpf_syscalls.sh records those)
LTT_KERNEL_BPF=off tracefs_sessiond "$LOG"
ok $? "a root daemon with --kernel-backend=tracefs started"
lttctl -q create s -o "$TEST_TMP/s"
before=$(lttctl list s)
why="this kernel has no kprobe_events \\(CONFIG_KPROBE_EVENTS\\), which the tracefs backend places kernel probes with"
run lttctl enable-event -k --probe=__x64_sys_getppid kp -s s
is "$RC" 1 "--probe: exit 1"
like "$ERR" "kernel probe event rule 'kp' .*: $why" "... one sentence naming what the kernel lacks"
run lttctl enable-event -k --function=__x64_sys_getppid kf -s s
is "$RC" 1 "--function: exit 1"
like "$ERR" "kernel function probe event rule 'kf' .*: $why" "... the same sentence"
run lttctl enable-event -k --probe=0xffffffff81000000 ka -s s
is "$RC" 1 "--probe=0xADDR: exit 1"
is "$(lttctl list s)" "$before" "no rule made: the session's listing is the same"
like "$(cat "$LOG")" "this kernel's tracefs has no kprobe_events \\(a kernel built without CONFIG_KPROBE_EVENTS\\)" \
	"the daemon's log says what the kernel lacks"
run lttctl enable-event -k --probe=no+such s2 -s s
is "$RC" 2 "a location that does not parse: a usage error (exit 2)"
like "$ERR" "--probe 'no\\+such': the offset after '\\+' is a number" "... saying what is wrong"
sstr="system call paths and names: recorded as their addresses: this kernel refuses event probes \\(e: in dynamic_events"
if grep -q '^e:' "$tfs/dynamic_events" 2>/dev/null || ! [ -e "$tfs/dynamic_events" ]; then
	skip 4 "this kernel's dynamic_events: can't tell whether it refuses event probes"
else
	like "$(lttctl list -k | head -n 3)" "Kernel tracer: tracefs .*$sstr" \
		"list -k says system call paths are addresses, and why"
	lttctl -q enable-event -k --syscall openat -s s && lttctl -q start s && cat /dev/null &&
		lttctl -q stop s
	ok $? "a session recording openat through tracefs"
	run babeltrace2 --output-format=ctf-metadata "$TEST_TMP/s/kernel"
	like "$STDOUT" "ltt_syscall_strings = \"$sstr" "... its trace's env says so too"
	like "$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/s/kernel" | grep -m 1 'syscall_entry_openat:')" \
		"filename = 0x" "... and its filename is an address"
fi
lttctl -q destroy s
is "$(ls "$tfs/instances" 2>/dev/null | grep -c "^ltt-$(sessiond_pid)-")" 0 "no instance of the daemon's left"
