# kernel_net_rotate: kernel channels streamed to ltt-relayd: rotations while the test probe emits (each chunk archived by the relay), a clear on the relay, timer and size rotations (test_kernel_net_lifecycle.sh).
start_sessiond -v || exit 1
start_relayd || exit 1

# chunk_at_least SESSION N: until list shows trace chunk N or later (90 s at most)
chunk_at_least() {
	local i=0 c
	while :; do
		c=$(lttctl list "$1" | sed -n 's/^ *Trace chunk: \([0-9]*\);.*/\1/p')
		[ "${c:-0}" -ge "$2" ] && return 0
		[ $i -ge 900 ] && return 1
		usleep 100000
		i=$((i + 1))
	done
}

# manual rotations under load, one more after it, then a clear
capture create lttctl create knr -U "$RELAY_URL" || exit 1
capture enable lttctl enable-event -k ltt_test_event -s knr || exit 1
capture start lttctl start knr || exit 1
(echo 200000 >/proc/ltt-test) &
load=$!
n=0
while kill -0 $load 2>/dev/null && [ $n -lt 10 ]; do
	lttctl -q rotate knr >>"$LTT_OUT/rotations" 2>&1 || result rotate_failed $n
	n=$((n + 1))
done
wait $load
result load_rc $?
result rotations $n
capture rotate_after lttctl rotate knr
# the clear deletes the chunk holding these 300 on the relay; the 200 stay
echo 300 >/proc/ltt-test
capture clear lttctl clear knr
echo 200 >/proc/ltt-test
capture stop lttctl stop knr
capture list lttctl list knr
capture destroy lttctl destroy knr

# a timer rotation every 0.5 s while the probe emits
capture t_create lttctl create knt -U "$RELAY_URL" || exit 1
capture t_enable lttctl enable-event -k ltt_test_event -s knt || exit 1
capture t_sched lttctl enable-rotation -s knt --timer 500000
capture t_start lttctl start knt || exit 1
(echo 100000 >/proc/ltt-test) &
load=$!
chunk_at_least knt 2
result t_chunks_rc $?
wait $load
result t_load_rc $?
capture t_unsched lttctl disable-rotation -s knt --timer
capture t_stop lttctl stop knt
capture t_list lttctl list knt
capture t_destroy lttctl destroy knt

# a size rotation each 128 KiB written (a rotation on the relay takes a
# while under emulation: a longer load than the timer's)
capture s_create lttctl create kns -U "$RELAY_URL" || exit 1
capture s_enable lttctl enable-event -k ltt_test_event -s kns || exit 1
capture s_sched lttctl enable-rotation -s kns --size 128k
capture s_start lttctl start kns || exit 1
(echo 300000 >/proc/ltt-test) &
load=$!
chunk_at_least kns 2
result s_chunks_rc $?
wait $load
result s_load_rc $?
capture s_unsched lttctl disable-rotation -s kns --size
capture s_stop lttctl stop kns
capture s_list lttctl list kns
capture s_destroy lttctl destroy kns
stop_relayd
