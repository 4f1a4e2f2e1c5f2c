# kernel_buffers: full kernel buffers through lttctl: 2 x 4 KiB channels
# and 20000 test events; discard mode counts what it drops, overwrite mode
# keeps the newest (the consumers stopped during the burst)
# (test_kernel_workload.sh).
n=20000
result emitted $n
# emit: the burst, on CPU 0: a writer that migrated would leave older
# events in another CPU's buffer, which overwrite mode rightly keeps too.
emit() { taskset 1 sh -c "echo $n >/proc/ltt-test"; }
start_sessiond || exit 1
capture create_d lttctl create disc -o "$LTT_OUT/disc" || exit 1
capture chan_d lttctl enable-channel -k tiny --subbuf-size 4k --num-subbuf 2 || exit 1
capture enable_d lttctl enable-event -k ltt_test_event -c tiny || exit 1
capture start_d lttctl start || exit 1
emit
capture stop_d lttctl stop || exit 1
capture list_d lttctl list disc
capture destroy_d lttctl destroy disc

capture create_o lttctl create ow -o "$LTT_OUT/ow" || exit 1
capture chan_o lttctl enable-channel -k tiny --overwrite --subbuf-size 4k --num-subbuf 2 || exit 1
capture enable_o lttctl enable-event -k ltt_test_event -c tiny || exit 1
capture start_o lttctl start || exit 1
# Stopped consumers read nothing during the burst: what the trace holds
# can only be what the ring buffer kept at the end.
cons=$(pidof ltt-consumerd)
result consumers "$cons"
# stopped: every thread of the consumers is stopped (state T).
stopped() {
	! cat $(for p in $cons; do echo /proc/$p/task/*/stat; done) |
		awk '{ print $3 }' | grep -qv T
}
kill -STOP $cons
n_wait=0
while ! stopped && [ $n_wait -lt 3000 ]; do
	usleep 10000
	n_wait=$((n_wait + 1))
done
result stopped_before "$(stopped && echo yes || echo no)"
emit
result stopped_after "$(stopped && echo yes || echo no)"
kill -CONT $cons
capture stop_o lttctl stop || exit 1
capture list_o lttctl list ow
capture destroy_o lttctl destroy ow
stop_sessiond
