# kernel_sched: scheduler events of a known workload: the shell forks and
# execs kworkload, which forks a child that execs kworkload again and exits
# 42, then two SCHED_FIFO threads on CPU 1 ping-pong over pipes
# (test_kernel_workload.sh).
rounds=500
# No real-time throttling: the ping-pong threads may keep CPU 1 busy for
# more than 0.95 s under emulation; nothing else must run there meanwhile.
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
echo -1 >/proc/sys/kernel/sched_rt_runtime_us
start_sessiond ${LTT_KBACKEND:+--kernel-backend=$LTT_KBACKEND} || exit 1
capture create lttctl create sched -o "$LTT_OUT/trace" || exit 1
capture enable lttctl enable-event -k \
	sched_switch,sched_wakeup,sched_process_fork,sched_process_exec,sched_process_exit || exit 1
capture enable_sys lttctl enable-event -k --syscall exit_group || exit 1
capture start lttctl start || exit 1
capture forkexec kworkload forkexec /ltt/bin/kworkload 42
capture pingpong kworkload pingpong $rounds 1
capture stop lttctl stop || exit 1
capture destroy lttctl destroy sched
echo "$rt" >/proc/sys/kernel/sched_rt_runtime_us
result rounds $rounds
stop_sessiond
