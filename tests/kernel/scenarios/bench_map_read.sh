# bench_map_read: ms to read every counter of a module map of 16384 pairs over its 65537 counters (1025 MAP_READs), 3 rounds of 5 passes (bench/kernel_map_read.sh)
for round in 1 2 3; do
	modprobe ltt-tracer || exit 1
	ltt-ktest mapread 5 >>mapread || exit 1
	rmmod ltt_tracer || exit 1
done
