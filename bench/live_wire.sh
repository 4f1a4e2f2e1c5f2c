#!/bin/bash
# live_wire.sh - bytes a live session puts on the relay's data connection
# per second, for a mostly idle and a busy program, through the real
# chain (ltt-sessiond, its consumer, ltt-relayd on loopback).
#
#   bench/live_wire.sh [BUILD_DIR] [SECONDS]
#
# Defaults: ., 5 s per case.  TIMER=10000 (the live timer, µs).  Cases:
# "idle", bench/ust_flood pacing one event every 100 ms (10 events/s);
# "busy", one every 10 µs (100 000 events/s, busy-waiting).  Each case is
# a fresh live session (--live=TIMER --set-url net://127.0.0.1:CTRL:DATA);
# the consumer's counters (`lttctl list`: packets and bytes sent on the
# data connection) are read just before the program starts and just after
# it ends.  Printed per case: events/s, packets/s, bytes sent/s, and the
# bytes/s of the whole packets (packets/s x the packet size the relay
# indexed), which is what goes on the wire when the padding travels.
# CONSUMERD=PATH runs another consumer (an older build, to compare).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
SECS=${2:-5}
TIMER=${TIMER:-10000}
RELAYD=$B/src/relayd/ltt-relayd
[ -x "$RELAYD" ] || { echo "$0: $RELAYD missing: build the tree (make) in $B first" >&2; exit 2; }

relay_stop() {
	[ -f "$BENCH_TMP/relayd.pid" ] && kill "$(cat "$BENCH_TMP/relayd.pid")" 2>/dev/null
	rm -f "$BENCH_TMP/relayd.pid"
}
trap 'relay_stop; bench_cleanup' EXIT

daemon_start
"$RELAYD" -b -o "$BENCH_TMP/relay" -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
	-L tcp://127.0.0.1:0 -p "$BENCH_TMP/relayd.pid" ||
	{ echo "$0: ltt-relayd did not start" >&2; exit 1; }
CTRL=$(cat "$LTT_RUNDIR/relayd-control.port")
DATA=$(cat "$LTT_RUNDIR/relayd-data.port")

# to_bytes N UNIT: a size as lttctl prints it ("12 KiB", "345 B"), in bytes.
to_bytes() {
	case $2 in
	B) echo "$1" ;;
	KiB) echo $(($1 << 10)) ;;
	MiB) echo $(($1 << 20)) ;;
	GiB) echo $(($1 << 30)) ;;
	esac
}

# counters SESSION: "PACKETS BYTES" sent so far on its user-space relay
# connection ("0 0" before the connection shows).
counters() {
	local p n u
	read -r p n u < <("$LTTCTL" list "$1" |
		sed -nE 's/.*Relay connection \(user space\): [a-z ]+, ([0-9]+) packets sent \(([0-9]+) ([A-Za-z]+)\).*/\1 \2 \3/p')
	[ -n "${p:-}" ] || { echo "0 0"; return; }
	echo "$p $(to_bytes "$n" "$u")"
}

# packet_size SESSION: the bytes of one packet, from the relay's index.
packet_size() {
	local idx f
	for f in "$BENCH_TMP"/relay/*/"$1"-*/ust/uid/*/64-bit/index/*.idx; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -gt 16 ] && { idx=$f; break; }
	done
	[ -n "${idx:-}" ] || { echo 0; return; }
	od -An -tx1 -v -w72 -j16 -N72 "$idx" | tr -d ' ' |
		while read -r e; do echo $((16#${e:16:16} / 8)); done
}

# one_case NAME PACE_NS EVENTS
one_case() {
	local s="wire_$1" p0 b0 p1 b1 t0 t1 us size
	ctl create "$s" --live="$TIMER" --set-url "net://127.0.0.1:$CTRL:$DATA" &&
		ctl enable-event -u bench:flood -s "$s" && ctl start "$s" || return 1
	# the program registers first (its streams), then the clock starts
	"$FLOOD" -n 1 > /dev/null
	read -r p0 b0 < <(counters "$s")
	t0=${EPOCHREALTIME/[.,]/}
	"$FLOOD" -n "$3" -p "$2" > /dev/null
	t1=${EPOCHREALTIME/[.,]/}
	read -r p1 b1 < <(counters "$s")
	ctl stop "$s"
	size=$(packet_size "$s")
	ctl destroy "$s"
	us=$((t1 - t0))
	awk -v n="$1" -v e="$3" -v us="$us" -v p=$((p1 - p0)) -v b=$((b1 - b0)) -v sz="$size" \
		'BEGIN { s = us / 1e6;
			 printf "%-5s %6.2f %10.0f %9.1f %14.0f %14.0f %8d %6.2f%%\n", n, s, e / s,
				p / s, b / s, p * sz / s, sz, p * sz ? 100 * b / (p * sz) : 0 }'
}

printf '%-5s %6s %10s %9s %14s %14s %8s %7s\n' case s events/s packets/s bytes_sent/s whole_pkts_B/s pkt_B sent/whole
one_case idle 100000000 $((SECS * 10))
one_case busy 10000 $((SECS * 100000))
