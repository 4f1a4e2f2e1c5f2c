#!/bin/bash
# test_relay_clear_live.sh - what live viewers see of a clear of a live session
# streamed to a real ltt-relayd.  The live protocol (2.4) has no message
# for a clear; the relay makes its viewers skip what the clear removed, as
# LTTng's relay does: a scripted viewer (live_probe) that had attached the
# cleared streams and been handed the index of one packet still reads
# that packet after the clear (its files are kept open for it, as LTTng's
# relay keeps a viewer's), then gets a hang-up at its next index request,
# not the packets it was not handed, and is told of the new chunk's
# streams only; a babeltrace2 viewer and a babeltrace 1 viewer watching
# across the clear keep what they had printed (100 events), print the 20
# events recorded after the clear, exactly, and end with the session's
# destroy (babeltrace 1 asked for ever for a packet the clear had
# deleted); one attached after the clear prints those 20 only.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

ust_setup --log
live_init
VIEWERS=
trap 'for p in $VIEWERS; do kill -KILL "$p"; done 2>/dev/null; _relayd_cleanup; _cleanup' EXIT

start_relayd -o "$TEST_TMP/relay-out" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)
LURL="net://127.0.0.1:$LPORT/host/$host/lc"

# ask_list NAME LINE: a request whose reply is "... count=N" then N
# lines, all in R joined by '|'.
ask_list() {
	local out="OUT_$1" n i line
	ask "$1" "$2"
	n=$(sed -n 's/.* count=\([0-9]*\).*/\1/p' <<<"$R")
	for ((i = 0; i < ${n:-0}; i++)); do
		line=""
		read -r -t "$TEST_TIMEOUT" line <&"${!out}"
		R="$R|$line"
	done
}

# ids: the stream ids of the "stream id=..." lines on stdin, sorted.
ids() {
	sed -n 's/^stream id=\([0-9]*\) .*/\1/p' | sort
}

# role_count FILE ROLE: the ltt_test:seq events of ROLE in FILE.
role_count() {
	grep " ltt_test:seq: " "$1" | grep -c "role = \"$2\""
}

lttctl -q create lc --live=100000 --set-url "net://127.0.0.1:$CPORT:$DPORT" &&
	lttctl -q enable-event -u ltt_test:seq -s lc &&
	lttctl -q start lc || { echo "Bail out! session lc"; exit 1; }
ust_app -n 100 -r a >/dev/null

# A viewer across the clear.
timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$LURL" \
	>"$TEST_TMP/v1" 2>"$TEST_TMP/v1.err" &
v1=$!
timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace -i lttng-live "$LURL" \
	>"$TEST_TMP/b1" 2>"$TEST_TMP/b1.err" &
b1=$!
VIEWERS="$v1 $b1"
wait_for "$TEST_TMP/v1" 'role = "a"' 100
is "$(role_count "$TEST_TMP/v1" a)" 100 "viewer 1 printed the 100 events before the clear"
wait_for "$TEST_TMP/b1" 'role = "a"' 100
is "$(role_count "$TEST_TMP/b1" a)" 100 "babeltrace 1 printed them too"

# A scripted viewer attaches the same streams and reads none of them.
spawn p "$PROBE_BIN" 127.0.0.1 "$LPORT"
ask p connect && ask p create
ask_list p list
sid=$(tr '|' '\n' <<<"$R" | sed -n 's/^session id=\([0-9]*\) .* name=lc$/\1/p')
ok "$([ -n "$sid" ]; echo $?)" "the probe sees session lc (id $sid)"
ask_list p "attach $sid 1"
old=$(tr '|' '\n' <<<"$R" | grep '^stream ' | grep ' meta=0 ')
s1=$(sed -n '1s/^stream id=\([0-9]*\) .*/\1/p' <<<"$old")
like "$old" "path=[^ ]*ust/uid/" "the probe attached the chunk's data streams (ust/uid/...)"
# the metadata, then the first data stream that has a packet: its index,
# the packet not read
for m in $(tr '|' '\n' <<<"$R" | grep '^stream ' | grep ' meta=1 ' | ids); do
	for ((i = 0; i < 1000; i++)); do
		ask p "metadata $m"
		[[ $R == "metadata status=1 "* ]] || break
	done
done
for s1 in $(ids <<<"$old"); do
	ask p "index $s1"
	[[ $R == "index status=1 "* ]] && break
done
like "$R" "^index status=1 " "the probe is handed the index of a packet (stream $s1)"
off=$(sed -n 's/.* offset=\([0-9]*\) .*/\1/p' <<<"$R")

ok_cmd "stop" lttctl stop lc
ok_cmd "clear" lttctl clear lc
ok_cmd "start again" lttctl start lc

ask p "packet $s1 $off 4096"
is "$R" "packet status=1 flags=0 len=4096 head=c11ffcc1" \
	"the packet it was handed before the clear is still read whole after it (CTF magic first, little-endian)"
ask p "index $s1"
like "$R" "^index status=3 " \
	"a cleared stream's next index is a hang-up (HUP), not the packets the clear removed"
ust_app -n 20 -r d >/dev/null
wait_for "$TEST_TMP/v1" 'role = "d"' 20
ask_list p "new $sid"
new=$(tr '|' '\n' <<<"$R" | grep '^stream ')
ok "$([ -n "$new" ]; echo $?)" "the probe is told of the new chunk's streams"
is "$(comm -12 <(ids <<<"$old") <(ids <<<"$new") | wc -l)" 0 "and of none of the cleared ones"

# A viewer attached after the clear.
timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$LURL" \
	>"$TEST_TMP/v2" 2>"$TEST_TMP/v2.err" &
v2=$!
VIEWERS="$v1 $b1 $v2"
wait_for "$TEST_TMP/v2" 'role = "d"' 20
ok_cmd "destroy" lttctl destroy lc
wait $v1
is $? 0 "viewer 1 ends cleanly with the session"
wait $v2
is $? 0 "viewer 2 too"
wait $b1
is $? 0 "babeltrace 1 ends cleanly with the session too"
VIEWERS=
is "$(role_count "$TEST_TMP/v1" a) $(role_count "$TEST_TMP/v1" d)" "100 20" \
	"viewer 1: the 100 events it had before the clear, then exactly the 20 after"
is "$(role_count "$TEST_TMP/b1" a) $(role_count "$TEST_TMP/b1" d)" "100 20" \
	"babeltrace 1: the same 100, then the same 20"
is "$(role_count "$TEST_TMP/v2" a) $(role_count "$TEST_TMP/v2" d)" "0 20" \
	"viewer 2: only the 20 events after the clear"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/v2")" 20 "  and nothing else"
done_testing
