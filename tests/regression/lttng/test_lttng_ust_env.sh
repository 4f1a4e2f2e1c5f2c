#!/bin/bash
# test_lttng_ust_env.sh - the LTTNG_UST_* variables a user sets for a
# program built for LTTng-UST: ltt-run sets ltt's equivalent of
# LTTNG_UST_DEBUG, LTTNG_UST_REGISTER_TIMEOUT (-1, LTTng's "forever",
# is ltt's longest), unless ltt's own is set (LTTNG_HOME the libraries
# read themselves, as every program of ltt: ltt-run leaves it, but while
# an ltt daemon runs it points LTTng's agents at that daemon's port
# through it, and keeps ltt's home in LTT_HOME); the
# libraries say in one sentence each, once, when the program starts,
# which ones ltt does not honour, and the program records all the same.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
ust_setup
plan 13

N=5
compat_build
REFUSED='LTTNG_UST_BLOCKING_RETRY_TIMEOUT LTTNG_UST_WITHOUT_BADDR_STATEDUMP LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP LTTNG_UST_ABORT_ON_CRITICAL LTTNG_UST_APP_PATH'

# mapped VAR=VALUE...: ltt-run's environment for `env`, ltt's own unset,
# no daemon of ltt's running (one would have LTTng's agents pointed at it:
# below)
mapped() {
	env -u LTT_HOME -u LTT_UST_DEBUG -u LTT_UST_REGISTER_TIMEOUT LTT_RUNDIR="$TEST_TMP/none" "$@" \
		LTT_LTTNG_UST_LIBDIR="$COMPAT/.libs" "$COMPAT/ltt-run" env 2>"$TEST_TMP/map.err" |
		grep '^LTT_\(HOME\|UST_DEBUG\|UST_REGISTER_TIMEOUT\)=' | sort | tr '\n' ' '
}
is "$(mapped LTTNG_UST_DEBUG= LTTNG_UST_REGISTER_TIMEOUT=-1 LTTNG_HOME=/h)" \
	"LTT_UST_DEBUG=1 LTT_UST_REGISTER_TIMEOUT=3600000 " \
	"ltt-run: LTTNG_UST_DEBUG (even empty) and LTTNG_UST_REGISTER_TIMEOUT=-1 set ltt's own, LTTNG_HOME nothing"
is "$(mapped LTTNG_UST_REGISTER_TIMEOUT=250 LTT_HOME=/mine LTTNG_HOME=/h)" \
	"LTT_HOME=/mine LTT_UST_REGISTER_TIMEOUT=250 " \
	"ltt-run: a timeout in ms is ltt's; ltt's own variable, when set, wins"
is "$(mapped LTTNG_UST_REGISTER_TIMEOUT=soon)" "" "ltt-run: a timeout that is not a number sets nothing ..."
like "$(cat "$TEST_TMP/map.err")" "LTTNG_UST_REGISTER_TIMEOUT=soon is not a number of milliseconds or -1" \
	"... and says so"
# the test's daemon runs: LTTng's agents are pointed at its port, ltt's
# libraries keep the home LTTNG_HOME gave them
is "$(env -u LTT_HOME LTTNG_HOME=/h LTT_LTTNG_UST_LIBDIR="$COMPAT/.libs" "$COMPAT/ltt-run" env |
	grep '^LTT\(NG\)\?_HOME=' | sort | tr '\n' ' ')" "LTTNG_HOME=$LTT_AGENTS_HOME LTT_HOME=/h " \
	"ltt-run, an ltt daemon running: LTTNG_HOME its agents' home, LTT_HOME the one ltt's libraries had"

lttctl create e -o "$TEST_TMP/ltt" >/dev/null && lttctl enable-event -u compat:basic >/dev/null &&
	lttctl start >/dev/null
ok $? "ltt: a session records compat:basic"
refused=()
for v in $REFUSED; do
	refused+=("$v=1")
done
(export "${refused[@]}" LTTNG_UST_DEBUG=1 && compat_run $N)
is $? 0 "the program runs with every variable ltt refuses set"
bad=0
for v in $REFUSED; do
	[ "$(grep -c "^ltt: $v is not supported: " "$TEST_TMP/app.err")" = 1 ] || { bad=1; diag "$v: $(grep "$v" "$TEST_TMP/app.err")"; }
done
ok $bad "each of the $(echo $REFUSED | wc -w) is refused in one sentence, once"
grep -q '^libltt-ust\[[0-9]*\]: ' "$TEST_TMP/app.err"
ok $? "LTTNG_UST_DEBUG: libltt-ust's diagnostics (ltt-run set LTT_UST_DEBUG)"
LTTNG_HOME=/h LD_LIBRARY_PATH="$COMPAT/.libs:$LTT_TOP_BUILDDIR/src/ust/.libs" \
	env -u LTT_HOME timeout "$TEST_TIMEOUT" "$APP" 1 2>"$TEST_TMP/direct.err"
is "$(grep -c 'LTTNG_HOME' "$TEST_TMP/direct.err")" 0 \
	"without ltt-run, LTTNG_HOME is no variable the libraries refuse (they read it)"
lttctl stop e >/dev/null
bt "$TEST_TMP/ltt" "$TEST_TMP/ltt.txt"
is "$(count_events "$TEST_TMP/ltt.txt" compat:basic)" $((N + 1)) "ltt recorded the program's events all the same ($N + 1)"
compat_run $N
is "$(grep -c '^ltt: ' "$TEST_TMP/app.err")" 0 "with none of them set, the libraries say nothing"
done_testing
