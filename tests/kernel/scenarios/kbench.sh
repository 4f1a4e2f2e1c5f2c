# kbench: kernel tracing overhead, ltt beside ftrace, and the test probe's lossless rate (bench/kernel.sh; figures, no assertions)
# Parameters from the kernel command line: kbench=ROUNDS,PIPE_N,GETPPID_N,RATE_RUNS,RATE_N:RATE_N:...
# Writes runs.txt (one "RUN round=R mod=0|1 cfg=... ns=..." line per timed
# run) and rate.txt ("RATE n=... off_ns=... on_ns=... lost=..." lines).
# Each round runs every configuration once, interleaved: without the
# module loaded (no tracing, ftrace), then with it (no tracing, ltt); odd
# rounds take the two halves in the other order.
set -u
arg=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^kbench=//p')
[ -n "$arg" ] || arg=3,2000,20000,1,10000
IFS=, read -r rounds pipe_n getppid_n rate_runs rate_ns <<EOT
$arg
EOT
echo "rounds=$rounds pipe_n=$pipe_n getppid_n=$getppid_n rate_runs=$rate_runs rate_n=$rate_ns"
cat /sys/kernel/tracing/buffer_size_kb >ftrace-default-buffer-kb
cs=/sys/devices/system/clocksource/clocksource0
cat $cs/current_clocksource >clocksource
cat $cs/available_clocksource >clocksources
dmesg | grep -iE 'tsc|clocksource' >dmesg-clock

run() { # MOD CFG WORKLOAD N
	echo "round $r: $*" >/dev/console
	out=$(kbench run "$2" "$3" "$4") || { echo "kbench run $* failed"; exit 1; }
	# on the console too: a hung guest still leaves the runs before it
	echo "$out" | sed "s/^RUN /RUN round=$r mod=$1 /" | tee -a runs.txt >/dev/console
}

without_module() {
	rmmod ltt_tracer 2>/dev/null
	for w in pipe getppid; do
		n=$pipe_n
		[ $w = getppid ] && n=$getppid_n
		for c in none ftrace-sched ftrace-all ftrace-sched-mono ftrace-all-mono; do
			run 0 $c $w "$n"
		done
	done
}

with_module() {
	modprobe ltt-tracer || exit 1
	for w in pipe getppid; do
		n=$pipe_n
		[ $w = getppid ] && n=$getppid_n
		for c in none ltt-sched ltt-all ltt-all-8x512; do
			run 1 $c $w "$n"
		done
	done
}

: >runs.txt
# A warm-up round (not recorded): page cache, first module load, first
# tracefs event enable.
r=0
without_module >/dev/null
with_module >/dev/null
: >runs.txt
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		without_module
		with_module
	else
		with_module
		without_module
	fi
	r=$((r + 1))
done

# The test probe: N events on CPU 0, a reader on CPU 1.
modprobe ltt-tracer || exit 1
: >rate.txt
for n in $(echo "$rate_ns" | tr : ' '); do
	i=0
	while [ $i -lt "$rate_runs" ]; do
		kbench rate "$n" | tee -a rate.txt >/dev/console || exit 1
		i=$((i + 1))
	done
done
rmmod ltt_tracer
