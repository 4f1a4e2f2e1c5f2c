#!/bin/bash
# bench/memory.sh [BUILD] [EVENTS] - the memory a tracing session takes:
# the daemons' resident memory (VmRSS of the session and consumer
# daemons) and the pages the ring buffers hold (the memfds' or shm
# files' st_blocks, each counted once), for an idle session (a user-space
# channel with the defaults, every event enabled, started, no program)
# and after one small program (EVENTS events, default 1000, one thread)
# wrote into it: ltt on demand (its default), ltt preallocated, ltt after
# reclaim-memory, and LTTng 2.13 (Debian's lttng-tools, its program
# built from bench/lttng; skipped when missing).  Figures, not a test.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
EVENTS=${2:-1000}
SRC=$(cd "$(dirname "$0")" && pwd)/lttng

# rss_kib PID...: the sum of their VmRSS, KiB
rss_kib() {
	local p
	for p in "$@"; do
		awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2>/dev/null
	done | awk '{ s += $1 } END { print s + 0 }'
}

# buffer_kib PID...: the KiB the ring buffers these processes hold take,
# each file once
buffer_kib() {
	local p fd
	for p in "$@"; do
		for fd in /proc/"$p"/fd/*; do
			case $(readlink "$fd" 2>/dev/null) in
			*memfd:ltt-ust-stream* | /dev/shm/*) stat -L -c '%d:%i %b' "$fd" 2>/dev/null ;;
			esac
		done
	done | sort -u | awk '{ s += $2 } END { print s * 512 / 1024 }'
}

# with_children PID: PID and its children (the consumers it spawned)
with_children() {
	echo "$1"
	ps --ppid "$1" -o pid= 2>/dev/null
}

row() {
	printf '%-36s %10s %12s\n' "$1" "$2" "$3"
}

ltt_case() {
	local name=$1 pids
	shift
	daemon_start
	ctl create m -o "$BENCH_TMP/trace-$name" >/dev/null
	ctl enable-channel -u channel0 "$@" >/dev/null
	ctl enable-event -u -a >/dev/null
	ctl start >/dev/null
	pids=$(with_children "$(cat "$LTT_RUNDIR/sessiond.pid")")
	# shellcheck disable=SC2086
	row "ltt $name: idle session" "$(rss_kib $pids)" "$(buffer_kib $pids)"
	"$FLOOD" -n "$EVENTS" -t 1 >/dev/null
	pids=$(with_children "$(cat "$LTT_RUNDIR/sessiond.pid")")
	# shellcheck disable=SC2086
	row "ltt $name: one program" "$(rss_kib $pids)" "$(buffer_kib $pids)"
	if [ "$name" = on-demand ]; then
		"$FLOOD" -n $((EVENTS * 100)) -t 1 >/dev/null
		# shellcheck disable=SC2086
		row "ltt $name: after a burst" "$(rss_kib $pids)" "$(buffer_kib $pids)"
		ctl reclaim-memory -u -a >/dev/null
		# shellcheck disable=SC2086
		row "ltt $name: burst, reclaim-memory" "$(rss_kib $pids)" "$(buffer_kib $pids)"
	fi
	ctl destroy m >/dev/null 2>&1
	daemon_stop
}

echo "$(nproc) CPUs; user-space channel0 of 4 x 512 KiB per CPU, per-UID; $EVENTS events"
row "" "RSS KiB" "buffers KiB"
ltt_case on-demand
ltt_case preallocate --buffer-preallocation=preallocate

# LTTng's own daemon in LTTNG_HOME: root's is the system-wide one, so as
# root it runs as nobody (as bench/control.sh does).
lttng_part() {
	local lpid pids
	lttng-sessiond --daemonize --no-kernel --pidfile="$LTTNG_HOME/p.pid" >/dev/null 2>&1 ||
		{ echo "LTTng 2.13: lttng-sessiond did not start"; return; }
	lpid=$(cat "$LTTNG_HOME/p.pid")
	lttng create m -o "$LTTNG_HOME/trace" >/dev/null
	lttng enable-channel -u channel0 >/dev/null
	lttng enable-event -u -a -c channel0 >/dev/null
	lttng start >/dev/null
	pids=$(with_children "$lpid")
	# shellcheck disable=SC2086
	row "LTTng 2.13: idle session" "$(rss_kib $pids)" "$(buffer_kib $pids)"
	"$LTTNG_HOME/flood_lttng" -n "$EVENTS" >/dev/null
	pids=$(with_children "$lpid")
	# shellcheck disable=SC2086
	row "LTTng 2.13: one program" "$(rss_kib $pids)" "$(buffer_kib $pids)"
	lttng destroy m >/dev/null
	kill "$lpid"
}

LTTNG_HOME=$BENCH_TMP/lttng-home
mkdir -p "$LTTNG_HOME"
if command -v lttng-sessiond >/dev/null &&
	gcc -O2 -I"$SRC" -o "$LTTNG_HOME/flood_lttng" "$SRC/flood_lttng.c" -llttng-ust -ldl 2>/dev/null; then
	as_user=()
	if [ "$(id -u)" = 0 ]; then
		chmod 711 "$BENCH_TMP"
		chown -R 65534:65534 "$LTTNG_HOME"
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
	export LTTNG_HOME EVENTS
	export -f lttng_part rss_kib buffer_kib with_children row
	"${as_user[@]}" env HOME="$LTTNG_HOME" bash -c lttng_part
else
	echo "LTTng 2.13: skipped (needs lttng-tools and liblttng-ust)"
fi
