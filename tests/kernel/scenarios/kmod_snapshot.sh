# kmod_snapshot: ltt-ktest snapshot in the guest: SNAPSHOT_SPAN/PEEK read without consuming, refusals, no torn packet while CPU 0 writes (test_kernel_snapshot.sh)
modprobe ltt-tracer || exit 1
capture ktest_snapshot ltt-ktest snapshot 200000
capture rmmod rmmod ltt_tracer
