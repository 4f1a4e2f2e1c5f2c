#!/bin/bash
# test_ust_fsync.sh - enable-channel --fsync: the consumer syncs each
# packet and its index entry (fdatasync, seen with strace) before it
# counts the packet written, and a channel without it never syncs; list
# (its text: LTTng's MI has no place for it), save and load keep the flag;
# a session that writes no trace files as it records (streamed to a relay,
# snapshot) refuses it with FSYNC_OUTPUT and changes nothing.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

relayd_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
command -v strace >/dev/null || skip_all "strace is not installed (scripts/deps.sh)"
plan 21

N=3000
start_sessiond
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# packets DIR: the packets the index files under DIR list.
packets() {
	local f n=0 size
	for f in $(find "$1" -path '*/index/*.idx'); do
		size=$(stat -c %s "$f")
		n=$((n + (size - 16) / 72))
	done
	echo $n
}

# record NAME [--fsync]: a session NAME recording N events of one program
# into small packets while strace counts its consumer's syncs into SYNCS.
record() {
	local name=$1 app spid
	shift
	lttctl -q create "$name" -o "$TEST_TMP/$name" &&
		lttctl -q enable-channel -u chan --subbuf-size 4k --num-subbuf 64 "$@" -s "$name" &&
		lttctl -q enable-event -u ltt_test:seq -c chan -s "$name" &&
		lttctl -q start "$name" || { echo "Bail out! session $name"; exit 1; }
	ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r "$name"
	app=$BG_PID
	wait_ready $ready || { echo "Bail out! the program did not register"; exit 1; }
	cpid=$(consumer_pid)
	strace -f -qq -e trace=fdatasync,fsync -p "$cpid" -o "$TEST_TMP/$name.strace" &
	spid=$!
	# attached once the consumer's tracer is strace
	timeout "$TEST_TIMEOUT" bash -c \
		'until grep -q "^TracerPid:[[:space:]]*[1-9]" /proc/$0/status; do :; done' "$cpid"
	echo go >&$go
	wait $app
	lttctl -q stop "$name"
	kill -INT $spid
	wait $spid
	SYNCS=$(grep -c '^[0-9]* *fdatasync(.*= 0$' "$TEST_TMP/$name.strace")
	FAILED=$(grep -c '^[0-9]* *fdatasync(.*= -1' "$TEST_TMP/$name.strace")
	PACKETS=$(packets "$TEST_TMP/$name")
	bt "$TEST_TMP/$name" "$TEST_TMP/$name.bt"
}

record synced --fsync
like "$(lttctl list synced)" "fsync: each packet synced to the disk" "list says the channel syncs"
lttctl --mi xml list synced >"$TEST_TMP/synced.xml"
is "$(mi_xp '//channel/name' "$TEST_TMP/synced.xml")" chan \
	"--mi xml lists the channel (fsync is in the text: LTTng's schema has no place for it)"
is "$(mi_valid "$TEST_TMP/synced.xml")" "$TEST_TMP/synced.xml validates" "which LTTng's schema validates"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/synced.bt")" $N "every event recorded"
is "$(discarded "$TEST_TMP/synced.bt.err")" 0 "none discarded"
ok "$([ "$PACKETS" -ge 10 ]; echo $?)" "in many packets ($PACKETS)"
ok "$([ "$SYNCS" -ge $((2 * PACKETS)) ]; echo $?)" \
	"the consumer synced each packet and its index entry ($SYNCS fdatasync for $PACKETS packets)"
is "$FAILED" 0 "no sync failed"

record plain
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/plain.bt")" $N "without --fsync: every event recorded"
ok "$([ "$PACKETS" -ge 10 ]; echo $?)" "without --fsync: in many packets ($PACKETS)"
is "$SYNCS" 0 "without --fsync: no sync"
unlike "$(lttctl list plain)" "fsync" "list says nothing of it"

# save and load keep it
ok_cmd "save" lttctl save synced -o "$TEST_TMP/saved"
like "$(cat "$TEST_TMP/saved/synced.ltt" 2>/dev/null)" "<fsync>true</fsync>" "the saved file says fsync"
lttctl -q destroy synced
ok_cmd "load" lttctl load synced -i "$TEST_TMP/saved"
like "$(lttctl list synced)" "fsync: each packet synced to the disk" "the loaded channel syncs"

# refused where no trace file is written as it records
lttctl -q create snap --snapshot -o "$TEST_TMP/snap"
run lttctl enable-channel -u chan --fsync -s snap
like "$RC:$OUT" "^1:.*(FSYNC_OUTPUT|writes none)" "a snapshot session refuses --fsync"
like "$(lttctl list snap)" "No channels" "and has no channel"
start_relayd -o "$TEST_TMP/relay-out" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
lttctl -q create net --set-url "net://127.0.0.1:$CPORT:$DPORT" ||
	{ echo "Bail out! no streamed session"; exit 1; }
run lttctl enable-channel -u chan --fsync -s net
like "$RC:$OUT" "^1:.*(FSYNC_OUTPUT|writes none)" "a streamed session refuses --fsync"
like "$(lttctl list net)" "No channels" "and has no channel"
lttctl -q disable-channel -u chan -s plain
run lttctl enable-channel -u chan -s plain --fsync
like "$RC:$OUT" "^1:.*attributes can't change once the channel exists" "an existing channel can't change to --fsync (CHANNEL_ATTR)"
done_testing
