# kernel_kprobe: kprobes and kretprobes through lttctl (enable-event -k
# --probe, --function): one by symbol, one by address, a kretprobe, on
# __x64_sys_getppid, while kworkload makes 200 getppid() calls; a missing
# symbol refused at enable-event; openat's filename, a path kworkload
# opens (test_kernel_kprobe.sh).  With LTT_KBACKEND=tracefs through the
# kernel's kprobe_events, and an event probe (dynamic_events' e:) for
# the system call's strings.
start_sessiond ${LTT_KBACKEND:+--kernel-backend=$LTT_KBACKEND} || exit 1
addr=$(sed -n 's/^\([0-9a-f]*\) [tT] __x64_sys_getppid$/\1/p' /proc/kallsyms | head -n 1)
result addr "$addr"
capture create lttctl create kp -o "$LTT_OUT/trace" || exit 1
capture enable_probe lttctl enable-event -k --probe=__x64_sys_getppid kp_sym
capture enable_addr lttctl enable-event -k --probe="0x$addr" kp_addr
capture enable_function lttctl enable-event -k --function=__x64_sys_getppid kf
capture enable_missing lttctl enable-event -k --probe=ltt_no_such_symbol kp_missing
capture enable_openat lttctl enable-event -k --syscall openat
capture context lttctl add-context -k -t tid
capture list_k lttctl list -k
capture list lttctl list kp
capture start lttctl start kp
result placed "$(grep -c ltt_ /sys/kernel/tracing/kprobe_events)"
result eprobes "$(grep -c '^e:ltt_' /sys/kernel/tracing/dynamic_events)"
capture calls kworkload getppid 200
capture files kworkload files /tmp/ltt-kprobe-eprobe-path
capture stop lttctl stop kp
capture destroy lttctl destroy kp
result left "$(grep -c ltt_ /sys/kernel/tracing/kprobe_events)"
stop_sessiond
result eprobes_left "$(grep -c '^e:ltt_' /sys/kernel/tracing/dynamic_events)"
