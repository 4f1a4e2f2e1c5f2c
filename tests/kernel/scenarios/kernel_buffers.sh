# kernel_buffers: full kernel buffers through lttctl: 2 x 4 KiB channels
# and 20000 test events, the consumers stopped during the burst (else a
# kernel that runs the consumer on the other CPU soon enough drains the
# buffers as fast as the burst fills them: sid's 7.2 did); discard mode
# counts what it drops, overwrite mode keeps the newest
# (test_kernel_workload.sh).
n=20000
result emitted $n
# emit: the burst, on CPU 0: a writer that migrated would leave older
# events in another CPU's buffer, which overwrite mode rightly keeps too.
emit() { taskset 1 sh -c "echo $n >/proc/ltt-test"; }
# stopped: every thread of the consumers is stopped (state T).
stopped() {
	! cat $(for p in $cons; do echo /proc/$p/task/*/stat; done) |
		awk '{ print $3 }' | grep -qv T
}
# emit_stopped MODE: the burst with the consumers stopped, which so read
# nothing meanwhile: what the trace holds can only be what the ring
# buffer kept at the end.
emit_stopped() {
	cons=$(pidof ltt-consumerd)
	result consumers_$1 "$cons"
	kill -STOP $cons
	n_wait=0
	while ! stopped && [ $n_wait -lt 3000 ]; do
		usleep 10000
		n_wait=$((n_wait + 1))
	done
	result stopped_before_$1 "$(stopped && echo yes || echo no)"
	emit
	result stopped_after_$1 "$(stopped && echo yes || echo no)"
	kill -CONT $cons
}
start_sessiond || exit 1
capture create_d lttctl create disc -o "$LTT_OUT/disc" || exit 1
capture chan_d lttctl enable-channel -k tiny --subbuf-size 4k --num-subbuf 2 || exit 1
capture enable_d lttctl enable-event -k ltt_test_event -c tiny || exit 1
capture start_d lttctl start || exit 1
emit_stopped d
capture stop_d lttctl stop || exit 1
capture list_d lttctl list disc
capture destroy_d lttctl destroy disc

capture create_o lttctl create ow -o "$LTT_OUT/ow" || exit 1
capture chan_o lttctl enable-channel -k tiny --overwrite --subbuf-size 4k --num-subbuf 2 || exit 1
capture enable_o lttctl enable-event -k ltt_test_event -c tiny || exit 1
capture start_o lttctl start || exit 1
emit_stopped o
capture stop_o lttctl stop || exit 1
capture list_o lttctl list ow
capture destroy_o lttctl destroy ow
stop_sessiond
