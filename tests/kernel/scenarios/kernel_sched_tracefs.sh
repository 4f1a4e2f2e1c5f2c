# kernel_sched_tracefs: kernel_sched through the kernel's own tracing
# buffers (--kernel-backend=tracefs), in the same kernel: the same
# workload, the same checks where the backends agree
# (test_kernel_workload.sh).
LTT_KBACKEND=tracefs
. /ltt/scenarios/kernel_sched.sh

# The kernel's own filter on this kernel: what ftrace takes of a filter
# (a biased prio, the CPU, a glob), read back from the instance.
start_sessiond --kernel-backend=tracefs || exit 1
capture pre_create lttctl create pre -o "$LTT_OUT/pre" || exit 1
capture pre_enable lttctl enable-event -k sched_switch \
	--filter 'prev_prio < 20 || $ctx.cpu_id == 1 || next_comm == "kw*"' || exit 1
capture pre_start lttctl start || exit 1
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
result prefilter "$(cat "$tfs"/instances/ltt-*/events/sched/sched_switch/filter)"
capture pre_destroy lttctl destroy pre
stop_sessiond

# module_load through tracefs: its taints written as lttng-modules'
# enumeration taint (doc/ctf.md), the module's own letters beside it.
rmmod ltt_tracer 2>/dev/null
start_sessiond --kernel-backend=tracefs || exit 1
capture mod_create lttctl create mod -o "$LTT_OUT/mod" || exit 1
capture mod_enable lttctl enable-event -k module_load || exit 1
capture mod_start lttctl start mod || exit 1
capture mod_load modprobe ltt-tracer
result mod_taint "$(cat /sys/module/ltt_tracer/taint)"
capture mod_stop lttctl stop mod
capture mod_destroy lttctl destroy mod
stop_sessiond
rmmod ltt_tracer
