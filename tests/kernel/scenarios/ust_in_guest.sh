# ust_in_guest: the root session daemon, its consumer and lttctl as
# installed, tracing the example program in user space; the trace comes
# back for babeltrace2 on the host (test_vm.sh).
start_sessiond -v || exit 1
result sessiond_pid "$(cat /run/ltt/sessiond.pid)"
capture create lttctl create guest -o "$LTT_OUT/trace" || exit 1
capture enable lttctl enable-event -u 'hello_world:*' || exit 1
capture start lttctl start || exit 1
capture hello hello 5 || exit 1
result consumerd "$(pidof ltt-consumerd)"
capture stop lttctl stop || exit 1
capture list lttctl list guest
capture destroy lttctl destroy guest
stop_sessiond
result sessiond_gone "$([ -e /run/ltt/sessiond.pid ] && echo no || echo yes)"
