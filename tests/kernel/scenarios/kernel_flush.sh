# kernel_flush: stop and destroy flush everything: test events emitted just
# before stop, or before destroy without stop, are all in the trace
# (test_kernel_workload.sh).
start_sessiond || exit 1
capture create_s lttctl create stopped -o "$LTT_OUT/stopped" || exit 1
capture enable_s lttctl enable-event -k ltt_test_event || exit 1
capture start_s lttctl start || exit 1
echo 5000 >/proc/ltt-test
capture stop_s lttctl stop || exit 1
capture destroy_s lttctl destroy stopped
capture create_d lttctl create destroyed -o "$LTT_OUT/destroyed" || exit 1
capture enable_d lttctl enable-event -k ltt_test_event || exit 1
capture start_d lttctl start || exit 1
echo 3000 >/proc/ltt-test
capture destroy_d lttctl destroy destroyed
stop_sessiond
