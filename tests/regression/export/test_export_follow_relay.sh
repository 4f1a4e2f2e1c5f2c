#!/bin/bash
# test_export_follow_relay.sh - ltt-export --follow on a relay that dies
# in the middle (doc/sql.md, "Live"): the relay kills itself with a
# packet's data written and not its index (its fault point
# packet-written), while the exporter follows its output into SQLite.
# Before the next relay repairs: the exporter exported only indexed
# packets, none torn (what babeltrace2 reads of the dead relay's files
# holds more: the torn packet).  The next relay cuts the files back to
# their indexed packets; the exporter goes on: at the end its rows are
# exactly what babeltrace2 reads of the repaired trace, each once.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup --log
export_or_skip
relayd_init
FOLLOWER=
trap '[ -n "$FOLLOWER" ] && kill -KILL "$FOLLOWER" 2>/dev/null; _relayd_cleanup; _cleanup' EXIT
plan 7

N=20000		# in 4 KiB packets: a few hundred
K=30		# the packet at whose data the relay dies
out=$TEST_TMP/out
state=$TEST_TMP/state
DB=$TEST_TMP/f.db

LTT_STATEDIR=$state LTT_FAULT="kill packet-written:$K" start_relayd -o "$out" ||
	{ echo "Bail out! ltt-relayd did not start"; exit 1; }
dead=$RELAYD_PID
: >"$TEST_TMP/follower.err"
TMPDIR=$TEST_TMP "$EXPORT_BIN" --follow=0.2 --to="sqlite:$DB" "$out" 2>>"$TEST_TMP/follower.err" &
FOLLOWER=$!
lttctl -q create s -U "net://127.0.0.1:$CPORT:$DPORT"
# blocking: every event reaches the consumer, so the relay gets its K-th packet
lttctl -q enable-channel -u chan -s s --subbuf-size 4k --num-subbuf 8 --blocking-timeout=inf &&
	lttctl -q enable-event -u 'ltt_test:*' -s s -c chan && lttctl -q start s ||
	{ echo "Bail out! the session"; exit 1; }
LTT_UST_ALLOW_BLOCKING=1 ust_app -n "$N" >/dev/null
wait_pid_exit "$dead"
ok $? "the relay killed itself with a packet's data written, not its index"
lttctl -q stop s 2>/dev/null
lttctl -q destroy s 2>/dev/null
dir=$(ls -d "$out"/*/s-*)
bt "$dir" "$TEST_TMP/torn.txt"
torn=$(grep -c '^\[' "$TEST_TMP/torn.txt")

# rows SQL: SQLite's answer, 0 before the exporter made the tables
rows() {
	sq "$DB" "$1" 2>/dev/null || echo 0
}

# settled SQL WANT: SQLite's answer, once the exporter's last round is said after
# the files stopped changing (bounded)
settled() {
	local end=$((SECONDS + TEST_TIMEOUT)) lines
	while lines=$(wc -l <"$TEST_TMP/follower.err"); GOT=$(rows "$1"); [ "$GOT" != "$2" ]; do
		[ $SECONDS -lt $end ] || return 1
		WAIT_TIMEOUT=5 wait_fs "$TEST_TMP/follower.err" -- \
			bash -c '[ "$(wc -l <"$1")" -gt "$2" ]' _ "$TEST_TMP/follower.err" "$lines" 2>/dev/null
	done
}

# the indexed packets' events: what the next relay keeps
mkdir "$TEST_TMP/run-next"
LTT_RUNDIR=$TEST_TMP/run-next LTT_STATEDIR=$state RELAYD_PIDFILE=$TEST_TMP/relayd-next.pid \
	start_relayd -o "$TEST_TMP/out-next" || { echo "Bail out! ltt-relayd did not start again"; exit 1; }
like "$(cat "$RELAYD_LOG")" "trace $dir/[^ ]*: chan_[0-9]* cut from [0-9]* to [0-9]* bytes" \
	"the next relay cuts the dead one's stream files back to their indexed packets"
bt "$dir" "$TEST_TMP/kept.txt"
kept=$(grep -c '^\[' "$TEST_TMP/kept.txt")
ok "$([ "$kept" -lt "$torn" ]; echo $?)" \
	"babeltrace2 read the torn packet's events before ($torn), not after ($kept)"

settled 'SELECT count(*) FROM events' "$kept"
is "$GOT" "$kept" "the exporter's rows: exactly the events of the indexed packets"
is "$(rows 'SELECT count(DISTINCT ts || name) FROM events')" "$kept" "each once"
is "$(rows "SELECT count(*) FROM \"ltt_test:seq\"")" "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/kept.txt")" \
	"ltt_test:seq: babeltrace2's count of the repaired trace"
kill -TERM "$FOLLOWER"
wait "$FOLLOWER"
is "$?" 0 "the exporter ends on SIGTERM"
FOLLOWER=

done_testing
