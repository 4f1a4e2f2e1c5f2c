#!/bin/bash
# callgrind.sh - instructions per event, counted by callgrind: the stable
# figure on a noisy machine.
#
#   bench/callgrind.sh [BUILD_DIR] [EVENTS]      (default: ., 100000)
#
# Runs bench/ust_bench -x (exactly EVENTS events per case and thread, no
# warm-up) with 1 and 2 threads, and bench/rb_bench -m self (the ring
# buffer alone: reserve, a 16-byte copy, commit), counting only the event
# loops, and prints instructions per event.  Under valgrind there is no
# vDSO and no rseq: clock_gettime() is a system call whose kernel side is
# not counted (the vDSO's is 60-90 instructions natively), and the CPU
# number costs sched_getcpu()'s fallback, about 30 instructions more than
# reading glibc's rseq area.
set -u
B=$(cd "${1:-.}" && pwd)
N=${2:-100000}
command -v valgrind > /dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
T=$(mktemp -d /tmp/ltt-callgrind.XXXXXX)
trap 'rm -rf "$T"' EXIT

# per_event FILE DIVISOR: "case instructions" for each bench_events_* loop
per_event() {
	callgrind_annotate --inclusive=yes "$1" 2> /dev/null |
		awk -v d="$2" '/:bench_events/ && !/=>/ && match($0, /:bench_events[a-z_]*/) {
			name = substr($0, RSTART + 13, RLENGTH - 13); sub(/^_/, "", name);
			if (name == "") name = "reserve+16 bytes+commit";
			n = $1; gsub(",", "", n);
			if (!(name in seen)) { seen[name] = 1; printf "  %-26s %7.1f\n", name, n / d } }'
}

for t in 1 2; do
	echo "libltt-ust (bench/ust_bench -x), $t thread(s), instructions/event:"
	LTT_RUNDIR=/nonexistent valgrind --tool=callgrind --callgrind-out-file="$T/ust.$t" \
		--toggle-collect='bench_events_*' "$B/bench/ust_bench" -x -t "$t" -n "$N" \
		> /dev/null 2>&1
	per_event "$T/ust.$t" $((N * t))
done
echo "ring buffer alone (bench/rb_bench -m self), instructions/event:"
valgrind --tool=callgrind --callgrind-out-file="$T/rb" --toggle-collect=bench_events \
	"$B/bench/rb_bench" -t 1 -m self -n "$N" > /dev/null 2>&1
per_event "$T/rb" "$N"

# Contexts (add-context): the int + string event with 0, 1 and several
# context fields in its channel (LTT_CALLGRIND_CONTEXTS=0 skips it).
if [ "${LTT_CALLGRIND_CONTEXTS:-1}" != 0 ]; then
	echo "contexts, int_string, 1 thread, instructions/event:"
	for ctx in "" vtid vpid procname ip pthread_id cpu_id net_ns vuid \
		vpid,vtid,procname vpid,vtid,procname,ip,pthread_id,cpu_id,net_ns,vuid; do
		LTT_RUNDIR=/nonexistent valgrind --tool=callgrind \
			--callgrind-out-file="$T/ctx" --toggle-collect='bench_events_*' \
			"$B/bench/ust_bench" -x -t 1 -n "$N" -c int_string ${ctx:+-C "$ctx"} \
			> /dev/null 2>&1
		per_event "$T/ctx" "$N" | sed "s/int_string/${ctx:-(none)}/"
	done
fi
