# kmod_probes: ltt-ptest: every probe's events under a known workload, with a scratch disk for the block events; values checked on the host (test_kmod_probes.sh)
modprobe virtio_blk && wait_for_file /dev/vda 10 || echo "no /dev/vda: no block events"
modprobe ltt-tracer || exit 1
disk=""
[ -b /dev/vda ] && disk=/dev/vda
ltt-ptest "$LTT_OUT" $disk
rc=$?
result attached_after "$(sed -n 's/^attached //p' /proc/ltt-test)"
rmmod ltt_tracer
result loaded_after "$(grep -c '^ltt_tracer ' /proc/modules)"
exit $rc
