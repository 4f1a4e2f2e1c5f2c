#!/bin/bash
# Triggers on the kernel with the module recording (scenarios
# kernel_usage_trigger, kernel_event_trigger).
#
#   kernel_usage_trigger  a channel-buffer-usage-ge trigger on a kernel
#        channel: the consumer stopped, the stream that fills notifies
#        wait-trigger once (the daemon asks the module SNAPSHOT_SPAN, not
#        the consumer); recorded + discarded = emitted.
#   kernel_event_trigger  a kernel event rule (sched_process_exec of
#        kworkload, its filename captured) evaluated by ftrace through
#        tracefs beside the module: fired once per exec of kworkload, none
#        for another program, none dropped; the module's session records
#        meanwhile; the trigger's instance goes with it.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_usage_trigger kernel_event_trigger
plan 16

s=kernel_usage_trigger
kvm_scenario_ok $s
is "$(kvm_file $s wait.rc)" 0 "the stream filled with its consumer stopped: usage-ge notified"
used=$(sed -n "s/.*session ku, \([0-9]*\) bytes in the channel's fullest buffer.*/\1/p" "$KVM_OUT/$s/wait")
ok "$([ "${used:-0}" -ge 12288 ] && [ "${used:-0}" -le 16384 ]; echo $?)" \
	"with the fullest stream's bytes, 75% to 100% of 16 KiB (${used:-none})"
like "$(kvm_file $s triggers)" "  fired: 1 time, notifications dropped: 0" "list-triggers: it fired once"
kvm_counts $s ku
is "$RC" 0 "babeltrace2 reads the trace"
l=$(kvm_discarded $s list)
is "$((TEST_N + l))" "$(kvm_file $s emitted)" \
	"recorded $TEST_N + discarded $l == $(kvm_file $s emitted) emitted, exactly"
kvm_kernel_clean $s

s=kernel_event_trigger
n=$(kvm_file $s n)
kvm_scenario_ok $s
is "$(kvm_file $s add.rc)" 0 "a kernel event rule is added while the module records"
[ "$(kvm_file $s add.rc)" = 0 ] || diag "$(kvm_file $s add)"
is "$(kvm_file $s wait.rc)" 0 "an exec of kworkload notified wait-trigger"
like "$(kvm_file $s wait)" "^Trigger ke fired \(#1\): event sched_process_exec, pid ([0-9]+); captures: filename=\"[^\"]*/kworkload\", tid=[0-9]+\$" \
	"the exec of kworkload, with the file's name and the tid"
like "$(kvm_file $s triggers)" "  fired: $n times?, notifications dropped: 0" \
	"fired once for each of the $n execs of kworkload, the other program's none; none dropped"
D="//trigger[name='ke']/condition/condition_event_rule_matches/event_rule/event_rule_kernel_tracepoint/name_pattern"
is "$(mi_xp "$D" "$KVM_OUT/$s/triggers_mi"):$(mi_valid "$KVM_OUT/$s/triggers_mi")" \
	"sched_process_exec:$KVM_OUT/$s/triggers_mi validates" \
	"list-triggers --mi xml: LTTng's event_rule_kernel_tracepoint, valid against LTTng's schema"
kvm_counts $s kr
is "$RC:$TEST_N" "0:100" "the module's session recorded its 100 test events meanwhile"
is "$(kvm_file $s remove.rc):$(kvm_file $s instances_left)" "0:0" "removed, the trigger's instance is gone"
kvm_kernel_clean $s
done_testing
