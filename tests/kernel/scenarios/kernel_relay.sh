# kernel_relay: a kernel session streamed to ltt-relayd on loopback: 1000
# test events and a logger line reach the relay (test_kernel_relay.sh).
start_sessiond || exit 1
start_relayd || exit 1
capture create lttctl create kr -U "$RELAY_URL" || exit 1
capture enable lttctl enable-event -k ltt_test_event,ltt_logger -s kr || exit 1
capture start lttctl start kr || exit 1
echo 1000 >/proc/ltt-test
echo "to the relay" >/proc/ltt-logger
capture stop lttctl stop kr
capture list lttctl list kr
capture destroy lttctl destroy kr
stop_relayd
