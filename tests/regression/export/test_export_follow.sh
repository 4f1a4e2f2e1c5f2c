#!/bin/bash
# test_export_follow.sh - ltt-export --follow (doc/sql.md, "Live"): two
# hosts (this one, and a session daemon in a UTS namespace of its own
# named host-b) stream a live session each through one ltt-relayd, and
# their events are exported from the relay's output as they grow into
# ClickHouse (a server of the test's own; SQLite where clickhouse-server
# is not installed), counted per host.  Each session's
# events are there while the sessions still run (within seconds of the
# live timer); the exporter killed in the middle and started again, and
# ClickHouse stopped while events come and started again, lose nothing
# and write nothing twice: at the end each event is one row,
# count per session exact.  The relay's output is never written by it.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup
export_or_skip
[ "$(id -u)" = 0 ] && unshare -u true 2>/dev/null ||
	skip_all "the second host is a session daemon in a UTS namespace: root (unshare -u) needed"
relayd_init
FOLLOWER=
RUN_B=$TEST_TMP/run-b
stop_b() { [ -f "$RUN_B/sessiond.pid" ] && kill -KILL "$(cat "$RUN_B/sessiond.pid")" 2>/dev/null; }
trap '[ -n "$FOLLOWER" ] && kill -KILL "$FOLLOWER" 2>/dev/null; stop_b; ch_stop; _relayd_cleanup; _cleanup' EXIT
if command -v clickhouse-server >/dev/null || [ -x /usr/sbin/clickhouse-server ]; then
	ch_start
	trap '[ -n "$FOLLOWER" ] && kill -KILL "$FOLLOWER" 2>/dev/null; stop_b; ch_stop; _relayd_cleanup; _cleanup' EXIT
	URL="clickhouse://127.0.0.1:$CH_PORT/live"
	count() { CH_DB=live chq "SELECT trace, host, count(), uniqExact(seq, thread, role) FROM \`ltt_test:seq\` GROUP BY trace, host ORDER BY trace" 2>/dev/null | tr '\t' '|'; }
else
	diag "clickhouse-server is not installed: the export goes to SQLite"
	URL="sqlite:$TEST_TMP/live.db"
	count() { sq "$TEST_TMP/live.db" "SELECT trace, host, count(*), count(DISTINCT seq || ',' || thread || ',' || role) FROM \"ltt_test:seq\" GROUP BY trace, host ORDER BY trace" 2>/dev/null; }
fi
plan 12

start_relayd -o "$TEST_TMP/relay-out" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
# host-b: a session daemon of its own run directory, in a UTS namespace
mkdir -p "$RUN_B"
unshare -u sh -c 'hostname host-b && exec timeout "$0" "$1" --daemonize --rundir "$2"' \
	"$TEST_TIMEOUT" "$SESSIOND" "$RUN_B" || { echo "Bail out! host-b's session daemon"; exit 1; }
on_b() { LTT_RUNDIR=$RUN_B "$@"; }
A=$(hostname)
# s1 on this host, s2 on host-b
lttctl -q create s1 --live=100000 --set-url "net://127.0.0.1:$CPORT:$DPORT" &&
	lttctl -q enable-event -u ltt_test:seq -s s1 && lttctl -q start s1 &&
	on_b lttctl -q create s2 --live=100000 --set-url "net://127.0.0.1:$CPORT:$DPORT" &&
	on_b lttctl -q enable-event -u ltt_test:seq -s s2 && on_b lttctl -q start s2 ||
	{ echo "Bail out! the live sessions did not start"; exit 1; }

follower() {
	TMPDIR=$TEST_TMP "$EXPORT_BIN" --follow=0.2 --to="$URL" "$TEST_TMP/relay-out" \
		2>>"$TEST_TMP/follower.err" &
	FOLLOWER=$!
}

# until_count WANT: until the rows per session are WANT (bounded); the last
# in GOT.  Between two looks, the wait is for the exporter's next line (a
# round done, or failed), the lines counted before the look.
until_count() {
	local end=$((SECONDS + TEST_TIMEOUT)) lines
	while lines=$(wc -l <"$TEST_TMP/follower.err"); GOT=$(count); [ "$GOT" != "$1" ]; do
		[ $SECONDS -lt $end ] || return 1
		WAIT_TIMEOUT=5 wait_fs "$TEST_TMP/follower.err" -- \
			bash -c '[ "$(wc -l <"$1")" -gt "$2" ]' _ "$TEST_TMP/follower.err" "$lines" 2>/dev/null
	done
}

: >"$TEST_TMP/follower.err"
follower
ust_app -n 1000 -r one
on_b ust_app -n 700 -r two
# both programs ran while the sessions are live: their events streamed
until_count "s1|$A|1000|1000
s2|host-b|700|700"
is "$GOT" "s1|$A|1000|1000
s2|host-b|700|700" "while the sessions run: each host's events, in the database"

kill -KILL "$FOLLOWER"
wait "$FOLLOWER" 2>/dev/null
ust_app -n 500 -r three
follower
until_count "s1|$A|1500|1500
s2|host-b|700|700"
is "$GOT" "s1|$A|1500|1500
s2|host-b|700|700" "the exporter killed and started again: what came meanwhile, once"

if [ "${URL%%:*}" = clickhouse ]; then
	ch_stop
	ust_app -n 300 -r four
	wait_for "$TEST_TMP/follower.err" "Connection refused.*again in 200 ms"
	ok $? "ClickHouse stopped: the exporter says so and tries again"
	PATH=$PATH:/usr/sbin clickhouse-server --config-file="$TEST_TMP/ch/config.xml" \
		</dev/null >>"$TEST_TMP/ch/out" 2>&1 &
	CH_PID=$!
	until_count "s1|$A|1800|1800
s2|host-b|700|700"
	is "$GOT" "s1|$A|1800|1800
s2|host-b|700|700" "ClickHouse started again: the exporter catches up, nothing twice"
	like "$(grep -m1 'round again' "$TEST_TMP/follower.err")" "\\(behind: [0-9]+ bytes\\)\$" \
		"a round that failed: how many bytes wait"
else
	ust_app -n 300 -r four
	skip 3 "no ClickHouse to stop"
	until_count "s1|$A|1800|1800
s2|host-b|700|700"
fi

lttctl -q stop s1
on_b lttctl -q stop s2
until_count "s1|$A|1800|1800
s2|host-b|700|700"
is "$GOT" "s1|$A|1800|1800
s2|host-b|700|700" "the sessions stopped: every event one row"
kill -TERM "$FOLLOWER"
wait "$FOLLOWER"
is "$?" 0 "SIGTERM: the exporter ends its round and exits 0"
FOLLOWER=
like "$(tail -1 "$TEST_TMP/follower.err")" "^ltt-export: stopped after [0-9]+ rounds, [0-9]+ events exported\$" \
	"it says what it did"
like "$(grep -m1 'events exported, 2 traces followed;' "$TEST_TMP/follower.err")" \
	"this round took [0-9]+ bytes, the newest event [0-9.]+ s old\$" "each round says how far behind it is"
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/relay-out" >"$TEST_TMP/bt"
is "$(grep -c 'ltt_test:seq' "$TEST_TMP/bt")" 2500 "the relay's traces hold the 2500 events too"
is "$(ls "$TEST_TMP/relay-out" | sort | tr '\n' ' ')" "$(printf '%s\n' "$A" host-b | sort | tr '\n' ' ')" \
	"in a directory per host"
is "$(find "$TEST_TMP/relay-out" -type f ! -name metadata ! -name 'channel*' | wc -l)" 0 \
	"nothing but the relay's files in its output"

done_testing
