#!/bin/bash
# triggers.sh - triggers (doc/triggers.md): how soon a matching event
# fires its trigger and reaches a subscriber, and what triggers cost an
# event they do not match.  Figures, not pass/fail.
#
#   bench/triggers.sh [BUILD_DIR] [EVENTS] [PACE_US]
#
# Defaults: ., 2000 events, one every 2000 µs.  PARTS="latency klatency
# cost" (any of them), CG_EVENTS=100000 (events per case under callgrind),
# NATIVE=1 (0: no ns/event run).
#
# latency: a session daemon of its own (no session: an event enabled only
#   in a trigger's notifier is not recorded), one trigger
#     add-trigger --condition=event-rule-matches --type=user --name=trig:stamp
#       --capture=seq --capture=t --action=notify
#   and bench/trigger_bench -m latency, which subscribes to it and emits
#   EVENTS trig:stamp events, each carrying the CLOCK_REALTIME of its
#   emission, PACE_US apart.  For each notification: its time_ns (the
#   daemon's CLOCK_REALTIME when it read the program's message and fired
#   the trigger; the actions run from there) minus the emission, and the
#   subscriber's CLOCK_REALTIME when it read the notification minus the
#   emission: p50, p90, p99, max in µs; the events emitted and notified;
#   the trigger's fired and dropped counters from list-triggers --mi xml.
#
# klatency: the same for a kernel event rule (root, tracefs): the events
#   are pread64(-1, T, 12345, SEQ) system calls (trigger_bench -k), the
#   trigger
#     add-trigger --condition=event-rule-matches --type=kernel:syscall
#       --name=pread64 --filter='count == 12345' --capture=pos --capture=buf
#   evaluated by ftrace and read by the daemon's kernel notifiers.
#
# cost: bench/trigger_bench -m cost -x under callgrind, instructions per
#   event of trig:cost (an int and an 11-character string, recorded, as
#   callgrind.sh's int_string) with no trigger, 10 triggers on another
#   event, 1 and 10 triggers on this event whose filters never match
#   ("v == -1-k"), and the 10 with the event recorded in no channel.
#   Two columns, both exact (the same every run): "in-process", all cases
#   in one program whose notifiers are set up in-process as the daemon's
#   NOTIFIER_ADD does (one per trigger, filters compiled from the event's
#   fields; the recording channel the event's first target), no daemon;
#   "daemon", each case a program run (trigger_bench -m cost -D CASE)
#   registered with a real daemon, native, that holds a session recording
#   the event and the triggers added with lttctl before the program
#   starts (its notifiers then come before its channel: see
#   bench/README.md).  Then the in-process cases natively, ns/event
#   (noisy).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
EVENTS=${2:-2000}
PACE_US=${3:-2000}
PARTS=${PARTS:-"latency klatency cost"}
CG_EVENTS=${CG_EVENTS:-100000}
TB=$B/bench/trigger_bench
[ -x "$TB" ] || { echo "$0: $TB missing: build the tree (make) in $B first" >&2; exit 2; }

# trigger_field NAME FIELD: FIELD of trigger NAME in list-triggers --mi xml
trigger_field() {
	"$LTTCTL" --mi xml list-triggers 2>/dev/null | tr -d '\n' |
		sed 's|<trigger>|\n<trigger>|g' | grep "<name>$1</name>" |
		grep -o "<$2>[^<]*</$2>" | sed "s|<$2>\(.*\)</$2>|\1|"
}

# latency_of WHAT FLAG DAEMON_ARG RULE...: trigger_bench -m latency FLAG
# against a trigger of RULE (event-rule-matches options) that notifies
latency_of() {
	local what=$1 flag=$2 darg=$3

	shift 3
	echo "== latency, $what: event -> trigger fired -> notification read" \
		"($EVENTS events, one every $PACE_US us)"
	echo "   $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M UTC')"
	daemon_start $darg
	ctl add-trigger --name lat --condition=event-rule-matches "$@" --action=notify || exit 1
	"$TB" -m latency $flag -T lat -n "$EVENTS" -p "$PACE_US" | sed 's/^/   /'
	echo "   trigger lat: fired $(trigger_field lat fired)" \
		"(warm-up events included), dropped $(trigger_field lat notificationsDropped)"
	echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	ctl remove-trigger lat
	daemon_stop
}

latency() {
	latency_of "user space" "" "" --type=user --name=trig:stamp --capture=seq --capture=t
}

# The kernel's: a system call, through ftrace (kernel-notify.c); root and tracefs.
klatency() {
	if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
		echo "== latency, kernel: needs root and a kernel with tracefs: not measured"
		return 0
	fi
	latency_of "kernel (pread64 through tracefs)" -k --kernel-backend=tracefs \
		--type=kernel:syscall --name=pread64 --filter='count == 12345' --capture=pos \
		--capture=buf
}

# per_event FILE DIVISOR: "case instructions" for each bench_events_* loop
per_event() {
	callgrind_annotate --inclusive=yes "$1" 2> /dev/null |
		awk -v d="$2" '/:bench_events_/ && !/=>/ && match($0, /:bench_events_[a-z0-9_]*/) {
			name = substr($0, RSTART + 14, RLENGTH - 14);
			n = $1; gsub(",", "", n);
			if (!(name in seen)) { seen[name] = 1; printf "%s %.1f\n", name, n / d } }'
}

CASES="none other10 this1 this10 this10_only"
declare -A WHAT=(
	[none]="no trigger"
	[other10]="10 triggers on another event (trig:other)"
	[this1]="1 trigger on this event, filter never true"
	[this10]="10 triggers on this event, filters never true"
	[this10_only]="the same 10, the event recorded in no channel"
)
declare -A INPROC DAEMON

# The in-process cases, all in one run (the notifiers set up in-process).
cost_inproc() {
	local name v

	LTT_RUNDIR=/nonexistent valgrind --tool=callgrind \
		--callgrind-out-file="$BENCH_TMP/cost.cg" --toggle-collect='bench_events_*' \
		"$TB" -m cost -x -n "$CG_EVENTS" > "$BENCH_TMP/cost.out" 2>&1 ||
		{ cat "$BENCH_TMP/cost.out" >&2; exit 1; }
	while read -r name v; do
		INPROC[$name]=$v
	done < <(per_event "$BENCH_TMP/cost.cg" "$CG_EVENTS")
}

# cg_daemon CASE: the loop of CASE under callgrind, registered with the daemon
cg_daemon() {
	LTT_UST_REGISTER_TIMEOUT=30000 valgrind --tool=callgrind \
		--callgrind-out-file="$BENCH_TMP/$1.cg" --toggle-collect='bench_events_*' \
		"$TB" -m cost -x -D "$1" -n "$CG_EVENTS" > /dev/null 2>&1
	DAEMON[$1]=$(per_event "$BENCH_TMP/$1.cg" "$CG_EVENTS" | awk '{ print $2 }')
}

# add_triggers FROM TO EVENT: triggers tFROM..tTO on EVENT, filter "v == -1-k"
add_triggers() {
	local k

	for k in $(seq "$1" "$2"); do
		ctl add-trigger --name "t$k" --condition=event-rule-matches --type=user \
			--name="$3" --filter="v == $((-1 - k))" --action=notify || exit 1
	done
}

remove_triggers() {
	local k

	for k in $(seq "$1" "$2"); do
		ctl remove-trigger "t$k"
	done
}

# The same cases through the real daemon: the triggers added with lttctl,
# the event recorded by a session in a channel as the in-process one (per
# CPU, overwrite, 4 x 256 KiB); a program (under callgrind) per case.
cost_daemon() {
	daemon_start
	ctl create cost -o "$BENCH_TMP/cost-trace"
	ctl enable-channel -u ch --overwrite --subbuf-size 256K --num-subbuf 4
	ctl enable-event -u trig:cost -c ch
	ctl start
	cg_daemon none
	add_triggers 0 9 trig:other
	cg_daemon other10
	remove_triggers 0 9
	add_triggers 0 0 trig:cost
	cg_daemon this1
	add_triggers 1 9 trig:cost
	cg_daemon this10
	ctl disable-event -u trig:cost -c ch
	cg_daemon this10_only
	ctl destroy cost
	remove_triggers 0 9
	daemon_stop
}

cost() {
	local c ref

	if command -v valgrind > /dev/null; then
		echo "== cost of trig:cost (int + string, recorded), callgrind, instructions/event"
		cost_inproc
		cost_daemon
		printf '   %-12s %10s %8s  %s\n' case in-process daemon ""
		for c in $CASES; do
			printf '   %-12s %10s %8s  %s\n' "$c" "${INPROC[$c]:--}" "${DAEMON[$c]:--}" \
				"${WHAT[$c]}"
		done
		# the same event in callgrind.sh's bench: the two should agree
		LTT_RUNDIR=/nonexistent valgrind --tool=callgrind \
			--callgrind-out-file="$BENCH_TMP/ref.cg" --toggle-collect='bench_events_*' \
			"$B/bench/ust_bench" -x -t 1 -c int_string -n "$CG_EVENTS" > /dev/null 2>&1
		ref=$(per_event "$BENCH_TMP/ref.cg" "$CG_EVENTS" | awk '{ print $2 }')
		echo "   (callgrind.sh's int_string, the same event in ust_bench: $ref)"
	else
		echo "(no valgrind: no instruction counts)"
	fi
	[ "${NATIVE:-1}" = 1 ] || return 0
	echo "== the same in-process, natively, ns/event (median of 5 runs of 2000000; noisy)," \
		"load $(cut -d' ' -f1 /proc/loadavg)"
	LTT_RUNDIR=/nonexistent "$TB" -m cost -r 5 | sed 's/^/   /'
}

for p in $PARTS; do
	case $p in
	latency) latency ;;
	klatency) klatency ;;
	cost) cost ;;
	*) echo "$0: PARTS: latency, klatency or cost, not $p" >&2; exit 2 ;;
	esac
done
