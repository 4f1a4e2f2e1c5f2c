#!/bin/bash
# test_export_sqlite.sh - lttctl export-trace --to=sqlite:FILE (doc/sql.md):
# a user-space trace with contexts and every common field type, two
# threads on two streams, into SQLite.  Every event is one row, counts
# per event class equal babeltrace2's, field values equal its text,
# the events table carries the contexts' pid, tid and procname; what the
# tracer discarded is in the discarded table (recorded + discarded =
# committed); exporting the same trace again, or a directory of it,
# writes nothing twice; an export killed after a commit (other streams'
# packets half written) and run again ends with every event once.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup
export_or_skip
plan 36

N=60000	# per thread: 2 x 2 x N = 240,000 events, more than a commit's 200,000
types_trace $N
is "$total" $((4 * N)) "babeltrace2 reads the $((4 * N)) events"

DB="$TEST_TMP/s.db"
run lttctl export-trace -s s --to="sqlite:$DB"
is "$RC" 0 "export-trace -s s: exit 0"
like "$OUT" "^Exported $total events of 1 trace into sqlite:$DB \\([0-9]+ packets; 0 events of packets exported before, skipped; 0 events and 0 packets the tracer counted lost\\)\$" \
	"export-trace: the summary"
is "$(sq "$DB" 'SELECT count(*) FROM events')" "$total" "events: one row per event"
is "$(sq "$DB" 'SELECT name, count(*) FROM events GROUP BY name ORDER BY name' | tr '|' ' ')" \
	"$(bt_counts "$TEST_TMP/bt")" "events: the counts per event class are babeltrace2's"
is "$(sq "$DB" 'SELECT (SELECT count(*) FROM "ltt_test:seq") + (SELECT count(*) FROM "ltt_test:types")')" \
	"$total" "the event classes' tables hold every event"
is "$(sq "$DB" 'SELECT sum(events) FROM ltt_packets')" "$total" "ltt_packets counts them too"
is "$(sq "$DB" 'SELECT thread, count(*), sum(seq), count(DISTINCT seq) FROM "ltt_test:seq" GROUP BY thread ORDER BY thread')" \
	"0|$N|$((N * (N - 1) / 2))|$N
1|$N|$((N * (N - 1) / 2))|$N" "ltt_test:seq: each thread's numbers 0..N-1, once each"

# The contexts: vpid, vtid and procname as babeltrace2 shows them, and in events.
bt_ctx=$(sed -n 's/.*{ vpid = \([0-9]*\), vtid = \([0-9]*\), procname = "\([^"]*\)" }.*/\1|\2|\3/p' "$TEST_TMP/bt" |
	sort | uniq -c | awk '{ print $2 "|" $1 }')
is "$(sq "$DB" 'SELECT vpid, vtid, procname, count(*) FROM "ltt_test:types" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3')" \
	"$(sed -n 's/.*ltt_test:types: .*{ vpid = \([0-9]*\), vtid = \([0-9]*\), procname = "\([^"]*\)" }.*/\1|\2|\3/p' "$TEST_TMP/bt" |
		sort | uniq -c | awk '{ print $2 "|" $1 }')" "the context columns: babeltrace2's values"
is "$(sq "$DB" 'SELECT pid, tid, procname, count(*) FROM events GROUP BY 1, 2, 3 ORDER BY 1, 2, 3')" \
	"$bt_ctx" "events' pid, tid, procname: the contexts' (vpid, vtid)"
is "$(sq "$DB" "SELECT count(*) FROM events WHERE host = '$(hostname)' AND trace = 's' AND stream LIKE 'ust/uid/$(id -u)/64-bit/%' AND cpu IS NOT NULL AND ts > 1700000000000000000")" \
	"$total" "events: host, trace (the session), stream (from ust/ on), cpu, ts in ns since the epoch"

# Field values: each ltt_test:types event's fields as babeltrace2 prints
# them (arrays in JSON, the enumeration's label and value), compared whole.
bt_fields() {
	python3 "$LTT_TOP_SRCDIR/tests/regression/export/bt_types.py" "$1"
}
sql_fields() {
	sq "$DB" 'SELECT s8, u8, s16, u16, s32, u32, s64, printf("%X", hex), str, arr, atext, _seq_length, seq, stext, par, par_value FROM "ltt_test:types"' |
		python3 -c "import sys; sys.stdout.writelines(sorted(sys.stdin))"
}
bt_fields "$TEST_TMP/bt" >"$TEST_TMP/bt-fields"
sql_fields >"$TEST_TMP/sql-fields"
is "$(wc -l <"$TEST_TMP/bt-fields")" $((2 * N)) "babeltrace2's ltt_test:types lines read"
ok "$(cmp -s "$TEST_TMP/bt-fields" "$TEST_TMP/sql-fields" || diff "$TEST_TMP/bt-fields" "$TEST_TMP/sql-fields" | head -4 >&2; cmp -s "$TEST_TMP/bt-fields" "$TEST_TMP/sql-fields"; echo $?)" \
	"ltt_test:types: integers, hex, strings, arrays, sequences, the enumeration: babeltrace2's values"
is "$(sq "$DB" 'SELECT count(*) FROM "ltt_test:types" WHERE u64 = -446744073709551616 + u32 - 4000000000')" \
	$((2 * N)) "u64 above 2^63-1: its two's complement (18000000000000000000 + i)"
is "$(sq "$DB" 'SELECT count(*) FROM "ltt_test:types" WHERE f64 = 0.25 + u32 - 4000000000 AND f32 = 0.5 + u32 - 4000000000')" \
	$((2 * N)) "f32 and f64: the values recorded (0.5 + i, 0.25 + i)"
is "$(sq "$DB" "SELECT typeof(s8), typeof(u64), typeof(f64), typeof(str), typeof(arr), typeof(par), typeof(par_value) FROM \"ltt_test:types\" LIMIT 1")" \
	"integer|integer|real|text|text|text|integer" "typed columns: integers, reals, text (arrays as JSON), the enumeration's label and value"
is "$(sq "$DB" "SELECT json_array_length(arr), json_extract(arr, '\$[2]') FROM \"ltt_test:types\" LIMIT 1")" "3|7" \
	"arrays: JSON that SQLite's json functions read"

# The same trace again, and one of its directories: nothing twice.
run lttctl export-trace "$TEST_TMP/s" --to="sqlite:$DB"
like "$OUT" "^Exported 0 events of 1 trace into sqlite:$DB \\(0 packets; $total events of packets exported before, skipped;" \
	"the same trace again: every packet known, skipped"
run "$EXPORT_BIN" --to="sqlite:$DB" "$TEST_TMP/s/ust" "$TEST_TMP/s"
like "$OUT" "^Exported 0 events of 1 trace into" "a directory of it and the trace, given together: one trace, skipped"
is "$(sq "$DB" 'SELECT count(*) FROM events')" "$total" "still one row per event"

# An export killed right after its first commit, then run again.
DB2="$TEST_TMP/cut.db"
LTT_FAULT="kill export-committed:1" "$EXPORT_BIN" --quiet --to="sqlite:$DB2" "$TEST_TMP/s"
is "$?" 137 "an export killed after its first commit"
part=$(sq "$DB2" 'SELECT count(*) FROM events')
ok "$([ "$part" -gt 0 ] && [ "$part" -lt "$total" ]; echo $?)" "it kept part of the trace ($part events)"
ok "$([ "$(sq "$DB2" 'SELECT count(*) FROM events WHERE packet NOT IN (SELECT packet FROM ltt_packets)')" -gt 0 ]; echo $?)" \
	"with rows of packets it had not finished (the other stream's)"
run "$EXPORT_BIN" --to="sqlite:$DB2" "$TEST_TMP/s"
is "$RC" 0 "the export again: exit 0"
is "$(sq "$DB2" 'SELECT count(*), count(DISTINCT ts || tid) FROM events')" "$total|$total" \
	"then every event once"
is "$(sq "$DB2" 'SELECT thread, count(*), count(DISTINCT seq) FROM "ltt_test:seq" GROUP BY thread ORDER BY thread')" \
	"0|$N|$N
1|$N|$N" "ltt_test:seq: each number once per thread"

# An export holding the file (stopped after its first commit): a second is
# refused and deletes nothing of the first one's; once it is gone, the next
# ends with every event once.
DB3="$TEST_TMP/held.db"
LTT_FAULT="stop export-committed:1" "$EXPORT_BIN" --quiet --to="sqlite:$DB3" "$TEST_TMP/s" &
held=$!
stopped "$held"
ok $? "an export stopped after its first commit"
before=$(sq "$DB3" 'SELECT count(*) FROM events')
run "$EXPORT_BIN" --to="sqlite:$DB3" "$TEST_TMP/s"
is "$RC" 1 "a second export into its file: exit 1"
like "$ERR" "SQLite database '$DB3': another ltt-export writes it now: run this one when it ends" \
	"saying why and what to do"
is "$(sq "$DB3" 'SELECT count(*) FROM events')" "$before" "nothing of the first one's deleted"
kill -KILL "$held"
wait "$held" 2>/dev/null
run "$EXPORT_BIN" --to="sqlite:$DB3" "$TEST_TMP/s"
is "$(sq "$DB3" 'SELECT count(*), count(DISTINCT ts || tid) FROM events')" "$total|$total" \
	"the first one gone, the next export ends with every event once"

# A channel too small for the program: what the tracer discarded, counted.
lttctl -q create d -o "$TEST_TMP/d"
lttctl -q enable-channel -u small --subbuf-size 4096 --num-subbuf 2 -s d
lttctl -q enable-event -u ltt_test:seq -c small -s d
lttctl -q start d
ust_burst d 2 50000
lttctl -q stop d
bt "$TEST_TMP/d" "$TEST_TMP/bt-d"
lost=$(discarded "$TEST_TMP/bt-d.err")
ok "$([ "$lost" -gt 0 ]; echo $?)" "the small channel discarded events ($lost)"
run lttctl export-trace -s d --to="sqlite:$TEST_TMP/d.db"
is "$(sq "$TEST_TMP/d.db" 'SELECT count(*) FROM events')" "$(wc -l <"$TEST_TMP/bt-d")" \
	"discard: the events recorded, as babeltrace2 reads them"
is "$(sq "$TEST_TMP/d.db" 'SELECT sum(events) FROM discarded')" "$lost" \
	"discarded: babeltrace2's count of discarded events"
is "$(sq "$TEST_TMP/d.db" 'SELECT (SELECT count(*) FROM events) + (SELECT sum(events) FROM discarded)')" 100000 \
	"recorded + discarded = the 100000 events committed"
is "$BURST_RC" 0 "the burst's program ended well"

done_testing
