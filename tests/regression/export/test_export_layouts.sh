#!/bin/bash
# test_export_layouts.sh - lttctl export-trace on the traces users have
# (doc/sql.md): per-process buffers (a trace per program); a rotation's
# archive exported first, then the whole session (only the rest goes);
# two snapshots of one session, whose packets overlap (each once); and
# a trace Debian's LTTng records of a program built with LTTng-UST's
# headers, beside ltt's trace of the same binary in one database: the
# same tables, the same rows.  Counts are babeltrace2's, trace by trace.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup
export_or_skip
plan 16

# bt_total DIR: babeltrace2's events of every trace under DIR, read one by one
bt_total() {
	local m n=0
	for m in $(find "$1" -name metadata | sort); do
		n=$((n + $(timeout "$BT_TIMEOUT" babeltrace2 "$(dirname "$m")" | grep -c '^\[')))
	done
	echo $n
}

# --- per-process buffers: two programs, a trace each
lttctl -q create p -o "$TEST_TMP/p"
lttctl -q enable-channel -u c --buffers-pid -s p
lttctl -q enable-event -u ltt_test:seq -c c -s p
lttctl -q start p
ust_app -n 300 -r a
ust_app -n 200 -r b
lttctl -q stop p
run lttctl export-trace -s p --to="sqlite:$TEST_TMP/p.db"
like "$OUT" "^Exported 500 events of 2 traces into " "per-process buffers: a trace per program, both"
is "$(sq "$TEST_TMP/p.db" "SELECT role, count(*), count(DISTINCT stream) FROM \"ltt_test:seq\" WHERE stream LIKE 'ust/pid/%' GROUP BY role ORDER BY role")" \
	"a|300|1
b|200|1" "each program's events, on its own stream (ust/pid/...)"

# --- a rotation's archive, then the whole session
lttctl -q create r -o "$TEST_TMP/r"
lttctl -q enable-event -u ltt_test:seq -s r
lttctl -q start r
ust_app -n 400 -r first
lttctl -q rotate r >/dev/null
ust_app -n 300 -r second
lttctl -q stop r
first=$(archives "$TEST_TMP/r" | head -1)
run "$EXPORT_BIN" --to="sqlite:$TEST_TMP/r.db" "$first"
like "$OUT" "^Exported 400 events of 1 trace" "rotation: the first archive alone"
run lttctl export-trace -s r --to="sqlite:$TEST_TMP/r.db"
like "$OUT" "^Exported 300 events of [0-9]+ traces? into .* 400 events of packets exported before, skipped;" \
	"then the whole session: only what the archive did not hold"
is "$(sq "$TEST_TMP/r.db" 'SELECT role, count(*), count(DISTINCT seq) FROM "ltt_test:seq" GROUP BY role ORDER BY role')" \
	"first|400|400
second|300|300" "each event once"
is "$(sq "$TEST_TMP/r.db" 'SELECT count(*) FROM events')" "$(bt_total "$TEST_TMP/r")" \
	"as many as babeltrace2 reads in the session's traces"

# --- two snapshots of one session: the second holds the first's packets again
lttctl -q create sn --snapshot -o "$TEST_TMP/sn"
lttctl -q enable-event -u ltt_test:seq -s sn
lttctl -q start sn
ust_app -n 250 -r one
lttctl -q snapshot record -s sn >/dev/null
ust_app -n 100 -r two
lttctl -q snapshot record -s sn >/dev/null
lttctl -q stop sn
both=$(bt_total "$TEST_TMP/sn")
is "$both" 600 "babeltrace2 reads 250 + 350 events in the two snapshots"
run lttctl export-trace "$TEST_TMP/sn" --to="sqlite:$TEST_TMP/sn.db"
like "$OUT" "^Exported 350 events of 2 traces into .* 250 events of packets exported before, skipped;" \
	"both snapshots: the first's packets once"
is "$(sq "$TEST_TMP/sn.db" 'SELECT role, count(*), count(DISTINCT seq) FROM "ltt_test:seq" GROUP BY role ORDER BY role')" \
	"one|250|250
two|100|100" "each event once"

# --- LTTng's trace of a program built with LTTng-UST's headers, beside ltt's
if [[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") == *-fsanitize=* ]] ||
	! command -v lttng-sessiond >/dev/null || ! command -v lttng-gen-tp >/dev/null ||
	! lttng_can_run; then
	skip 7 "no LTTng here to record with (Debian's lttng-tools and liblttng-ust-dev, root, an unsanitized build)"
	done_testing
	exit
fi
N=40
compat_build
lttctl -q create c1 -o "$TEST_TMP/ltt-c"
lttctl -q enable-event -u 'compat:*' -s c1
lttctl -q start c1
compat_run $N
lttctl -q stop c1
lttng_run '
	lttng create c2 -o "$TEST_TMP/lttng-c" && lttng enable-event -u "compat:*" -s c2 &&
		lttng start c2 && timeout "$TEST_TIMEOUT" "$APP" $N && lttng stop c2 && lttng destroy c2'
ok $? "Debian's LTTng records the same binary" || diag "$(cat "$TEST_TMP/lttng.log")"
DB="$TEST_TMP/c.db"
run "$EXPORT_BIN" --to="sqlite:$DB" "$TEST_TMP/ltt-c" "$TEST_TMP/lttng-c"
is "$RC" 0 "both traces into one database"
is "$(sq "$DB" "SELECT count(*) FROM events WHERE trace = 'c2'")" "$(bt_total "$TEST_TMP/lttng-c")" \
	"LTTng's trace: as many rows as babeltrace2 reads"
is "$(sq "$DB" "SELECT name, count(*) FROM events WHERE trace = 'c2' GROUP BY name ORDER BY name")" \
	"$(sq "$DB" "SELECT name, count(*) FROM events WHERE trace = 'c1' GROUP BY name ORDER BY name")" \
	"the same events, class by class, as ltt's trace of the binary"
# every column but the trace's own (ts, host, trace, stream, cpu, packet)
cols=$(sq "$DB" "SELECT group_concat('\"' || name || '\"', ', ') FROM pragma_table_info('compat:ints') WHERE cid > 5")
is "$(sq "$DB" "SELECT count(*) FROM (SELECT $cols FROM \"compat:ints\" WHERE trace = 'c1' EXCEPT SELECT $cols FROM \"compat:ints\" WHERE trace = 'c2')")" 0 \
	"compat:ints: ltt's rows are LTTng's, every integer field"
cols=$(sq "$DB" "SELECT group_concat('\"' || name || '\"', ', ') FROM pragma_table_info('compat:arrays') WHERE cid > 5")
is "$(sq "$DB" "SELECT count(*) FROM (SELECT $cols FROM \"compat:arrays\" WHERE trace = 'c2' EXCEPT SELECT $cols FROM \"compat:arrays\" WHERE trace = 'c1')")" 0 \
	"compat:arrays: LTTng's rows are ltt's, arrays and text arrays"

done_testing
