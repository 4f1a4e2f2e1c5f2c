# kernel_usage_trigger: a channel-buffer-usage-ge trigger on a kernel
# channel of the module (test_kernel_triggers.sh): 16 KiB a CPU in discard
# mode, its consumer stopped, N test events fill the buffer of the CPU
# that emits them; the daemon reads the stream's fill from the module
# (SNAPSHOT_SPAN) and the trigger notifies wait-trigger, once.
N=5000
result emitted $N
start_sessiond -v || exit 1
capture create lttctl create ku -o "$LTT_OUT/ku" || exit 1
capture chan lttctl enable-channel -k c --subbuf-size 4k --num-subbuf 4 --discard || exit 1
capture enable lttctl enable-event -k ltt_test_event -c c || exit 1
capture start lttctl start || exit 1
capture add lttctl add-trigger --name full --condition=channel-buffer-usage-ge --session=ku \
	--channel=c -k --threshold-ratio=0.75 --action=notify || exit 1
lttctl wait-trigger full --timeout 60 >"$LTT_OUT/wait" 2>"$LTT_OUT/wait.err" &
waiter=$!
wait_for_text "$LTT_OUT/wait.err" "Waiting for trigger" || result not_subscribed 1
cons=$(pidof ltt-consumerd)
kill -STOP $cons
wait_state $cons T || result not_stopped 1
echo $N >/proc/ltt-test || exit 1
wait $waiter
result wait.rc $?
kill -CONT $cons
capture stop lttctl stop
capture list lttctl list ku
capture triggers lttctl list-triggers --counters
