#!/bin/bash
# tracefs.sh - the tracefs kernel backend's costs (doc/kernel-tracefs.md),
# natively, as root; figures, not pass/fail (bench/README.md).
#
#   bench/tracefs.sh BUILD conv [REPS]
#	ns/event (REPS reps) and instructions/event (callgrind) of
#	ltt_ftrace_conv_page() on real pages (bench/tfs_conv capture):
#	sched_switch, getppid entry/exit, every syscall + sched events;
#	without contexts, with tid, with tid and cpu_id.
#   bench/tracefs.sh BUILD contexts [REPS]
#	ns/record and instructions/record of the same on a ping-pong's
#	read/write calls and switches, with tid alone, with the five
#	process contexts derived from the task table, and with the table's
#	events read but not written.
#   bench/tracefs.sh BUILD overhead [ROUNDS] [PINGPONG_N] [GETPPID_N]
#	kload pingpong N and kload getppid N timed untraced, with ftrace
#	alone (bench/tfs_ftrace: an instance set up as ltt's default kernel
#	channel, read by a plain read()-and-write() reader per CPU), and
#	with ltt (root ltt-sessiond --kernel-backend=tracefs, local output),
#	recording sched_switch, then every system call and ten sched
#	events; ROUNDS rounds, the three configurations in turn (the order
#	reversed every other round).  Each run's line, then per case the
#	median, min and max of ns per round trip (pingpong) or per call
#	(getppid), the events recorded and lost, and ltt / ftrace.
#   bench/tracefs.sh BUILD rate [SECONDS] [RATE...]
#	getppid() at RATE calls/s on CPU 0 (bench/tfs_pace; 0: flat out)
#	for SECONDS, recording the getppid system call only, with ftrace
#	alone (as above) and into ltt's default kernel channel: events
#	recorded and lost per rate.
#
# CHANNEL="OPTIONS" puts ltt's events in a kernel channel made with those
# enable-channel options (e.g. CHANNEL="--read-timer 200000").
#
# ltt's daemon runs in a temporary home and run directory, stopped on
# exit; ftrace instances this script's programs leave (killed) are
# removed on exit too.
. "$(dirname "$0")/bench-lib.sh"

bench_init "$1"
MODE=${2:-}
shift 2 2>/dev/null
if [ "$(id -u)" != 0 ] || [ ! -d /sys/kernel/tracing/instances ]; then
	echo "$0: needs root and tracefs at /sys/kernel/tracing" >&2
	exit 2
fi
TFS=/sys/kernel/tracing
SPID=

# Remove what this script's daemon or programs may have left behind.
tfs_cleanup() {
	local d pid
	daemon_stop
	for d in "$TFS"/instances/lttbench-*-* ${SPID:+"$TFS"/instances/ltt-$SPID-*}; do
		[ -d "$d" ] || continue
		pid=${d##*-}
		case $d in */ltt-*) ;; *) kill -0 "$pid" 2>/dev/null && continue ;; esac
		rmdir "$d" 2>/dev/null && echo "removed ftrace instance $d left behind" >&2
	done
	rm -rf "$BENCH_TMP"
}
trap tfs_cleanup EXIT
trap 'exit 130' INT TERM

KLOAD=$B/tests/regression/kload
TFS_CONV=$B/bench/tfs_conv
TFS_FTRACE=$B/bench/tfs_ftrace
TFS_PACE=$B/bench/tfs_pace
[ -x "$KLOAD" ] || make -C "$B" tests/regression/kload >/dev/null ||
	{ echo "$0: can't build tests/regression/kload" >&2; exit 2; }
SCHED_TEN="sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task
	sched_process_fork sched_process_exec sched_process_exit sched_process_free sched_process_wait"

ltt_daemon() {
	"$LTT_SESSIOND_PATH" --background --kernel-backend=tracefs </dev/null >/dev/null 2>&1 ||
		{ echo "$0: the session daemon did not start" >&2; exit 1; }
	SPID=$(cat "$LTT_RUNDIR/sessiond.pid")
}

# ltt_session SET: a session "b" recording SET (sched, all, getppid) locally.
ltt_session() {
	local e
	ctl create b -o "$BENCH_TMP/trace" || exit 1
	# CHANNEL="OPTIONS": the events in a channel with those options
	# shellcheck disable=SC2086
	[ -z "${CHANNEL:-}" ] || ctl enable-channel -k c $CHANNEL -s b || exit 1
	case $1 in
	sched) ctl enable-event -k sched_switch ${CHANNEL:+-c c} -s b ;;
	getppid) ctl enable-event -k --syscall getppid ${CHANNEL:+-c c} -s b ;;
	all)
		ctl enable-event -k --syscall -a ${CHANNEL:+-c c} -s b
		for e in $SCHED_TEN; do ctl enable-event -k "$e" ${CHANNEL:+-c c} -s b; done ;;
	esac
	ctl start b || exit 1
}

# ltt_finish: stop, print "recorded R lost L", destroy.
ltt_finish() {
	local lost rec
	ctl stop b
	lost=$("$LTTCTL" list b | sed -n 's/^ *discarded events: //p' | awk '{ s += $1 } END { print s + 0 }')
	rec=$(babeltrace2 -c sink.utils.counter "$BENCH_TMP/trace" 2>/dev/null |
		tee "$BENCH_TMP/counter.txt" | awk '$2 == "Event" { n = $1 } END { print n }')
	[ -n "$rec" ] || { echo "$0: babeltrace2's counter said:" >&2; cat "$BENCH_TMP/counter.txt" >&2; }
	ctl destroy b
	rm -rf "$BENCH_TMP/trace"
	echo "recorded ${rec:-?} lost $lost"
}

# ---- conv ----

# conv_instructions CAP [OPTION...]: callgrind's instructions in
# ltt_ftrace_conv_page() (inclusive) for one rep of tfs_conv run CAP.
conv_instructions() {
	local cap=$1
	shift
	valgrind --tool=callgrind --toggle-collect=ltt_ftrace_conv_page \
		--callgrind-out-file="$BENCH_TMP/cg.out" \
		"$TFS_CONV" run "$cap" -x "$@" >/dev/null 2>&1
	sed -n 's/^totals: \([0-9]*\).*/\1/p; s/^summary: \([0-9]*\).*/\1/p' "$BENCH_TMP/cg.out" | head -1
}

conv() {
	local reps=${1:-20} c ctx out ev ir
	"$TFS_CONV" capture "$BENCH_TMP" || exit 1
	printf '%-8s %-12s %8s %10s %12s %12s\n' case contexts events "B/event" "ns/ev med" "instr/event"
	for c in sched syscall mixed; do
		for ctx in none tid tid,cpu_id; do
			local opt=()
			[ "$ctx" = none ] || opt=(-C "$ctx")
			out=$("$TFS_CONV" run "$BENCH_TMP/$c.cap" -n "$reps" "${opt[@]}")
			ev=$(sed -n 's/^pages [0-9]* events \([0-9]*\) .*/\1/p' <<<"$out")
			ir=$(conv_instructions "$BENCH_TMP/$c.cap" "${opt[@]}")
			printf '%-8s %-12s %8s %10s %12s %12s\n' "$c" "$ctx" "$ev" \
				"$(sed -n 's/.*bytes\/event \([0-9.]*\).*/\1/p' <<<"$out")" \
				"$(sed -n 's/^ns\/event median \([0-9.]*\) best \([0-9.]*\).*/\1 (\2)/p' <<<"$out")" \
				"$(awk -v i="${ir:-0}" -v e="${ev:-0}" 'BEGIN { if (e) printf "%.1f", i / e }')"
		done
	done
}

# ---- contexts ----

# The process contexts' derivation (doc/kernel-tracefs.md, "Process
# contexts") on a context-switch-heavy load: the tasks capture's pages
# (read/write entries and exits of 20 000 ping-pong round trips, and the
# task table's events) converted with tid alone, with tid and the five
# derived contexts, and with those and the table's events read but not
# written (-T, as when the user did not enable them); ns per record
# (every record of the pages) and per event written, instructions per
# record.
contexts() {
	local reps=${1:-20} out rec ir label opt
	"$TFS_CONV" capture "$BENCH_TMP" >/dev/null || exit 1
	printf '%-34s %8s %8s %10s %14s %14s %12s\n' contexts events "tasks" "B/event" \
		"ns/rec med" "ns/ev med" "instr/rec"
	for label in "tid" "tid,procname,pid,ppid,vpid,vtid" "tid,procname,pid,ppid,vpid,vtid -T"; do
		read -r -a opt <<<"-C $label"
		out=$("$TFS_CONV" run "$BENCH_TMP/tasks.cap" -n "$reps" "${opt[@]}")
		rec=$(sed -n 's/^pages [0-9]* events \([0-9]*\) .* tasks_only \([0-9]*\)$/\1 \2/p' <<<"$out")
		ir=$(conv_instructions "$BENCH_TMP/tasks.cap" "${opt[@]}")
		read -r ev tasks <<<"$rec"
		printf '%-34s %8s %8s %10s %14s %14s %12s\n' "$label" "$ev" "$tasks" \
			"$(sed -n 's/.*bytes\/event \([0-9.]*\).*/\1/p' <<<"$out")" \
			"$(sed -n 's/^ns\/record median \([0-9.]*\) best \([0-9.]*\).*/\1 (\2)/p' <<<"$out")" \
			"$(sed -n 's/^ns\/event median \([0-9.]*\) best \([0-9.]*\).*/\1 (\2)/p' <<<"$out")" \
			"$(awk -v i="${ir:-0}" -v e="$((ev + tasks))" 'BEGIN { if (e) printf "%.1f", i / e }')"
	done
}

# ---- overhead ----

# one_run CONFIG SET LOAD N: prints "CONFIG SET LOAD ns_per_op recorded lost"
one_run() {
	local conf=$1 set=$2 load=$3 n=$4 out wall counts
	case $conf in
	none) out=$("$TFS_FTRACE" -e none -- "$KLOAD" "$load" "$n") || return 1 ;;
	ftrace) out=$("$TFS_FTRACE" -e "$set" -- "$KLOAD" "$load" "$n") || return 1 ;;
	ltt)
		ltt_session "$set"
		out=$("$TFS_FTRACE" -e none -- "$KLOAD" "$load" "$n") || return 1
		counts=$(ltt_finish)
		out="$out $counts" ;;
	esac
	wall=$(sed -n 's/.*wall_ns \([0-9]*\).*/\1/p' <<<"$out")
	echo "$conf $set $load $((wall / n)) $(sed -n 's/.*recorded \([0-9?]*\) lost \([0-9]*\).*/\1 \2/p' <<<"$out")"
}

overhead() {
	local rounds=${1:-5} ppn=${2:-50000} gpn=${3:-1000000} r set load conf confs n
	ltt_daemon
	: >"$BENCH_TMP/runs"
	for r in $(seq 0 "$rounds"); do
		confs="none ftrace ltt"
		[ $((r % 2)) = 1 ] && confs="ltt ftrace none"
		for set in sched all; do
			for load in pingpong getppid; do
				n=$ppn
				[ "$load" = getppid ] && n=$gpn
				for conf in $confs; do
					# round 0 is a warm-up, not counted
					if [ "$r" = 0 ]; then
						one_run "$conf" "$set" "$load" "$n" >/dev/null
					else
						one_run "$conf" "$set" "$load" "$n" | tee -a "$BENCH_TMP/runs"
					fi
				done
			done
		done
	done
	echo
	printf '%-6s %-9s %-7s %22s %24s %14s\n' set load config "ns/op median (min-max)" \
		"recorded median (lost)" "vs ftrace"
	for set in sched all; do
		for load in pingpong getppid; do
			fm=$(awk -v s="$set" -v l="$load" '$1 == "ftrace" && $2 == s && $3 == l { print $4 }' \
				"$BENCH_TMP/runs" | median)
			for conf in none ftrace ltt; do
				awk -v s="$set" -v l="$load" -v c="$conf" '$1 == c && $2 == s && $3 == l' \
					"$BENCH_TMP/runs" >"$BENCH_TMP/sel"
				[ -s "$BENCH_TMP/sel" ] || continue
				printf '%-6s %-9s %-7s %10s (%s-%s) %16s (%s) %13s\n' "$set" "$load" "$conf" \
					"$(cut -d' ' -f4 "$BENCH_TMP/sel" | median)" \
					"$(cut -d' ' -f4 "$BENCH_TMP/sel" | sort -n | head -1)" \
					"$(cut -d' ' -f4 "$BENCH_TMP/sel" | sort -n | tail -1)" \
					"$(cut -d' ' -f5 "$BENCH_TMP/sel" | median)" \
					"$(awk '{ s += $6 } END { print s + 0 }' "$BENCH_TMP/sel")" \
					"$(cut -d' ' -f4 "$BENCH_TMP/sel" | median |
						awk -v f="$fm" '{ if (f) printf "%.3f", $1 / f }')"
			done
		done
	done
}

# ---- rate ----

rate() {
	local secs=${1:-2} rt out rates conf
	shift
	rates=("$@")
	[ ${#rates[@]} = 0 ] && rates=(100000 200000 400000 800000 0)
	ltt_daemon
	printf '%-7s %12s %14s %12s %12s %10s\n' config "asked/s" "achieved/s" "events/s" recorded lost
	for rt in "${rates[@]}"; do
		for conf in ftrace ltt; do
			if [ $conf = ltt ]; then
				ltt_session getppid
				out=$("$TFS_PACE" "$rt" "$secs")
				out="$out $(ltt_finish)"
			else
				out=$("$TFS_FTRACE" -e getppid -- "$TFS_PACE" "$rt" "$secs" | tr '\n' ' ')
			fi
			awk -v a="$rt" -v c=$conf '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
				END { printf "%-7s %12s %14.0f %12.0f %12s %10s\n", c, a ? a : "flat out",
					v["rate"], 2 * v["rate"], v["recorded"], v["lost"] }' <<<"$out"
		done
	done
}

case $MODE in
conv) conv "$@" ;;
contexts) contexts "$@" ;;
overhead) overhead "$@" ;;
rate) rate "$@" ;;
*) echo "usage: $0 BUILD conv [REPS] | contexts [REPS] | overhead [ROUNDS] [PINGPONG_N] [GETPPID_N] | rate [SECONDS] [RATE...]" >&2
	exit 2 ;;
esac
