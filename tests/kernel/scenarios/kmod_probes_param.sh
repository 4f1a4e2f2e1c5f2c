# kmod_probes_param: the probes= module parameter: only the named groups registered; an unknown or empty name refuses the load, naming it (test_kmod_core.sh)
ko=/lib/modules/$(uname -r)/extra/ltt-tracer.ko
loaded() { grep -c '^ltt_tracer ' /proc/modules; }
dmesg -c >/dev/null
capture bad modprobe ltt-tracer probes=sched,bogus
result bad_loaded "$(loaded)"
dmesg -c | grep 'ltt:' >bad_dmesg
capture empty insmod "$ko" probes=sched,,irq
result empty_loaded "$(loaded)"
dmesg -c | grep 'ltt:' >empty_dmesg
capture subset modprobe ltt-tracer probes=sched,syscalls
result subset_param "$(cat /sys/module/ltt_tracer/parameters/probes)"
capture subset_list ltt-ktest list
capture subset_syscalls ltt-ktest list syscalls
result subset_test_proc "$([ -e /proc/ltt-test ] && echo present || echo absent)"
result subset_logger_proc "$([ -e /proc/ltt-logger ] && echo present || echo absent)"
capture subset_rmmod rmmod ltt_tracer
capture spaces insmod "$ko" 'probes=" test , logger"'
capture spaces_list ltt-ktest list
rmmod ltt_tracer
capture blank insmod "$ko" probes=
capture all_list ltt-ktest list
capture all_syscalls ltt-ktest list syscalls
capture all_rmmod rmmod ltt_tracer
capture default modprobe ltt-tracer
capture default_list ltt-ktest list
rmmod ltt_tracer
result loaded_after "$(loaded)"
