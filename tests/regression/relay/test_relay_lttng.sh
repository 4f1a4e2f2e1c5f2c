#!/bin/bash
# test_relay_lttng.sh - streaming between ltt and LTTng 2.13's daemons
# (Debian's lttng-tools), both ways, events counted exactly:
#  - an ltt session streams to lttng-relayd: start, a program's events,
#    stop; babeltrace2 reads every event from the relay's trace;
#  - an ltt live session streams to lttng-relayd while babeltrace2's
#    lttng-live client watches it through lttng-relayd's live port: the
#    viewer prints every event while the session runs (the idle CPUs'
#    streams included, which need a packet before LTTng's relay lets a
#    viewer past them), and the trace on disk has them too;
#  - an LTTng session (lttng-sessiond, a program traced with liblttng-ust
#    built here) streams to ltt-relayd: create, enable-event, start, the
#    program, stop, destroy; babeltrace2 reads every event.
# LTTng's root session daemon lives in /run/lttng: it runs in a private
# mount namespace with its own /run, so it meets no other daemon.
# Skipped where LTTng's programs or its tracer's headers are absent.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

for p in lttng lttng-sessiond lttng-relayd; do
	command -v "$p" >/dev/null || skip_all "LTTng's $p is not installed (lttng-tools)"
done
ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"
relayd_init
LOUT="$TEST_TMP/lttng-relay-out"
LRUN="$TEST_TMP/lttng-run"
export LTTNG_HOME="$TEST_TMP/lttng-home"
mkdir -p "$LTTNG_HOME" "$LRUN"
trap '_lttng_cleanup; _relayd_cleanup; _cleanup' EXIT
N=1000
host=$(hostname)
plan 33

# Kill what LTTng's daemons left (their pids were written down).
_lttng_cleanup() {
	local f
	for f in "$TEST_TMP"/lttng-*.pid; do
		[ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}

# start_lttng_relayd: lttng-relayd on three free loopback ports (it takes
# no port 0: a port taken meanwhile makes it fail, and another is tried);
# -d returns once it listens.  Sets LCPORT, LDPORT, LLPORT.
start_lttng_relayd() {
	local i base
	for ((i = 0; i < 8; i++)); do
		base=$((20000 + RANDOM % 40000))
		ss -ltnH | grep -qE ":($base|$((base + 1))|$((base + 2))) " && continue
		timeout "$TEST_TIMEOUT" lttng-relayd -d -C "tcp://127.0.0.1:$base" \
			-D "tcp://127.0.0.1:$((base + 1))" -L "tcp://127.0.0.1:$((base + 2))" \
			-o "$LOUT" </dev/null >/dev/null 2>>"$TEST_TMP/lttng-relayd.log" || continue
		pgrep -f -- "-o $LOUT\$" >"$TEST_TMP/lttng-relayd.pid" || return 1
		LCPORT=$base LDPORT=$((base + 1)) LLPORT=$((base + 2))
		return 0
	done
	return 1
}

# the_dir GLOB: the one directory GLOB names.
the_dir() {
	local d
	for d in $1; do
		[ -d "$d" ] && echo "$d"
	done
}

# --- an ltt session streams to lttng-relayd
if start_lttng_relayd; then
	ok 0 "lttng-relayd listens on ports $LCPORT, $LDPORT"
	ok_cmd "an ltt session streaming to lttng-relayd" \
		lttctl create a -U "net://127.0.0.1:$LCPORT:$LDPORT"
	lttctl -q enable-event -u 'ltt_test:*' -s a
	ok_cmd "it starts (the relay took its session, uuid and trace chunk)" lttctl start a
	ust_app -n "$N" >/dev/null
	run lttctl stop a
	is "$RC" 0 "stop waits until lttng-relayd has every packet: exit 0 ($ERR)"
	dir=$(the_dir "$LOUT/$host/a-*")
	bt "$dir" "$TEST_TMP/a.txt"
	is "$(count_events "$TEST_TMP/a.txt" ltt_test:seq)" "$N" \
		"lttng-relayd's trace has the $N events ($dir)"
	is "$(discarded "$TEST_TMP/a.txt.err")" 0 "nothing discarded"
	ok_cmd "destroy" lttctl destroy a
	is "$(grep -c '^Error' "$TEST_TMP/lttng-relayd.log")" 0 "lttng-relayd logged no error"

	# lttng-relayd stopped with packets unread in its data socket, killed,
	# started again on the same ports and output: it serves no
	# RECONCILE_STREAM (no LTT flag), so ltt's consumer asks it nothing and
	# keeps every unconfirmed packet lost: recorded + lost may pass the
	# emitted count (doc/relayd.md, "Exact counts across a relay's death"),
	# never fall short of it.
	lttctl -q create k -U "net://127.0.0.1:$LCPORT:$LDPORT" &&
		lttctl -q enable-channel -u chan -s k --subbuf-size 4k --num-subbuf 8 \
			--blocking-timeout=inf &&
		lttctl -q enable-event -u 'ltt_test:*' -s k -c chan && lttctl -q start k
	ok $? "k: a blocking channel streamed to lttng-relayd"
	# a first program's packets: the streams are on the relay (a data
	# file with bytes), then it is stopped under a second program's
	LTT_UST_ALLOW_BLOCKING=1 ust_app -n 10000 >/dev/null &&
		wait_fs "$LOUT/*/k-*/ust/*/*/*/chan_*" "$LOUT/*/k-*/ust/*/*/chan_*" -- bash -c '
			[ -n "$(find "$0" -path "*/k-*" -name "chan_*" ! -path "*/index/*" \
				-size +0c -print -quit 2>/dev/null)" ]' "$LOUT"
	ok $? "k: lttng-relayd writes a first program's packets"
	lpid=$(cat "$TEST_TMP/lttng-relayd.pid")
	stop_proc "$lpid"
	LTT_UST_ALLOW_BLOCKING=1 ust_app_bg -n 10000
	app=$BG_PID
	wait_port_recvq "$LDPORT"
	ok $? "k: packets wait unread in lttng-relayd's data socket"
	kill -KILL "$lpid"
	wait_pid_exit "$lpid"
	wait "$app"
	ok $? "k: lttng-relayd killed, the second program's 10000 events are through"
	timeout "$TEST_TIMEOUT" lttng-relayd -d -C "tcp://127.0.0.1:$LCPORT" \
		-D "tcp://127.0.0.1:$LDPORT" -L "tcp://127.0.0.1:$LLPORT" -o "$LOUT" \
		</dev/null >/dev/null 2>>"$TEST_TMP/lttng-relayd.log" &&
		pgrep -f -- "-o $LOUT\$" >"$TEST_TMP/lttng-relayd.pid"
	ok $? "k: lttng-relayd again on the same ports and output"
	lttctl stop k >/dev/null 2>&1
	lost=$(list_lost_events k)
	bt "$(the_dir "$LOUT/$host/k-*")" "$TEST_TMP/k.txt"
	got=$(count_events "$TEST_TMP/k.txt" ltt_test:seq)
	diag "k: recorded $got, counted lost $lost, emitted 20000"
	ok "$([ "$((got + lost))" -ge 20000 ]; echo $?)" "k: recorded + lost >= emitted: nothing vanishes uncounted"
	unlike "$(cat "$SESSIOND_LOG")" "unconfirmed|can't be asked" \
		"k: lttng-relayd is asked nothing (no RECONCILE_STREAM)"
	lttctl -q destroy k
else
	skip 15 "lttng-relayd did not start: $(tail -n 1 "$TEST_TMP/lttng-relayd.log")"
fi

# lttng_viewers SESSION: how many viewers lttng-relayd counts on SESSION.
lttng_viewers() {
	timeout "$TEST_TIMEOUT" babeltrace2 query src.ctf.lttng-live sessions \
		-p "url=\"net://127.0.0.1:$LLPORT\"" 2>/dev/null |
		awk -v s="$1" '/^-/ { if (n == s) print c; n = c = "" }
			/session-name:/ { n = $2 } /client-count:/ { c = $2 }
			END { if (n == s) print c }'
}

# wait_viewers SESSION N: until lttng-relayd counts N viewers on SESSION
# (it logs nothing to wait on), within $TEST_TIMEOUT.
wait_viewers() {
	local end=$((SECONDS + TEST_TIMEOUT))
	until [ "$(lttng_viewers "$1")" = "$2" ]; do
		((SECONDS < end)) || return 1
	done
}

# --- an ltt live session streams to lttng-relayd; babeltrace2 watches it
if ! command -v babeltrace2 >/dev/null; then
	skip 9 "babeltrace2 is not installed"
elif [ -n "${LLPORT:-}" ]; then
	lttctl -q create l --live=100000 -U "net://127.0.0.1:$LCPORT:$LDPORT" &&
		lttctl -q enable-event -u 'ltt_test:*' -s l
	ok_cmd "a live session (100 ms timer) streaming to lttng-relayd starts" lttctl start l
	timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live \
		"net://127.0.0.1:$LLPORT/host/$host/l" >"$TEST_TMP/l.out" 2>"$TEST_TMP/l.err" &
	VL=$!
	wait_viewers l 1
	ok $? "babeltrace2 attaches to it through lttng-relayd's live port"
	# on CPU 0 only: the other CPUs' streams stay without events
	(taskset -cp 0 "$BASHPID" >/dev/null 2>&1; ust_app -n "$N" >/dev/null)
	wait_for "$TEST_TMP/l.out" " ltt_test:seq: " "$N"
	ok $? "the viewer prints the $N events while the session runs"
	ok "$(proc_alive "$VL"; echo $?)" "the viewer still runs (the session is live)"
	ok_cmd "destroy" lttctl destroy l
	wait "$VL"
	is $? 0 "the viewer ends cleanly once the session is destroyed"
	is "$(count_events "$TEST_TMP/l.out" ltt_test:seq)" "$N" "it printed exactly the $N events"
	is "$(discarded "$TEST_TMP/l.err")" 0 "nothing discarded"
	dir=$(the_dir "$LOUT/$host/l-*")
	bt "$dir" "$TEST_TMP/l-disk.txt"
	is "$(count_events "$TEST_TMP/l-disk.txt" ltt_test:seq)" "$N" \
		"lttng-relayd's trace on disk has the $N events too"
	[ "$_tap_failed" = 0 ] || diag "$(tail -n 5 "$TEST_TMP/l.err")"
else
	skip 9 "lttng-relayd did not start"
fi

# --- an LTTng session streams to ltt-relayd
RELAY_OUT="$TEST_TMP/relay-out"
start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
app_dir="$TEST_TMP/lttng-app"
mkdir -p "$app_dir"
cat >"$app_dir/tp.h" <<'EOF'
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER interop
#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tp.h"
#if !defined(INTEROP_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define INTEROP_TP_H
#include <lttng/tracepoint.h>
TRACEPOINT_EVENT(interop, tick, TP_ARGS(int, seq), TP_FIELDS(ctf_integer(int, seq, seq)))
#endif
#include <lttng/tracepoint-event.h>
EOF
cat >"$app_dir/app.c" <<'EOF'
#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "tp.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1;

	for (i = 0; i < n; i++)
		tracepoint(interop, tick, i);
	return 0;
}
EOF
# LTTng's tracer, not ltt's: the system's compiler and library, no build flags
cc_cmd=${LTT_TEST_CC:-cc}
if ! (cd "$app_dir" && ${cc_cmd%% *} -I. -o app app.c -llttng-ust -ldl) >"$app_dir/cc.log" 2>&1; then
	skip 9 "no program traced with liblttng-ust builds here (liblttng-ust-dev): $(head -n 1 "$app_dir/cc.log")"
	done_testing
	exit
fi
ok 0 "a program traced with LTTng's liblttng-ust builds"
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip 8 "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
	done_testing
	exit
fi

# The LTTng session, in a mount namespace with a private /run: each step's
# exit status in $steps ("NAME RC"), the commands' output in $lttng_log.
steps="$TEST_TMP/lttng-steps"
lttng_log="$TEST_TMP/lttng.log"
cat >"$TEST_TMP/lttng-session.sh" <<'EOF'
mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-test /run && mkdir /run/lttng ||
	{ echo "mount 1" >>"$STEPS"; exit 1; }
step() {
	local name=$1
	shift
	timeout "$TEST_TIMEOUT" "$@" >>"$LOG" 2>&1
	echo "$name $?" >>"$STEPS"
}
step sessiond lttng-sessiond -d --no-kernel
cp /run/lttng/lttng-sessiond.pid "$TEST_TMP/lttng-sessiond.pid"
step create lttng create s --set-url="net://127.0.0.1:$CPORT:$DPORT"
step enable lttng enable-event -u 'interop:*' -s s
step start lttng start s
LTTNG_UST_REGISTER_TIMEOUT=$((TEST_TIMEOUT * 1000)) step app "$APP" "$N"
step stop lttng stop s
step destroy lttng destroy s
pid=$(cat /run/lttng/lttng-sessiond.pid)
kill "$pid" && timeout "$TEST_TIMEOUT" tail --pid="$pid" -f /dev/null
echo "sessiond-exit $?" >>"$STEPS"
EOF
STEPS=$steps LOG=$lttng_log APP="$app_dir/app" N=$N CPORT=$CPORT DPORT=$DPORT TEST_TMP=$TEST_TMP \
	TEST_TIMEOUT=$TEST_TIMEOUT LD_LIBRARY_PATH= \
	timeout $((TEST_TIMEOUT * 8)) unshare -m bash "$TEST_TMP/lttng-session.sh"
step_rc() {
	sed -n "s/^$1 //p" "$steps"
}
is "$(step_rc sessiond)" 0 "lttng-sessiond starts (UST only, a private /run)"
is "$(step_rc create)" 0 "lttng create --set-url=net://...ltt-relayd's ports"
is "$(step_rc start)" 0 "lttng start: ltt-relayd took the session, its trace chunk and streams"
is "$(step_rc stop)" 0 "lttng stop: the data pending query ends"
is "$(step_rc destroy)" 0 "lttng destroy: the chunk closed, the streams closed"
dir=$(the_dir "$RELAY_OUT/$host/s-*")
bt "$dir" "$TEST_TMP/s.txt"
is "$(count_events "$TEST_TMP/s.txt" interop:tick)" "$N" "ltt-relayd's trace has the $N events ($dir)"
is "$(discarded "$TEST_TMP/s.txt.err")" 0 "nothing discarded"
unlike "$(cat "$RELAYD_LOG")" "refused|malformed|not supported" "ltt-relayd refused nothing"
[ "$_tap_failed" = 0 ] || diag "$(cat "$steps" "$lttng_log")"
done_testing
