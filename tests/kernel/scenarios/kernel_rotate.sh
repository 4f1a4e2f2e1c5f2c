# kernel_rotate: a kernel session's trace chunks: rotations while the
# test probe emits (each archive read alone on the host, every event once
# across them), then a clear (test_kernel_rotate.sh).
start_sessiond -v || exit 1
capture create lttctl create krot -o "$LTT_OUT/trace" || exit 1
capture enable lttctl enable-event -k ltt_test_event || exit 1
capture start lttctl start || exit 1
# rotations under load: the probe emits in the background
(echo 200000 >/proc/ltt-test) &
load=$!
n=0
while kill -0 $load 2>/dev/null && [ $n -lt 10 ]; do
	lttctl -q rotate >>"$LTT_OUT/rotations" || result rotate_failed $n
	n=$((n + 1))
done
wait $load
result load_rc $?
result rotations $n
capture rotate_after lttctl -q rotate
# a clear drops the current chunk's events; later ones stay
echo 300 >/proc/ltt-test
capture clear lttctl clear
echo 200 >/proc/ltt-test
capture stop lttctl stop
capture list lttctl list krot
# a stopped kernel session rotates: its finalized streams get no new files
capture rotate_stopped lttctl -q rotate
capture destroy lttctl destroy krot
stop_sessiond
