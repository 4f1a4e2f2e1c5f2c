# kernel_syscalls_tracefs: kernel_syscalls through the kernel's own
# tracing buffers (--kernel-backend=tracefs), in the same kernel
# (test_kernel_workload.sh).
LTT_KBACKEND=tracefs
. /ltt/scenarios/kernel_syscalls.sh
