#!/bin/bash
# test_relay_regen.sh - lttctl regenerate metadata of sessions streamed to a
# real ltt-relayd on loopback (RESET_METADATA, relay protocol 2.13): the
# relay empties the trace's metadata file and writes the new text, whole,
# babeltrace2 reads every event; a live session's regeneration is refused
# as LTTng refuses it, and its viewer keeps reading, with the event
# classes added after it; one attached afterwards gets them too.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

ust_setup --log
live_init
VIEWERS=
trap 'for p in $VIEWERS; do kill -KILL "$p"; done 2>/dev/null; _relayd_cleanup; _cleanup' EXIT
ALT="$LTT_TOP_BUILDDIR/tests/regression/app/ust_app_alt"
[ -x "$ALT" ] || ALT="$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_app_alt"
plan 18

RELAY_OUT="$TEST_TMP/relay-out"
start_relayd -o "$RELAY_OUT" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)
URL="net://127.0.0.1:$CPORT:$DPORT"
UID_PATH="ust/uid/$(id -u)/64-bit"

# role_count FILE ROLE: the ltt_test:seq events of ROLE in FILE.
role_count() {
	grep " ltt_test:seq: " "$1" | grep -c "role = \"$2\""
}

# trace_blocks DIR: the trace blocks of DIR's metadata.
trace_blocks() {
	babeltrace2 --output-format=ctf-metadata "$1" | grep -c '^trace {'
}

# --- 1. a streamed session
lttctl -q create rn --set-url "$URL" && lttctl -q enable-event -u ltt_test:seq -s rn &&
	lttctl -q start rn || { echo "Bail out! session rn"; exit 1; }
ust_app -n 500 -r a >/dev/null
ok_cmd "regenerate metadata of a net:// session" lttctl regenerate metadata -s rn
ust_app -n 500 -r b >/dev/null
ok_cmd "stop (waits for the relay)" lttctl stop rn
d=$(echo "$RELAY_OUT/$host"/rn-*)
is "$(grep -c "$UID_PATH/metadata written again (version 1)" "$RELAYD_LOG")" 1 \
	"the relay wrote the trace's metadata again once"
is "$(trace_blocks "$d/$UID_PATH")" 1 "its metadata file holds the new text alone: one trace block"
bt "$d" "$TEST_TMP/rn.out"
is "$?:$(role_count "$TEST_TMP/rn.out" a):$(role_count "$TEST_TMP/rn.out" b)" "0:500:500" \
	"babeltrace2 reads the relay's trace: every event before and after"
run lttctl regenerate metadata -s rn
is "$RC:$ERR" "1:Error: session 'rn': the session is not started" \
	"regenerate once stopped: refused, as LTTng refuses it (SESSION_NOT_STARTED)"
ok_cmd "start again" lttctl start rn
ok_cmd "regenerate again once started again" lttctl regenerate metadata -s rn
# the command returns once the consumer has the new text; it reaches the
# relay after (no stop to wait on it here)
wait_for "$RELAYD_LOG" "$UID_PATH/metadata written again \(version 2\)"
is "$(grep -c "$UID_PATH/metadata written again (version 2)" "$RELAYD_LOG")" 1 \
	"  the relay takes the next version"
# the text follows the reset: read until the whole of it is there
# (wait_fs: bounded, read again as the relay writes the trace's files)
wait_fs "$d/$UID_PATH/*" -- bash -c 'timeout "$2" babeltrace2 "$0" >"$1" 2>"$1.err" &&
	[ "$(grep -c " ltt_test:seq: " "$1")" = 1000 ]' "$d" "$TEST_TMP/rn2.out" "$BT_TIMEOUT"
is "$?:$(grep -c ' ltt_test:seq: ' "$TEST_TMP/rn2.out")" "0:1000" "  and the trace still reads whole"
lttctl -q destroy rn

# --- 2. a live session: the regeneration refused, a viewer across it
LURL="net://127.0.0.1:$LPORT/host/$host/rl"
lttctl -q create rl --live=100000 --set-url "$URL" &&
	lttctl -q enable-event -u ltt_test:seq -s rl && lttctl -q enable-event -u ltt_test_alt:own -s rl &&
	lttctl -q start rl || { echo "Bail out! session rl"; exit 1; }
ust_app -n 100 -r a >/dev/null
timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$LURL" \
	>"$TEST_TMP/v1" 2>"$TEST_TMP/v1.err" &
v1=$!
VIEWERS=$v1
wait_for "$TEST_TMP/v1" 'role = "a"' 100
run lttctl regenerate metadata -s rl
like "$RC:$ERR" "^1:Error: .*live sessions are not supported" "regenerate metadata of a live session: refused, as LTTng"
# a class that is new after the regeneration (its ltt_test:seq has other
# fields: refused, the session daemon logs it)
"$ALT" -n 30 >/dev/null
ust_app -n 20 -r b >/dev/null
wait_for "$TEST_TMP/v1" 'role = "b"' 20
wait_for "$TEST_TMP/v1" ' ltt_test_alt:own: ' 30
timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$LURL" \
	>"$TEST_TMP/v2" 2>"$TEST_TMP/v2.err" &
v2=$!
VIEWERS="$v1 $v2"
ust_app -n 10 -r c >/dev/null
wait_for "$TEST_TMP/v2" 'role = "c"' 10
wait_for "$TEST_TMP/v1" 'role = "c"' 10
ok_cmd "destroy" lttctl destroy rl
wait $v1
is $? 0 "the viewer across the regeneration ends cleanly with the session"
wait $v2
is $? 0 "the viewer attached after it too"
VIEWERS=
is "$(role_count "$TEST_TMP/v1" a):$(role_count "$TEST_TMP/v1" b):$(role_count "$TEST_TMP/v1" c):$(grep -c ' ltt_test_alt:own: ' "$TEST_TMP/v1")" \
	"100:20:10:30" "viewer 1 printed every event, the class added after the regeneration included"
is "$(role_count "$TEST_TMP/v2" c)" 10 "viewer 2 printed the events after it attached"
d=$(echo "$RELAY_OUT/$host"/rl-*)
bt "$d" "$TEST_TMP/rl.out"
is "$?:$(role_count "$TEST_TMP/rl.out" a):$(role_count "$TEST_TMP/rl.out" b):$(role_count "$TEST_TMP/rl.out" c):$(grep -c ' ltt_test_alt:own: ' "$TEST_TMP/rl.out")" \
	"0:100:20:10:30" "the relay's trace reads whole: every event"
is "$(trace_blocks "$d/$UID_PATH")" 1 "  one trace block"
done_testing
