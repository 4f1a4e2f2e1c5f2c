#!/bin/bash
# A kernel session streamed to ltt-relayd in a real kernel (scenario
# kernel_relay): the kernel consumer reaches the relay at start, stop waits
# for it, and the relay's trace holds exactly the events the test probe
# and the logger emitted.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_relay
plan 10

s=kernel_relay
kvm_scenario_ok $s
is "$(kvm_file $s start.rc)" 0 "the streamed kernel session starts"
is "$(kvm_file $s stop.rc)" 0 "stop returns once the relay has everything"
like "$(kvm_file $s list)" 'Relay connection \(kernel\): connected, [1-9][0-9]* packets sent' \
	"list: the kernel consumer's relay connection"
is "$(kvm_file $s destroy.rc)" 0 "destroy succeeds"
trace=$(ls -d "$KVM_OUT/$s"/relay/*/kr-*/kernel 2>/dev/null | head -n 1)
ok "$([ -f "$trace/metadata" ]; echo $?)" "the relay wrote HOST/kr-DATE/kernel"
run babeltrace2 "$trace"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 1000 "the 1000 test events"
seqs=$(grep -o 'seq = [0-9]*' <<<"$STDOUT" | cut -d' ' -f3 | sort -n | uniq | wc -l)
is "$seqs" 1000 "1000 distinct sequence numbers: none lost, none twice"
like "$(grep ' ltt_logger: ' <<<"$STDOUT")" 'msg = "to the relay"' "the logger's line"
kvm_kernel_clean $s
