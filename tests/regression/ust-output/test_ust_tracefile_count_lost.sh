#!/bin/bash
# test_ust_tracefile_count_lost.sh - a channel with --tracefile-size and
# --tracefile-count keeps a ring of files per stream: the oldest files
# are deleted, and what they held is counted lost (discarded events, lost
# packets), exactly, across a rotation too (the files of each chunk count
# from 0; what the earlier chunk's deleted files held is carried over).
# committed = recorded + discarded; stop says the file count is why.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 9

N=50000
lttctl -q create s -o "$TEST_TMP/out" &&
	lttctl -q enable-channel -u c --subbuf-size 16k --num-subbuf 4 --tracefile-size 64k \
		--tracefile-count 2 -s s &&
	lttctl -q enable-event -u ltt_test:seq -c c -s s ||
	{ echo "Bail out! session s"; exit 1; }
ok_cmd "start" lttctl start s
open_fifo ready "$TEST_TMP/ready"
open_fifo done "$TEST_TMP/done"
open_fifo rounds "$TEST_TMP/rounds"
ust_app_bg -n $N -r r -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -p "$TEST_TMP/rounds"
APP=$BG_PID
wait_ready $ready || { echo "Bail out! the program did not register"; exit 1; }
echo go >&$rounds
wait_done $done
ok $? "round 1: $N events"
ok_cmd "rotate: the files move to a new chunk" lttctl -q rotate s
echo go >&$rounds
wait_done $done
ok $? "round 2: $N events more"
close_fd $rounds
wait $APP
run lttctl stop s
like "$ERR" "discarded [0-9]+ events: they were in the oldest trace files, deleted to keep 2 per stream \(--tracefile-count\)" \
	"stop says the file count deleted events"
lost=$(list_lost_events s)
packets=$(lttctl list s | sed -n 's/^ *lost packets: //p' | awk '{ s += $1 } END { print s + 0 }')
ok "$([ "$packets" -gt 0 ]; echo $?)" "list counts the packets of the deleted files ($packets)"
lttctl -q destroy s
read -r bad _ <<<"$(read_chunks "$TEST_TMP/all.out" $(archives "$TEST_TMP/out"))"
is "$bad" 0 "each chunk reads alone"
got=$(count_events "$TEST_TMP/all.out" ltt_test:seq)
dups=$(awk '/ ltt_test:seq: / { match($0, /seq = [0-9]+/); if (seen[substr($0, RSTART, RLENGTH)]++) d++ }
	END { print d + 0 }' "$TEST_TMP/all.out")
is "$dups" 0 "no event twice"
is "$((got + lost))" $((2 * N)) "recorded ($got) + discarded ($lost) = committed ($((2 * N)))"
done_testing
