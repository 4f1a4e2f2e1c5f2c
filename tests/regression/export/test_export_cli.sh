#!/bin/bash
# test_export_cli.sh - lttctl export-trace's and ltt-export's command
# lines: what each refuses and says (no --to, another URL, a session and
# directories together, --mi, a session without a local trace or with
# none yet, no trace under a directory, a file that can't be a database,
# ltt-export missing), changing nothing; the progress line with
# --progress, and none with --quiet; the help.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"

ust_setup
export_or_skip
plan 33

lttctl -q create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq -s s
lttctl -q start s
ust_app -n 500
lttctl -q stop s
DB="$TEST_TMP/t.db"

run lttctl export-trace -s s
is "$RC" 2 "no --to: exit 2"
like "$ERR" "no --to: give where to, --to=sqlite:FILE or --to=clickhouse://HOST\\[:PORT\\]/DATABASE" \
	"no --to: says what to give"
run lttctl export-trace -s s --to=postgres://x/y
is "$RC" 2 "another kind of URL: exit 2"
like "$ERR" "--to 'postgres://x/y': give where to" "another kind of URL: said"
run lttctl export-trace -s s "$TEST_TMP/s" --to="sqlite:$DB"
is "$RC" 2 "a session and directories: exit 2"
like "$ERR" "a session \\(-s\\) or trace directories, not both" "a session and directories: said"
run lttctl export-trace -s s --to="sqlite:$DB" --progress --quiet
is "$RC" 2 "--progress and --quiet: exit 2"
run lttctl --mi xml export-trace -s s --to="sqlite:$DB"
is "$RC" 1 "--mi: exit 1"
like "$ERR" "^Error: export-trace: this command has no machine interface output \\(.*export-trace a database\\); run it without --mi" "--mi: refused, saying why"
lttctl -q create none --no-output
run lttctl export-trace -s none --to="sqlite:$DB"
is "$ERR" "Error: session 'none' has no local trace (its output is none)" "a session without a local trace: said"
lttctl -q create fresh -o "$TEST_TMP/fresh"
run lttctl export-trace -s fresh --to="sqlite:$DB"
like "$ERR" "session 'fresh' has no trace yet in $TEST_TMP/fresh: start it and run a traced program first" \
	"a session with nothing recorded yet: said"
run lttctl export-trace -s nosuch --to="sqlite:$DB"
is "$RC" 1 "no such session: exit 1"
mkdir -p "$TEST_TMP/empty"
run lttctl export-trace "$TEST_TMP/empty" --to="sqlite:$DB"
is "$RC" 1 "no trace under a directory: exit 1"
like "$ERR" "no CTF trace \\(a directory with a \"metadata\" file\\) under $TEST_TMP/empty: give a session's trace directory" \
	"no trace under a directory: said"
run lttctl export-trace "$TEST_TMP/nosuch" --to="sqlite:$DB"
like "$ERR" "'$TEST_TMP/nosuch': No such file or directory: give a trace's directory" "a directory that does not exist: said"
echo "not a database" >"$TEST_TMP/text"
run lttctl export-trace -s s --to="sqlite:$TEST_TMP/text"
is "$RC" 1 "a file that is not a database: exit 1"
like "$ERR" "SQLite: .*file is not a database" "a file that is not a database: SQLite's words"
is "$(cat "$TEST_TMP/text")" "not a database" "and the file is as it was"
ok "$([ ! -e "$DB" ]; echo $?)" "no database made by any refused command"
run env LTT_EXPORT_PATH="$TEST_TMP/no-ltt-export" "$LTTCTL_BIN" export-trace -s s --to="sqlite:$DB"
is "$RC" 1 "ltt-export missing: exit 1"
like "$ERR" "can't run $TEST_TMP/no-ltt-export: No such file or directory \\(install ltt-export: Debian's package of that name, or make install of an ltt built with libbabeltrace2-dev and libsqlite3-dev\\)" \
	"ltt-export missing: said"

# ClickHouse URLs that name no server's database; --follow's interval.
run lttctl export-trace -s s --to="clickhouse://127.0.0.1:0/ltt"
is "$RC" 1 "clickhouse://HOST:0/...: exit 1"
like "$ERR" "--to 'clickhouse://127\\.0\\.0\\.1:0/ltt': give clickhouse://HOST\\[:PORT\\]/DATABASE" \
	"port 0: said, with the form to give"
run lttctl export-trace -s s --to="clickhouse://[::1]:1/ltt"
like "$ERR" "ClickHouse at ::1:1: Connection refused" "an IPv6 address in brackets: taken, and the server looked for there"
run lttctl export-trace -s s --to="sqlite:$DB" --follow=abc
is "$RC" 2 "--follow=abc: exit 2"
like "$ERR" "--follow=abc: give seconds between rounds, from 0\\.01 to 3600" "--follow=abc: says what to give"
run lttctl export-trace -s s --to="sqlite:$DB" --follow=1 --progress
is "$RC" 2 "--follow with --progress: exit 2"
ok "$([ ! -e "$DB" ]; echo $?)" "and still no database made"

# The progress line, asked for; none with --quiet.
run lttctl export-trace -s s --to="sqlite:$DB" --progress
is "$RC" 0 "--progress: exit 0"
like "$ERR" "ltt-export: 500 events, [0-9]+ events/s, [0-9.]+ of [0-9.]+ MiB" "--progress: the last progress line, on stderr"
like "$OUT" "^Exported 500 events of 1 trace into sqlite:$DB " "--progress: the summary, on stdout"
run lttctl export-trace -s s --to="sqlite:$TEST_TMP/q.db" --quiet
is "$OUT$ERR" "" "--quiet: nothing said"
is "$(sq "$TEST_TMP/q.db" 'SELECT count(*) FROM events')" 500 "--quiet: the events exported all the same"

done_testing
