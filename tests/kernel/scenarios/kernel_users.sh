# kernel_users: a tracing group member (tracer) traces the kernel through
# the root daemon; nobody is refused, with the reason
# (test_kernel_access.sh).
start_sessiond || exit 1
mkdir -p "$LTT_OUT/tracer"
chown tracer "$LTT_OUT/tracer"
capture t_list as_user tracer lttctl list -k
capture t_create as_user tracer lttctl create kt -o "$LTT_OUT/tracer/trace"
capture t_enable as_user tracer lttctl enable-event -k ltt_logger,sched_process_exec
capture t_start as_user tracer lttctl start
as_user tracer sh -c 'echo "from tracer" >/proc/ltt-logger'
capture t_exec as_user tracer kworkload exit 7
capture t_stop as_user tracer lttctl stop
capture t_session as_user tracer lttctl list kt
capture t_destroy as_user tracer lttctl destroy kt
result t_owner "$(stat -c %U "$LTT_OUT/tracer/trace/kernel/metadata" 2>&1)"
# nobody: not in the tracing group, so its own daemon, which can't trace
# the kernel; and the root daemon's socket refuses it.
capture n_list as_user nobody lttctl list -k
capture n_create as_user nobody lttctl create kn --no-output
capture n_enable as_user nobody lttctl enable-event -k ltt_logger
capture n_root_list as_user nobody env LTT_RUNDIR=/run/ltt lttctl list -k
capture n_root_create as_user nobody env LTT_RUNDIR=/run/ltt lttctl create kn --no-output
capture sessions lttctl list
stop_sessiond
# The personal daemon nobody's lttctl create started.
pid=$(cat /nonexistent/.ltt/sessiond.pid 2>/dev/null) && kill "$pid" && wait_pid_exit "$pid"
