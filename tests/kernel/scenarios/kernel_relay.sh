# kernel_relay: a kernel session streamed to ltt-relayd on loopback: 1000
# test events and a logger line reach the relay (test_kernel_relay.sh).
start_sessiond || exit 1
ltt-relayd -b -p /run/ltt-relayd.pid -o "$LTT_OUT/relay" -C tcp://127.0.0.1:0 \
	-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 </dev/null >/dev/null 2>>"$LTT_OUT/relayd.log" ||
	exit 1
cport=$(cat "$LTT_GUEST_RUNDIR/relayd-control.port")
dport=$(cat "$LTT_GUEST_RUNDIR/relayd-data.port")
capture create lttctl create kr -U "net://127.0.0.1:$cport:$dport" || exit 1
capture enable lttctl enable-event -k ltt_test_event,ltt_logger -s kr || exit 1
capture start lttctl start kr || exit 1
echo 1000 >/proc/ltt-test
echo "to the relay" >/proc/ltt-logger
capture stop lttctl stop kr
capture list lttctl list kr
capture destroy lttctl destroy kr
rpid=$(cat /run/ltt-relayd.pid)
kill -TERM "$rpid"
wait_pid_exit "$rpid" 30
