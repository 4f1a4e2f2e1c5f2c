#!/bin/bash
# test_ust_data_threads.sh - a consumer of two data threads
# (LTT_CONSUMERD_DATA_THREADS=2, ltt-consumerd(8)) behind the real session
# daemon.  A per-UID channel written to files has a part on each data
# thread, CPU c's stream on thread c modulo 2 (doc/consumerd.md), so two
# programs pinned to an even and an odd CPU this test may run on are
# drained by two threads at once.  Checked: the consumer runs two data
# threads and puts the streams of those CPUs on threads 0 and 1; every
# event is recorded once or counted lost (recorded + discarded ==
# emitted, lttctl list, stop's warning and babeltrace2 agreeing), with the
# default buffers, with small buffers written flat out, and with small
# buffers written while the consumer is stopped (they overflow: something
# must be discarded); a stop's flush writes every part's last packet; a
# rotation under load leaves each event in exactly one chunk; a snapshot
# (its channels on one thread) holds both CPUs' events.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

export LTT_CONSUMERD_DATA_THREADS=2
# --log: the consumer's debug lines name each stream's data thread
ust_setup --log --no-kernel
command -v taskset >/dev/null || skip_all "taskset is not installed"
# An even and an odd CPU of those this test may run on (its affinity, not
# the online count): their streams go to data threads 0 and 1.
ALLOWED=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)
CPU0='' CPU1=''
for r in ${ALLOWED//,/ }; do
	for ((c = ${r%-*}; c <= ${r#*-}; c++)); do
		if ((c % 2 == 0)); then : "${CPU0:=$c}"; else : "${CPU1:=$c}"; fi
	done
done
[ -n "$CPU0" ] && [ -n "$CPU1" ] ||
	skip_all "this test may not run on both an even and an odd CPU (allowed: $ALLOWED)"
plan 32

# pinned CPU N ROLE: one program of one thread on CPU, writing N events
pinned() {
	(taskset -cp "$1" "$BASHPID" >/dev/null && ust_app -t 1 -n "$2" -r "$3")
}

# pinned_bg CPU N ROLE: the same in the background, registered (says
# "ready" on $TEST_TMP/st.ready), started when $TEST_TMP/st.go closes
# (rotate_under_load has ready, done and rounds); BG_PID
pinned_bg() {
	(
		close_fifos
		exec taskset -c "$1" timeout "$TEST_TIMEOUT" "$UST_APP" -t 1 -n "$2" -r "$3" \
			-w "$TEST_TMP/st.ready" -s "$TEST_TMP/st.go"
	) &
	BG_PID=$!
}

# both NAME N [CHANNEL OPTIONS...]: session NAME, a program on each CPU
# writing N events (roles NAME0, NAME1), stop; the checks (7 assertions).
# Sets DATA_THREADS: the consumer's data threads while they wrote; LOST.
# With BOTH_STOPPED=1 the consumer is stopped (SIGSTOP) while they write,
# and continued before the stop (the go FIFO is closed for good).
both() {
	local name=$1 n=$2 chan=channel0 rc0 rc1 p0 p1 stop_err lost d0 d1 r0 r1 cons=
	shift 2
	[ $# -gt 0 ] && chan=small
	seq_session "$name" "$chan" "$@"
	if [ "${BOTH_STOPPED:-0}" = 1 ]; then
		pinned_bg "$CPU0" "$n" "${name}0"; p0=$BG_PID
		pinned_bg "$CPU1" "$n" "${name}1"; p1=$BG_PID
		wait_ready "$ready" 2 && cons=$(consumer_pid) && stop_proc "$cons" ||
			{ echo "Bail out! $name: no consumer to stop"; exit 1; }
		close_fd "$go"
	else
		pinned "$CPU0" "$n" "${name}0" & p0=$!
		pinned "$CPU1" "$n" "${name}1" & p1=$!
	fi
	wait $p0; rc0=$?
	wait $p1; rc1=$?
	is "$rc0 $rc1" "0 0" "$name: a program on CPU $CPU0 and one on CPU $CPU1 wrote $n events each"
	# (the consumer goes with the last started session: counted before the stop)
	DATA_THREADS=$(cat /proc/"$(consumer_pid)"/task/*/comm 2>/dev/null | grep -c '^data-')
	[ -n "$cons" ] && kill -CONT "$cons"
	run lttctl stop "$name"
	is "$RC" 0 "$name: stop"
	stop_err=$ERR
	lost=$(lttctl list "$name" | sed -n 's/^ *discarded events: //p')
	like "$lost" '^[0-9]+$' "$name: list counts the discarded events"
	if [ "${lost:-0}" -gt 0 ]; then
		like "$stop_err" "channel '$chan' of session '$name' discarded $lost events" \
			"$name: stop warns with the same count"
	else
		is "$stop_err" "" "$name: stop warns of nothing: nothing was discarded"
	fi
	bt "$TEST_TMP/$name" "$TEST_TMP/$name.out"
	read -r d0 r0 n0 <<<"$(dups_and_range "$TEST_TMP/$name.out" "${name}0" 1 "$n")"
	read -r d1 r1 n1 <<<"$(dups_and_range "$TEST_TMP/$name.out" "${name}1" 1 "$n")"
	is "$d0 $r0 $d1 $r1" "0 0 0 0" "$name: no event recorded twice or out of range"
	is $((n0 + n1 + ${lost:-0})) $((2 * n)) \
		"$name: recorded ($n0 + $n1) + discarded (${lost:-0}) == emitted, exactly"
	is "$(discarded "$TEST_TMP/$name.out.err")" "${lost:-none}" \
		"$name: babeltrace2 reports as many discarded events"
	diag "$name: ${lost:-0} of $((2 * n)) events discarded"
	LOST=${lost:-0}
}

# 1. the default channel (4 x 512 KiB a CPU), flat out on both CPUs
both par 200000
is "$DATA_THREADS" 2 "the consumer runs two data threads"
for c in $CPU0 $CPU1; do
	ok "$(grep -q "channel channel0 cpu $c: on data thread $((c % 2))\$" "$SESSIOND_LOG"; echo $?)" \
		"the stream of CPU $c is on data thread $((c % 2))"
done
lttctl -q destroy par

# 2. small buffers written flat out: whether they overflow depends on the
# machine (drops then race with both threads' reads, and are counted
# exactly all the same); written while the consumer is stopped, they do
both small 100000 --subbuf-size 4k --num-subbuf 4
lttctl -q destroy small
open_fifo ready "$TEST_TMP/st.ready" && open_fifo go "$TEST_TMP/st.go" ||
	{ echo "Bail out! fifos"; exit 1; }
BOTH_STOPPED=1 both stopped 20000 --subbuf-size 4k --num-subbuf 4
ok "$([ "$LOST" -gt 0 ]; echo $?)" \
	"stopped: both CPUs' 4 x 4 KiB buffers overflowed, so the checks above saw drops ($LOST)"
lttctl -q destroy stopped

# 3. rotation under load: both CPUs' streams move at each rotation
T=2 N=1000000
lttctl -q create rot -o "$TEST_TMP/rot" && lttctl -q enable-event -u ltt_test:seq -s rot &&
	lttctl -q start rot || { echo "Bail out! session rot"; exit 1; }
rotate_under_load rot 20 $T $N
is "$APP_RC $FAILED_ROT" "0 0" "rot: $((T * N)) events written while $ROTATIONS rotations succeeded"
lttctl -q stop rot
LOST=$(lttctl list rot | sed -n 's/^ *discarded events: //p')
lttctl -q destroy rot
read -r bad full <<<"$(read_chunks -m "$TEST_TMP/rot.out" $(archives "$TEST_TMP/rot"))"
is "$bad" 0 "rot: babeltrace2 reads every chunk alone"
read -r dup range distinct <<<"$(dups_and_range "$TEST_TMP/rot.out" rot $T $N)"
is "$dup $range" "0 0" "rot: no event in two chunks, none out of range"
is $((distinct + ${LOST:-0})) $((T * N)) \
	"rot: recorded ($distinct) + discarded (${LOST:-0}) == emitted, across $full chunk(s)"

# 4. a snapshot session: its channels run on one data thread
SUBBUF=4096
lttctl -q create snap --snapshot -o "$TEST_TMP/snaps" &&
	lttctl -q enable-channel -u chan --subbuf-size $SUBBUF --num-subbuf 8 &&
	lttctl -q enable-event -u ltt_test:seq -c chan && lttctl -q start ||
	{ echo "Bail out! session snap"; exit 1; }
pinned "$CPU0" 100 snap0 && pinned "$CPU1" 100 snap1
is $? 0 "snap: a program on each CPU wrote 100 events"
run lttctl snapshot record
is "$RC" 0 "snap: record"
bt "$(printf '%s\n' "$STDOUT" | tail -n 1)" "$TEST_TMP/snap.out"
read -r d0 r0 n0 <<<"$(dups_and_range "$TEST_TMP/snap.out" snap0 1 100)"
read -r d1 r1 n1 <<<"$(dups_and_range "$TEST_TMP/snap.out" snap1 1 100)"
is "$d0 $r0 $n0 $d1 $r1 $n1" "0 0 100 0 0 100" "snap: the snapshot holds both CPUs' 100 events, once each"
lttctl -q destroy snap

done_testing
