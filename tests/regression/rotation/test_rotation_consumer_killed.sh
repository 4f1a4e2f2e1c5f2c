#!/bin/bash
# test_rotation_consumer_killed.sh - the consumer dies in the middle of a
# rotation: it has read ROTATE_TRACE and not run it (the consumer's
# fault point, LTT_FAULT, stops it there; then SIGKILL).  The
# rotation fails, and says so; a new consumer takes the session's
# buffers over; the next rotation succeeds; and every committed event is
# in exactly one chunk (the archives, the last archived at destroy) or
# counted lost.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 13

N=4000
rotate_fault_setup $N

# the next ROTATE_TRACE stops the consumer before it runs it
rotate_until_stopped
ok $? "the consumer stopped on ROTATE_TRACE, before running it"
kill -KILL "$c"
wait $ROT
like "$(cat "$TEST_TMP/rot.rc"):$(cat "$TEST_TMP/rot.out")" '^1:Error: .*consumer daemon died during the rotation' \
	"the rotation fails, and says so: $(cat "$TEST_TMP/rot.out")"
c2=$(new_consumer "$c")
ok $? "a new consumer runs (pid $c2)"
ust_app -n $N -r p2 >/dev/null
ok $? "a second program recorded $N events"
run lttctl rotate s
is "$RC" 0 "the next rotation succeeds: $OUT"
ust_app -n $N -r p3 >/dev/null
ok $? "a third program recorded $N events"
ok_cmd "stop" lttctl stop s
lost=$(list_lost_events s)
ok_cmd "destroy (the last chunk archived)" lttctl destroy s
is "$(read_archives "$out" "$TEST_TMP/all")" 0 "every archive reads"
for r in p1 p2 p3; do
	set -- $(dups_and_range "$TEST_TMP/all" $r 1 $N)
	eval "d_$r=$1 got_$r=$3"
done
is "$d_p1/$d_p2/$d_p3" 0/0/0 "no event in two chunks"
is "$((got_p1 + got_p2 + got_p3 + lost))" $((3 * N)) \
	"recorded ($got_p1 + $got_p2 + $got_p3) + discarded ($lost) = committed ($((3 * N)))"
done_testing
