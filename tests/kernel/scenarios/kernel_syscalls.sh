# kernel_syscalls: system calls with their arguments: one session records
# openat, close and write, another every system call, both at once, while
# kworkload (on CPU 0) opens a known file, writes 1234 bytes and closes it
# (test_kernel_workload.sh).  Session all also records the scheduler's
# switches, forks and execs, the state dump and the tid, for lttng-analyses.
start_sessiond ${LTT_KBACKEND:+--kernel-backend=$LTT_KBACKEND} || exit 1
capture create_some lttctl create some -o "$LTT_OUT/some" || exit 1
capture enable_some lttctl enable-event -k --syscall openat,close,write -s some || exit 1
capture create_all lttctl create all -o "$LTT_OUT/all" || exit 1
capture enable_all lttctl enable-event -k --syscall -a -s all || exit 1
# what lttng-analyses need to know each CPU's task (test_kernel_workload.sh)
capture enable_all_sched lttctl enable-event -k sched_switch,sched_process_fork,sched_process_exec -s all || exit 1
capture enable_all_sd lttctl enable-event -k 'lttng_statedump_*' -s all || exit 1
capture context_all lttctl add-context -k -t tid -s all || exit 1
capture list_some lttctl list some
capture start_some lttctl start some || exit 1
capture start_all lttctl start all || exit 1
capture files taskset -c 0 kworkload files /tmp/kworkload.out
capture stop_some lttctl stop some || exit 1
capture stop_all lttctl stop all || exit 1
capture destroy lttctl destroy -a
stop_sessiond
