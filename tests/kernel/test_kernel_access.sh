#!/bin/bash
# Who may trace the kernel, and what happens when the tracer can't be
# used, in one boot: a tracing group member through the root daemon,
# nobody refused; --no-kernel and a missing module refuse -k commands with
# their reason while user space works; a module loaded before the daemon
# is used and left loaded; --kmod-probes; rmmod refused while the daemon
# holds the tracer, which it unloads when it stops.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_users kernel_unavailable kernel_rmmod
plan 56

# bt DIR: babeltrace2's text of trace DIR into STDOUT, its status in RC.
bt() {
	run timeout "$BT_TIMEOUT" babeltrace2 "$1"
}

# --- users (kernel_users) ---
s=kernel_users
kvm_scenario_ok $s
is "$(kvm_file $s t_list.rc)" 0 "tracer (tracing group) lists the kernel events through the root daemon"
like "$(kvm_file $s t_list)" 'sched_switch \(type: tracepoint\)' "... sched_switch among them"
is "$(cat "$KVM_OUT/$s"/t_{create,enable,start,stop,destroy}.rc | tr '\n' ' ')" "0 0 0 0 0 " \
	"tracer creates, enables -k, starts, stops and destroys a kernel session"
is "$(kvm_file $s t_owner)" tracer "the trace's files belong to tracer"
bt "$KVM_OUT/$s/tracer/trace"
is "$RC" 0 "babeltrace2 reads tracer's kernel trace"
is "$(grep -c ' ltt_logger: .*msg = "from tracer" }' <<<"$STDOUT")" 1 "tracer's logger line is in it"
is "$(grep -c ' sched_process_exec: .*filename = "/ltt/bin/kworkload"' <<<"$STDOUT")" 1 \
	"... and the exec of the program tracer ran"
is "$(kvm_file $s n_enable.rc)" 1 "nobody: enable-event -k fails (exit 1)"
is "$(kvm_file $s n_enable)" \
	"Error: event rule 'ltt_logger' in channel 'channel0' of session 'kn': kernel tracing needs the root session daemon; run lttctl as root or as a member of the tracing group" \
	"... its own daemon can't trace the kernel, and lttctl says what to do"
is "$(kvm_file $s n_root_list.rc)" 1 "nobody: list -k on the root daemon fails (exit 1)"
is "$(kvm_file $s n_root_list)" \
	"Error: session daemon (run directory /run/ltt): permission denied on the session daemon's socket; join the tracing group or use a personal daemon" \
	"... the root daemon's socket refuses it, and lttctl says what to do"
is "$(kvm_file $s n_root_create.rc)" 1 "nobody: create on the root daemon fails (exit 1)"
is "$(kvm_file $s sessions)" "No sessions." "nobody's attempts left nothing in the root daemon"
kvm_kernel_clean $s

# --- the tracer unavailable (kernel_unavailable) ---
s=kernel_unavailable
kvm_scenario_ok $s
m_nok="kernel tracing is disabled in this session daemon (--no-kernel); restart it without that option"
m_miss="the kernel tracer (module ltt-tracer) is not installed for the running kernel: install it (make -C kmod modules_install, depmod) and restart ltt-sessiond"
for c in nok miss; do
	[ $c = nok ] && m=$m_nok what="--no-kernel" || m=$m_miss what="module missing"
	is "$(kvm_file $s ${c}_list.rc) $(kvm_file $s ${c}_list)" "1 Error: listing the kernel events: $m" \
		"$what: list -k exits 1 with the reason"
	is "$(kvm_file $s ${c}_enable.rc) $(kvm_file $s ${c}_enable)" \
		"1 Error: event rule 'ltt_test_event' in channel 'channel0' of session '$c': $m" \
		"$what: enable-event -k exits 1 with the reason"
	is "$(kvm_file $s ${c}_channel.rc) $(kvm_file $s ${c}_channel)" \
		"1 Error: channel 'kch' of session '$c': $m" "$what: enable-channel -k exits 1 with the reason"
	is "$(cat "$KVM_OUT/$s"/${c}_{create,enable_u,start,hello,stop,destroy}.rc | tr '\n' ' ')" "0 0 0 0 0 0 " \
		"$what: a user-space session works"
	bt "$KVM_OUT/$s/$c"
	is "$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" 3 "$what: its trace has the program's 3 events"
	is "$(kvm_file $s ${c}_loaded)" 0 "$what: ltt-tracer is not loaded"
done
like "$(kvm_file $s miss.log)" \
	"ltt-sessiond: Info: kernel tracing is not available: the kernel module ltt-tracer is not installed for kernel $(kvm_file . kernel-release): install it" \
	"module missing: the daemon's log (-v) says why"
is "$(grep -c 'not available' "$KVM_OUT/$s/miss.log")" 1 "... once"
# The default backend with the module missing: tracefs, on Debian's kernel.
like "$(head -1 "$KVM_OUT/$s/auto_list")" \
	"^Kernel tracer: tracefs \\(tracefs [^)]*\\): ltt's module can't serve: the kernel module ltt-tracer is not installed" \
	"module missing, default backend: list -k says tracefs serves, and why"
is "$(cat "$KVM_OUT/$s"/auto_{create,enable,start,hello,stop,destroy}.rc | tr '\n' ' ')" "0 0 0 0 0 0 " \
	"... and a kernel session through it works"
bt "$KVM_OUT/$s/auto"
ok "$([ "$(grep -c ' sched_switch: .*prev_tid = [0-9]*, ' <<<"$STDOUT")" -gt 0 ]; echo $?)" \
	"... its trace has sched_switch events with LTTng's field names"
is "$(kvm_file $s pre_modprobe.rc)" 0 "the module loaded before the daemon starts"
like "$(kvm_file $s pre_list)" 'ltt_test_event \(type: tracepoint\)' "... the daemon uses it: list -k"
is "$(cat "$KVM_OUT/$s"/pre_{create,enable,start,stop,destroy}.rc | tr '\n' ' ')" "0 0 0 0 0 " \
	"... and a kernel session"
bt "$KVM_OUT/$s/pre"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 100 "... records the 100 test events"
is "$(kvm_file $s pre_loaded_after)" 1 "the daemon leaves loaded the module it did not load"
is "$(kvm_file $s pre_rmmod.rc)" 0 "... rmmod then unloads it"
# --kmod-probes=sched,syscalls: the module's probes= parameter.
is "$(kvm_file $s probes_param)" "sched,syscalls" "--kmod-probes: the module loaded with probes=sched,syscalls"
is "$(sed -n 's/^ *\([a-z_0-9]*\) (type: tracepoint)$/\1/p' "$KVM_OUT/$s/probes_list" | grep -vc '^sched_')" 0 \
	"--kmod-probes=sched,syscalls: list -k shows only the sched events"
like "$(kvm_file $s probes_sys)" 'openat \(type: syscall\)' "... and list -k --syscall the system calls"
is "$(kvm_file $s probes_loaded_after)" 0 "--kmod-probes: the daemon unloads the module it loaded"
kvm_kernel_clean $s

# --- rmmod while the daemon holds the tracer (kernel_rmmod) ---
s=kernel_rmmod
kvm_scenario_ok $s
is "$(kvm_file $s loaded_before) $(kvm_file $s loaded_start)" "0 1" "the daemon loads ltt-tracer at start"
is "$(kvm_file $s start.rc)" 0 "a kernel session starts"
is "$(kvm_file $s rmmod_active.rc) $(kvm_file $s rmmod_active)" "1 rmmod: ERROR: Module ltt_tracer is in use" \
	"rmmod ltt_tracer is refused while the session is active"
is "$(kvm_file $s loaded_active)" 1 "... and the module stays"
is "$(kvm_file $s rmmod_stopped.rc) $(kvm_file $s loaded_stopped)" "1 1" \
	"rmmod is refused while the stopped session exists"
bt "$KVM_OUT/$s/trace"
is "$RC" 0 "babeltrace2 reads the session's trace"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 10 "... with the 10 test events emitted while rmmod was refused"
is "$(kvm_file $s destroy.rc)" 0 "destroy succeeds"
unlike "$(kvm_file $s lsmod_after)" '^ltt_tracer ' "once the daemon stopped, lsmod has no ltt_tracer: it unloaded what it loaded"
is "$(kvm_file $s loaded_after)" 0 "... /proc/modules agrees"
kvm_kernel_clean $s
done_testing
