#!/bin/bash
# test_saveload_life.sh - what save/load carries beyond channels and
# rules: a snapshot session's snapshot outputs (name, directory, maximum
# size) and a session's rotation schedule, each save -> destroy -> load
# with an identical `list` and `snapshot list-output` and working again
# (a snapshot recorded, a rotation made); names at the byte limits in
# multi-byte UTF-8.  (The refusals of values too long in bytes, empty or
# out of range are bad-*.ltt files of test_saveload.sh.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
XSD="$LTT_TOP_SRCDIR/xml/session.xsd"

# state NAME FILE: `list NAME`, and its snapshot outputs if it has any.
state() {
	{
		lttctl list "$1"
		lttctl snapshot list-output -s "$1" 2>/dev/null
	} >"$2" 2>&1
}

# --- 1. a snapshot output with a name and a maximum size ----------------
lttctl -q create fr --snapshot --no-output &&
	lttctl -q enable-channel -u c -s fr --subbuf-size 16k --num-subbuf 4 &&
	lttctl -q enable-event -u ltt_test:seq -c c -s fr &&
	lttctl -q snapshot add-output -s fr -n keep -m 1M -o "$TEST_TMP/snaps" ||
	{ echo "Bail out! session fr"; exit 1; }
state fr "$TEST_TMP/fr.before"
ok_cmd "save a snapshot session" lttctl -q save fr -o "$TEST_TMP/fr.ltt"
run xmllint --noout --schema "$XSD" "$TEST_TMP/fr.ltt"
is "$RC" 0 "the file is valid against the schema"
is "$(xmllint --xpath 'concat(//snapshot_output/name, " ", //snapshot_output/local, " ", //snapshot_output/max_size, " ", count(//snapshot_output), " ", name(//session/output/*))' "$TEST_TMP/fr.ltt")" \
	"keep $TEST_TMP/snaps 1048576 1 none" "the file holds the snapshot output's name, directory and size"
ok_cmd "destroy it" lttctl -q destroy fr
run lttctl load -i "$TEST_TMP/fr.ltt"
is "$RC" 0 "load it"
state fr "$TEST_TMP/fr.after"
is "$(diff "$TEST_TMP/fr.before" "$TEST_TMP/fr.after")" "" \
	"list and snapshot list-output identical after the load"
ok_cmd "start the loaded session" lttctl -q start fr
ust_app -n 100 -r a
run lttctl snapshot record -s fr
is "$RC" 0 "a snapshot of the loaded session"
snap=$(printf '%s\n' "$STDOUT" | tail -1)
like "$snap" "^$TEST_TMP/snaps/keep-[0-9]{8}-[0-9]{6}-0\$" "in the loaded output, with its name"
bt "$snap" "$TEST_TMP/fr.out"
is "$(count_events "$TEST_TMP/fr.out" ltt_test:seq)" 100 "the snapshot holds the 100 events recorded"
lttctl -q destroy fr

# The output create --snapshot -o DIR made comes back as it was, and
# --override-url moves a snapshot session's outputs.
lttctl -q create fr2 --snapshot -o "$TEST_TMP/snaps2" &&
	lttctl -q enable-channel -u c -s fr2 || { echo "Bail out! session fr2"; exit 1; }
state fr2 "$TEST_TMP/fr2.before"
lttctl -q save fr2 -o "$TEST_TMP/fr2.ltt" && lttctl -q destroy fr2
ok_cmd "load of a session created with create --snapshot -o" lttctl -q load -i "$TEST_TMP/fr2.ltt"
state fr2 "$TEST_TMP/fr2.after"
is "$(diff "$TEST_TMP/fr2.before" "$TEST_TMP/fr2.after")" "" "its snapshot output is identical (snapshot-1)"
lttctl -q destroy fr2
ok_cmd "load --override-url file://" lttctl -q load -i "$TEST_TMP/fr2.ltt" \
	--override-url "file://$TEST_TMP/moved"
like "$(lttctl snapshot list-output -s fr2)" "\[1\] snapshot-1: $TEST_TMP/moved/ \(" \
	"--override-url moves the snapshot output (recorded as LTTng does, ending in /)"
lttctl -q destroy fr2
# A file written before snapshot outputs were saved: the session's output.
sed -e 's|<none></none>|<local>'"$TEST_TMP"'/old</local>|' -e '/snapshot_output/,/snapshot_outputs>/d' \
	"$TEST_TMP/fr2.ltt" >"$TEST_TMP/old.ltt"
ok_cmd "load of an older file (the snapshot output as <output>)" lttctl -q load -i "$TEST_TMP/old.ltt"
like "$(lttctl snapshot list-output -s fr2)" "\[1\] snapshot-1: $TEST_TMP/old \(" \
	"its output is the snapshot output"
lttctl -q destroy fr2

# --- 2. the rotation schedule -------------------------------------------
lttctl -q create rot -o "$TEST_TMP/rot" &&
	lttctl -q enable-event -u ltt_test:seq -s rot &&
	lttctl -q enable-rotation -s rot --timer 200000 &&
	lttctl -q enable-rotation -s rot --size 1M || { echo "Bail out! session rot"; exit 1; }
state rot "$TEST_TMP/rot.before"
ok_cmd "save a session with a rotation schedule" lttctl -q save rot -o "$TEST_TMP/rot.ltt"
is "$(xmllint --xpath 'concat(//rotation_schedules/timer_us, " ", //rotation_schedules/size)' "$TEST_TMP/rot.ltt")" \
	"200000 1048576" "the file holds the timer and the size"
lttctl -q destroy rot
ok_cmd "load it" lttctl -q load -i "$TEST_TMP/rot.ltt"
state rot "$TEST_TMP/rot.after"
is "$(diff "$TEST_TMP/rot.before" "$TEST_TMP/rot.after")" "" "list identical: both schedules"
lttctl -q start rot
ust_app -n 1000 -r r
wait_archives "$TEST_TMP/rot" 1
is $? 0 "the loaded timer schedule rotates the session"
lttctl -q stop rot
lttctl -q destroy rot
bt "$TEST_TMP/rot" "$TEST_TMP/rot.out"
is "$(count_events "$TEST_TMP/rot.out" ltt_test:seq)" 1000 \
	"the archives and the last chunk hold the 1000 events"
# A snapshot session or a schedule of a session without one: nothing written.
lttctl -q create plain -o "$TEST_TMP/plain" && lttctl -q save plain -o "$TEST_TMP/plain.ltt"
is "$(grep -c 'rotation_schedules\|snapshot_outputs' "$TEST_TMP/plain.ltt")" 0 \
	"a session without a schedule or snapshot output saves neither element"
lttctl -q destroy plain

# --- 3. names at the byte limit in multi-byte UTF-8 ---------------------
# Session names may be UTF-8 (channel and output names are ASCII); the
# limit is 255 bytes, whatever the characters (219 for a channel name).
name255="$(printf 'é%.0s' $(seq 127))a"		# 127 x 2 + 1 = 255 bytes
chan219="c$(printf 'x%.0s' $(seq 218))"
out255="o$(printf 'x%.0s' $(seq 254))"
dir="$TEST_TMP/$(printf 'ж%.0s' $(seq 100))"	# a directory of 200 bytes, 100 characters
is "$(printf '%s' "$name255" | wc -c):$(printf '%s' "$name255" | wc -m)" "255:128" \
	"the session name is 255 bytes, 128 characters"
lttctl -q create "$name255" --snapshot --no-output &&
	lttctl -q enable-channel -u "$chan219" -s "$name255" &&
	lttctl -q snapshot add-output -s "$name255" -n "$out255" -o "$dir" ||
	{ echo "Bail out! session $name255"; exit 1; }
state "$name255" "$TEST_TMP/u.before"
ok_cmd "save names of 255 bytes" lttctl -q save "$name255" -o "$TEST_TMP/u.ltt"
lttctl -q destroy "$name255"
run lttctl load -i "$TEST_TMP/u.ltt"
is "$RC" 0 "load names of 255 bytes"
state "$name255" "$TEST_TMP/u.after"
is "$(diff "$TEST_TMP/u.before" "$TEST_TMP/u.after")" "" "list and list-output identical"
lttctl -q destroy "$name255"
# One byte more (a 2-byte character for the last): 128 characters, refused.
sed "s|<name>$name255</name>|<name>$(printf 'é%.0s' $(seq 128))</name>|" \
	"$TEST_TMP/u.ltt" >"$TEST_TMP/u256.ltt"
run xmllint --noout --schema "$XSD" "$TEST_TMP/u256.ltt"
is "$RC" 0 "a session name of 256 bytes, 128 characters, passes the schema (maxLength counts characters)"
run lttctl load -i "$TEST_TMP/u256.ltt"
is "$RC" 1 "but load refuses it"
like "$ERR" "u256\\.ltt:4: <name>: 256 bytes long; at most 255 bytes" "with the line and the limit in bytes"
is "$(lttctl list)" "No sessions." "and nothing was created"
done_testing
