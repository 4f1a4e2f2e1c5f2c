#!/bin/bash
# CTF 2 from the kernel module (scenario kernel_ctf2): a kernel session
# created -F ctf-2 in a real kernel writes CTF 2's metadata (LTTng's
# kernel environment, the module's backend), and babeltrace2 2.1 (Debian
# sid's, in a root made by scripts/debian-root.sh) reads from it the same
# events and fields as from the CTF 1.8 session that recorded beside it:
# the test probe's 1,000 events (integers signed and hexadecimal,
# strings, an array, a sequence) and kworkload's system calls with their
# payloads and the process contexts.  The tracefs backend's CTF 2:
# test_kernel_tracefs_ctf2.sh.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
root_or_skip sid
kvm_boot kernel_ctf2
plan 14

s=kernel_ctf2
kvm_scenario_ok $s
is "$(kvm_file $s create_2.rc):$(kvm_file $s start_2.rc):$(kvm_file $s stop_2.rc)" "0:0:0" \
	"a kernel session created -F ctf-2 starts and stops"
like "$(kvm_file $s list_2)" "Trace format: CTF 2 " "  list says its format"

meta=$KVM_OUT/$s/k2/kernel/metadata
is "$(head -c 1 "$meta" | od -An -tx1 | tr -d ' ')" "1e" "its metadata: a JSON text sequence"
run python3 - "$meta" <<'PY'
import json, sys
frags = [json.loads(f) for f in open(sys.argv[1], 'rb').read().split(b'\x1e')[1:]]
env = frags[1]['environment']
print(env['domain'], env['tracer_name'], env['ltt_kernel_backend'])
names = {f['name'] for f in frags if f['type'] == 'event-record-class'}
print(' '.join(n for n in ('ltt_test_event', 'syscall_entry_openat', 'syscall_exit_write')
               if n in names))
PY
is "$RC:$STDOUT" "0:kernel lttng-modules module
ltt_test_event syscall_entry_openat syscall_exit_write" \
	"  LTTng's kernel environment, the module's backend, the events' classes"

bt21 "$KVM_OUT/$s/k1.8" "$TEST_TMP/bt18"
ok $? "babeltrace2 2.1 reads the CTF 1.8 kernel trace"
bt21 "$KVM_OUT/$s/k2" "$TEST_TMP/bt2"
ok $? "babeltrace2 2.1 reads the CTF 2 kernel trace"
is "$(cat "$TEST_TMP/bt2.err")" "" "  and says nothing on stderr"

# EVENT's lines in FILE (of procname PROC where given), the time taken off
# (each session timed its own)
lines() {
	grep " $2: " "$1" | grep -F "${3:+procname = \"$3\"}" | sed 's/^\[[^]]*\] ([^)]*) //'
}
is "$(lines "$TEST_TMP/bt2" ltt_test_event | wc -l)" 1000 "the CTF 2 trace: the 1,000 test events"
like "$(lines "$TEST_TMP/bt2" ltt_test_event | grep 'seq = 7,')" \
	'value = 14, neg = -7, flags = 0x7, name = "ltt-test-7", tag = "t7", _bytes_length = 2, bytes = \[ \[0\] = 7, \[1\] = 8 \]' \
	"  event 7's fields as the probe wrote them"
same() {
	local n
	n=$(lines "$TEST_TMP/bt2" "$1" "${2:-}" | wc -l)
	if [ "$n" -gt 0 ] && cmp -s <(lines "$TEST_TMP/bt18" "$1" "${2:-}") <(lines "$TEST_TMP/bt2" "$1" "${2:-}"); then
		ok 0 "$1: the same $n lines in both traces"
	else
		ok 1 "$1: the same $n lines in both traces"
		diff <(lines "$TEST_TMP/bt18" "$1" "${2:-}") <(lines "$TEST_TMP/bt2" "$1" "${2:-}") |
			head -4 | sed 's/^/# /'
	fi
}
same ltt_test_event
is "$(lines "$TEST_TMP/bt2" syscall_entry_openat kworkload | grep -c 'filename = "/tmp/kworkload.out"')" 1 \
	"the CTF 2 trace: kworkload's openat with its path"
same syscall_entry_openat kworkload
same syscall_exit_write kworkload
