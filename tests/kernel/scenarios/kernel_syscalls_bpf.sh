# kernel_syscalls_bpf: one program's system calls recorded by ltt's
# module (session module), then through tracefs by ltt's BPF program
# (session bpf; LTT_KERNEL_BPF=on: this kernel has event probes, which
# the daemon would use otherwise), in the same kernel
# (test_kernel_workload.sh): kload openat of a known path, then kload
# payloads (connect, writev, poll, ppoll, epoll_ctl, epoll_wait,
# epoll_pwait, accept, accept4).  kload's lines say its tids and fds.
CALLS=openat,connect,writev,poll,ppoll,epoll_ctl,epoll_wait,epoll_pwait,accept,accept4
: >/tmp/kbpf-probe
# record NAME DAEMON-ARGS...: a session NAME of kload's calls
record() {
	local n=$1
	shift
	start_sessiond "$@" || return 1
	capture create_$n lttctl create $n -o "$LTT_OUT/$n" || return 1
	capture enable_$n lttctl enable-event -k --syscall $CALLS -s $n || return 1
	capture context_$n lttctl add-context -k -t tid -s $n || return 1
	capture list_$n lttctl list -k || return 1
	capture start_$n lttctl start $n || return 1
	capture openat_$n kload openat /tmp/kbpf-probe 3
	capture payloads_$n kload payloads
	capture stop_$n lttctl stop $n || return 1
	capture destroy_$n lttctl destroy $n
	stop_sessiond
}
record module || exit 1
export LTT_KERNEL_BPF=on
record bpf --kernel-backend=tracefs || exit 1
unset LTT_KERNEL_BPF
