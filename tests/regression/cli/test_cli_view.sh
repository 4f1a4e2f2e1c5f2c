#!/bin/bash
# test_cli_view.sh - lttctl view's errors: nothing to view, no trace yet, a
# reader that can't run; and -e running the given reader on the trace.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

test_init
start_sessiond || { echo "Bail out! no session daemon"; exit 1; }
plan 9

lttctl -q create none --no-output
run lttctl view none
is "$RC" 1 "no output: exit 1"
is "$ERR" "Error: session 'none' has no local trace (its output is none)" \
	"no output: says so"

lttctl -q create fresh -o "$TEST_TMP/fresh"
run lttctl view fresh
is "$RC" 1 "no trace yet: exit 1"
is "$ERR" "Error: session 'fresh' has no trace yet in $TEST_TMP/fresh: start it and run a traced program first" \
	"no trace yet: says what to do"

mkdir -p "$TEST_TMP/fresh"
run lttctl view fresh -e "$TEST_TMP/no-such-reader"
is "$RC" 1 "a reader that does not exist: exit 1"
like "$ERR" "^Error: can't run the trace reader '$TEST_TMP/no-such-reader': No such file or directory" \
	"a reader that does not exist: says so"

# -e: the reader's words, then the trace directory.
run lttctl view fresh -e "echo reading"
is "$RC" 0 "-e echo: exit 0"
is "$OUT" "reading $TEST_TMP/fresh" "-e: the reader gets its words and the trace directory"
run lttctl view nosuch
is "$RC" 1 "an unknown session: exit 1"
done_testing
