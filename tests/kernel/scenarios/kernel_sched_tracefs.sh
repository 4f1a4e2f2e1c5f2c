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
