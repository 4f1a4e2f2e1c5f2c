#!/bin/bash
# The kernel domain end to end in a real kernel: ltt-sessiond loads
# ltt-tracer.ko with libkmod, lttctl drives a kernel session beside a
# user-space one, and the traces that come back hold exactly what the
# test probe and the logger emitted (scenario kernel_test_probe).
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_test_probe
plan 30

s=kernel_test_probe
kvm_scenario_ok $s
like "$(kvm_file $s lsmod_after_start)" '^ltt_tracer ' "the daemon loaded ltt-tracer at start"
is "$(kvm_file $s list_k.rc)" 0 "lttctl list -k succeeds"
like "$(kvm_file $s list_k)" 'ltt_test_event \(type: tracepoint\)' "list -k shows the test event"
like "$(kvm_file $s list_kf)" 'field: seq \(integer\)' "list -k -f shows its fields"
is "$(kvm_file $s list_sys.rc)" 0 "lttctl list -k --syscall succeeds"
is "$(kvm_file $s start.rc)" 0 "a session with kernel and user channels starts"
is "$(kvm_file $s stop.rc)" 0 "and stops"
like "$(kvm_file $s list)" 'ltt_test_event \(type: tracepoint\) \[enabled\]' \
	"list shows the kernel rule"
ok $([ "$(kvm_file $s late_channel.rc)" != 0 ] && echo 0 || echo 1) "a kernel channel can't be added after the first start"
like "$(kvm_file $s late_channel)" "can't be added to a session that was started once" \
	"... and lttctl says why"
is "$(kvm_file $s destroy.rc)" 0 "destroy succeeds"

trace=$KVM_OUT/$s/trace
ok $([ -f "$trace/kernel/metadata" ] && echo 0 || echo 1) "the kernel trace is OUTPUT/kernel"
run babeltrace2 "$trace/kernel"
is "$RC" 0 "babeltrace2 reads the kernel trace"
[ "$RC" = 0 ] || diag "$ERR"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 1000 "exactly the 1000 test events"
# seq 7: value = 7*3-7 = 14, neg = -7, flags = 0x7, name, tag "t7", bytes 7..8 (seq % 5 = 2).
like "$(grep 'seq = 7,' <<<"$STDOUT")" \
	'value = 14, neg = -7, flags = 0x7, name = "ltt-test-7", tag = "t7", _bytes_length = 2, bytes = \[ \[0\] = 7, \[1\] = 8 \]' \
	"event 7's fields as the probe wrote them"
seqs=$(grep -o 'seq = [0-9]*' <<<"$STDOUT" | cut -d' ' -f3 | sort -n | uniq | wc -l)
is "$seqs" 1000 "1000 distinct sequence numbers: none lost, none twice"
like "$(grep ' ltt_logger: ' <<<"$STDOUT")" 'msg = "hello from the guest"' "the logger's line"
run babeltrace2 --output-format=ctf-metadata "$trace/kernel"
like "$STDOUT" 'domain = "kernel";' "the kernel trace's metadata says domain kernel"
run babeltrace2 "$trace"
is "$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" 3 \
	"kernel and user-space events read together"

is "$(kvm_file $s churn_done)" 40 "40 disable/enable pairs on a started session all succeed"
rss=$(kvm_file $s sessiond_rss | awk '{print $2}')
ok $([ "${rss:-999999}" -lt 65536 ] && echo 0 || echo 1) "and the daemon stays small (${rss} kB RSS)"
like "$(kvm_file $s loglevel_k)" 'kernel events have no log level' "-k --loglevel is refused"
like "$(kvm_file $s unknown_k)" "the kernel tracer has no event \\(or system call\\) by that name" \
	"an event the tracer doesn't have is refused"
like "$(kvm_file $s unknown_sys)" "the kernel tracer has no event" "so is an unknown system call"
is "$(kvm_file $s glob_k.rc)" 0 "a glob that matches nothing yet is accepted"
is "$(kvm_file $s nooutput_k.rc)" 0 \
	"kernel events in a --no-output session are taken, as LTTng's (it records for snapshot outputs)"
like "$(kvm_file $s syscall_u)" '\-\-syscall names kernel system calls' "-u --syscall is refused"
unlike "$(kvm_file $s list_refusals)" 'ltt_test_event|openat|no_such_event \(' "the refusals changed nothing"
kvm_kernel_clean $s
done_testing
