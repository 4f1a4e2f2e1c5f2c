# kernel_consumer_held: the kernel consumer SIGKILLed while it holds a
# packet it could not write (its file system full): the new one takes the
# packet back from the tracer (GET_HELD_SUBBUF) and writes it once space
# is freed; recorded + counted lost = emitted (test_kernel_takeover.sh).
n=3000
result emitted $n
mkdir -p /mnt/small
mount -t tmpfs -o size=512k tmpfs /mnt/small || exit 1
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap 'stop_sessiond; umount /mnt/small' EXIT
capture create lttctl create kheld -o /mnt/small/trace || exit 1
capture chan lttctl enable-channel -k small --subbuf-size 16k --num-subbuf 4 || exit 1
capture enable lttctl enable-event -k ltt_test_event -c small || exit 1
capture start lttctl start || exit 1
# no room left: the consumer keeps the first packet it can't write
dd if=/dev/zero of=/mnt/small/filler bs=4k 2>/dev/null
echo $n >/proc/ltt-test

# wait_log N ERE: until N lines of sessiond.log match (1000 tries).
wait_log() {
	local i=0
	until [ "$(grep -c -E "$2" "$LTT_OUT/sessiond.log")" -ge "$1" ]; do
		[ $i -ge 1000 ] && return 1
		usleep 10000
		i=$((i + 1))
	done
}

wait_log 1 "can't write packet|No space left" || result no_failure 1
cons=$(pidof ltt-consumerd)
kill -KILL $cons
wait_log 1 'taken over by the new consumer daemon' || result no_takeover 1
wait_log 1 'was held by a consumer that died: read again' || result not_taken_back 1
capture stop1 lttctl stop
rm -f /mnt/small/filler
capture start2 lttctl start
capture stop2 lttctl stop
capture list lttctl list kheld
capture destroy lttctl destroy kheld
cp -a /mnt/small/trace "$LTT_OUT/trace"
