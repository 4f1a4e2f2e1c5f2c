#!/bin/bash
# test_rotate_late_destroy.sh - destroy while a rotation's move is "done
# later": the consumer stopped on ROTATE_TRACE (its test fault point,
# LTT_CONSUMERD_FAULT), the session daemon gave up waiting (30 s) and
# took the move as done later (the old chunk kept out of the archives).
# Stopping then fails (the consumer is stalled) and destroy refuses,
# changing nothing: before, destroy archived the chunks under the
# consumer that had still to move its traces.  Once the consumer runs,
# destroy archives every chunk: each committed event is in exactly one
# archive, or counted lost.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 12

export LTT_CONSUMERD_FAULT="stop ROTATE_TRACE $TEST_TMP/fault"
start_sessiond
out="$TEST_TMP/s"
lttctl -q create s -o "$out" && lttctl -q enable-channel -u chan -s s &&
	lttctl -q enable-event -u ltt_test:seq -c chan -s s
ok_cmd "the session starts" lttctl start s
N=4000
ust_app -n $N -r p1 >/dev/null
ok $? "a program recorded $N events"
c=$(consumer_pid)

: >"$TEST_TMP/fault"
( timeout 120 "$LTTCTL_BIN" --timeout 90 rotate s >"$TEST_TMP/rot.out" 2>&1; echo $? >"$TEST_TMP/rot.rc" ) &
ROT=$!
timeout "$TEST_TIMEOUT" bash -c 'until [ "$(cut -d" " -f3 /proc/$0/stat)" = T ]; do :; done' "$c"
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
