#!/bin/bash
# test_lttng_ust_own_216.sh - a program that brings LTTng-UST 2.16's own
# library (built and run in a Debian sid root made by
# scripts/debian-root.sh: its liblttng-ust.so.1 is sid's, ABI 11) on a
# host where ltt's daemon has LTTng's place (--lttng-compat).  LTTng-UST
# 2.16 registers on lttng-ust-sock-11 (its oldest compatible ABI), not on
# 2.13 to 2.15's lttng-ust-sock-8 (test_lttng_ust_own.sh): the daemon
# listens on both, reads the registration there and closes it (the
# program goes on at once, even with LTTNG_UST_REGISTER_TIMEOUT=-1),
# logs it once, and `lttctl list -u` shows it as not recorded, with its
# ABI; the same binary on ltt's liblttng-ust.so.1 is recorded.  The
# daemon removes both sockets at its stop.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
unsanitized_or_skip
root_or_skip sid
plan 12
ROOT_RUN=/run	# the test's own (compat_private_run): the daemon's sockets
N=7

is "$(stat -c %a /run/lttng/lttng-ust-sock-8):$(stat -c %a /run/lttng/lttng-ust-sock-11)" 666:666 \
	"root's daemon listens on both generations' application sockets, open to every user's programs"

A=$TEST_TMP/app
mkdir -p "$A"
cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{own_app.c,compat_tp.tp} "$A/"
in_root sh -c 'cd "$1" && lttng-gen-tp compat_tp.tp -o compat_tp.h -o compat_tp.c >/dev/null &&
	cc -I. -o own_app own_app.c compat_tp.c -llttng-ust -ldl' sh "$A" >"$A/build.log" 2>&1
ok $? "own_app built with LTTng-UST 2.16's headers, on its library (in the sid root)" ||
	sed 's/^/# /' "$A/build.log"

lttctl -q create s -o "$TEST_TMP/s" && lttctl -q enable-event -u -a && lttctl -q start ||
	{ echo "Bail out! no session"; exit 1; }

# the program in the root, in the background, waiting for a line
open_fifo OWN_IN "$TEST_TMP/own.in"
open_fifo OWN_OUT "$TEST_TMP/own.out"
(
	close_fifos
	in_root timeout "$TEST_TIMEOUT" env LTTNG_UST_REGISTER_TIMEOUT=-1 "$A/own_app" $N \
		<"$TEST_TMP/own.in" >"$TEST_TMP/own.out"
) &
BG=$!
read_line $OWN_OUT
is "$LINE" ready "LTTng-UST 2.16's registration refused: the program goes on at once (LTTNG_UST_REGISTER_TIMEOUT=-1: it would wait forever)"
own_pid=$(pgrep -f -x "$A/own_app $N" | head -n 1)

like "$(cat "$SESSIOND_LOG")" "program pid $own_pid \\('own_app'\\) of uid 0 loads LTTng-UST's own liblttng-ust \\(ABI 11\\.[0-9]+\\), not ltt's: nothing of it is recorded" \
	"the daemon logs it, with LTTng-UST 2.16's ABI"
run lttctl list -u
like "$OUT" "PID: $own_pid - Name: [^
]*own_app
    nothing recorded: it loads LTTng-UST's own liblttng-ust \\(ABI 11\\.[0-9]+\\), not ltt's; run it under ltt-run" \
	"lttctl list -u: the program, not recorded, and what to do"

own_app_finish

# the same binary on ltt's liblttng-ust.so.1, as ltt-run runs it
ltt_ust_lib
in_root_ltt "$A/own_app" $N <<<go >"$TEST_TMP/ltt-run.out" 2>&1
ok $? "the same binary on ltt's liblttng-ust.so.1" || diag "$(cat "$TEST_TMP/ltt-run.out")"
lttctl -q stop
bt "$TEST_TMP/s" "$TEST_TMP/bt"
is "$(grep -c " compat:basic: " "$TEST_TMP/bt")" $N \
	"ltt recorded the $N events of that run, none of the other"
ok "$(proc_alive "$(sessiond_pid)"; echo $?)" "the daemon runs"
stop_sessiond
is "$(find /run/lttng \( -type s -o -name '*.pid' \) -printf '%P ')" "" "stopped, it removed its sockets, both application sockets among them, and its pid file"
