# kload-lib.sh - for the tracefs tests: their start (a root daemon
# tracing the kernel through tracefs), and programs of known kernel load
# held at a gate (kload gated): the test changes what is traced while
# they wait, then opens their gates.  Sourced after lib.sh.

KLOAD="$LTT_TOP_BUILDDIR/tests/regression/kload"
LOG="$TEST_TMP/sessiond.log"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"
declare -A GIN GOUT GPID TIDS

# tracefs_setup N [OPTION...]: skip unless root with tracefs; plan N;
# kernel_lock; then start a root daemon with --kernel-backend=tracefs and
# OPTIONs (--lttng-compat), logging to $LOG (one check).
tracefs_setup() {
	if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
		skip_all "needs root and a kernel with tracefs"
	fi
	plan "$1"
	kernel_lock
	[ -x "$KLOAD" ] || { echo "Bail out! $KLOAD not built"; exit 1; }
	tracefs_sessiond "$LOG" "${@:2}"
	ok $? "a root daemon with --kernel-backend=tracefs${2:+ ${*:2}} started"
}

# gated NAME N B A: kload gated N B A in the background, at its gate once
# its B threads run; GPID[NAME] is its pid.  It does not inherit the
# gates of the programs before it: each gate opens on its own.
gated() {
	local name=$1 in out word pid
	shift
	mkfifo "$TEST_TMP/$name.in" "$TEST_TMP/$name.out"
	(
		for in in "${GIN[@]}"; do exec {in}>&-; done
		exec "$KLOAD" gated "$@"
	) <"$TEST_TMP/$name.in" >"$TEST_TMP/$name.out" &
	exec {in}>"$TEST_TMP/$name.in" {out}<"$TEST_TMP/$name.out"
	GIN[$name]=$in
	GOUT[$name]=$out
	read -r -t "$TEST_TIMEOUT" -u "$out" word pid
	[ "$word" = ready ] || { echo "Bail out! kload $name did not get ready"; exit 1; }
	GPID[$name]=$pid
}

# gated_cpu0 NAME N: gated NAME N 0 0, the program and this shell on
# CPU 0 (a task the kernel's stopper moves runs with no switch into it)
gated_cpu0() {
	gated "$1" "$2" 0 0
	taskset -p -c 0 "${GPID[$1]}" >/dev/null
	taskset -p -c 0 $$ >/dev/null
}

# go NAME...: open their gates; wait until each made its calls; TIDS[NAME]
# is its tids, the main thread's first.
go() {
	local name fd word tids
	for name in "$@"; do
		fd=${GIN[$name]}
		exec {fd}>&-
	done
	for name in "$@"; do
		read -r -t "$TEST_TIMEOUT" -u "${GOUT[$name]}" word tids
		[ "$word" = tids ] || { echo "Bail out! kload $name did not finish"; exit 1; }
		TIDS[$name]=$tids
		wait "${GPID[$name]}"
	done
}

# analysis NAME [ARG...]: lttng-analyses' lttng-NAME on the trace in
# $TEST_TMP/t, its output in $TEST_TMP/NAME.txt; its exit status.
LA_TIMEOUT=300
analysis() {
	local name=$1
	shift
	timeout "$LA_TIMEOUT" "lttng-$name" --no-progress "$@" "$TEST_TMP/t" >"$TEST_TMP/$name.txt" 2>&1
}

# syscallstats_calls TID CALL: the CALL count of task TID in lttng-syscallstats'
# output (analysis syscallstats): its block, from its "NAME (PID, TID:
# T)" line to its "Total:"
syscallstats_calls() {
	awk -v t="TID: $1)" -v c="$2" 'index($0, t) { on = 1; next } $1 == "Total:" { on = 0 }
		on && $1 == "-" && $2 == c { print $3 }' "$TEST_TMP/syscallstats.txt"
}
