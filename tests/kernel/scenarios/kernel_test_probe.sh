# kernel_test_probe: the root daemon loads the tracer with libkmod; a
# kernel session records exactly the N events of the test probe and the
# logger's line, beside a user-space session's events; list -k shows the
# catalog (test_kernel_session.sh).
start_sessiond -v || exit 1
capture lsmod_after_start lsmod
capture list_k lttctl list -k
capture list_kf lttctl list -k -f
capture list_sys lttctl list -k --syscall
capture create lttctl create ktest -o "$LTT_OUT/trace" || exit 1
capture enable_k lttctl enable-event -k ltt_test_event,ltt_logger || exit 1
capture enable_u lttctl enable-event -u 'hello_world:*' || exit 1
capture start lttctl start || exit 1
# Rule changes of a started session, many times over (each one syncs the
# channel's events with the tracer).
i=0
while [ $i -lt 40 ]; do
	lttctl -q disable-event -k ltt_logger && lttctl -q enable-event -k ltt_logger ||
		{ result churn_failed $i; break; }
	i=$((i + 1))
done
result churn_done $i
capture sessiond_rss sh -c "grep VmRSS /proc/$(cat /run/ltt/sessiond.pid)/status"
echo 1000 >/proc/ltt-test
echo "hello from the guest" >/proc/ltt-logger
capture hello hello 3
capture stop lttctl stop || exit 1
capture list lttctl list ktest
# After the first start a kernel channel can't be added.
capture late_channel lttctl enable-channel -k late
capture destroy lttctl destroy ktest
# Loglevels and a syscall rule on user space are refused at once.
capture create2 lttctl create refusals -o "$LTT_OUT/unused"
capture loglevel_k lttctl enable-event -k ltt_test_event --loglevel WARNING
capture unknown_k lttctl enable-event -k no_such_event
capture unknown_sys lttctl enable-event -k --syscall no_such_call
capture glob_k lttctl enable-event -k 'no_such_*'
capture create3 lttctl create nooutput --no-output
capture nooutput_k lttctl enable-event -k ltt_test_event -s nooutput
capture destroy3 lttctl destroy nooutput
capture syscall_u lttctl enable-event -u --syscall openat -s refusals
capture list_refusals lttctl list refusals
capture destroy2 lttctl destroy refusals
stop_sessiond
