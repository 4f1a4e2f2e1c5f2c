#!/bin/bash
# test_kernel_tracefs_layout.sh - the kernel events of a tracefs trace
# laid out as doc/ctf.md's table ("Kernel events") says: every event of
# the table this kernel offers, enabled in one session; the trace's
# metadata holds each one's fields, names, order and types, as the
# table's tracefs column (tests/ctf-kernel-table.py; the module's column
# is checked the same way in QEMU by test_kmod_probes.sh).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
# the table's tracefs column is ftrace's own layout (system call strings
# as addresses): the BPF source, which reads them where the kernel has no
# eprobes, lays them out as the module does (test_kernel_bpf_syscalls.sh)
export LTT_KERNEL_BPF=off
tracefs_setup 5
TABLE="$LTT_TOP_SRCDIR/tests/ctf-kernel-table.py"

# the table's events that this kernel offers (lttctl list -k's names)
offered=$(lttctl list -k | sed -n 's/^    \([^ ]*\) (type: tracepoint)$/\1/p' | sort -u)
wanted=$(sed -n '/^## Kernel events/,/^## /s/^| `\([a-z_0-9]*\)` |.*/\1/p' "$LTT_TOP_SRCDIR/doc/ctf.md" | sort -u)
events=$(comm -12 <(echo "$offered") <(echo "$wanted") | grep -v '^syscall_' | paste -sd, -)
ok "$([ "$(tr ',' '\n' <<<"$events" | grep -c .)" -ge 20 ]; echo $?)" \
	"at least 20 of the table's events offered ($(tr ',' '\n' <<<"$events" | grep -c .))"
lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-event -k "$events" &&
	lttctl -q enable-event -k --syscall openat,kill,execve &&
	lttctl -q start && lttctl -q stop && lttctl -q destroy
ok $? "a session of them all (and the openat, kill, execve system calls)"
babeltrace2 --output-format=ctf-metadata "$TEST_TMP/s/kernel" >"$TEST_TMP/meta.tsdl"
is $? 0 "babeltrace2 prints the metadata"
case $(uname -r) in
6.18.*)
	/usr/bin/python3 "$TABLE" check "$LTT_TOP_SRCDIR/doc/ctf.md" tracefs "$TEST_TMP/meta.tsdl" \
		>"$TEST_TMP/check.txt"
	is $? 0 "every event's fields as the table's tracefs column ($(grep -c '^ok' "$TEST_TMP/check.txt") events)"
	grep '^not ok' "$TEST_TMP/check.txt" | while IFS= read -r l; do diag "$l"; done ;;
*)
	skip 1 "the table's tracefs column is Linux 6.18's; this is $(uname -r)" ;;
esac
stop_sessiond
