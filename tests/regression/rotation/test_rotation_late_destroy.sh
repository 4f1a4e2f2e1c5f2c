#!/bin/bash
# test_rotation_late_destroy.sh - destroy while a rotation's move is "done
# later": the consumer stopped on ROTATE_TRACE (its test fault point,
# LTT_FAULT), the session daemon gave up waiting (30 s) and
# took the move as done later (the old chunk kept out of the archives).
# Stopping then fails (the consumer is stalled) and destroy refuses,
# changing nothing: before, destroy archived the chunks under the
# consumer that had still to move its traces.  Once the consumer runs,
# destroy archives every chunk: each committed event is in exactly one
# archive, or counted lost.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 12

N=4000
rotate_fault_setup $N

rotate_until_stopped
ok $? "the consumer stopped on ROTATE_TRACE, before running it"
# the session daemon waits for the move's deadline (30 s), then takes it
# as done later
wait $ROT
like "$(cat "$TEST_TMP/rot.rc"):$(cat "$TEST_TMP/rot.out")" '^1:Error: .*move to the new trace chunk once it runs again' \
	"the rotation ends with the move taken as done later: $(cat "$TEST_TMP/rot.out")"
run lttctl stop s
like "$RC:$OUT" '^1:.*did not answer in time' "stop fails: the consumer is stalled"
run lttctl destroy s
like "$RC:$OUT" '^1:.*did not answer in time' "destroy refuses: the consumer still owes the move"
like "$(lttctl list s)" '\[inactive\]' "the session is still there"
kill -CONT "$c"
lost=$(list_lost_events s)
ok_cmd "once the consumer runs, destroy" lttctl destroy s
is "$(read_archives "$out" "$TEST_TMP/all")" 0 "every archive reads"
set -- $(dups_and_range "$TEST_TMP/all" p1 1 $N)
is "$1" 0 "no event in two chunks"
is "$(($3 + lost))" $N "recorded ($3) + discarded ($lost) = committed ($N)"
ok "$([ -z "$(find "$out" -mindepth 1 -maxdepth 1 ! -name archives)" ]; echo $?)" \
	"every chunk archived: $(ls "$out" | tr '\n' ' ')"
done_testing
