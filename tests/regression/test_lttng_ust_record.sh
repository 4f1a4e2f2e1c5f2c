#!/bin/bash
# test_lttng_ust_record.sh - a program instrumented for LTTng-UST 2.13
# (Debian's headers and lttng-gen-tp, never ltt's) records into ltt
# unchanged through ltt's liblttng-ust.so.1 (ltt-run), and babeltrace2
# reads every value of it exactly as from the trace Debian's LTTng
# records of the same binary (a private lttng-sessiond, its own
# LTTNG_HOME), timestamps, hostnames and contexts left out.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

for t in lttng lttng-sessiond lttng-gen-tp cc; do
	command -v $t >/dev/null || skip_all "$t is not installed (Debian's lttng-tools, liblttng-ust-dev)"
done
ust_setup
plan 11

N=40
SRC="$LTT_TOP_SRCDIR/tests/regression/lttng-ust"
COMPAT="$LTT_TOP_BUILDDIR/src/lttng-ust"
APP="$TEST_TMP/build/compat_app"

# Build the program as an LTTng user would.
mkdir -p "$TEST_TMP/build"
cp "$SRC/compat_tp.tp" "$SRC/compat_app.c" "$TEST_TMP/build/"
(cd "$TEST_TMP/build" &&
	lttng-gen-tp compat_tp.tp -o compat_tp.h -o compat_tp.c >/dev/null &&
	cc -I. -o compat_app compat_app.c compat_tp.c -llttng-ust -ldl) 2>"$TEST_TMP/cc.err"
ok $? "the program builds with LTTng-UST's headers and lttng-gen-tp" ||
	diag "$(cat "$TEST_TMP/cc.err")"

# norm FILE: babeltrace2's lines without timestamp, delta, host and contexts.
norm() {
	sed -e 's/^\[[^]]*\] ([^)]*) [^ ]* //' -e 's/{ cpu_id = [0-9]* }, //' "$1"
}

# --- ltt, through ltt-run ---
ok_cmd "ltt: create" lttctl create s1 -o "$TEST_TMP/ltt"
ok_cmd "ltt: enable compat:*" lttctl enable-event -u 'compat:*'
ok_cmd "ltt: start" lttctl start
LTT_LTTNG_UST_LIBDIR="$COMPAT/.libs" \
	LD_LIBRARY_PATH="$LTT_TOP_BUILDDIR/src/ust/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	timeout "$TEST_TIMEOUT" "$COMPAT/ltt-run" "$APP" $N 2>"$TEST_TMP/app.err"
is $? 0 "the program runs under ltt-run"
ok_cmd "ltt: stop" lttctl stop s1
bt "$TEST_TMP/ltt" "$TEST_TMP/ltt.txt"
is "$(count_events "$TEST_TMP/ltt.txt" compat:basic)" $N "ltt recorded $N compat:basic events"

# --- LTTng, Debian's own: as root, in a mount namespace with its own /run,
# so that it meets no other session daemon ---
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip 4 "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
	done_testing
	exit
fi
export LTTNG_HOME="$TEST_TMP/lttng-home" APP N TEST_TMP TEST_TIMEOUT
mkdir -p "$LTTNG_HOME"
env -u LTT_RUNDIR -u LD_LIBRARY_PATH unshare -m bash -c '
	mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-test /run &&
	mkdir /run/lttng || exit 1
	timeout "$TEST_TIMEOUT" lttng-sessiond --daemonize --no-kernel \
		--pidfile="$TEST_TMP/lttng-sessiond.pid" || exit 1
	lttng create s -o "$TEST_TMP/lttng" &&
		lttng enable-event -u "compat:*" -s s &&
		lttng start s &&
		timeout "$TEST_TIMEOUT" "$APP" $N &&
		lttng stop s && lttng destroy s
	rc=$?
	kill "$(cat "$TEST_TMP/lttng-sessiond.pid")"
	exit $rc' >"$TEST_TMP/lttng.log" 2>&1
ok $? "LTTng records the same binary" || diag "$(cat "$TEST_TMP/lttng.log")"
bt "$TEST_TMP/lttng" "$TEST_TMP/lttng.txt"
is "$(count_events "$TEST_TMP/lttng.txt" compat:basic)" $N "LTTng recorded $N compat:basic events"

# --- field by field ---
norm "$TEST_TMP/ltt.txt" >"$TEST_TMP/ltt.norm"
norm "$TEST_TMP/lttng.txt" >"$TEST_TMP/lttng.norm"
diff "$TEST_TMP/lttng.norm" "$TEST_TMP/ltt.norm" >"$TEST_TMP/diff"
ok $? "every event's name and field values as LTTng records them" ||
	diag "$(head -20 "$TEST_TMP/diff")"
is "$(sed -n 3p "$TEST_TMP/ltt.norm")" \
	'compat:basic: { i = 2, big = 2000000014, hex = 0xBE02, text = "gamma delta", neg = -2 }' \
	"the third event's values, exactly"
done_testing
