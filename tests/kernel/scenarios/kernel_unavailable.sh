# kernel_unavailable: the reasons the root daemon can't trace the kernel
# (--no-kernel, the module not installed with --kernel-backend=module),
# each refusing -k commands with its message while user space still
# works; the module not installed with the default backend: tracefs
# records instead; the module loaded already (used, and left loaded);
# --kmod-probes (test_kernel_access.sh).
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
start_sessiond -v --kernel-backend=module || exit 1
try miss
stop_sessiond
cp "$LTT_OUT/sessiond.log" miss.log
# The default backend (auto): the module missing, the kernel's own
# buffers (tracefs) serve instead, on this Debian kernel.
start_sessiond || exit 1
capture auto_list lttctl list -k
capture auto_create lttctl create auto -o "$LTT_OUT/auto"
capture auto_enable lttctl enable-event -k sched_switch
capture auto_start lttctl start
capture auto_hello hello 3
capture auto_stop lttctl stop
capture auto_destroy lttctl destroy auto
stop_sessiond
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
