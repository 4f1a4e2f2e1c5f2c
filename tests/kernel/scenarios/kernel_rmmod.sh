# kernel_rmmod: the root daemon holds the tracer: rmmod is refused while a
# kernel session exists; once the daemon stops, the module it loaded is
# gone (test_kernel_access.sh).
loaded() { grep -c '^ltt_tracer ' /proc/modules; }
result loaded_before "$(loaded)"
start_sessiond || exit 1
result loaded_start "$(loaded)"
capture create lttctl create held -o "$LTT_OUT/trace"
capture enable lttctl enable-event -k ltt_test_event
capture start lttctl start
echo 10 >/proc/ltt-test
capture rmmod_active rmmod ltt_tracer
result loaded_active "$(loaded)"
capture stop lttctl stop
capture rmmod_stopped rmmod ltt_tracer
result loaded_stopped "$(loaded)"
capture destroy lttctl destroy held
stop_sessiond
capture lsmod_after lsmod
result loaded_after "$(loaded)"
