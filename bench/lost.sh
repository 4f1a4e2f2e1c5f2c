#!/bin/bash
# lost.sh - one thread writing flat out into the default channel, through
# the real session daemon and consumer: events written, recorded and lost.
#
#   bench/lost.sh [BUILD_DIR] [EVENTS] [PACE_NS...]
#
# Defaults: ., 2000000 events, and paces "0" (flat out).  Each pace (ns
# between events, 0: as fast as possible) is one run of bench/ust_flood
# in a fresh session with the default channel (per-UID buffers, discard
# mode, 4 x 512 KiB per CPU, as lttctl creates it).  Printed per run:
#
#   written    events the program recorded (its own count)
#   recorded   events in the trace (babeltrace2)
#   lost       written - recorded
#   discarded  what the trace itself says was dropped (the packets'
#              events_discarded, as babeltrace2 reports it): must equal lost
#   ns/event   the writer's speed, and the data rate it asks of the consumer
#
# Before the measured run, a one-event run creates the per-UID buffers
# and starts the consumer (COLD=1 skips it: the measured program then
# also pays for them).  CHANNEL="--subbuf-size 1M" (any enable-channel
# options) uses another channel geometry.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
EVENTS=${2:-2000000}
shift 2 2>/dev/null
PACES=${*:-0}

command -v babeltrace2 > /dev/null || { echo "$0: needs babeltrace2" >&2; exit 2; }
daemon_start
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%8s %10s %10s %10s %7s %10s %9s %9s\n' pace_ns written recorded lost lost% discarded ns/event MB/s
run=0
for pace in $PACES; do
	# a session and a trace directory of its own for each run: paces repeat
	run=$((run + 1))
	out=$BENCH_TMP/trace-$run
	ctl create "lost$run" -o "$out"
	# shellcheck disable=SC2086
	[ -n "${CHANNEL:-}" ] && ctl enable-channel -u channel0 $CHANNEL
	ctl enable-event -u 'bench:flood'
	ctl start
	[ -z "${COLD:-}" ] && "$FLOOD" -n 1 -t 1 > /dev/null
	line=$("$FLOOD" -n "$EVENTS" -t 1 -p "$pace")
	ctl stop
	[ "$run" = 1 ] && policy=$(consumer_policy)
	ctl destroy "lost$run"
	warm=1
	[ -n "${COLD:-}" ] && warm=0
	# the warm-up event is in the trace too
	written=$(( $(echo "$line" | awk '{ print $2 }') + warm ))
	nspe=$(echo "$line" | awk '{ print $6 }')
	recorded=$(babeltrace2 "$out" 2> "$BENCH_TMP/bt.err" | wc -l)
	discarded=$(grep -o 'discarded [0-9]* event' "$BENCH_TMP/bt.err" |
		awk '{ s += $2 } END { print s + 0 }')
	# an event: 4-byte header, 4-byte int, 12-byte string
	awk -v p="$pace" -v w="$written" -v r="$recorded" -v d="$discarded" -v ns="$nspe" \
		'BEGIN { printf "%8d %10d %10d %10d %6.2f%% %10d %9.1f %9.1f\n",
			 p, w, r, w - r, 100 * (w - r) / w, d, ns, 20 * 1000 / ns }' |
		tee -a "$BENCH_TMP/runs"
done
sort -n -k5 "$BENCH_TMP/runs" | awk '{ n++; if ($4 == 0) z++; l[n] = $5 + 0 }
	END { printf "%d run(s), %d without loss; lost%%: min %.2f median %.2f max %.2f\n",
		n, z, l[1], (n % 2) ? l[(n + 1) / 2] : (l[n / 2] + l[n / 2 + 1]) / 2, l[n] }'
echo "consumer threads (scheduling class, priority, nice): ${policy:-unknown}"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
