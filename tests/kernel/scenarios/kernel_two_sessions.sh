# kernel_two_sessions: two kernel sessions at once with different rules:
# A (test events, logger) alone for 1000 test events, A and B (test events)
# for 500 and a logger line, B alone for 200 and another line
# (test_kernel_workload.sh).
start_sessiond || exit 1
capture create_a lttctl create a -o "$LTT_OUT/a" || exit 1
capture enable_a lttctl enable-event -k ltt_test_event,ltt_logger -s a || exit 1
capture create_b lttctl create b -o "$LTT_OUT/b" || exit 1
capture enable_b lttctl enable-event -k ltt_test_event -s b || exit 1
capture start_a lttctl start a || exit 1
echo 1000 >/proc/ltt-test
capture start_b lttctl start b || exit 1
echo 500 >/proc/ltt-test
echo "both" >/proc/ltt-logger
capture stop_a lttctl stop a || exit 1
echo 200 >/proc/ltt-test
echo "b alone" >/proc/ltt-logger
capture stop_b lttctl stop b || exit 1
capture list_a lttctl list a
capture list_b lttctl list b
capture destroy lttctl destroy -a
stop_sessiond
