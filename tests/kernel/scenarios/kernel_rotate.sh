# kernel_rotate: a kernel session's trace chunks: rotations while the
# test probe emits (each archive read alone on the host, every event once
# across them), then a clear (test_kernel_rotate.sh).
start_sessiond -v || exit 1
capture create lttctl create krot -o "$LTT_OUT/trace" || exit 1
capture enable lttctl enable-event -k ltt_test_event || exit 1
capture start lttctl start || exit 1
# rotations under load: ten batches of 20000, each emitted in the
# background while lttctl rotates; the next batch starts once that rotation
# is done, so the load spans chunks whatever the guest's speed
n=0 load_rc=0
while [ $n -lt 10 ]; do
	(echo 20000 >/proc/ltt-test) &
	load=$!
	lttctl -q rotate >>"$LTT_OUT/rotations" || result rotate_failed $n
	wait $load || load_rc=$?
	n=$((n + 1))
done
result load_rc $load_rc
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
