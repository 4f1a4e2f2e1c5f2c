#!/bin/bash
# startup_lttng.sh - an instrumented program's start-up with an active
# session, ltt beside LTTng, in one run (issue 60).  Run by hand only, as
# root, in a mount namespace with a /run of its own, since LTTng's root
# session daemon is the system-wide one:
#
#   unshare -m sh -c 'mount -t tmpfs none /run && bench/startup_lttng.sh build 201'
#
#   bench/startup_lttng.sh [BUILD_DIR] [RUNS]      (default: ., 201)
#
# Programs whose main() returns at once: bench/ust_flood -n 0 (ltt),
# bench/lttng/flood_lttng.c built against Debian's liblttng-ust (LTTng),
# bench/ust_flood_plain -n 0 (no tracer); ltt-inst, bench/ust_flood's
# object linked as an installed program is (no RUNPATH: its library
# found through ld.so.cache, like LTTng's program's; see below);
# BEFORE=DIR adds DIR's
# bench/ust_flood (another build's libltt-ust, same daemon; with
# BEFORE_DAEMON=1 also DIR's daemon and consumer, in a run directory of
# their own, so that a change to the daemon is measured in the same
# rounds).  Each
# daemon runs a started session recording its program's event, so each
# program's constructor waits for its channel.  RUNS rounds, each running
# every program once in turn, so that a load that changes weighs on all
# alike, starting from the next program each round.  Prints per program
# the median, 10th, 25th and 90th percentile
# wall time (bash's clock, fork and exec included), the median's excess over
# plain, and ltt's excess over LTTng's; then, load-independent, the
# system calls of one start (strace -f -c) and its instructions
# (callgrind, all threads; LTTng's listener threads are counted up to
# the program's exit).
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
RUNS=${2:-201}
lttng_setup lttng lttng-sessiond
RUNDIR_BEFORE=$BENCH_TMP/run-before
trap 'lttng_stop_daemon; LTT_RUNDIR=$RUNDIR_BEFORE daemon_stop; bench_cleanup' EXIT

declare -A bin=([plain]=$PLAIN [ltt]=$FLOOD [lttng]=$LTTNG_FLOOD)
declare -A rundir=([plain]=$LTT_RUNDIR [ltt]=$LTT_RUNDIR [lttng]=$LTT_RUNDIR)
progs=(plain ltt)
if [ -n "${BEFORE:-}" ]; then
	BEFORE=$(cd "$BEFORE" && pwd)
	bin[before]=$BEFORE/bench/ust_flood
	rundir[before]=$LTT_RUNDIR
	progs+=(before)
	if [ -n "${BEFORE_DAEMON:-}" ]; then
		rundir[before]=$RUNDIR_BEFORE
		mkdir -p "$RUNDIR_BEFORE"
		LTT_RUNDIR=$RUNDIR_BEFORE LTT_CONSUMERD_PATH=$BEFORE/src/consumerd/ltt-consumerd \
			LTT_SESSIOND_PATH=$BEFORE/src/sessiond/ltt-sessiond daemon_start
		for c in "create startup -o $BENCH_TMP/before-trace" "enable-event -u bench:flood" start; do
			# shellcheck disable=SC2086 # the words of one command
			LTT_RUNDIR=$RUNDIR_BEFORE ctl $c
		done
	fi
fi
# ltt-inst: ust_flood as a user's program finds an installed libltt-ust,
# through ld.so.cache (as LTTng's program finds Debian's liblttng-ust),
# where the build tree's searches its RUNPATH's directories first: the
# same object linked without RUNPATH, and a cache naming the build's
# library mounted over /etc/ld.so.cache in this mount namespace only (one
# of its own whose mount there propagates nowhere: never the host's cache)
if [ "$(readlink /proc/self/ns/mnt)" != "$(readlink /proc/1/ns/mnt)" ] &&
	[ "$(findmnt -n -o PROPAGATION -T /etc/ld.so.cache)" = private ] &&
	printf '%s\ninclude /etc/ld.so.conf.d/*.conf\n' "$B/src/ust/.libs" > "$BENCH_TMP/ld.so.conf" &&
	ldconfig -C "$BENCH_TMP/ld.so.cache" -f "$BENCH_TMP/ld.so.conf" &&
	mount --bind "$BENCH_TMP/ld.so.cache" /etc/ld.so.cache &&
	gcc -o "$BENCH_TMP/ust_flood_inst" "$B/bench/ust_flood.o" -L"$B/src/ust/.libs" -lltt-ust; then
	bin[ltt-inst]=$BENCH_TMP/ust_flood_inst
	rundir[ltt-inst]=$LTT_RUNDIR
	progs+=(ltt-inst)
else
	echo "$0: no ltt-inst row: it needs a private mount namespace of its own (see the header), ldconfig and gcc" >&2
fi
progs+=(lttng)

daemon_start
lttng_start_daemon
ctl create startup -o "$BENCH_TMP/ltt-trace"
ctl enable-event -u 'bench:flood'
ctl start
lttng -q create startup --output="$BENCH_TMP/lttng-trace"
lttng -q enable-event -u 'bench_lttng:flood'
lttng -q start
for p in "${progs[@]}"; do	# buffers made, consumers up
	LTT_RUNDIR=${rundir[$p]} "${bin[$p]}" -n 0 > /dev/null 2>&1
done
# lttctl's library path (bench_init put it first), which the programs do
# not need: each would search it for every library it loads (ltt's still
# search their RUNPATH's hardware directories: a build tree's, not an
# installed program's cost); the caller's own path stays (LTTng's libraries
# outside /usr)
LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
LD_LIBRARY_PATH=${LD_LIBRARY_PATH#"$B/src/lib/ltt-ctl/.libs"}
LD_LIBRARY_PATH=${LD_LIBRARY_PATH#:}
[ -n "$LD_LIBRARY_PATH" ] || unset LD_LIBRARY_PATH

echo "start-up with an active session, $RUNS rounds ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2> /dev/null || echo unknown))"
for p in "${progs[@]}"; do : > "$BENCH_TMP/$p"; done
# each round in another order, so that no program always follows the
# same one (the previous program's exit is still being handled by its
# daemons when the next one starts)
for i in $(seq "$RUNS"); do
	for k in "${!progs[@]}"; do
		p=${progs[$(((i + k) % ${#progs[@]}))]}
		t0=${EPOCHREALTIME/[.,]/}
		LTT_RUNDIR=${rundir[$p]} "${bin[$p]}" -n 0 > /dev/null 2>&1
		t1=${EPOCHREALTIME/[.,]/}
		echo $((t1 - t0)) >> "$BENCH_TMP/$p"
	done
done
# pct P < FILE: the P-th percentile, us
pct() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; print v[i] }'; }
plain=$(median < "$BENCH_TMP/plain")
for p in "${progs[@]}"; do
	m=$(median < "$BENCH_TMP/$p")
	eval "med_${p//-/_}=$m"
	printf '%-12s median %6d us  10%% %6d  25%% %6d  90%% %6d  over plain %+6d us\n' "$p" "$m" \
		"$(pct 10 < "$BENCH_TMP/$p")" "$(pct 25 < "$BENCH_TMP/$p")" \
		"$(pct 90 < "$BENCH_TMP/$p")" "$((m - plain))"
done
awk -v a="$med_ltt" -v b="$med_lttng" -v p="$plain" \
	'BEGIN { printf "ltt / LTTng, over plain (medians): %.3f\n", (a - p) / (b - p) }'
if [ -n "${bin[ltt-inst]:-}" ]; then
	awk -v a="${med_ltt_inst}" -v b="$med_lttng" -v p="$plain" \
		'BEGIN { printf "ltt-inst / LTTng, over plain (medians): %.3f\n", (a - p) / (b - p) }'
fi
echo "load at the end: $(cut -d' ' -f1 /proc/loadavg)"

# One start each, counted: system calls (all threads) and instructions.
for p in "${progs[@]}"; do
	export LTT_RUNDIR=${rundir[$p]}
	strace -f -c -o "$BENCH_TMP/strace.$p" "${bin[$p]}" -n 0 > /dev/null 2>&1
	s=$(awk '$NF == "total" { print $4 }' "$BENCH_TMP/strace.$p")
	c=n/a
	if command -v valgrind > /dev/null; then
		valgrind --tool=callgrind --callgrind-out-file="$BENCH_TMP/cg.$p" "${bin[$p]}" -n 0 \
			> /dev/null 2>&1
		c=$(awk '/^summary:/ { print $2 }' "$BENCH_TMP/cg.$p" 2> /dev/null)
	fi
	printf '%-12s system calls %5s  instructions %12s\n' "$p" "$s" "${c:-n/a}"
done
export LTT_RUNDIR=${rundir[ltt]}
