#!/bin/bash
# export.sh [BUILDDIR] [N] [RUNS] - what putting a trace into SQL costs
# (lttctl export-trace, doc/sql.md), beside babeltrace2's own text
# conversion of the same trace, which reads it the same way (its library,
# source.ctf.fs, utils.muxer) and is what users run today:
#   text        babeltrace2 TRACE >/dev/null
#   sqlite      ltt-export --to=sqlite:FILE TRACE, a new file each run
#   clickhouse  ltt-export --to=clickhouse://... into a new database of a
#               server of the script's own (where Debian's
#               clickhouse-server is installed)
# The trace: tests/regression/app/ust_app -t 2 -T -n N (2 threads, each N
# ltt_test:seq and N ltt_test:types events: every common field type) with
# vpid, vtid and procname.  RUNS runs of each, in turn.  Prints the
# machine and its clock source, each one's median and best seconds,
# events per second, its ratio to the text conversion, and its largest
# RSS (GNU time); then the largest RSS again on a trace 4 times as large,
# to show that memory does not grow with the trace.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench-lib.sh"
bench_init "${1:-.}"
n=${2:-100000}
runs=${3:-5}
APP=$B/tests/regression/app/ust_app
EXPORT=$B/src/export/ltt-export
[ -x "$APP" ] || { echo "$0: make tests/regression/app/ust_app in $B first" >&2; exit 2; }
[ -x "$EXPORT" ] || { echo "$0: no $EXPORT: configure found no libbabeltrace2-dev or libsqlite3-dev" >&2; exit 2; }
BT2=$(command -v babeltrace2) || { echo "$0: needs babeltrace2" >&2; exit 2; }
CH=$(command -v clickhouse-server || ls /usr/sbin/clickhouse-server 2>/dev/null || true)

# trace NAME N: a session's trace of ust_app -t 2 -T -n N in $BENCH_TMP/NAME
trace() {
	ctl create "$1" -o "$BENCH_TMP/$1" && ctl enable-event -u 'ltt_test:seq,ltt_test:types' -s "$1" &&
		ctl add-context -u -t vpid -t vtid -t procname -s "$1" && ctl start "$1" &&
		"$APP" -t 2 -T -n "$2" >/dev/null && ctl stop "$1" && ctl destroy "$1" >/dev/null
}

ch_port=
ch_pid=
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# A ClickHouse server in $BENCH_TMP/ch (the tests' configuration: ch-config.sh)
ch_start() {
	local dir=$BENCH_TMP/ch i
	ch_port=$(free_port)
	"$top/tests/regression/export/ch-config.sh" "$dir" "$ch_port" "$(free_port)" || return 1
	"$CH" --config-file="$dir/config.xml" </dev/null >/dev/null 2>&1 &
	ch_pid=$!
	for i in $(seq 300); do
		grep -q "Ready for connections" "$dir/server.log" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "$0: clickhouse-server did not start" >&2
	kill "$ch_pid"
	ch_pid=
	return 1
}

# one CONFIG TRACE RUN: "seconds maxrss_kib" of one run
one() {
	local out=$BENCH_TMP/time.$$ what
	case $1 in
	text) what=("$BT2" "$2") ;;
	sqlite) rm -f "$BENCH_TMP/x.db"*; what=("$EXPORT" --quiet --to="sqlite:$BENCH_TMP/x.db" "$2") ;;
	clickhouse) what=("$EXPORT" --quiet --to="clickhouse://127.0.0.1:$ch_port/run$3" "$2") ;;
	esac
	/usr/bin/time -f "%e %M" -o "$out" "${what[@]}" >/dev/null 2>"$BENCH_TMP/err" ||
		{ echo "$0: $1 failed: $(tail -2 "$BENCH_TMP/err")" >&2; exit 1; }
	cat "$out"
}

daemon_start
trace t "$n" || { echo "$0: the trace was not made" >&2; exit 1; }
trace big $((4 * n)) || { echo "$0: the large trace was not made" >&2; exit 1; }
daemon_stop
events=$(( 4 * n ))
configs="text sqlite"
[ -n "$CH" ] && ch_start && configs="$configs clickhouse"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
	"load $(cut -d' ' -f1 /proc/loadavg); babeltrace2 $("$BT2" --version | head -1 | awk '{ print $2 }')"
echo "trace: $events events ($(du -sh "$BENCH_TMP/t" | cut -f1)), $runs runs of each in turn"
for r in $(seq "$runs"); do
	for c in $configs; do
		one "$c" "$BENCH_TMP/t" "$r" >>"$BENCH_TMP/$c.runs"
	done
done
text_s=$(awk '{ print $1 }' "$BENCH_TMP/text.runs" | median)
printf '%-11s %9s %9s %13s %9s %9s\n' config median_s best_s events/s ÷text maxrss_MiB
for c in $configs; do
	med=$(awk '{ print $1 }' "$BENCH_TMP/$c.runs" | median)
	best=$(awk '{ print $1 }' "$BENCH_TMP/$c.runs" | sort -n | head -1)
	rss=$(awk '{ print $2 }' "$BENCH_TMP/$c.runs" | sort -n | tail -1)
	awk -v c="$c" -v m="$med" -v b="$best" -v e="$events" -v t="$text_s" -v r="$rss" \
		'BEGIN { printf "%-11s %9.2f %9.2f %13.0f %9.2f %9.1f\n", c, m, b, e / m, m / t, r / 1024 }'
done
echo "the trace 4 times as large ($((4 * events)) events, $(du -sh "$BENCH_TMP/big" | cut -f1)): largest RSS"
for c in $configs; do
	read -r s rss <<<"$(one "$c" "$BENCH_TMP/big" big)"
	awk -v c="$c" -v s="$s" -v r="$rss" 'BEGIN { printf "%-11s %7.2f s %9.1f MiB\n", c, s, r / 1024 }'
done
[ -n "$ch_pid" ] && kill "$ch_pid" && wait "$ch_pid" 2>/dev/null
exit 0
