# kernel_context: context fields of kernel channels: a known process (kctxload, in its own UTS and pid namespaces, pinned, reniced, with distinct uids and gids) records test events whose every context value is known; refusals; list, MI and save/load carry them (test_kernel_context.sh)
n=400
cpu=1
nice=7
host=ltt-ctx-host
start_sessiond || exit 1
capture create lttctl create kctx -o "$LTT_OUT/trace" || exit 1
capture chan_a lttctl enable-channel -k ctxa || exit 1
capture chan_b lttctl enable-channel -k ctxb || exit 1
capture enable_a lttctl enable-event -k -c ctxa ltt_test_event || exit 1
capture enable_b lttctl enable-event -k -c ctxb ltt_test_event || exit 1
# channel ctxa: the process and scheduler contexts, in this order
capture add_a lttctl add-context -k -c ctxa -t pid -t tid -t vpid -t vtid -t ppid -t vppid \
	-t procname -t prio -t nice -t cpu_id -t hostname -t interruptible -t preemptible \
	-t need_reschedule -t migratable || exit 1
# channel ctxb: the namespaces and the ids
capture add_b lttctl add-context -k -c ctxb -t cgroup_ns -t ipc_ns -t mnt_ns -t net_ns \
	-t pid_ns -t time_ns -t user_ns -t uts_ns -t uid -t euid -t suid -t gid -t egid -t sgid \
	-t vuid -t veuid -t vsuid -t vgid -t vegid -t vsgid || exit 1
# refusals, before the start: nothing changes
capture dup lttctl add-context -k -c ctxa -t pid
capture ip lttctl add-context -k -c ctxa -t ip
capture perf lttctl add-context -k -c ctxa -t perf:cpu:cycles
capture perf_thread lttctl add-context -k -c ctxa -t perf:thread:instructions
capture list_types lttctl add-context --list -k
capture mi_types lttctl --mi xml add-context --list -k
capture list_before lttctl list kctx
capture mi_before lttctl --mi xml list kctx
capture save lttctl save kctx -o "$LTT_OUT/saved" || exit 1
capture start lttctl start || exit 1
capture late lttctl add-context -k -c ctxa -t uid
capture load_facts kctxload ctx $n $cpu $nice $host
capture stop lttctl stop || exit 1
capture destroy lttctl destroy kctx
# save/load round trip: the loaded session lists the same contexts
capture load lttctl load -i "$LTT_OUT/saved" kctx
capture list_loaded lttctl list kctx
capture destroy_loaded lttctl destroy kctx
# The raw ABI: sizes and refusals of CONTEXT_ADD
capture ktest_ctx ltt-ktest contexts
result n $n
result cpu $cpu
result nice $nice
result host $host
stop_sessiond
