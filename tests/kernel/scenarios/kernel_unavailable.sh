# kernel_unavailable: the reasons the root daemon can't trace the kernel
# (--no-kernel, the module not installed), each refusing -k commands with
# its message while user space still works; the module loaded already
# (used, and left loaded); --kmod-probes (test_kernel_access.sh).
ko=/lib/modules/$(uname -r)/extra/ltt-tracer.ko
loaded() { grep -c '^ltt_tracer ' /proc/modules; }

# try NAME: the kernel and user-space commands with the daemon running.
try() {
	capture $1_list lttctl list -k
	capture $1_create lttctl create $1 -o "$LTT_OUT/$1"
	capture $1_enable lttctl enable-event -k ltt_test_event
	capture $1_channel lttctl enable-channel -k kch
	capture $1_enable_u lttctl enable-event -u 'hello_world:*'
	capture $1_start lttctl start
	capture $1_hello hello 3
	capture $1_stop lttctl stop
	capture $1_destroy lttctl destroy $1
	result $1_loaded "$(loaded)"
}

start_sessiond --no-kernel || exit 1
try nok
stop_sessiond

mv "$ko" /tmp/ltt-tracer.ko && depmod || exit 1
: >"$LTT_OUT/sessiond.log"
start_sessiond -v || exit 1
try miss
stop_sessiond
cp "$LTT_OUT/sessiond.log" miss.log
mv /tmp/ltt-tracer.ko "$ko" && depmod || exit 1

capture pre_modprobe modprobe ltt-tracer
: >"$LTT_OUT/sessiond.log"
start_sessiond || exit 1
capture pre_list lttctl list -k
capture pre_create lttctl create pre -o "$LTT_OUT/pre"
capture pre_enable lttctl enable-event -k ltt_test_event
capture pre_start lttctl start
echo 100 >/proc/ltt-test
capture pre_stop lttctl stop
capture pre_destroy lttctl destroy pre
stop_sessiond
result pre_loaded_after "$(loaded)"
capture pre_rmmod rmmod ltt_tracer

: >"$LTT_OUT/sessiond.log"
start_sessiond --kmod-probes=sched,syscalls || exit 1
result probes_param "$(cat /sys/module/ltt_tracer/parameters/probes 2>&1)"
capture probes_list lttctl list -k
capture probes_sys lttctl list -k --syscall
stop_sessiond
result probes_loaded_after "$(loaded)"
