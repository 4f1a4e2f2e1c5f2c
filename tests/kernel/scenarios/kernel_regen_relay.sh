# kernel_regen_relay: regenerate metadata of a kernel session streamed to
# ltt-relayd on loopback after the wall clock jumped a day: the relay
# writes the trace's metadata again (test_kernel_regen.sh).
start_sessiond || exit 1
ltt-relayd -b -v -p /run/ltt-relayd.pid -o "$LTT_OUT/relay" -C tcp://127.0.0.1:0 \
	-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 </dev/null >/dev/null 2>>"$LTT_OUT/relayd.log" ||
	exit 1
cport=$(cat "$LTT_GUEST_RUNDIR/relayd-control.port")
dport=$(cat "$LTT_GUEST_RUNDIR/relayd-data.port")
capture create lttctl create krr -U "net://127.0.0.1:$cport:$dport" || exit 1
capture enable lttctl enable-event -k ltt_test_event -s krr || exit 1
capture start lttctl start krr || exit 1
echo 700 >/proc/ltt-test
now=$(date +%s)
capture date_ahead date -s "@$((now + 86400))"
capture regen_meta lttctl regenerate metadata -s krr
echo 300 >/proc/ltt-test
capture stop lttctl stop krr
capture destroy lttctl destroy krr
rpid=$(cat /run/ltt-relayd.pid)
kill -TERM "$rpid"
wait_pid_exit "$rpid" 30
date -s "@$(( $(date +%s) - 86400 ))" >/dev/null
