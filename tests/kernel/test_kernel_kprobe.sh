#!/bin/bash
# Kernel probes through lttctl in a real kernel (Debian's, which has
# kprobe_events), with each backend: enable-event -k --probe by symbol
# and by address, --function (a kretprobe: NAME_entry and NAME_exit), on
# __x64_sys_getppid while kworkload makes 200 getppid() calls: exactly 200
# events of each, with lttng-modules' fields (ip, the function's address
# from /proc/kallsyms; parent_ip, the same at entry and exit); a missing
# symbol refused at enable-event; no probe left in kprobe_events after
# destroy; openat's filename recorded as a string by both (tracefs: an
# event probe, e: in dynamic_events, in the place of sys_enter_openat),
# none left after the daemon.  A kprobe trigger (add-trigger
# --type=kernel:kprobe) on the function fires for kworkload's 100 calls
# (fired + dropped = 100, nothing else calls getppid in the guest),
# its probe placed in kprobe_events and removed with it, with each
# backend; one on a missing symbol refused.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_kprobe kernel_kprobe_tracefs
plan 49

# check SCENARIO BACKEND: the assertions of one backend's run.
check() {
	local s=$1 b=$2 out=$KVM_OUT/$1 bt=$TEST_TMP/$1.txt pid addr n parents
	kvm_scenario_ok "$s"
	addr=$(tr a-f A-F <"$out/addr")
	is "$(cat "$out/enable_probe.rc") $(cat "$out/enable_addr.rc") $(cat "$out/enable_function.rc")" \
		"0 0 0" "$b: --probe by symbol, --probe by address and --function enabled"
	like "$(cat "$out/enable_function")" "Kernel function probe kf enabled in channel channel0" \
		"$b: ... saying what each is"
	is "$(cat "$out/enable_missing.rc")" 1 "$b: a missing symbol: exit 1"
	like "$(cat "$out/enable_missing")" "ltt_no_such_symbol" "$b: ... naming it"
	like "$(cat "$out/list")" "kf \\(type: function, location: __x64_sys_getppid\\)" "$b: list shows the rule's type and location"
	pid=$(sed -n 's/^pid=//p' "$out/calls")
	timeout "$BT_TIMEOUT" babeltrace2 "$out/trace" >"$bt" 2>"$bt.err"
	is "$?" 0 "$b: babeltrace2 reads the trace"
	n=$(grep -cE " kp_sym: .*\\{ tid = $pid \\}, \\{ ip = 0x0*$addr \\}" "$bt")
	is "$n" 200 "$b: kp_sym: 200 events of kworkload's, ip = __x64_sys_getppid (0x$addr)"
	n=$(grep -cE " kp_addr: .*\\{ tid = $pid \\}, \\{ ip = 0x0*$addr \\}" "$bt")
	is "$n" 200 "$b: kp_addr (--probe=0x$addr): 200, the same ip"
	n=$(grep -cE " kf_entry: .*\\{ tid = $pid \\}, \\{ ip = 0x0*$addr, parent_ip = 0x[0-9A-F]+ \\}" "$bt")
	is "$n" 200 "$b: kf_entry: 200, ip and parent_ip"
	n=$(grep -cE " kf_exit: .*\\{ tid = $pid \\}, \\{ ip = 0x0*$addr, parent_ip = 0x[0-9A-F]+ \\}" "$bt")
	is "$n" 200 "$b: kf_exit: 200, ip and parent_ip"
	parents=$(grep -E " kf_(entry|exit): .*\\{ tid = $pid \\}" "$bt" | sed -n 's/.*parent_ip = \(0x[0-9A-F]*\).*/\1/p' | sort -u)
	is "$(wc -l <<<"$parents")" 1 "$b: parent_ip one kernel address at entry and exit ($parents)"
	is "$(cat "$out/left")" 0 "$b: no probe of ltt's left in kprobe_events after destroy"
	is "$(grep -c ' kp_missing' "$bt")" 0 "$b: nothing of the refused rule"
	pid=$(sed -n 's/^pid=//p' "$out/files")
	n=$(grep -cE " syscall_entry_openat: .*\{ tid = $pid \}, \{ dfd = -100, filename = \"/tmp/ltt-kprobe-eprobe-path\", flags = 577, mode = 416 \}" "$bt")
	is "$n" 1 "$b: openat's filename a string, the path kworkload opened, its other arguments as before"
	unlike "$(cat "$out/list_k")" "recorded as their addresses" "$b: list -k says nothing of addresses"
	is "$(cat "$out/eprobes_left")" 0 "$b: no event probe of ltt's left after the daemon"
	# the kprobe trigger
	is "$(cat "$out/trigger.rc") $(cat "$out/trigger_placed")" "0 1" \
		"$b: a kprobe trigger added, its probe placed in kprobe_events" || diag "$(cat "$out/trigger")"
	n=$(sed -n 's/^  fired: \([0-9]*\) times, notifications dropped: \([0-9]*\)/\1 \2/p' "$out/trigger_counters")
	n=${n:-0 0}
	is "$((${n% *} + ${n#* }))" 100 \
		"$b: kworkload's 100 getppid calls fired it: fired + dropped ($n) = 100" ||
		diag "$(cat "$out/trigger_counters")"
	like "$(cat "$out/trigger_counters")" "rule: kt \\(type: kernel:kprobe, location: __x64_sys_getppid\\)" \
		"$b: listed as LTTng lists it"
	is "$(cat "$out/trigger_missing.rc")" 1 "$b: a kprobe trigger on a missing symbol: exit 1" ||
		diag "$(cat "$out/trigger_missing")"
	is "$(cat "$out/trigger_remove.rc") $(cat "$out/trigger_left")" "0 0" \
		"$b: removed, its probe left kprobe_events"
}
check kernel_kprobe module
is "$(cat "$KVM_OUT/kernel_kprobe/placed") $(cat "$KVM_OUT/kernel_kprobe/eprobes")" "0 0" \
	"module: nothing written to kprobe_events or dynamic_events (the module places them)"
check kernel_kprobe_tracefs tracefs
is "$(cat "$KVM_OUT/kernel_kprobe_tracefs/placed")" 4 \
	"tracefs: four definitions while recording: two kprobes, a kretprobe's entry and return"
is "$(cat "$KVM_OUT/kernel_kprobe_tracefs/eprobes")" 2 \
	"tracefs: two event probes while recording: openat's, described, and the channel's copy"
kvm_kernel_clean kernel_kprobe
kvm_kernel_clean kernel_kprobe_tracefs
done_testing
