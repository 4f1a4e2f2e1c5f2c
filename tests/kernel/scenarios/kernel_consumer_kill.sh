# kernel_consumer_kill: the kernel consumer SIGKILLed three times during a
# burst of N test events: a new one takes the trace over at once, stop
# succeeds, recorded + counted lost = emitted (test_kernel_takeover.sh).
chunks=100
per=1000
result emitted $((chunks * per))
# --background keeps its log (and its consumers') in sessiond.log
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT
capture create lttctl create kkill -o "$LTT_OUT/trace" || exit 1
capture chan lttctl enable-channel -k small --subbuf-size 16k --num-subbuf 4 || exit 1
capture enable lttctl enable-event -k ltt_test_event -c small || exit 1
capture start lttctl start || exit 1

# The burst: CHUNKS writes of PER events (each numbered from 0); at
# chunks 25, 50 and 75 it says so on one FIFO and goes on only once told
# to on the other, so each kill lands while the burst still has events to
# emit, and they are emitted while the new consumer starts.
mkfifo "$LTT_OUT/at" "$LTT_OUT/go"
(
	i=0
	while [ $i -lt $chunks ]; do
		case $i in 25|50|75) echo $i >"$LTT_OUT/at"; read -r _ <"$LTT_OUT/go" ;; esac
		echo $per >/proc/ltt-test || exit 1
		i=$((i + 1))
	done
) &
burst=$!

# wait_takeovers N: until the daemon said N takeovers (1000 tries), then
# print the consumer's pid.
wait_takeovers() {
	local i=0
	until [ "$(grep -c 'taken over by the new consumer daemon' "$LTT_OUT/sessiond.log")" -ge "$1" ]; do
		[ $i -ge 1000 ] && return 1
		usleep 10000
		i=$((i + 1))
	done
	pidof ltt-consumerd
}

kills=0
cons=$(pidof ltt-consumerd)
result consumer_0 "$cons"
while [ $kills -lt 3 ]; do
	read -r at <"$LTT_OUT/at" || break
	kill -KILL $cons
	kills=$((kills + 1))
	# the burst goes on while the daemon replaces the consumer; it waits
	# at its next stop until the takeover is done
	echo go >"$LTT_OUT/go"
	cons=$(wait_takeovers $kills) || { result no_new_consumer $kills; break; }
	result consumer_$kills "$cons"
done
result kills $kills
wait $burst
result burst_rc $?
capture stop lttctl stop
capture list lttctl list kkill
capture destroy lttctl destroy kkill
rm -f "$LTT_OUT/at" "$LTT_OUT/go"
