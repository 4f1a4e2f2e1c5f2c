# bench_kernel_mem: a figure (bench/kernel_hotplug_mem.sh): the module's
# buffer memory of one channel (CHANNEL_MEM over every possible CPU),
# its streams asked as the session daemon asks since kernel ABI 1.10
# (the CPUs online only), then as before (every possible CPU).
modprobe ltt-tracer || exit 1
result cpus "$(cat /sys/devices/system/cpu/possible) possible, $(cat /sys/devices/system/cpu/online) online"
capture chanmem ltt-ktest chanmem "${LTT_BENCH_SUBBUF:-1048576}" "${LTT_BENCH_NSUBBUF:-4}"
