#!/bin/bash
# test_ust_statedump_once.sh - one state dump per start (and one per
# regenerate statedump), as LTTng-UST records them, however many
# TRACEPOINTS messages the program sends: the daemon answers each with a
# REGISTER_DONE, and a module loaded later (dlopen()) sends one of its
# own, as lttng-ust's providers do while an LTTng program starts up.
# That REGISTER_DONE used to record the dump again into channels that had
# theirs (lttng-tools' regen-statedump/test_ust counted 3 dumps for 2
# about half the time: its program registers as its session starts, and
# sends three TRACEPOINTS messages).  Here the later module is loaded at
# a chosen time, after the dumps the test counts.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
cc_cmd=${LTT_TEST_CC:-cc}
command -v "${cc_cmd%% *}" >/dev/null || skip_all "no C compiler to build the program"
plan 12

# The program: "ready PID" on the FIFO $1 once registered, waits for a
# line on the FIFO $2, then loads the module $3 (its own tracepoint, its
# own TRACEPOINTS message) and records sdonce:lib there, then sdonce:main.
cat >"$TEST_TMP/sdonce.c" <<'EOF2'
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
#include <ltt/tracepoint.h>
LTT_TRACEPOINT_EVENT(sdonce, main, LTT_TP_ARGS(int n), LTT_TP_FIELDS(ltt_field_integer(int, n, n)))
int main(int argc, char **argv)
{
	char line[16];
	FILE *f;
	void *lib;
	void (*hit)(int);

	if (argc != 4 || !(f = fopen(argv[1], "w")))
		return 2;
	fprintf(f, "ready %ld\n", (long)getpid());
	fclose(f);
	if (!(f = fopen(argv[2], "r")) || !fgets(line, sizeof(line), f))
		return 3;
	fclose(f);
	lib = dlopen(argv[3], RTLD_NOW);
	hit = lib ? (void (*)(int))dlsym(lib, "sdonce_lib_hit") : NULL;
	if (!hit)
		return 4;
	hit(1);
	ltt_tracepoint(sdonce, main, 2);
	return 0;
}
EOF2
cat >"$TEST_TMP/sdlib.c" <<'EOF2'
#include <ltt/tracepoint.h>
LTT_TRACEPOINT_EVENT(sdonce, lib, LTT_TP_ARGS(int n), LTT_TP_FIELDS(ltt_field_integer(int, n, n)))
void sdonce_lib_hit(int n);
void sdonce_lib_hit(int n)
{
	ltt_tracepoint(sdonce, lib, n);
}
EOF2
libdir="$LTT_TOP_BUILDDIR/src/ust/.libs"
app="$TEST_TMP/sdonce"
lib="$TEST_TMP/sdlib.so"
# shellcheck disable=SC2086
$cc_cmd ${LTT_TEST_CFLAGS:-} -o "$app" "$TEST_TMP/sdonce.c" -I"$LTT_TOP_SRCDIR/include" \
	-L"$libdir" -lltt-ust -ldl -Wl,-rpath,"$libdir" &&
	$cc_cmd ${LTT_TEST_CFLAGS:-} -fPIC -shared -o "$lib" "$TEST_TMP/sdlib.c" \
		-I"$LTT_TOP_SRCDIR/include" -L"$libdir" -lltt-ust -Wl,-rpath,"$libdir"
ok $? "a program and the module it loads later build"

open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
# sdonce_bg: the program in the background (BG_PID), bounded in time,
# once registered (its pid in pid)
sdonce_bg() {
	(
		close_fifos
		exec timeout "$TEST_TIMEOUT" "$app" "$TEST_TMP/ready" "$TEST_TMP/go" "$lib"
	) &
	BG_PID=$!
	wait_ready "$ready"
	pid=$READY_PIDS
}
# sdonce_end SESSION OUT WHAT: let the program load its module and end
# (a check, WHAT), then the session stopped, destroyed and read into OUT
sdonce_end() {
	echo go >&"$go"
	wait "$BG_PID"
	is $? 0 "$3"
	lttctl -q stop "$1" && lttctl -q destroy "$1"
	bt "$TEST_TMP/$1" "$2"
}
# session NAME OUT: a session recording the state dump and sdonce:*, with
# the vpid context, not started
session() {
	lttctl -q create "$1" -o "$2" && lttctl -q enable-channel -u c &&
		lttctl -q enable-event -u 'lttng_ust_statedump:*,sdonce:*' -c c &&
		lttctl -q add-context -u -c c -t vpid
}
# names OUT PID: PID's state dump starts and ends and sdonce events, in order
names() {
	grep "vpid = $2 }" "$1" | sed -n 's/.* \(lttng_ust_statedump:\(start\|end\)\|sdonce:[a-z]*\): .*/\1/p' |
		tr '\n' ' '
}

# A program registering into a started session: one dump, at its
# registration, before its events; none when its module registers.
session s1 "$TEST_TMP/s1" && lttctl -q start s1
ok $? "a started session"
sdonce_bg
sdonce_end s1 "$TEST_TMP/o1" "the program registered into it, loaded its module and ran"
is "$(grep -c "lttng_ust_statedump:start: .*vpid = $pid }" "$TEST_TMP/o1")" 1 \
	"  one dump, not one more when the module registered"
is "$(names "$TEST_TMP/o1" "$pid")" \
	"lttng_ust_statedump:start lttng_ust_statedump:end sdonce:lib sdonce:main " \
	"  whole, before the program's events"

# A program registered before its session's start: one dump per start
# and one per regenerate statedump, none when its module registers.
session s2 "$TEST_TMP/s2"
ok $? "a session not started"
sdonce_bg
n=0
for i in 1 2 3; do
	lttctl -q start s2 && lttctl -q stop s2 && n=$((n + 1))
done
is "$n" 3 "the program registered; the session started and stopped $i times"
lttctl -q start s2 && lttctl -q regenerate statedump -s s2
ok $? "  started again, and its state dump regenerated"
sdonce_end s2 "$TEST_TMP/o2" "  the program loaded its module and ran"
is "$(grep -c "lttng_ust_statedump:start: .*vpid = $pid }" "$TEST_TMP/o2")" 5 \
	"  5 dumps: one per start (4), one for the regenerate"
is "$(grep -c "lttng_ust_statedump:end: .*vpid = $pid }" "$TEST_TMP/o2")" 5 "  each ended"
like "$(names "$TEST_TMP/o2" "$pid")" \
	"^(lttng_ust_statedump:start lttng_ust_statedump:end ){5}sdonce:lib sdonce:main \$" \
	"  then the program's events"
done_testing
