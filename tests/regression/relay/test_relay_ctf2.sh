#!/bin/bash
# test_relay_ctf2.sh - CTF 2 sessions streamed to a relay (relay protocol
# 2.15, CREATE_SESSION's trace format) and served to live viewers (live
# protocol 2.15, LIST_SESSIONS' trace format), read by babeltrace2 2.1
# from a Debian sid root (scripts/debian-root.sh): ltt-relayd writes the
# same events and fields for a CTF 2 and a CTF 1.8 session of the same
# run; babeltrace2 2.1's lttng-live lists the CTF 2 session as CTF 2 and
# prints it live, while Debian 12's babeltrace2 2.0 (live protocol 2.4)
# is not shown it; LTTng 2.16's own lttng-relayd takes ltt's CTF 2
# stream, and ltt-relayd LTTng 2.16's; a relay of an older protocol is
# refused at start, saying so.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

ust_setup
relayd_init
root_or_skip sid
plan 25
N=200
VIEWER=
LTTNG216=
trap '[ -z "$VIEWER" ] || kill -KILL "$VIEWER" 2>/dev/null
	[ -z "$LTTNG216" ] || kill -KILL "$LTTNG216" 2>/dev/null
	_relayd_cleanup; _cleanup' EXIT

start_relayd -o "$TEST_TMP/relay" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)
untimed() { sed 's/^\[[^]]*\] ([^)]*) //' "$1"; }
seqs() { grep -c ' ltt_test:seq: ' "$1"; }
# session_dir NAME: the relay's directory of session NAME (OUT/HOST/NAME-DATE)
session_dir() { find "$TEST_TMP/relay/$host" -mindepth 1 -maxdepth 1 -name "$1-*" | head -n 1; }

# streamed: a CTF 1.8 and a CTF 2 session recording the same events
for f in 1.8 2; do
	lttctl -q create "n$f" -F "ctf-$f" -U "net://127.0.0.1:$CPORT:$DPORT" &&
		lttctl -q enable-event -u -s "n$f" 'ltt_test:*' && lttctl -q start "n$f" || break
done
ok $? "two streamed sessions, CTF 1.8 and CTF 2, started"
ust_app -n $N -T
ok $? "the program ran"
lttctl -q destroy n1.8 && lttctl -q destroy n2
ok $? "both destroyed (their relay sessions end)"
like "$(cat "$RELAYD_LOG")" "session [0-9]+ n2 of $host created: .* CTF 2\\)" \
	"ltt-relayd took the session as CTF 2 (relay protocol 2.15)"
d2=$(session_dir n2) d18=$(session_dir n1.8)
is "$(head -c 1 "$d2/ust/uid/$(id -u)/64-bit/metadata" | od -An -tx1 | tr -d ' ')" "1e" \
	"the relay wrote the CTF 2 metadata as it came, a JSON text sequence"
bt21 "$d2" "$TEST_TMP/bt2" && bt21 "$d18" "$TEST_TMP/bt18"
ok $? "babeltrace2 2.1 reads both relay traces"
is "$(seqs "$TEST_TMP/bt2"):$(grep -c ' ltt_test:types: ' "$TEST_TMP/bt2")" "$N:$N" \
	"the CTF 2 relay trace: every event"
is "$(diff <(untimed "$TEST_TMP/bt18") <(untimed "$TEST_TMP/bt2") | head -n 4)" "" \
	"the same events and fields as the CTF 1.8 relay trace"

# live: babeltrace2 2.1's lttng-live (live protocol 2.15) sees a CTF 2
# session; Debian 12's babeltrace2 2.0 (2.4) does not
lttctl -q create l2 -F ctf-2 --live=100000 -U "net://127.0.0.1:$CPORT:$DPORT" &&
	lttctl -q enable-event -u -s l2 ltt_test:seq && lttctl -q start l2 &&
	lttctl -q create l18 --live=100000 -U "net://127.0.0.1:$CPORT:$DPORT" &&
	lttctl -q enable-event -u -s l18 ltt_test:seq && lttctl -q start l18
ok $? "two live sessions, CTF 2 and CTF 1.8"
run in_root timeout "$TEST_TIMEOUT" babeltrace2 -i lttng-live "net://127.0.0.1:$LPORT"
like "$STDOUT" "net://127\\.0\\.0\\.1:$LPORT/host/$host/l2 \\(timer = 100000, [0-9]+ stream\\(s\\), 0 client\\(s\\) connected, CTF 2\\)" \
	"babeltrace2 2.1 lists the CTF 2 session, as CTF 2"
like "$STDOUT" "/host/$host/l18 \\(timer = 100000, .*\\)" "  and the CTF 1.8 one"
bt20=$(babeltrace2 --version 2>/dev/null | sed -n 's/^Babeltrace \([0-9]*\.[0-9]*\).*/\1/p')
run timeout "$TEST_TIMEOUT" babeltrace2 -i lttng-live "net://127.0.0.1:$LPORT"
if [ "$bt20" = 2.0 ]; then
	unlike "$STDOUT" "/l2 " "babeltrace2 2.0 (live protocol 2.4) is not shown the CTF 2 session"
	like "$STDOUT" "/host/$host/l18 " "  but the CTF 1.8 one"
else
	skip 2 "the host's babeltrace2 is $bt20, not 2.0"
fi
in_root timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live \
	"net://127.0.0.1:$LPORT/host/$host/l2" >"$TEST_TMP/live.out" 2>"$TEST_TMP/live.err" &
VIEWER=$!
wait_for "$RELAYD_LOG" "attached session [0-9]+ l2 " 1
ok $? "babeltrace2 2.1 attaches to the live CTF 2 session"
ust_app -n $N
wait_for "$TEST_TMP/live.out" " ltt_test:seq: .*seq = $((N - 1)) }" 1
ok $? "it prints the program's events while the session runs"
lttctl -q destroy l2
wait "$VIEWER"
rc=$?
VIEWER=
is "$rc:$(seqs "$TEST_TMP/live.out")" "0:$N" "it ends with the session, every event printed once"
lttctl -q destroy l18

# LTTng 2.16's own relay takes ltt's CTF 2 stream
mkdir -p "$TEST_TMP/lrelay"
in_root lttng-relayd -b --dynamic-port-allocation -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
	-L tcp://127.0.0.1:0 -o "$TEST_TMP/lrelay" -P "$TEST_TMP/lrelay.pid" \
	>"$TEST_TMP/lrelay.log" 2>&1
LTTNG216=$(cat "$TEST_TMP/lrelay.pid" 2>/dev/null)
# its port files, in its run directory (the root's /run: ROOT_RUN)
ports=$ROOT_RUN/lttng/relayd
wait_fs "$ports/control.port" "$ports/data.port" -- test -s "$ports/control.port" -a -s "$ports/data.port"
ok $? "LTTng 2.16's lttng-relayd started (in the sid root), its ports written"
lc=$(cat "$ports/control.port" 2>/dev/null) ld=$(cat "$ports/data.port" 2>/dev/null)
lttctl -q create x2 -F ctf-2 -U "net://127.0.0.1:${lc:-0}:${ld:-0}" &&
	lttctl -q enable-event -u -s x2 'ltt_test:*' && lttctl -q start x2 && ust_app -n $N -T &&
	lttctl -q destroy x2
ok $? "a CTF 2 session streamed to it"
bt21 "$TEST_TMP/lrelay" "$TEST_TMP/btl"
is "$?:$(seqs "$TEST_TMP/btl"):$(grep -c ' ltt_test:types: ' "$TEST_TMP/btl")" "0:$N:$N" \
	"babeltrace2 2.1 reads what LTTng 2.16's relay wrote: every event"
kill "$LTTNG216" 2>/dev/null
LTTNG216=

# ltt-relayd takes LTTng 2.16's CTF 2 stream: a program built in the sid
# root with its lttng-ust 2.16 headers, recorded by LTTng 2.16's daemons
A=$TEST_TMP/app16
mkdir -p "$A"
cp "$LTT_TOP_SRCDIR/tests/regression/lttng-ust/compat_app.c" \
	"$LTT_TOP_SRCDIR/tests/regression/lttng-ust/compat_tp.tp" "$A/"
in_root sh -c 'cd "$1" && lttng-gen-tp compat_tp.tp -o compat_tp.h -o compat_tp.c >/dev/null &&
	cc -I. -o compat_app compat_app.c compat_tp.c -llttng-ust -ldl' sh "$A" >"$A/build.log" 2>&1
ok $? "a program built with lttng-ust 2.16's headers (in the sid root)"
in_root sh -c 'export HOME="$1" LTTNG_UST_REGISTER_TIMEOUT=-1
	lttng-sessiond -b --no-kernel >/dev/null 2>&1 &&
	lttng create l16 -F ctf-2 --set-url "net://127.0.0.1:$2:$3" >/dev/null &&
	lttng enable-event -u "compat:*" >/dev/null && lttng start >/dev/null &&
	"$1/compat_app" 50 >/dev/null && lttng destroy >/dev/null
	rc=$?
	kill "$(cat /run/lttng/lttng-sessiond.pid)" 2>/dev/null
	exit $rc' sh "$A" "$CPORT" "$DPORT" >"$A/record.log" 2>&1
ok $? "LTTng 2.16's daemons streamed its CTF 2 session to ltt-relayd"
like "$(cat "$RELAYD_LOG")" "session [0-9]+ l16 of .* CTF 2\\)" "ltt-relayd took it as CTF 2"
d16=$(session_dir l16)
bt21 "$d16" "$TEST_TMP/bt16"
is "$?:$(grep -c ' compat:basic: ' "$TEST_TMP/bt16")" "0:50" \
	"babeltrace2 2.1 reads what ltt-relayd wrote: every compat:basic event"

# a relay of an older protocol (2.11: relay_stub) is refused a CTF 2 session at start
STUB="$LTT_TOP_BUILDDIR/tests/regression/relay_stub"
spid=$("$STUB" relay "$TEST_TMP/stub.port")
sp=$(cat "$TEST_TMP/stub.port")
lttctl -q create o2 -F ctf-2 -U "net://127.0.0.1:$sp:$((sp + 1))" &&
	lttctl -q enable-event -u -s o2 ltt_test:seq
run lttctl start o2
is "$RC" 1 "a CTF 2 session toward a relay of protocol 2.11: start refused"
like "$ERR" "the relay daemon predates CTF 2 traces \\(relay protocol 2\\.15.*--trace-format=ctf-1\\.8" \
	"  saying why and what to do (CTF2_RELAY)"
kill "$spid" 2>/dev/null
done_testing
