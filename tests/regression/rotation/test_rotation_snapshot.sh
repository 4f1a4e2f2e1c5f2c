#!/bin/bash
# test_rotation_snapshot.sh - snapshot sessions end to end, real daemons: nothing
# written before a record; a record holds every event emitted before it
# (exact sequence numbers) and consumes nothing (the next one holds them
# again, plus the new ones); records while active and while stopped; -m
# bounds a snapshot and keeps the newest packets; babeltrace2 reads every
# snapshot; snapshot outputs (list, add, del); a --no-output session takes
# them too (as LTTng's); bad inputs refused clearly with nothing changed.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

# --no-kernel: a root daemon here would trace the kernel through tracefs
# (test_kernel_tracefs_snapshot.sh); refused kernel channels are checked below
ust_setup --log --no-kernel

SNAPS="$TEST_TMP/snaps"
NCPU=$(getconf _NPROCESSORS_CONF)
SUBBUF=4096

# snap_dir TEXT: the snapshot directory record printed (its last line).
snap_dir() {
	printf '%s\n' "$1" | tail -n 1
}

# seqs FILE ROLE: the seq numbers of ROLE's ltt_test:seq events, sorted, one line.
seqs() {
	grep " ltt_test:seq: " "$1" | grep "role = \"$2\"" |
		sed 's/.*seq = \([0-9]*\).*/\1/' | sort -n | tr '\n' ' '
}

ok_cmd "create a snapshot session" lttctl create s1 --snapshot -o "$SNAPS"
run lttctl list s1
like "$STDOUT" "Snapshot output: \[1\] snapshot-1: $SNAPS \(max size: no limit\)" \
	"list shows the default snapshot output"
like "$STDOUT" "\[snapshot\]" "list shows the snapshot mode"
ok_cmd "a channel with no mode given" lttctl enable-channel -u chan --subbuf-size $SUBBUF --num-subbuf 8
run lttctl list s1
like "$STDOUT" "overwrite" "it is in overwrite mode (a flight recorder)"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq -c chan
ok_cmd "start" lttctl start s1

ust_app -n 100 -r first >/dev/null
is $? 0 "a program emitted 100 events"
ok $([ ! -e "$SNAPS" ]; echo $?) "nothing is written before a record"

run lttctl snapshot record
is "$RC" 0 "record while active"
d1=$(snap_dir "$STDOUT")
like "$d1" "^$SNAPS/snapshot-1-[0-9]{8}-[0-9]{6}-0\$" "named snapshot-1-YYYYmmdd-HHMMSS-0"
ok $([ "$(find "$d1" -type f -name 'chan_*' | wc -l)" -ge 1 ]; echo $?) "  its stream files"
is "$(find "$d1" -type f -name '*.idx' | wc -l)" 0 "  and no index files (as LTTng's snapshots)"
bt "$d1" "$TEST_TMP/s1"
is $? 0 "babeltrace2 reads the first snapshot"
is "$(cat "$TEST_TMP/s1.err")" "" "babeltrace2: no warning"
is "$(seqs "$TEST_TMP/s1" first)" "$(seq 0 99 | tr '\n' ' ')" \
	"the first snapshot holds seq 0..99, once each"

run lttctl snapshot record -n again
is "$RC" 0 "a second record right after"
d2=$(snap_dir "$STDOUT")
like "$d2" "^$SNAPS/again-[0-9]{8}-[0-9]{6}-1\$" "-n names it again-...-1"
bt "$d2" "$TEST_TMP/s2"
is $? 0 "babeltrace2 reads the second snapshot"
is "$(seqs "$TEST_TMP/s2" first)" "$(seq 0 99 | tr '\n' ' ')" \
	"the second holds the same events: the first consumed nothing"

ust_app -n 50 -r second >/dev/null
ok_cmd "stop" lttctl stop s1
run lttctl snapshot record
is "$RC" 0 "record while stopped"
d3=$(snap_dir "$STDOUT")
bt "$d3" "$TEST_TMP/s3"
is $? 0 "babeltrace2 reads the third snapshot"
is "$(seqs "$TEST_TMP/s3" first)" "$(seq 0 99 | tr '\n' ' ')" "the third: the first program's events"
is "$(seqs "$TEST_TMP/s3" second)" "$(seq 0 49 | tr '\n' ' ')" "and the new ones, seq 0..49"
ok $([ -f "$d1/ust/uid/$(id -u)/64-bit/metadata" ] && [ -d "$d1/ust/uid/$(id -u)/64-bit/index" ]; echo $?) \
	"each snapshot is a complete trace: metadata, index"

# --mi xml: valid documents, the snapshot's directory in them.
if command -v xmllint >/dev/null; then
	for args in "snapshot list-output" "snapshot record -n mi" "list s1" "snapshot del-output nosuch"; do
		# shellcheck disable=SC2086
		lttctl --mi xml $args >"$TEST_TMP/mi.xml" 2>/dev/null
		mi_valid "$TEST_TMP/mi.xml" >/dev/null
		ok $? "--mi xml $args: valid against LTTng's mi-lttng-4.1.xsd"
	done
	lttctl --mi xml snapshot record -n mi2 >"$TEST_TMP/mi.xml" 2>/dev/null
	like "$(cat "$TEST_TMP/mi.xml")" "<ctrl_url>$SNAPS/mi2-[0-9]{8}-[0-9]{6}-[0-9]+</ctrl_url>" \
		"--mi xml snapshot record: the snapshot's directory"
else
	for i in 1 2 3 4 5; do ok 0 "# SKIP xmllint is not installed"; done
fi

# Snapshot outputs.
run lttctl snapshot list-output
like "$STDOUT" "\[1\] snapshot-1: $SNAPS" "list-output: the create-time output"
run lttctl snapshot add-output -o "$TEST_TMP/other"
is "$RC" 1 "add-output with one there: refused"
like "$ERR" "already has a snapshot output" "  it says why"
run lttctl snapshot del-output nosuch
is "$RC" 1 "del-output of an unknown name: refused"
like "$ERR" "no snapshot output by that name" "  it says why"
run lttctl snapshot list-output
like "$STDOUT" "\[1\] snapshot-1: $SNAPS" "  the output is still there"
ok_cmd "del-output by name" lttctl snapshot del-output snapshot-1
run lttctl snapshot list-output
like "$STDOUT" "None" "list-output: none left"
before=$(ls "$SNAPS" | wc -l)
run lttctl snapshot record
is "$RC" 1 "record without an output: refused"
like "$ERR" "has no snapshot output" "  it says why"
ok_cmd "add-output with a name and a size" lttctl snapshot add-output -n mine -m 1M "file://$SNAPS"
run lttctl snapshot list-output
like "$STDOUT" "\[2\] mine: $SNAPS \(max size: 1 MiB\)" "list-output: the new output, id 2"
ok_cmd "del-output by id" lttctl snapshot del-output 2
ok_cmd "add-output of a plain absolute path (LTTng takes it as file://)" lttctl snapshot add-output "$SNAPS"
run lttctl snapshot list-output
like "$STDOUT" "\[3\] snapshot-3: $SNAPS \(max size: no limit\)" "list-output: the path as a local output, id 3"
ok_cmd "del-output 3" lttctl snapshot del-output 3
run lttctl snapshot add-output relative/dir
like "$RC:$ERR" "^1:Error: URL 'relative/dir': " "a relative path where a URL goes: refused (-o DIR takes one)"
run lttctl snapshot record -o "$TEST_TMP/oneoff"
is "$RC" 0 "record -o DIR without a session output"
like "$(snap_dir "$STDOUT")" "^$TEST_TMP/oneoff/snapshot-0-[0-9]{8}-[0-9]{6}-5\$" \
	"  in DIR, named snapshot-0-...-5 (the 6th snapshot; a one-off output is snapshot-0, as LTTng's)"
ok_cmd "add-output again" lttctl snapshot add-output -n kept "file://$SNAPS"
run lttctl snapshot record -o "$TEST_TMP/oneoff"
like "$(snap_dir "$STDOUT")" "^$TEST_TMP/oneoff/snapshot-0-[0-9]{8}-[0-9]{6}-6\$" \
	"  -o DIR while the session has an output: snapshot-0 too, not the output's name"
ok_cmd "del-output kept" lttctl snapshot del-output kept
is "$(ls "$SNAPS" | wc -l)" "$before" "nothing new in the old output"

# Bad input: refused, clearly, nothing changed.
run lttctl snapshot record -s nosuch -o "$TEST_TMP/x"
is "$RC" 1 "record of a missing session: refused"
like "$ERR" "no session by that name" "  it says why"
ok_cmd "a normal session" lttctl create plain -o "$TEST_TMP/plain"
run lttctl snapshot record -s plain -o "$TEST_TMP/x"
is "$RC" 1 "record of a session not in snapshot mode: refused"
like "$ERR" "not in snapshot mode" "  it says why"
run lttctl snapshot list-output -s plain
is "$RC" 1 "list-output of a session not in snapshot mode: refused"
run lttctl snapshot record -s s1 -m abc -o "$TEST_TMP/x"
is "$RC" 2 "a bad size: a usage error"
like "$ERR" "invalid maximum size 'abc'" "  it says why"
run lttctl snapshot record -s s1 net://127.0.0.1:1:2
is "$RC" 1 "a net:// output where no relay listens: refused (test_relay_snapshot.sh sends them to a relay)"
like "$ERR" "connection refused" "  it says why"
run lttctl snapshot bogus
is "$RC" 2 "an unknown sub-command: a usage error"
ok $([ ! -e "$TEST_TMP/x" ]; echo $?) "none of them wrote anything"
# as LTTng: the relay is reached when a snapshot is recorded, not at create
run lttctl create net1 --snapshot --set-url net://127.0.0.1:1:2
is "$RC" 0 "create --snapshot with a net:// URL where no relay listens: created (the relay is reached at record)"
# (test_relay_snapshot.sh: a record where no relay listens is refused, saying why)
run lttctl snapshot list-output -s net1
like "$OUT" "net://127.0.0.1:1:2|127.0.0.1" "  its output is the relay's URL"
lttctl -q destroy net1

run lttctl enable-channel -k -s s1 kchan
is "$RC" 1 "a kernel channel in a snapshot session of a daemon with --no-kernel: refused (test_kernel_snapshot.sh and test_kernel_tracefs_snapshot.sh record them)"
like "$ERR" "kernel" "  it says why"
run lttctl list s1
unlike "$STDOUT" "kchan" "  nothing added"

# -m: the newest packets, the budget shared by the streams.
ok_cmd "a second snapshot session" lttctl create s2 --snapshot -o "$TEST_TMP/s2snaps"
ok_cmd "its channel" lttctl enable-channel -u -s s2 chan --subbuf-size $SUBBUF --num-subbuf 8
ok_cmd "its rule" lttctl enable-event -u -s s2 ltt_test:seq -c chan
ok_cmd "start s2" lttctl start s2
N=5000
ust_app -n $N -r many >/dev/null
is $? 0 "a program emitted $N events, more than the buffers hold"
run lttctl snapshot record -s s2 -m $((NCPU * SUBBUF - 1))
is "$RC" 1 "-m below one packet per stream ($NCPU streams): refused"
like "$ERR" "can't hold one packet of each stream" "  it says why"
is "$(ls "$TEST_TMP/s2snaps" 2>/dev/null | wc -l)" 0 "  nothing written"
run lttctl snapshot record -s s2
is "$RC" 0 "record s2 without a limit"
bt "$(snap_dir "$STDOUT")" "$TEST_TMP/full"
is $? 0 "babeltrace2 reads it"
full=$(seqs "$TEST_TMP/full" many)
is "$(echo $full | tr ' ' '\n' | tail -n 1)" "$((N - 1))" "it ends with the newest event, seq $((N - 1))"
MAX=$((NCPU * SUBBUF))
run lttctl snapshot record -s s2 -m $MAX
is "$RC" 0 "record s2 -m $MAX (one packet per stream)"
dm=$(snap_dir "$STDOUT")
size=$(find "$dm" -path '*/index' -prune -o -name 'chan_*' -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
ok $([ "$size" -gt 0 ] && [ "$size" -le $MAX ]; echo $?) "its stream files hold $size bytes, at most $MAX"
bt "$dm" "$TEST_TMP/bounded"
is $? 0 "babeltrace2 reads it"
bounded=$(seqs "$TEST_TMP/bounded" many)
is "$(echo $bounded | tr ' ' '\n' | tail -n 1)" "$((N - 1))" "it keeps the newest event, seq $((N - 1))"
ok $([ $(echo $bounded | wc -w) -lt $(echo $full | wc -w) ]; echo $?) \
	"and fewer events than the unbounded one ($(echo $bounded | wc -w) < $(echo $full | wc -w))"
is "$(comm -23 <(echo $bounded | tr ' ' '\n' | sort) <(echo $full | tr ' ' '\n' | sort) | wc -l)" 0 \
	"every event of the bounded snapshot is in the full one"

# --discard in a snapshot session, as LTTng allows: the oldest events stay.
ok_cmd "a snapshot session with a discard-mode channel" lttctl create s3 --snapshot -o "$TEST_TMP/s3snaps"
ok_cmd "its channel, --discard" lttctl enable-channel -u -s s3 chan --discard --subbuf-size $SUBBUF --num-subbuf 4
ok_cmd "its rule" lttctl enable-event -u -s s3 ltt_test:seq -c chan
ok_cmd "start s3" lttctl start s3
ust_app -n 100 -r third >/dev/null
run lttctl snapshot record -s s3
is "$RC" 0 "record s3"
bt "$(snap_dir "$STDOUT")" "$TEST_TMP/disc"
is "$(seqs "$TEST_TMP/disc" third)" "$(seq 0 99 | tr '\n' ' ')" "discard mode: seq 0..99"

# A consumer daemon killed: snapshot traces write nothing but snapshots,
# so none is started at once (ltt_ctrace_consumer_died()); the next record
# has a new one take them over, with what their buffers hold.
c1=$(consumer_pid)
kill -KILL "$c1"
wait_pid_exit "$c1"
wait_for "$SESSIOND_LOG" "session 's1': trace [^ ]*: its consumer daemon died; it writes only snapshots"
ok $? "the consumer daemon killed, s1's snapshot trace waits for a command, the log says"
run lttctl snapshot record -s s1 -o "$TEST_TMP/afterkill"
is "$RC" 0 "record s1 with a new consumer"
c2=$(consumer_pid)
ok "$([[ $c2 =~ ^[0-9]+$ && $c2 != "$c1" ]]; echo $?)" "... which the record started (pid $c2)"
bt "$(snap_dir "$STDOUT")" "$TEST_TMP/ak"
is $? 0 "babeltrace2 reads it"
is "$(seqs "$TEST_TMP/ak" first)" "$(seq 0 99 | tr '\n' ' ')" "it still holds the first program's events"
is "$(seqs "$TEST_TMP/ak" second)" "$(seq 0 49 | tr '\n' ' ')" "and the second's"

# A snapshot session has no trace chunk: rotation says so, not "no output".
run lttctl rotate s1
is "$RC" 1 "rotate a snapshot session: refused"
like "$ERR" "snapshot session writes nothing until 'lttctl snapshot record'" "rotate: says why"
run lttctl enable-rotation -s s1 --timer 1000000
like "$ERR" "snapshot session writes nothing" "enable-rotation: says why"

# A session created with --no-output takes snapshots as LTTng's does: a
# snapshot output added after its start, records there; its channels
# default to discard mode and list does not call it a snapshot session;
# it has no chunk to rotate.
ok_cmd "a session without output" lttctl create no --no-output
ok_cmd "its channel, no mode given" lttctl enable-channel -u -s no chan --subbuf-size $SUBBUF --num-subbuf 8
run lttctl list no
like "$STDOUT" "discard" "  in discard mode (--no-output is no flight recorder)"
unlike "$STDOUT" "\[snapshot\]" "  list does not call it a snapshot session"
ok_cmd "its rule" lttctl enable-event -u -s no ltt_test:seq -c chan
ok_cmd "start no" lttctl start no
run lttctl snapshot record -s no
like "$RC:$ERR" "^1:.*has no snapshot output" "record before an output is added: refused, saying why"
run lttctl snapshot add-output -s no "file://$TEST_TMP/nosnaps"
is "$RC" 0 "add-output to the started --no-output session: taken"
run lttctl snapshot list-output -s no
like "$STDOUT" "\[1\] snapshot-1: $TEST_TMP/nosnaps" "  listed as snapshot-1"
ust_app -n 50 -r nout >/dev/null
run lttctl snapshot record -s no
is "$RC" 0 "record the --no-output session"
dn=$(snap_dir "$STDOUT")
like "$dn" "^$TEST_TMP/nosnaps/snapshot-1-[0-9]{8}-[0-9]{6}-0\$" "  in the output, snapshot-1-YYYYmmdd-HHMMSS-0"
bt "$dn" "$TEST_TMP/nout"
is "$(seqs "$TEST_TMP/nout" nout)" "$(seq 0 49 | tr '\n' ' ')" "  it holds seq 0..49"
run lttctl snapshot record -s no ""
like "$RC:$(snap_dir "$STDOUT")" "^0:$TEST_TMP/nosnaps/snapshot-1-[0-9]{8}-[0-9]{6}-1\$" \
	"record with an empty URL argument: none, as LTTng's (lttng-tools' tests give one)"
run lttctl rotate no
like "$RC:$ERR" "^1:.*no output to rotate" "rotate the --no-output session: refused, saying why"
run lttctl enable-rotation -s no --timer 1000000
like "$RC:$ERR" "^1:.*no output to rotate" "enable-rotation: refused, saying why"
ok_cmd "save the --no-output session" lttctl save no -o "$TEST_TMP/nosave"
lttctl -q stop no && lttctl -q destroy no
is "$(ls "$TEST_TMP/nosave")" "no.ltt" \
	"saved in ltt's format: LTTng's holds snapshot outputs only for --snapshot sessions"
ok_cmd "load it back" lttctl load -i "$TEST_TMP/nosave/no.ltt"
run lttctl snapshot list-output -s no
like "$STDOUT" "\[1\] snapshot-1: $TEST_TMP/nosnaps" "  with its snapshot output"

# clear of a snapshot session empties its buffers, as LTTng's: the next
# snapshot holds nothing recorded before the clear, the one after that the
# events recorded since (a --no-output session's the same)
for cs in "cs --snapshot -o $TEST_TMP/cssnaps" "cn --no-output"; do
	set -- $cs
	lttctl -q create "$@" && lttctl -q enable-channel -u -s $1 chan --subbuf-size $SUBBUF --num-subbuf 8 &&
		lttctl -q enable-event -u -s $1 ltt_test:seq -c chan && lttctl -q start $1 ||
		{ echo "Bail out! session $1"; exit 1; }
	ust_app -n 40 -r before >/dev/null
	run lttctl snapshot record -s $1 -o "$TEST_TMP/$1-out"
	bt "$(snap_dir "$STDOUT")" "$TEST_TMP/$1.1"
	is "$(seqs "$TEST_TMP/$1.1" before)" "$(seq 0 39 | tr '\n' ' ')" "$1: a snapshot holds the 40 events"
	ok_cmd "$1: clear" lttctl clear $1
	run lttctl snapshot record -s $1 -o "$TEST_TMP/$1-out"
	bt "$(snap_dir "$STDOUT")" "$TEST_TMP/$1.2"
	is "$RC:$(grep -c ' ltt_test:seq: ' "$TEST_TMP/$1.2")" "0:0" "$1: the snapshot after the clear holds no event"
	ust_app -n 15 -r after >/dev/null
	run lttctl snapshot record -s $1 -o "$TEST_TMP/$1-out"
	bt "$(snap_dir "$STDOUT")" "$TEST_TMP/$1.3"
	is "$(seqs "$TEST_TMP/$1.3" before)|$(seqs "$TEST_TMP/$1.3" after)" "|$(seq 0 14 | tr '\n' ' ')" \
		"$1: the next one holds the 15 events recorded since, none of before"
done

ok_cmd "destroy" lttctl destroy -a
done_testing
