# kernel_kprobe_tracefs: kernel_kprobe through the kernel's kprobe_events
# (--kernel-backend=tracefs), in the same kernel (test_kernel_kprobe.sh).
LTT_KBACKEND=tracefs
. /ltt/scenarios/kernel_kprobe.sh
