#!/bin/bash
# test_export_clickhouse.sh - lttctl export-trace --to=clickhouse://...
# (doc/sql.md) into a clickhouse-server of the test's own (Debian's
# package; the test skips where it is not installed): the layout SQLite
# gets, the same rows (counts per class, each thread's numbers, field
# values as babeltrace2 shows them); two sessions' traces side by side;
# the same trace again writes nothing twice; an export killed after a
# commit and run again ends with every event once (the rows of packets
# it had not finished deleted first); a server that is not there, or a
# port that is not its HTTP interface, is said and changes nothing.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup
export_or_skip
ch_start
plan 26

N=60000	# per thread: 240,000 events, more than a commit's 200,000
types_trace $N
is "$total" $((4 * N)) "babeltrace2 reads the $((4 * N)) events"
URL="clickhouse://127.0.0.1:$CH_PORT/ltt"

run lttctl export-trace -s s --to="$URL"
is "$RC" 0 "export-trace -s s --to=clickhouse://: exit 0"
like "$OUT" "^Exported $total events of 1 trace into $URL \\(" "the summary"
is "$(chq 'SELECT count() FROM ltt.events')" "$total" "events: one row per event"
is "$(chq 'SELECT name, count() FROM ltt.events GROUP BY name ORDER BY name' | tr '\t' ' ')" \
	"$(bt_counts "$TEST_TMP/bt")" "the counts per event class are babeltrace2's"
is "$(chq 'SELECT thread, count(), sum(seq), uniqExact(seq) FROM ltt.`ltt_test:seq` GROUP BY thread ORDER BY thread' | tr '\t' '|')" \
	"0|$N|$((N * (N - 1) / 2))|$N
1|$N|$((N * (N - 1) / 2))|$N" "ltt_test:seq: each thread's numbers 0..N-1, once each"
chq 'SELECT s8, u8, s16, u16, s32, u32, s64, hex(hex), str, arr, atext, _seq_length, seq, stext, par, par_value FROM ltt.`ltt_test:types`' |
	tr '\t' '|' | LC_ALL=C sort >"$TEST_TMP/ch-fields"
python3 "$LTT_TOP_SRCDIR/tests/regression/export/bt_types.py" "$TEST_TMP/bt" | LC_ALL=C sort >"$TEST_TMP/bt-fields"
is "$(wc -l <"$TEST_TMP/ch-fields")" $((2 * N)) "ltt_test:types: every row"
ok "$(cmp -s "$TEST_TMP/bt-fields" "$TEST_TMP/ch-fields"; echo $?)" \
	"ltt_test:types: integers, hex, strings, arrays (Array(Int64)), the enumeration: babeltrace2's values"
is "$(chq 'SELECT toTypeName(u64), toTypeName(f64), toTypeName(str), toTypeName(arr), toTypeName(ts) FROM ltt.`ltt_test:types` LIMIT 1' | tr '\t' ' ')" \
	"Nullable(UInt64) Nullable(Float64) Nullable(String) Array(Int64) Int64" \
	"typed columns: integers, reals, text, arrays; ts (the order) not Nullable"
is "$(chq 'SELECT count() FROM ltt.`ltt_test:types` WHERE u64 = plus(18000000000000000000, toUInt64(u32 - 4000000000)) AND f64 = 0.25 + (u32 - 4000000000)')" \
	$((2 * N)) "u64 kept whole (UInt64), f64 the value recorded"
is "$(chq "SELECT count() FROM ltt.events WHERE host = '$(hostname)' AND trace = 's' AND procname = 'ust_app' AND pid > 0 AND tid > 0")" \
	"$total" "events: host, trace, and the contexts' pid, tid, procname"

# A second session, exported beside: each trace's rows, apart.
lttctl -q create s2 -o "$TEST_TMP/s2"
lttctl -q enable-event -u ltt_test:seq -s s2
lttctl -q start s2
ust_app -n 1000
lttctl -q stop s2
run lttctl export-trace -s s2 --to="$URL"
is "$(chq 'SELECT trace, count() FROM ltt.events GROUP BY trace ORDER BY trace' | tr '\t' '|')" \
	"s|$total
s2|1000" "two sessions' traces side by side"

# The same trace again: nothing twice.
run lttctl export-trace "$TEST_TMP/s" "$TEST_TMP/s2" --to="$URL"
like "$OUT" "^Exported 0 events of 2 traces into $URL \\(0 packets; $((total + 1000)) events of packets exported before, skipped;" \
	"both traces again: every packet known, skipped"
is "$(chq 'SELECT count() FROM ltt.events')" $((total + 1000)) "still one row per event"

# An export killed after its first commit, then run again.
URL2="clickhouse://127.0.0.1:$CH_PORT/cut"
LTT_FAULT="kill export-committed:1" "$EXPORT_BIN" --quiet --to="$URL2" "$TEST_TMP/s"
is "$?" 137 "an export killed after its first commit"
part=$(chq 'SELECT count() FROM cut.events')
ok "$([ "$part" -gt 0 ] && [ "$part" -lt "$total" ]; echo $?)" "it kept part of the trace ($part events)"
run "$EXPORT_BIN" --to="$URL2" "$TEST_TMP/s"
is "$RC" 0 "the export again: exit 0"
ch_settle 'SELECT count(), uniqExact(ts, tid) FROM cut.events' "$total	$total"
is "$CH_GOT" "$total	$total" "then every event once (the half-kept packets' rows deleted, then sent again)"
is "$(chq 'SELECT thread, count(), uniqExact(seq) FROM cut.`ltt_test:seq` GROUP BY thread ORDER BY thread' | tr '\t' '|')" \
	"0|$N|$N
1|$N|$N" "ltt_test:seq: each number once per thread"

# An export stopped after its first commit is alive: another export into
# the database meanwhile deletes nothing of its half-written packets; once
# it is killed, the next export recovers them and ends with every event once.
URL3="clickhouse://127.0.0.1:$CH_PORT/held"
LTT_FAULT="stop export-committed:1" "$EXPORT_BIN" --quiet --to="$URL3" "$TEST_TMP/s" &
held=$!
stopped "$held"
ok $? "an export stopped after its first commit"
before=$(chq "SELECT count() FROM held.events WHERE trace = 's'")
run "$EXPORT_BIN" --to="$URL3" "$TEST_TMP/s2"
is "$RC" 0 "another export into the database meanwhile"
is "$(chq "SELECT count() FROM held.events WHERE trace = 's'")" "$before" \
	"it takes the stopped one for alive: nothing of its rows deleted"
kill -KILL "$held"
wait "$held" 2>/dev/null
run "$EXPORT_BIN" --to="$URL3" "$TEST_TMP/s"
ch_settle "SELECT count(), uniqExact(ts, tid) FROM held.events WHERE trace = 's'" "$total	$total"
is "$CH_GOT" "$total	$total" "killed: the next export recovers its rows, every event once"

# No server there; a port that is not an HTTP interface.
port=$(free_port)
run "$EXPORT_BIN" --to="clickhouse://127.0.0.1:$port/ltt" "$TEST_TMP/s2"
is "$RC" 1 "no server: exit 1"
like "$ERR" "ClickHouse at 127\\.0\\.0\\.1:$port: Connection refused: is clickhouse-server running, its HTTP port this one\\?" \
	"no server: says so, and what to check"
run "$EXPORT_BIN" --to="clickhouse://127.0.0.1:$CH_PORT/no-such" "$TEST_TMP/s2"
like "$ERR" "give clickhouse://HOST\\[:PORT\\]/DATABASE \\(a database name of letters, digits and _" \
	"a database name ClickHouse would need quoted: refused, saying what it takes"

done_testing
