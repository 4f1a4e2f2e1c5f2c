#!/bin/bash
# test_relay_snapshot.sh - snapshots sent to a real ltt-relayd on loopback:
# create --snapshot --set-url net://..., snapshot record: the relay writes
# each snapshot as its own complete trace, HOST/SESSION-DATE/NAME-DATE-N
# (LTTng's layout: the session's directory, the snapshot's in it), that
# babeltrace2 reads; a record holds every event emitted before it (exact
# sequence numbers) and consumes nothing (the next holds them again plus
# the new ones); -m bounds it; add-output and record with a net:// URL
# (and with LTTng's -C/-D);
# a relay that is gone: the record fails clearly, nothing half-written.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
RELAY_OUT="$TEST_TMP/relay-out"
NCPU=$(getconf _NPROCESSORS_CONF)
SUBBUF=4096

# seqs FILE ROLE: the seq numbers of ROLE's ltt_test:seq events, sorted, one line.
seqs() {
	grep " ltt_test:seq: " "$1" | grep "role = \"$2\"" |
		sed 's/.*seq = \([0-9]*\).*/\1/' | sort -n | tr '\n' ' '
}

# stream_bytes DIR: the bytes of the stream files under DIR (not metadata, not indexes).
stream_bytes() {
	find "$1" -path '*/index' -prune -o -name 'chan_*' -type f -printf '%s\n' |
		awk '{ s += $1 } END { print s + 0 }'
}

start_relayd -o "$RELAY_OUT" || { echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)
URL="net://127.0.0.1:$CPORT:$DPORT"
UID_PATH="ust/uid/$(id -u)/64-bit"

ok_cmd "create a snapshot session to the relay" lttctl create ns --snapshot --set-url "$URL"
run lttctl snapshot list-output -s ns
like "$STDOUT" "\[1\] snapshot-1: net://127.0.0.1" "list-output: the relay is the snapshot output"
ok_cmd "a channel" lttctl enable-channel -u -s ns chan --subbuf-size $SUBBUF --num-subbuf 8
ok_cmd "enable ltt_test:seq" lttctl enable-event -u -s ns ltt_test:seq -c chan
ok_cmd "start" lttctl start ns
ust_app -n 100 -r first >/dev/null
is $? 0 "a program emitted 100 events"
ok $(compgen -G "$RELAY_OUT/$host/ns*" >/dev/null; [ $? = 1 ]; echo $?) \
	"the relay wrote nothing before a record"

run lttctl snapshot record -s ns
is "$RC" 0 "record to the relay while active"
d1=$(tail -n 1 <<<"$STDOUT")
DATE='[0-9]{8}-[0-9]{6}'
like "$d1" "^$RELAY_OUT/$host/ns-$DATE/snapshot-1-$DATE-0\$" \
	"the relay wrote it in HOST/SESSION-DATE/snapshot-1-YYYYmmdd-HHMMSS-0"
ok $([ -s "$d1/$UID_PATH/metadata" ] && [ -d "$d1/$UID_PATH/index" ]; echo $?) \
	"a complete trace: metadata, index, at once when record returns"
bt "$d1" "$TEST_TMP/s1"
is $? 0 "babeltrace2 reads the first snapshot"
is "$(cat "$TEST_TMP/s1.err")" "" "babeltrace2: no warning"
is "$(seqs "$TEST_TMP/s1" first)" "$(seq 0 99 | tr '\n' ' ')" \
	"the first snapshot holds seq 0..99, once each"
like "$(head -n 1 "$TEST_TMP/s1")" "$host ltt_test:seq" "its events carry the host name"

ust_app -n 50 -r second >/dev/null
run lttctl snapshot record -s ns -n again
is "$RC" 0 "a second record"
d2=$(tail -n 1 <<<"$STDOUT")
like "$d2" "^$RELAY_OUT/$host/ns-$DATE/again-$DATE-1\$" "-n names it again-...-1, beside the first"
bt "$d2" "$TEST_TMP/s2"
is $? 0 "babeltrace2 reads the second snapshot"
is "$(seqs "$TEST_TMP/s2" first)" "$(seq 0 99 | tr '\n' ' ')" \
	"the second holds the first one's events: nothing was consumed"
is "$(seqs "$TEST_TMP/s2" second)" "$(seq 0 49 | tr '\n' ' ')" "and the new ones, seq 0..49"
ok $([ -s "$d1/$UID_PATH/metadata" ] && bt "$d1" "$TEST_TMP/s1b" &&
	[ "$(seqs "$TEST_TMP/s1b" first)" = "$(seqs "$TEST_TMP/s1" first)" ]; echo $?) \
	"the first snapshot is untouched"

ok_cmd "stop" lttctl stop ns
run lttctl snapshot record -s ns
is "$RC" 0 "record while stopped"
d3=$(tail -n 1 <<<"$STDOUT")
bt "$d3" "$TEST_TMP/s3"
is "$(seqs "$TEST_TMP/s3" second)" "$(seq 0 49 | tr '\n' ' ')" "the third holds them again"

# -m: the newest packets, the budget shared by the streams.
ok_cmd "start again" lttctl start ns
N=5000
ust_app -n $N -r many >/dev/null
is $? 0 "a program emitted $N events, more than the buffers hold"
run lttctl snapshot record -s ns -m $((NCPU * SUBBUF - 1))
is "$RC" 1 "-m below one packet per stream: refused"
like "$ERR" "can't hold one packet of each stream" "  it says why"
run lttctl snapshot record -s ns
is "$RC" 0 "record without a limit"
bt "$(tail -n 1 <<<"$STDOUT")" "$TEST_TMP/full"
full=$(seqs "$TEST_TMP/full" many)
is "$(echo $full | tr ' ' '\n' | tail -n 1)" "$((N - 1))" "it ends with the newest event, seq $((N - 1))"
MAX=$((NCPU * SUBBUF))
run lttctl snapshot record -s ns -m $MAX
is "$RC" 0 "record -m $MAX (one packet per stream)"
dm=$(tail -n 1 <<<"$STDOUT")
size=$(stream_bytes "$dm")
ok $([ "$size" -gt 0 ] && [ "$size" -le $MAX ]; echo $?) "the relay's stream files hold $size bytes, at most $MAX"
bt "$dm" "$TEST_TMP/bounded"
is $? 0 "babeltrace2 reads it"
bounded=$(seqs "$TEST_TMP/bounded" many)
is "$(echo $bounded | tr ' ' '\n' | tail -n 1)" "$((N - 1))" "it keeps the newest event"
ok $([ $(echo $bounded | wc -w) -lt $(echo $full | wc -w) ]; echo $?) \
	"and fewer events than the unbounded one"
ok_cmd "destroy" lttctl destroy ns

# An output added with a URL path, and a one-off record URL.
ok_cmd "a snapshot session without output" lttctl create ns2 --snapshot --no-output
ok_cmd "add-output net:// with a path" lttctl snapshot add-output -s ns2 -n remote "$URL/some/where"
ok_cmd "a channel" lttctl enable-channel -u -s ns2 chan --subbuf-size $SUBBUF --num-subbuf 8
ok_cmd "a rule" lttctl enable-event -u -s ns2 ltt_test:seq -c chan
ok_cmd "start" lttctl start ns2
ust_app -n 30 -r third >/dev/null
run lttctl snapshot record -s ns2
is "$RC" 0 "record to the added output"
d4=$(tail -n 1 <<<"$STDOUT")
like "$d4" "^$RELAY_OUT/$host/some/where/remote-[0-9]{8}-[0-9]{6}-0\$" "in HOST/PATH/remote-...-0"
bt "$d4" "$TEST_TMP/s4"
is "$(seqs "$TEST_TMP/s4" third)" "$(seq 0 29 | tr '\n' ' ')" "seq 0..29"
ok_cmd "del-output" lttctl snapshot del-output -s ns2 remote
run lttctl snapshot record -s ns2 "$URL/oneoff"
is "$RC" 0 "record with a one-off net:// URL"
d5=$(tail -n 1 <<<"$STDOUT")
like "$d5" "^$RELAY_OUT/$host/oneoff/snapshot-0-[0-9]{8}-[0-9]{6}-1\$" "in HOST/PATH/snapshot-0-...-1 (a one-off output's name, as LTTng's)"
bt "$d5" "$TEST_TMP/s5"
is "$(seqs "$TEST_TMP/s5" third)" "$(seq 0 29 | tr '\n' ' ')" "seq 0..29 again"
run lttctl snapshot record -s ns2 -C "tcp://127.0.0.1:$CPORT/pair" -D "tcp://127.0.0.1:$DPORT"
is "$RC" 0 "record with LTTng's -C and -D: the relay's two ports"
d7=$(tail -n 1 <<<"$STDOUT")
like "$d7" "^$RELAY_OUT/$host/pair/snapshot-0-[0-9]{8}-[0-9]{6}-2\$" "in HOST/PATH of -C/snapshot-0-...-2"
bt "$d7" "$TEST_TMP/s7"
is "$(seqs "$TEST_TMP/s7" third)" "$(seq 0 29 | tr '\n' ' ')" "-C -D: seq 0..29 again"

# Save and load: a net:// snapshot output comes back as it was, and records.
lttctl -q create ns3 --snapshot --no-output &&
	lttctl -q snapshot add-output -s ns3 -n rel -m 1M "$URL/kept" &&
	lttctl -q enable-event -u -s ns3 ltt_test:seq || { echo "Bail out! session ns3"; exit 1; }
before=$(lttctl list ns3; lttctl snapshot list-output -s ns3)
ok_cmd "save a session with a net:// snapshot output" lttctl -q save ns3 -o "$TEST_TMP/ns3.ltt"
is "$(xmllint --xpath 'concat(//snapshot_output/name, " ", //snapshot_output/net, " ", count(//snapshot_output/local), " ", //snapshot_output/max_size)' "$TEST_TMP/ns3.ltt")" \
	"rel $URL/kept 0 1048576" "the file holds the relay's URL in <net>"
lttctl -q destroy ns3
ok_cmd "load it" lttctl -q load -i "$TEST_TMP/ns3.ltt"
is "$(lttctl list ns3; lttctl snapshot list-output -s ns3)" "$before" \
	"list and snapshot list-output identical after the load"
ok_cmd "start the loaded session" lttctl start ns3
ust_app -n 40 -r loaded >/dev/null
run lttctl snapshot record -s ns3
is "$RC" 0 "record of the loaded session to the relay"
d6=$(tail -n 1 <<<"$STDOUT")
like "$d6" "^$RELAY_OUT/$host/kept/rel-[0-9]{8}-[0-9]{6}-0\$" "in HOST/kept/rel-...-0"
bt "$d6" "$TEST_TMP/s6"
is "$(seqs "$TEST_TMP/s6" loaded)" "$(seq 0 39 | tr '\n' ' ')" "seq 0..39"
lttctl -q destroy ns3

# Refusals.
run lttctl snapshot record -s ns2 "net://127.0.0.1:1:2"
is "$RC" 1 "record to a port where no relay listens: refused"
like "$ERR" "connection refused" "  it says why"
run lttctl snapshot record -s ns2 "$URL/../up"
is "$RC" 1 "a URL path with ..: refused"
ok $([ ! -e "$RELAY_OUT/up" ] && [ ! -e "$RELAY_OUT/$host/up" ]; echo $?) "  nothing written"
stop_relayd
run lttctl snapshot record -s ns2 "$URL"
is "$RC" 1 "record once the relay is gone: refused"
like "$ERR" "relay" "  it says why"
ok_cmd "the session is still there" lttctl list ns2
lttctl -q destroy ns2
done_testing
