#!/bin/bash
# test_relay_rotation.sh - rotation of a session streamed to a real
# ltt-relayd on loopback: under load, each rotate has the relay archive the
# closed chunk as archives/BEGIN-END-N/ in the session's relay directory;
# every archive (and the last chunk) reads alone in babeltrace2; across
# them each event once, none lost beyond what the buffers counted
# (sequence numbers); clear: the relay deletes what it wrote, the next
# read holds only the events after it; enable-rotation --timer on a
# net:// session; regenerate metadata after all that; the refusals that
# remain (a relay that is gone).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
UID_PATH="ust/uid/$(id -u)/64-bit"

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)
URL="net://127.0.0.1:$CPORT:$DPORT"

# relay_dir SESSION: the one directory the relay made for SESSION.
relay_dir() {
	local d
	for d in "$RELAY_OUT/$host/$1"-*; do
		[ -d "$d" ] && echo "$d"
	done
}

# chunks DIR: the archives of DIR, then any chunk still in place (a
# directory holding ust/ other than archives/), one a line.
chunks() {
	archives "$1"
	find "$1" -mindepth 1 -maxdepth 1 -type d ! -name archives ! -name ust 2>/dev/null | sort
	[ -d "$1/ust" ] && echo "$1"
}

# --- 1. rotation under load
T=2 N=1000000
lttctl -q create load -U "$URL" &&
	lttctl -q enable-event -u ltt_test:seq -s load &&
	lttctl -q start load || { echo "Bail out! session load"; exit 1; }
dir=$(relay_dir load)
rotate_under_load load 20 $T $N
rotations=$ROTATIONS out=$ROT_OUT
is $APP_RC 0 "load: the program wrote $((T * N)) events while lttctl rotated $rotations times"
is $FAILED_ROT 0 "load: every rotation succeeded"
like "$out" "^Trace chunk archive for session load is now readable at $dir/archives/[0-9]{8}T[0-9]{6}[-+][0-9]{4}-[0-9]{8}T[0-9]{6}[-+][0-9]{4}-[0-9]+\$" \
	"load: rotate prints the relay's archive, named BEGIN-END-N in the session's relay directory"
lttctl -q stop load
LOST=$(lttctl list load | sed -n 's/^ *discarded events: //p')
list_chunk=$(lttctl list load | sed -n 's/^Trace chunk: \([0-9]*\);.*/\1/p')
is "$list_chunk" "$rotations" "load: list shows the current chunk's number"
lttctl -q destroy load
is "$(ls "$dir")" "archives" \
	"load: after destroy the relay's directory holds archives/ only (the last chunk archived too)"
is "$(find "$dir/archives" -mindepth 1 -maxdepth 1 -type d | wc -l)" "$((rotations + 1))" \
	"load: one archive per rotation, and the last chunk's"
read -r bad full <<<"$(read_chunks -m "$TEST_TMP/load.out" $(chunks "$dir"))"
is "$bad" 0 "load: babeltrace2 reads every chunk alone, each with its metadata"
ok "$([ "$full" -ge 2 ] && echo 0 || echo 1)" \
	"load: events are in $full chunks: rotations fell while the program wrote"
read -r dup range distinct <<<"$(dups_and_range "$TEST_TMP/load.out" load $T $N)"
is "$dup" 0 "load: no event is in two chunks"
is "$range" 0 "load: no event out of range"
is $((distinct + ${LOST:-0})) $((T * N)) \
	"load: recorded ($distinct) + discarded (${LOST:-0}) == emitted, across the chunks"

# --- 2. a few events, exact
lttctl -q create ex -U "$URL" &&
	lttctl -q enable-event -u ltt_test:seq -s ex &&
	lttctl -q start ex || { echo "Bail out! session ex"; exit 1; }
ust_app -n 100 -r a >/dev/null
run lttctl rotate ex
is "$RC" 0 "rotate after 100 events"
a1=$(sed -n 's/^Trace chunk archive for session ex is now readable at //p' <<<"$STDOUT")
ust_app -n 50 -r b >/dev/null
run lttctl rotate ex
is "$RC" 0 "rotate after 50 more"
a2=$(sed -n 's/^Trace chunk archive for session ex is now readable at //p' <<<"$STDOUT")
bt "$a1" "$TEST_TMP/a1"
is "$(count_events "$TEST_TMP/a1" ltt_test:seq)" 100 "the first archive: exactly the 100 events"
bt "$a2" "$TEST_TMP/a2"
is "$(grep -c 'role = "b"' "$TEST_TMP/a2")" 50 "the second: exactly the 50 new ones"
is "$(grep -c 'role = "a"' "$TEST_TMP/a2")" 0 "  none of the first"

# --- 3. clear: the relay discards what it wrote, tracing goes on
exdir=$(relay_dir ex)
ust_app -n 30 -r c >/dev/null
before=$(find "$exdir" -mindepth 1 -maxdepth 1 -type d ! -name archives)
run lttctl clear ex
is "$RC" 0 "clear of a net:// session"
ok "$([ -n "$before" ] && [ ! -e "$before" ]; echo $?)" "the relay deleted the chunk it was writing ($(basename "$before"))"
is "$(find "$exdir/archives" -mindepth 1 -maxdepth 1 -type d | wc -l)" 2 "the archives stay"
ust_app -n 20 -r d >/dev/null
ok_cmd "stop" lttctl stop ex
cur=$(find "$exdir" -mindepth 1 -maxdepth 1 -type d ! -name archives)
bt "$cur" "$TEST_TMP/cur"
is $? 0 "babeltrace2 reads what was recorded since"
is "$(grep -c 'role = "d"' "$TEST_TMP/cur")" 20 "the 20 events after the clear"
is "$(grep -c 'role = "c"' "$TEST_TMP/cur")" 0 "none of the 30 before it"
ok_cmd "start again" lttctl start ex

# --- 4. destroy archives the last chunk, exactly
lttctl -q create fin -U "$URL" &&
	lttctl -q enable-event -u ltt_test:seq -s fin &&
	lttctl -q start fin || { echo "Bail out! session fin"; exit 1; }
findir=$(relay_dir fin)
ust_app -n 10 -r e >/dev/null
ok_cmd "rotate fin" lttctl rotate fin
ust_app -n 5 -r f >/dev/null
ok_cmd "destroy fin" lttctl destroy fin
is "$(ls "$findir")" "archives" "destroy: the relay's directory holds archives/ only"
last=$(find "$findir/archives" -mindepth 1 -maxdepth 1 -type d -name '*-1' | head -1)
ok "$([ -n "$last" ]; echo $?)" "the last chunk is archived as archives/BEGIN-END-1 ($(basename "$last"))"
bt "$last" "$TEST_TMP/last"
is "$?:$(grep -c 'role = "f"' "$TEST_TMP/last"):$(grep -c 'role = "e"' "$TEST_TMP/last")" "0:5:0" \
	"babeltrace2 reads it alone: exactly the 5 events after the rotation"
like "$(cat "$SESSIOND_LOG" 2>/dev/null)" "fin': last trace chunk archived by the relay in $findir/archives/" \
	"the session daemon logs where"

# --- 5. regenerate metadata after rotations and a clear (test_relay_regen.sh has more)
ok_cmd "regenerate metadata of a net:// session that rotated and cleared" lttctl regenerate metadata -s ex
timeout "$TEST_TIMEOUT" bash -c 'tail -n +1 -F "$1" 2>/dev/null | grep -m 1 -- "$2" | wc -l' \
	_ "$RELAYD_LOG" "$UID_PATH/metadata written again (version 1)" | grep -qx 1
ok $? "  the relay writes the current chunk's metadata again"
ok_cmd "enable-rotation --timer on a net:// session" lttctl enable-rotation -s ex --timer 1000000
# save -> load: a net:// session's schedule comes back (the file names the relay)
ok_cmd "save it" lttctl -q save ex -o "$TEST_TMP/ex.ltt"
is "$(xmllint --xpath 'concat(//session/output/net, " ", //rotation_schedules/timer_us)' "$TEST_TMP/ex.ltt")" \
	"$URL 1000000" "the file holds the relay's URL and the timer"
ok_cmd "load it as ex2" lttctl -q load -i "$TEST_TMP/ex.ltt" ex --override-name ex2
is "$(lttctl list ex2 | grep -i rotat)" "$(lttctl list ex | grep -i rotat)" \
	"ex2 lists the same rotation schedule"
lttctl -q destroy ex2
ok_cmd "disable-rotation" lttctl disable-rotation -s ex --timer
stop_relayd
run lttctl rotate ex
is "$RC" 1 "rotate once the relay is gone: refused"
like "$ERR" "relay" "  it says why"
lttctl -q destroy ex
done_testing
