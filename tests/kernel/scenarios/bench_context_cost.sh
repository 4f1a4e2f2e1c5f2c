# bench_context_cost: ns per test probe event recorded with 0, 1 and 4 kernel context fields, and not recorded; rounds interleaved (bench/kernel_context_cost.sh; figures, no assertions)
# Parameters from the kernel command line: kctxbench=ROUNDS,N,RUNS (default
# 3,100000,10: each configuration RUNS writes of N events a round).
# Writes runs.txt: one "RUN round=R cfg=CFG n=N runs=RUNS ns_per_event=...
# min=MIN median=MEDIAN" line per configuration and round.
set -u
arg=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^kctxbench=//p')
[ -n "$arg" ] || arg=3,100000,10
IFS=, read -r rounds n runs <<EOT
$arg
EOT
start_sessiond || exit 1

# run ROUND CFG CONTEXT...: RUNS timed writes of N events on CPU 1 (CFG "off":
# no session).  The channel overwrites: every event is written, none
# dropped, whatever the consumer's pace.
run() {
	local r=$1 cfg=$2 out
	shift 2
	if [ "$cfg" != off ]; then
		lttctl -q create b -o "$LTT_OUT/t-$r-$cfg" || exit 1
		lttctl -q enable-channel -k c --overwrite --subbuf-size 1M --num-subbuf 4 || exit 1
		lttctl -q enable-event -k -c c ltt_test_event || exit 1
		for t in "$@"; do
			lttctl -q add-context -k -c c -t "$t" || exit 1
		done
		lttctl -q start || exit 1
	fi
	out=$(kctxload time "$n" 1 "$runs") || exit 1
	echo "RUN round=$r cfg=$cfg $out" | tee -a runs.txt >/dev/console
	if [ "$cfg" != off ]; then
		lttctl -q stop && lttctl -q destroy b || exit 1
		rm -rf "$LTT_OUT/t-$r-$cfg"
	fi
}

: >runs.txt
run 0 ctx0	# warm-up, not kept
: >runs.txt
r=1
while [ "$r" -le "$rounds" ]; do
	run $r off
	run $r ctx0
	run $r ctx1 tid
	run $r ctx4 pid tid procname cpu_id
	r=$((r + 1))
done
stop_sessiond
