# kernel_sched_tracefs: kernel_sched through the kernel's own tracing
# buffers (--kernel-backend=tracefs), in the same kernel: the same
# workload, the same checks where the backends agree
# (test_kernel_workload.sh).
LTT_KBACKEND=tracefs
. /ltt/scenarios/kernel_sched.sh
