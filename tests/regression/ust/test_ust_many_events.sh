#!/bin/bash
# test_ust_many_events.sh - a program with many events, all enabled while
# it registers: the daemon sends one EVENT_ENABLE per event before it reads
# the program's acks, so the program must keep reading commands while its
# acks wait (it used to block on them, and was dropped).  Every event of
# every kind must be in the trace.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
cc_cmd=${LTT_TEST_CC:-cc}
command -v "${cc_cmd%% *}" >/dev/null || skip_all "no C compiler to build the program"
plan 5

N=600
src="$TEST_TMP/many.c"
{
	echo '#include <ltt/tracepoint.h>'
	for ((i = 0; i < N; i++)); do
		echo "LTT_TRACEPOINT_EVENT(many, ev$i, LTT_TP_ARGS(int v), LTT_TP_FIELDS(ltt_field_integer(int, v, v)))"
	done
	echo 'int main(void) {'
	for ((i = 0; i < N; i++)); do
		echo "	ltt_tracepoint(many, ev$i, $i);"
	done
	echo '	return 0; }'
} >"$src"
libdir="$LTT_TOP_BUILDDIR/src/ust/.libs"
# the build's compiler and flags: a sanitizer build's library needs its runtime
# shellcheck disable=SC2086
$cc_cmd ${LTT_TEST_CFLAGS:-} -o "$TEST_TMP/many" "$src" -I"$LTT_TOP_SRCDIR/include" \
	-L"$libdir" -lltt-ust -Wl,-rpath,"$libdir"
ok $? "a program with $N events builds"
ok_cmd "create" lttctl create m -o "$TEST_TMP/m"
ok_cmd "enable every user-space event" lttctl enable-event -u -a
lttctl -q start
# Its 600 events' registration must be answered before main() runs, or
# the first events come before they are enabled: wait for it as long as
# the test may take (a sanitized build on a loaded machine is slow).
LTT_UST_REGISTER_TIMEOUT=$((TEST_TIMEOUT * 1000)) timeout "$TEST_TIMEOUT" "$TEST_TMP/many"
is $? 0 "the program runs"
lttctl -q stop
bt "$TEST_TMP/m" "$TEST_TMP/out"
is "$(grep -c ' many:ev[0-9]*: ' "$TEST_TMP/out")" $N "each of its $N events is in the trace"
done_testing
