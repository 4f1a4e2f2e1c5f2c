#!/bin/bash
# test_lttng_ust_own.sh - a program that brings LTTng-UST's own library
# (its RUNPATH names a copy of Debian's liblttng-ust.so.1, as a bundled
# library or a container image's would) on a host where ltt's daemon has
# LTTng's place (--lttng-compat; issue 80).  ltt records LTTng-UST
# programs through its own liblttng-ust.so.1; this one registers on
# LTTng's application socket in LTTng-UST's protocol instead, which ltt
# does not serve.  Before, nothing listened there and nobody said
# anything: the program ran untraced, silently.  Now the daemon reads
# its registration there and closes it (LTTng-UST's refusal: the program
# goes on at once, even with LTTNG_UST_REGISTER_TIMEOUT=-1), logs it once,
# and `lttctl list -u` shows it as not recorded and why; the same binary
# under ltt-run (LD_LIBRARY_PATH comes before a RUNPATH) is recorded.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
lttng_client
python_env || skip_all "configured without the Python package (no python3)"
plan 16
compat_build
N=7

# Debian's library, copied where the program's RUNPATH points
OWN="$TEST_TMP/own"
mkdir -p "$OWN"
lib=$(ldd "$APP" | sed -n 's/^\tliblttng-ust\.so\.1 => \([^ ]*\) .*/\1/p')
cp -L "$lib" "$OWN/liblttng-ust.so.1" &&
	(cd "$TEST_TMP/build" && cc -I. -o own_app "$LTT_TOP_SRCDIR/tests/regression/lttng-ust/own_app.c" \
		compat_tp.c -llttng-ust -ldl -Wl,--enable-new-dtags,-rpath,"$OWN") 2>"$TEST_TMP/cc.err"
ok $? "a program built with LTTng-UST's headers, its RUNPATH a copy of Debian's library" ||
	diag "$(cat "$TEST_TMP/cc.err")"
OWN_APP="$TEST_TMP/build/own_app"
like "$(ldd "$OWN_APP")" "liblttng-ust\\.so\\.1 => $OWN/liblttng-ust\\.so\\.1" "it loads that copy"

lttctl create s -o "$TEST_TMP/s" >/dev/null && lttctl enable-event -u -a >/dev/null &&
	lttctl start >/dev/null || { echo "Bail out! no session"; exit 1; }

# own_start: the program in the background (OWN_PID), waiting for a line
open_fifo OWN_IN "$TEST_TMP/own.in"
open_fifo OWN_OUT "$TEST_TMP/own.out"
(
	close_fifos
	exec env LTTNG_UST_REGISTER_TIMEOUT=-1 timeout "$TEST_TIMEOUT" "$OWN_APP" $N \
		<"$TEST_TMP/own.in" >"$TEST_TMP/own.out"
) &
BG=$!
read_line $OWN_OUT
is "$LINE" ready "its registration refused, the program goes on at once (LTTNG_UST_REGISTER_TIMEOUT=-1: it would wait forever)"
own_pid=$(pgrep -P "$BG" -x own_app || echo "$BG")

like "$(cat "$SESSIOND_LOG")" "program pid $own_pid \\('own_app'\\) of uid 0 loads LTTng-UST's own liblttng-ust \\(ABI [0-9]+\\.[0-9]+\\), not ltt's: nothing of it is recorded; run it under ltt-run" \
	"the daemon logs it"
run lttctl list -u
like "$OUT" "PID: $own_pid - Name: $OWN_APP
    nothing recorded: it loads LTTng-UST's own liblttng-ust \\(ABI [0-9]+\\.[0-9]+\\), not ltt's; run it under ltt-run \\(ltt-run\\(1\\)\\)" \
	"lttctl list -u: the program, not recorded, and what to do"
run lttng list -u
is "$RC:$(grep -c "PID: $own_pid" <<<"$OUT")" "0:0" "LTTng's lttng list -u, which has no such entry, lists none"

own_app_finish

# bytes that are not a registration, on that socket, from a process that
# stays while the listing is asked (a listed one would be there)
coproc JUNK { exec "$PYTHON3" -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"\x42" * 136)
s.settimeout(10); print(os.getpid(), len(s.recv(1)), flush=True); sys.stdin.read()' \
	/var/run/lttng/lttng-ust-sock-8 2>&1; }
junk_cp=$JUNK_PID	# bash unsets JUNK_PID once it reaps the coprocess
coproc_hold JUNK junk_out junk_in
read -r -t "$TEST_TIMEOUT" junk_pid junk_len <&"$junk_out"
is "$junk_len" 0 "136 bytes that are not LTTng-UST's registration: closed"
run lttctl list -u
is "$(grep -c "nothing recorded" <<<"$OUT")" 0 "... and, while their process runs, nothing listed"
exec {junk_in}>&-
wait "$junk_cp"
unlike "$(cat "$SESSIOND_LOG")" "program pid $junk_pid " "... nor logged"

compat_run -p "$OWN_APP" $N <<<go >/dev/null
is $? 0 "the same program under ltt-run (LD_LIBRARY_PATH before its RUNPATH)" ||
	diag "$(cat "$TEST_TMP/app.err")"
lttctl stop >/dev/null
is "$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/s" 2>/dev/null | grep -c " compat:basic: ")" $N \
	"ltt recorded the $N events of the run under ltt-run, none of the other"
ok "$(proc_alive "$(sessiond_pid)"; echo $?)" "the daemon runs"
