# kernel_hotplug: buffers for the CPUs online only (kernel ABI 1.10;
# test_kernel_hotplug.sh).  Booted with 4 CPUs, maxcpus=2: CPUs 2 and 3
# possible but offline.  ltt-ktest hotplug through the raw ABI: no buffer
# for them at a channel's creation, CPU 2's made as it comes online, N
# test events written there all read back, kept while it is offline; a
# STREAM without the flag (a daemon before 1.10) makes CPU 3's.
N=3000
result n $N
result online_before "$(cat /sys/devices/system/cpu/online)"
modprobe ltt-tracer || exit 1
capture ktest ltt-ktest hotplug 2 3 $N
result online_after "$(cat /sys/devices/system/cpu/online)"
# The same through the session daemon: a kernel channel's buffers for
# CPUs 0-1 only (--mem-usage=full), CPU 2 onlined while recording: its
# stream taken on the CPU's uevent (the consumer opens its file), N test
# events written there, read whole.
start_sessiond --kernel-backend=module || exit 1
capture create lttctl create hp -o "$LTT_OUT/trace" || exit 1
capture chan lttctl enable-channel -k kch --subbuf-size 64k --num-subbuf 4 -s hp || exit 1
capture enable lttctl enable-event -k ltt_test_event -c kch -s hp || exit 1
capture start lttctl start hp || exit 1
capture mem lttctl list hp --mem-usage=full
echo 1 >/sys/devices/system/cpu/cpu2/online
result online_load "$(cat /sys/devices/system/cpu/online)"
# the consumer's file of CPU 2's stream, made once the daemon handed it over
i=0
until [ -n "$(find "$LTT_OUT/trace" -name kch_2 2>/dev/null)" ] || [ $i -ge 3000 ]; do
	usleep 10000
	i=$((i + 1))
done
result stream_file "$(find "$LTT_OUT/trace" -name kch_2 | wc -l)"
capture mem_online lttctl list hp --mem-usage=full
capture load taskset -c 2 sh -c "echo $N >/proc/ltt-test"
capture stop lttctl stop hp
capture mem_after lttctl list hp --mem-usage=full
capture destroy lttctl destroy hp
stop_sessiond
