#!/bin/bash
# test_ust_threads_procs.sh - many threads of one program, and many
# programs at once, writing the same per-UID buffers: every (program,
# thread) sequence complete and exact, nothing lost, one trace.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 23

T=8 N=2000		# one program: T threads x N events
P=5 PT=4 PN=2000	# P programs at once: PT threads x PN events each
OUTDIR="$TEST_TMP/trace"

ok_cmd "create" lttctl create s1 -o "$OUTDIR"
# Room for everything (about 1.3 MB of events) even if the consumer
# never ran: nothing may be discarded.
ok_cmd "per-UID channel0, 8 x 256 KiB" \
	lttctl enable-channel -u channel0 --buffers-uid --subbuf-size 256k --num-subbuf 8
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start

ust_app -t $T -n $N -r threads
is $? 0 "$T threads x $N events"

# P programs registered and waiting; closing the start FIFO releases them
# all at once.
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
pids=()
for ((p = 1; p <= P; p++)); do
	ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -t $PT -n $PN -r proc$p
	pids+=($BG_PID)
done
wait_ready $ready $P
ok $? "$P programs registered"
close_fd $go
failed=0
for pid in "${pids[@]}"; do
	wait "$pid" || failed=$((failed + 1))
done
is $failed 0 "the $P programs ran to completion"

ok_cmd "stop" lttctl stop
run lttctl list s1
like "$STDOUT" "discarded events: 0$" "list: nothing discarded"

bt "$OUTDIR" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
is "$(cat "$TEST_TMP/out.err")" "" "babeltrace2: no warning (no discarded events or packets)"
is "$(seq_check "$TEST_TMP/out" threads $T $N)" "" "$T threads: each has its $N events, once each"
for ((p = 1; p <= P; p++)); do
	is "$(seq_check "$TEST_TMP/out" proc$p $PT $PN)" "" "program $p: $PT threads x $PN events, once each"
done
total=$((T * N + P * PT * PN))
is "$(count_events "$TEST_TMP/out" ltt_test:seq)" $total "$total events in all, nothing else"
is "$(wc -l <"$TEST_TMP/out")" $total "no other event"

# Per-UID: one trace for all the programs of this user.
is "$(cd "$OUTDIR" && find . -name metadata | sort)" "./ust/uid/$(id -u)/64-bit/metadata" \
	"one per-UID trace, no per-PID one"
ncpu=$(getconf _NPROCESSORS_CONF)
is "$(cd "$OUTDIR/ust/uid/$(id -u)/64-bit" && ls channel0_* | wc -l)" "$ncpu" "one stream file per CPU"

# Several programs wrote each stream: more than one role per CPU file.
multi=$(awk '/ ltt_test:seq: / {
		match($0, /cpu_id = [0-9]+/); c = substr($0, RSTART, RLENGTH)
		match($0, /role = "[^"]*"/); r = substr($0, RSTART, RLENGTH)
		if (!seen[c, r]++) roles[c]++
	}
	END { m = 0; for (c in roles) if (roles[c] > m) m = roles[c]; print m }' "$TEST_TMP/out")
ok "$([ "$multi" -gt 1 ]; echo $?)" "programs share the per-UID streams ($multi roles in one stream)"
ok_cmd "destroy" lttctl destroy s1
done_testing
