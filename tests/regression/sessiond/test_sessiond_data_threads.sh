#!/bin/bash
# test_sessiond_data_threads.sh - ltt-sessiond --consumerd-data-threads N.
# A bad N (0, 65, abc, empty), of the option or of
# LTT_CONSUMERD_DATA_THREADS, is refused before anything starts: exit 1,
# the message, no run directory, no daemon.  A good N reaches the
# consumer the daemon spawns for a user-space session as --data-threads
# N, over an LTT_CONSUMERD_DATA_THREADS the consumer inherits: it runs
# exactly the threads data-0 .. data-(N-1) (their names, data.c).  Without
# the option the daemon passes none, and the environment variable still
# decides.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
plan 19

# --- bad values, of the option or the variable: refused with the
# message, nothing started
for v in 0 65 abc ""; do
	bad="$TEST_TMP/bad"
	run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$bad" --consumerd-data-threads "$v"
	is "$RC:$ERR" "1:ltt-sessiond: Error: --consumerd-data-threads=$v: give a number from 1 to 64" \
		"--consumerd-data-threads '$v': exit 1, says what it takes"
	ok "$([ ! -e "$bad" ] && ! pgrep -f -- "--rundir $bad( |\$)" >/dev/null; echo $?)" \
		"--consumerd-data-threads '$v': no run directory, no daemon left running"
done
for v in 0 x; do
	bad="$TEST_TMP/bad"
	run env LTT_CONSUMERD_DATA_THREADS="$v" timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$bad"
	is "$RC:$ERR" "1:ltt-sessiond: Error: LTT_CONSUMERD_DATA_THREADS=$v: give a number from 1 to 64" \
		"LTT_CONSUMERD_DATA_THREADS=$v: refused by the daemon, not by each consumer later"
	ok "$([ ! -e "$bad" ] && ! pgrep -f -- "--rundir $bad( |\$)" >/dev/null; echo $?)" \
		"LTT_CONSUMERD_DATA_THREADS=$v: no run directory, no daemon left running"
done
run env LTT_CONSUMERD_DATA_THREADS=x timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize \
	--rundir "$TEST_TMP/bad" --consumerd-data-threads 0
is "$RC:$ERR" "1:ltt-sessiond: Error: --consumerd-data-threads=0: give a number from 1 to 64" \
	"both bad: the option is named, which wins over the variable"

# daemon_consumer NAME ARGS...: a daemon started with ARGS (no kernel
# domain), a session NAME recording ltt_test:seq, a program's events in
# it, so the daemon spawned its user-space consumer: CONS, its pid;
# CMDLINE, its command line (spaces between the arguments); THREADS, its
# threads named data-*, sorted, one space after each.
daemon_consumer() {
	local name=$1
	shift
	start_sessiond "$LTT_RUNDIR" --no-kernel "$@" ||
		{ echo "Bail out! the session daemon did not start with $*"; exit 1; }
	seq_session "$name" chan
	ust_app -n 10 -r "$name" >/dev/null ||
		{ echo "Bail out! $name: the program failed"; exit 1; }
	# the program's events are in the session's buffers: the consumer is up
	CONS=$(consumer_pid)
	[ -n "$CONS" ] || { echo "Bail out! $name: no consumer"; exit 1; }
	CMDLINE=$(tr '\0' ' ' <"/proc/$CONS/cmdline")
	THREADS=$(cat "/proc/$CONS"/task/*/comm | grep '^data-' | sort | tr '\n' ' ')
	lttctl -q stop "$name" || { echo "Bail out! $name: stop"; exit 1; }
}

# stop_all: the daemon stopped and gone, its consumer with it.
stop_all() {
	stop_sessiond && wait_unlocked && wait_pid_exit "$CONS" ||
		{ echo "Bail out! the daemon or its consumer did not stop"; exit 1; }
}

# --- 2, over an environment that says 3
export LTT_CONSUMERD_DATA_THREADS=3
daemon_consumer two --consumerd-data-threads 2
like "$CMDLINE" " --data-threads 2 " "--consumerd-data-threads 2: the consumer is run with --data-threads 2"
is "$THREADS" "data-0 data-1 " "--consumerd-data-threads 2: it runs data-0 and data-1, not the environment's 3"
stop_all

# --- 1: only data-0
daemon_consumer one --consumerd-data-threads=1
like "$CMDLINE" " --data-threads 1 " "--consumerd-data-threads=1: the consumer is run with --data-threads 1"
is "$THREADS" "data-0 " "--consumerd-data-threads=1: it runs data-0 alone"
stop_all

# --- without the option: the environment decides, as before
daemon_consumer env
unlike "$CMDLINE" "--data-threads" "no --consumerd-data-threads: the consumer gets no --data-threads"
is "$THREADS" "data-0 data-1 data-2 " "no --consumerd-data-threads: LTT_CONSUMERD_DATA_THREADS=3 gives it 3"
stop_all

done_testing
