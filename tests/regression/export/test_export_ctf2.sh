#!/bin/bash
# test_export_ctf2.sh - CTF 2 traces into SQL (doc/sql.md): two sessions
# record the same program, one in CTF 1.8, one in CTF 2 (-F ctf-2, as
# LTTng 2.15 and later write by default); ltt-export, run in a Debian sid
# root on its libbabeltrace2 2.1 and libsqlite3, exports both into one
# database: as many rows as babeltrace2 2.1 reads, and the CTF 2 trace's
# rows equal the CTF 1.8 trace's, field by field.  On this host's
# babeltrace2 2.0, the CTF 2 trace is refused with a sentence that says
# which babeltrace2 reads it, and nothing is written.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup
export_or_skip
unsanitized_or_skip
root_or_skip sid
plan 9

N=2000
lttctl -q create t18 -o "$TEST_TMP/t18" -F ctf-1.8 && lttctl -q create t2 -o "$TEST_TMP/t2" -F ctf-2 ||
	{ echo "Bail out! the sessions"; exit 1; }
for s in t18 t2; do
	lttctl -q enable-event -u 'ltt_test:seq,ltt_test:types' -s $s
	lttctl -q add-context -u -t vtid -s $s
	lttctl -q start $s
done
ust_app -n $N -T
lttctl -q stop t18
lttctl -q stop t2

# On this host: babeltrace2's library 2.0, which reads no CTF 2.
if [ "$(babeltrace2 --version | sed -n 's/^Babeltrace \([0-9]*\.[0-9]*\).*/\1/p')" = 2.0 ]; then
	run "$EXPORT_BIN" --to="sqlite:$TEST_TMP/host.db" "$TEST_TMP/t2"
	is "$RC" 1 "babeltrace2 2.0's library: the CTF 2 trace refused"
	like "$ERR" "1 of the traces are CTF 2, which babeltrace2's library reads from 2\\.1 on, and this one is 2\\.0: export them where libbabeltrace2 2\\.1 is" \
		"saying which babeltrace2 reads it"
	ok "$([ ! -e "$TEST_TMP/host.db" ]; echo $?)" "and no database made"
else
	skip 3 "this host's babeltrace2 reads CTF 2"
fi

# In the sid root: libbabeltrace2 2.1.
cp "$EXPORT_BIN" "$TEST_TMP/ltt-export"
in_root "$TEST_TMP/ltt-export" --to="sqlite:$TEST_TMP/sid.db" "$TEST_TMP/t18" "$TEST_TMP/t2" \
	>"$TEST_TMP/export.out" 2>"$TEST_TMP/export.err"
is "$?" 0 "ltt-export on babeltrace2 2.1 exports both traces" || diag "$(cat "$TEST_TMP/export.err")"
like "$(cat "$TEST_TMP/export.out")" "^Exported $((4 * N)) events of 2 traces into " "every event of both"
bt21 "$TEST_TMP/t2" "$TEST_TMP/bt2"
is "$(sq "$TEST_TMP/sid.db" "SELECT count(*) FROM events WHERE trace = 't2'")" "$(grep -c '^\[' "$TEST_TMP/bt2")" \
	"the CTF 2 trace: as many rows as babeltrace2 2.1 reads"
is "$(sq "$TEST_TMP/sid.db" "SELECT trace, count(*) FROM \"ltt_test:types\" GROUP BY trace ORDER BY trace")" \
	"t18|$N
t2|$N" "ltt_test:types: N rows of each trace"
cols=$(sq "$TEST_TMP/sid.db" "SELECT group_concat('\"' || name || '\"', ', ') FROM pragma_table_info('ltt_test:types') WHERE cid > 5 AND name != 'vtid'")
is "$(sq "$TEST_TMP/sid.db" "SELECT count(*) FROM (SELECT $cols FROM \"ltt_test:types\" WHERE trace = 't2' EXCEPT SELECT $cols FROM \"ltt_test:types\" WHERE trace = 't18')")" 0 \
	"the CTF 2 rows are the CTF 1.8 rows, every field (integers, reals, strings, arrays, the enumeration)"
is "$(sq "$TEST_TMP/sid.db" "SELECT count(DISTINCT typeof(u64) || typeof(f64) || typeof(par) || typeof(par_value)) FROM \"ltt_test:types\"")" 1 \
	"the same column types from both formats"

done_testing
