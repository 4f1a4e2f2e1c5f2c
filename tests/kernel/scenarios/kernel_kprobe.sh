# kernel_kprobe: kprobes and kretprobes through lttctl (enable-event -k
# --probe, --function): one by symbol, one by address, a kretprobe, on
# __x64_sys_getppid, while kworkload makes 200 getppid() calls; a missing
# symbol refused at enable-event; openat's filename, a path kworkload
# opens; a kprobe trigger on the function, its 100 calls notified
# (test_kernel_kprobe.sh).  With LTT_KBACKEND=tracefs through the
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
# a kprobe trigger on the same function: placed through kprobe_events for
# its notifier, whichever backend records the sessions
capture trigger lttctl add-trigger --name kt --condition=event-rule-matches --type=kernel:kprobe \
	--location=__x64_sys_getppid --event-name=kt --action=notify
result trigger_placed "$(grep -c ltt_ /sys/kernel/tracing/kprobe_events)"
capture trigger_calls kworkload getppid 100
i=0
while [ $i -lt 300 ]; do
	n=$(lttctl list-triggers --counters | sed -n 's/^  fired: \([0-9]*\) times, notifications dropped: \([0-9]*\)/\1 \2/p')
	n=${n:-0 0}
	[ $((${n% *} + ${n#* })) -ge 100 ] && break
	i=$((i + 1))
done
capture trigger_counters lttctl list-triggers --counters
capture trigger_missing lttctl add-trigger --name km --condition=event-rule-matches \
	--type=kernel:kprobe --location=ltt_no_such_symbol --event-name=km --action=notify
capture trigger_remove lttctl remove-trigger kt
result trigger_left "$(grep -c ltt_ /sys/kernel/tracing/kprobe_events)"
stop_sessiond
result eprobes_left "$(grep -c '^e:ltt_' /sys/kernel/tracing/dynamic_events)"
