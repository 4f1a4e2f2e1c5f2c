#!/bin/bash
# test_rotation_sched_error.sh - a scheduled rotation that fails after
# the start (its archive directory replaced by a file) reaches the user:
# list says since when and why, stop warns; the chunks it could not
# archive stay, and once the cause is gone the next rotation archives
# them: every event in exactly one archive.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 10

out="$TEST_TMP/out"
lttctl -q create s -o "$out" && lttctl -q enable-event -u ltt_test:seq -s s &&
	lttctl -q enable-rotation -s s --timer 200000 || { echo "Bail out! session s"; exit 1; }
ok_cmd "start a session rotating every 200 ms" lttctl start s
ust_app -n 1000 -r a >/dev/null
wait_archives "$out" 1
ok $? "it archives its chunks"
# The archives move aside and a file takes their place (the schedule off
# meanwhile, so that no rotation makes the directory again): archiving
# fails.
lttctl -q disable-rotation -s s --timer && mv "$out/archives" "$out/saved" &&
	touch "$out/archives" && lttctl -q enable-rotation -s s --timer 200000 ||
	{ echo "Bail out! the archives could not be replaced"; exit 1; }
ust_app -n 1000 -r b >/dev/null
wait_for "$SESSIOND_LOG" "session 's': scheduled rotation failed"
ok $? "a scheduled rotation fails"
run lttctl list s
like "$STDOUT" "Automatic rotation failing since [0-9-]+ [0-9:]+: " "list says the rotations fail, since when and why"
run lttctl stop s
like "$ERR" "session 's': its scheduled rotations fail" "stop warns about it"
ok_cmd "start again" lttctl start s
rm "$out/archives"
ust_app -n 1000 -r c >/dev/null
wait_archives "$out" 2
ok $? "with the file gone, the chunks left are archived ($(narchives "$out"))"
run lttctl list s
unlike "$STDOUT" "Automatic rotation failing" "list no longer shows a failure"
lttctl -q stop s
lttctl -q destroy s
# a chunk nothing was written in is empty: -e
read -r bad _ <<<"$(read_chunks -e "$TEST_TMP/all.out" \
	$(find "$out/saved" "$out/archives" -mindepth 1 -maxdepth 1 -type d | sort))"
is "$bad" 0 "every archive reads alone"
is "$(count_events "$TEST_TMP/all.out" ltt_test:seq)/$(grep ' ltt_test:seq: ' "$TEST_TMP/all.out" | sort -u | wc -l)" \
	"3000/3000" "each of the 3000 events in exactly one archive"
done_testing
