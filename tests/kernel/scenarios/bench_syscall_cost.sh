# bench_syscall_cost: getppid() ns/call with ltt-tracer.ko not loaded, loaded and idle, one system call event enabled, every one recorded, getppid's two events recorded or counted in a map; 3 rounds (bench/kernel_idle_cost.sh)
for round in 1 2 3; do
	ltt-ktest syscost 1000000 plain >>unloaded || exit 1
	modprobe ltt-tracer || exit 1
	sed -n 's/^attached //p' /proc/ltt-test >>attached_idle
	ltt-ktest syscost 1000000 plain >>idle || exit 1
	ltt-ktest syscost 1000000 one >>one || exit 1
	ltt-ktest syscost 200000 all >>all || exit 1
	ltt-ktest syscost 200000 rec >>rec || exit 1
	ltt-ktest syscost 200000 count >>count || exit 1
	rmmod ltt_tracer || exit 1
done
