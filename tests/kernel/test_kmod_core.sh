#!/bin/bash
# ltt-tracer.ko's core, through its raw ABI (kmod/tests/ltt-ktest in the
# guest): every object and field, exact counts and loss accounting
# (discard, overwrite, stress with nested interrupts), timers, 63 refusals
# by errno, a fuzz loop, unprivileged refusals, rmmod refused under a
# session; tracepoint probes attached only while needed (lazy); kprobes
# and kretprobes (PROBE) recorded exactly, armed only while enabled;
# maps (MAP) counting exactly, paused, cleared, 1000 counters read back
# exactly window by window, an event's 16384 counters the most; and
# CHANNEL_MEM; the probes= module parameter.  Traces read back with
# babeltrace2 here.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kmod_core kmod_probes_param
plan 66

# ktest KEY OKS: ltt-ktest's run KEY passed with exactly OKS checks.
ktest() {
	local f=$KVM_OUT/kmod_core/$1 n
	n=$(grep -c '^ok ' "$f" 2>/dev/null)
	if [ "$(kvm_file kmod_core "$1.rc")" = 0 ] && [ "$(tail -n 1 "$f")" = "ltt-ktest: PASS" ] &&
		[ "$n" = "$2" ] && ! grep -q '^not ok' "$f"; then
		ok 0 "ltt-ktest ${1#ktest_}: $n checks passed"
	else
		ok 1 "ltt-ktest ${1#ktest_}: $2 checks passed (got $n)"
		grep -v '^ok ' "$f" 2>/dev/null | tail -n 20 | sed 's/^/# /'
	fi
}

# kmod_core
kvm_scenario_ok kmod_core
is "$(kvm_file kmod_core attached_idle)" 0 "module loaded, nothing enabled: no tracepoint probe attached"
ktest ktest_basic 15
ktest ktest_stress 5
ktest ktest_stress_room 5
ktest ktest_timers 2
ktest ktest_discard 3
ktest ktest_overwrite 5
ktest ktest_logger 3
ktest ktest_statedump 5
ktest ktest_errors 69
ktest ktest_unpriv 2
ktest ktest_fuzz 2
ktest ktest_lazy 14
ktest ktest_kprobes 28
ktest ktest_maps 31
like "$(kvm_file kmod_core ktest_basic)" 'ok 12 - 20000 events recorded of 20000, 0 wrong, 0 missing' \
	"basic: 20000 of 20000 test events, every field right"
like "$(kvm_file kmod_core ktest_basic)" "GET_NEXT_SUBBUF's events: exact in every packet, 20000 in all \\(20000 events read\\)" \
	"basic: the events GET_NEXT_SUBBUF gives each packet add up to the 20000 (babeltrace2 reads them below)"
like "$(kvm_file kmod_core ktest_stress)" "stress: GET_NEXT_SUBBUF's events exact in every packet, nested writers included" \
	"stress: each packet's event count exact with nested interrupt writers"
like "$(kvm_file kmod_core ktest_discard)" 'recorded 176 \+ events_discarded 1824 == emitted 2000' \
	"discard, 2 x 4 KiB, no reader: exactly 176 recorded and 1824 counted lost"
like "$(kvm_file kmod_core ktest_overwrite)" 'the newest 340 events survive, contiguous 2660\.\.2999' \
	"overwrite, 4 x 4 KiB: the newest 340 events survive"
like "$(kvm_file kmod_core ktest_overwrite)" 'packets_lost 31$' "... and 31 packets counted lost"
like "$(kvm_file kmod_core ktest_stress)" 'stress: recorded [0-9]+ \+ discarded [0-9]+ == emitted [0-9]+' \
	"stress, tiny buffers, nested interrupts: recorded + discarded == emitted"
like "$(kvm_file kmod_core ktest_stress_room)" 'discarded 0 ==' "stress with room: nothing discarded"
like "$(kvm_file kmod_core ktest_lazy)" 'ok 6 - lazy: the first system call event attaches sys_enter and sys_exit: 4' \
	"lazy: the first system call event attaches sys_enter and sys_exit"
like "$(kvm_file kmod_core ktest_lazy)" 'ok 14 - lazy: last channel closed: 0 attached' \
	"lazy: the last channel's close detaches everything"
like "$(kvm_file kmod_core ktest_lazy)" 'ok 13 - lazy: 37 getppid\(\) recorded after re-attaching' \
	"lazy: getppid() recorded exactly after detaching and attaching again"
is "$(kvm_file kmod_core attached_after)" 0 "after every test: no tracepoint probe attached"

run babeltrace2 "$KVM_OUT/kmod_core/basic"
is "$RC" 0 "babeltrace2 reads the basic trace"
[ "$RC" = 0 ] || diag "$ERR"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 20000 "... 20000 ltt_test_event events"
is "$(grep -c 'seq = 12346, ' <<<"$STDOUT")" 1 "... seq 12346 once"
like "$(grep 'seq = 12346, ' <<<"$STDOUT")" \
	'seq = 12346, value = 37031, neg = -46, flags = 0x303A, name = "ltt-test-12346", tag = "t346", _bytes_length = 1, bytes = \[ \[0\] = 58 \]' \
	"... with each of its seven fields as the test probe wrote them"
run babeltrace2 "$KVM_OUT/kmod_core/logger"
is "$RC" 0 "babeltrace2 reads the logger trace"
like "$(grep ' ltt_logger: ' <<<"$STDOUT" | head -n 1)" 'msg = "hello kernel"' "... the first message"
is "$(grep ' ltt_logger: ' <<<"$STDOUT" | sed -n '2s/.*msg = "\(x*\)".*/\1/p' | tr -d '\n' | wc -c)" 1023 \
	"... the long one truncated to 1023 bytes"
run babeltrace2 "$KVM_OUT/kmod_core/statedump"
is "$RC" 0 "babeltrace2 reads the state dump trace"
is "$(grep -c ' lttng_statedump_start: ' <<<"$STDOUT")" 1 "... one lttng_statedump_start"
is "$(grep -c ' lttng_statedump_end: ' <<<"$STDOUT")" 1 "... one lttng_statedump_end"
n=$(grep -c ' lttng_statedump_process_state: ' <<<"$STDOUT")
ok $((n >= 10 ? 0 : 1)) "... a process_state per thread ($n)"
like "$(grep ' lttng_statedump_process_state: ' <<<"$STDOUT")" 'tid = 1, pid = 1, ppid = 0, name = "init"' \
	"... init among them: tid 1, pid 1, ppid 0"
run babeltrace2 "$KVM_OUT/kmod_core/kprobes"
is "$RC" 0 "babeltrace2 reads the kprobes trace"
is "$(grep -cE ' ltt_kprobe_[0-9]+: \{ cpu_id = [0-9]+ \}, \{ ip = 0xF{4}' <<<"$STDOUT")" 200 \
	"... 200 kprobe events (two probes, 100 getppid()), each with its ip, a kernel address"
is "$(grep -cE ' ltt_kretprobe_[0-9]+_return: .*\{ ip = 0xF{4}[0-9A-F]+, parent_ip = 0xF{4}' <<<"$STDOUT")" 100 \
	"... 100 kretprobe return events with ip and parent_ip"
like "$(kvm_file kmod_core ktest_kprobes)" 'ok 3 - PROBE: a kprobe at __x64_sys_getppid, one at its address, a kretprobe on it' \
	"kprobes: placed by symbol and by address, and a kretprobe"
like "$(kvm_file kmod_core hold)" 'in use' "rmmod is refused while a session is open"
is "$(kvm_file kmod_core loaded_during_hold)" 1 "... the module stays"
is "$(kvm_file kmod_core rmmod.rc)" 0 "rmmod succeeds once the session is closed"
kvm_kernel_clean kmod_core

# kmod_probes_param
p=kmod_probes_param
kvm_scenario_ok $p
is "$(kvm_file $p bad.rc)/$(kvm_file $p bad_loaded)" 1/0 "probes=sched,bogus: the load fails"
like "$(kvm_file $p bad)" 'Invalid argument' "... with EINVAL"
like "$(kvm_file $p bad_dmesg)" 'ltt: probes=: unknown probe group "bogus"; valid names: test,lttng_test,logger,statedump,sched,irq,timer,block,net,kmem,signal,syscalls' \
	"... and the kernel log names the unknown group and the valid ones"
is "$(kvm_file $p empty.rc)/$(kvm_file $p empty_loaded)" 1/0 "probes=sched,,irq (an empty name): the load fails"
like "$(kvm_file $p empty_dmesg)" 'an empty name in the list' "... saying why"
is "$(kvm_file $p subset.rc)" 0 "probes=sched,syscalls loads"
is "$(kvm_file $p subset_param)" sched,syscalls "... /sys/module/ltt_tracer/parameters/probes shows it"
is "$(kvm_file $p subset_list | tr '\n' ' ')" \
	"sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task sched_process_exit sched_process_free sched_process_wait sched_process_fork sched_process_exec " \
	"... LIST gives the 10 sched events only"
is "$(kvm_file $p subset_syscalls | wc -l)" "$(kvm_file $p all_syscalls | wc -l)" \
	"... and every system call ($(kvm_file $p all_syscalls | wc -l))"
is "$(kvm_file $p subset_test_proc)/$(kvm_file $p subset_logger_proc)" absent/absent \
	"... without the test and logger groups' /proc files"
is "$(kvm_file $p spaces.rc)" 0 'probes=" test , logger" (spaces around names) loads'
is "$(kvm_file $p spaces_list | tr '\n' ' ')" "ltt_test_event ltt_logger " "... with those two groups' events"
is "$(kvm_file $p blank.rc)" 0 "probes= (empty) loads"
is "$(kvm_file $p all_list | wc -l)" "$(kvm_file $p default_list | wc -l)" \
	"... with every group, as without the parameter ($(kvm_file $p default_list | wc -l) events)"
is "$(kvm_file $p loaded_after)" 0 "the module is unloaded at the end"
dm=$(cat "$KVM_OUT"/*/dmesg)
ok "$([[ $dm == *"ltt: tracer "*" loaded"* && $dm != *"ltt: not instrumented"* ]]; echo $?)" \
	"the module loaded on $KVER and instruments every probe's events there (no 'not instrumented on this kernel' line)"
kvm_kernel_clean $p
done_testing
