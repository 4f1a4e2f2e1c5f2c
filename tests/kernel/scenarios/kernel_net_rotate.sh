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
# ten batches of 20000, each emitted while lttctl rotates; the next one
# starts once that rotation is done, so the load spans chunks however fast
# the guest emits
n=0 load_rc=0
while [ $n -lt 10 ]; do
	(echo 20000 >/proc/ltt-test) &
	load=$!
	lttctl -q rotate knr >>"$LTT_OUT/rotations" 2>&1 || result rotate_failed $n
	wait $load || load_rc=$?
	n=$((n + 1))
done
result load_rc $load_rc
result rotations $n
capture rotate_after lttctl rotate knr
# the clear deletes the chunk holding these 300 on the relay; the 200 stay
echo 300 >/proc/ltt-test
capture clear lttctl clear knr
echo 200 >/proc/ltt-test
capture stop lttctl stop knr
capture list lttctl list knr
capture destroy lttctl destroy knr

# scheduled P SESSION EMITTED OPTION VALUE: session SESSION rotates on its
# own (enable-rotation OPTION VALUE) while the probe emits EMITTED events,
# until chunk 2 at least; results under the prefix P
scheduled() {
	local p=$1 sess=$2 emitted=$3 opt=$4 val=$5 load
	capture ${p}_create lttctl create "$sess" -U "$RELAY_URL" || exit 1
	capture ${p}_enable lttctl enable-event -k ltt_test_event -s "$sess" || exit 1
	capture ${p}_sched lttctl enable-rotation -s "$sess" "$opt" "$val"
	capture ${p}_start lttctl start "$sess" || exit 1
	(echo "$emitted" >/proc/ltt-test) &
	load=$!
	chunk_at_least "$sess" 2
	result ${p}_chunks_rc $?
	wait $load
	result ${p}_load_rc $?
	capture ${p}_unsched lttctl disable-rotation -s "$sess" "$opt"
	capture ${p}_stop lttctl stop "$sess"
	capture ${p}_list lttctl list "$sess"
	capture ${p}_destroy lttctl destroy "$sess"
}
# a timer rotation every 0.5 s; a size rotation each 128 KiB written (a
# rotation on the relay takes a while under emulation: a longer load)
scheduled t knt 100000 --timer 500000
scheduled s kns 300000 --size 128k
stop_relayd
