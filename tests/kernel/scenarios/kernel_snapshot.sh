# kernel_snapshot: a kernel snapshot session through lttctl: records in a
# row (each holds the earlier events and the new ones: nothing consumed),
# -m keeps the newest packets, a lapped buffer keeps the newest events,
# tracing goes on after a record, a killed consumer's trace waits for the
# next record (test_kernel_snapshot.sh; snapshots to a relay:
# kernel_net_snapshot).
# --background keeps its log in sessiond.log (the killed consumer's case reads it)
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT
capture create lttctl create ks --snapshot -o "$LTT_OUT/snaps" || exit 1
# no --overwrite: a snapshot session's channels overwrite by default
capture chan lttctl enable-channel -k snapchan --subbuf-size 4k --num-subbuf 16 || exit 1
capture enable lttctl enable-event -k ltt_test_event -c snapchan || exit 1
capture start lttctl start || exit 1
capture list lttctl list ks
# emit N: N test events (seq 0..N-1), all on CPU 0
emit() { taskset 1 sh -c "echo $1 >/proc/ltt-test"; }
emit 300
capture rec_first lttctl snapshot record -n first
emit 200
capture rec_second lttctl snapshot record -n second
capture rec_small lttctl snapshot record -n small -m 8k
capture rec_tiny lttctl snapshot record -n tiny -m 4k
emit 100
capture rec_third lttctl snapshot record -n third
emit 5000
capture rec_lapped lttctl snapshot record -n lapped
capture stop lttctl stop
capture rec_stopped lttctl snapshot record -n stopped
capture destroy lttctl destroy ks
# the consumer killed: a snapshot trace of the module waits for the next
# command (its buffers are the tracer's), which has a new consumer take it
# over with what they hold
capture create_kd lttctl create kd --snapshot -o "$LTT_OUT/kd" || exit 1
capture enable_kd lttctl enable-event -k ltt_test_event -s kd || exit 1
capture start_kd lttctl start kd || exit 1
emit 50
cons=$(pidof ltt-consumerd)
result kd_consumers "$cons"
kill -KILL $cons
wait_for_line "$LTT_OUT/sessiond.log" "session 'kd': kernel trace .*: its consumer daemon died; it writes only snapshots"
result kd_waits $?
result kd_after_kill "$(pidof ltt-consumerd)"
emit 60
capture rec_kd lttctl snapshot record -s kd -n kd
result kd_after_rec "$(pidof ltt-consumerd)"
capture destroy_kd lttctl destroy kd
# a kernel and a user channel in one snapshot session: DIR/kernel and DIR/ust
capture create2 lttctl create both --snapshot -o "$LTT_OUT/both" || exit 1
capture enable2_k lttctl enable-event -k ltt_test_event -s both || exit 1
capture enable2_u lttctl enable-event -u 'hello_world:*' -s both || exit 1
capture start2 lttctl start both || exit 1
emit 40
capture hello hello 3
capture rec_both lttctl snapshot record -s both -n both
capture destroy2 lttctl destroy both
stop_sessiond
