#!/bin/bash
# Buffers for the CPUs online only (kernel ABI 1.10; issue 47): a guest
# of 4 CPUs booted with maxcpus=2, CPUs 2 and 3 possible but offline.
# Through the raw ABI (ltt-ktest hotplug, scenario kernel_hotplug): a new
# channel holds no buffer for them (CHANNEL_MEM 0; STREAM with
# STREAM_IF_ALLOCATED: EAGAIN), CPU 2's buffer is made as it comes online
# (the channel fd polls readable), the N test events written there are
# all read back from its stream (none lost), after it went offline
# again; a STREAM without the flag, as a daemon before 1.10 asks, makes
# CPU 3's buffer then.  Through the session daemon (--kernel-backend=
# module): list --mem-usage=full shows buffers for CPUs 0-1 only; CPU 2
# onlined while recording: its stream taken at once (the daemon watches
# the CPU's uevent), the N test events written there all in the trace
# babeltrace2 reads, from cpu_id 2.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

KVM_SMP=4
KVM_APPEND=maxcpus=2
kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_hotplug
plan 15

s=kernel_hotplug
n=$(kvm_file $s n)
f=$KVM_OUT/$s/ktest
kvm_scenario_ok $s
is "$(kvm_file $s online_before)" 0-1 "maxcpus=2 of 4: CPUs 0-1 online at boot"
is "$(kvm_file $s ktest.rc) $(tail -n 1 "$f")" "0 ltt-ktest: PASS" "ltt-ktest hotplug passed"
is "$(grep -c '^ok ' "$f")" 15 "... its 15 checks"
like "$(cat "$f")" "ok 2 - CHANNEL_MEM: [0-9]+ bytes for CPU 0, 0 for CPUs 2 and 3" \
	"a channel made with CPUs 2-3 offline: no buffer for them"
like "$(cat "$f")" "ok 15 - nothing discarded" "nothing lost"
like "$(cat "$f")" "ok 14 - $n test events from CPU 2 of $n written there, 0 wrong, 0 from other CPUs" \
	"CPU 2 onlined while recording: its $n events all read from its new buffer"
grep -v '^ok ' "$f" | sed 's/^/# /'

# mem_cpus KEY: the CPUs whose buffer list --mem-usage=full shows
mem_cpus() {
	sed -n 's/^  kernel kch, uid 0, CPU \([0-9]*\): [0-9]* bytes .*/\1/p' "$KVM_OUT/$s/$1" | tr '\n' ' '
}
is "$(kvm_file $s start.rc)" 0 "the session daemon: a kernel channel started with CPUs 2-3 offline"
is "$(mem_cpus mem)" "0 1 " "list --mem-usage=full: buffers for CPUs 0 and 1 only"
is "$(kvm_file $s online_load) $(kvm_file $s stream_file)" "0-2 1" \
	"CPU 2 onlined while recording: the daemon hands its stream to the consumer at once (its file made)"
is "$(mem_cpus mem_online)" "0 1 2 " "... list --mem-usage=full shows its buffer, before any stop; CPU 3's still none"
is "$(kvm_file $s load.rc) $(kvm_file $s stop.rc)" "0 0" "$n test events written on CPU 2, stopped"
is "$(mem_cpus mem_after)" "0 1 2 " "... the same after the stop"
run babeltrace2 "$KVM_OUT/$s/trace"
[ "$RC" = 0 ] || diag "$ERR"
is "$(grep -c ' ltt_test_event: { cpu_id = 2 }' <<<"$STDOUT") $(grep -c ' ltt_test_event: ' <<<"$STDOUT")" \
	"$n $n" "babeltrace2: the $n test events, all from cpu_id 2, none lost"
kvm_kernel_clean $s
done_testing
