#!/bin/bash
# Malformed, truncated, random and stalled input on the relay's control
# and data ports: each bad connection is logged (one line naming the
# peer) and closed, the relay lives on, and a session streaming at the
# same time is not disturbed: its trace comes out byte for byte right.
# A peer not established yet is given the idle time in the middle of a
# message, an established one (a packet begun) the longer bound idle
# time (a slow shaped link's segments may be minutes apart).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

ust_setup
relayd_init
plan 50

LOCAL=$(make_local_trace "$TEST_TMP/local" 2000)
ok $? "a local session recorded a trace"
export LTT_RELAYD_IDLE_TIMEOUT_MS=1000 LTT_RELAYD_BOUND_IDLE_TIMEOUT_MS=3000
# Each bad connection is asserted on by its own line: no rate limit here
# (test_relay_ratelimit.sh tests it).
export LTT_RELAYD_LOG_RATELIMIT=0
start_relayd -o "$TEST_TMP/relay"
is $? 0 "the relay started (idle timeout 1 s)"
OUT_ROOT="$TEST_TMP/relay"

# A good session streams its packets, then stays open (streams not closed)
# while the bad peers come and go; it finishes at the end.
open_fifo good_in "$TEST_TMP/good_in"
open_fifo good_out "$TEST_TMP/good_out"
(close_fifos; exec timeout $((TEST_TIMEOUT * 6)) "$RELAY_CLIENT" --keep-open --host good --session keep \
	replay "$CPORT" "$DPORT" "$LOCAL" <"$TEST_TMP/good_in" >"$TEST_TMP/good_out") &
good=$!
lines=
while read_line $good_out; do
	lines="$lines$LINE;"
	[ "$LINE" = WAITING ] && break
done
like "$lines" "^OUTPUT .*;PACKETS [1-9][0-9]*;WAITING;$" "the good session sent its packets and waits"

# log_has REGEX DESC: the relay logged a line matching REGEX.
log_has() {
	like "$(cat "$RELAYD_LOG")" "$1" "$2"
}
peer_re='127\.0\.0\.1:[0-9]+'

# ctrl_conn / data_conn: a new raw connection on fd CONN.
ctrl_conn() { exec {CONN}<>"/dev/tcp/127.0.0.1/$CPORT"; }
data_conn() { exec {CONN}<>"/dev/tcp/127.0.0.1/$DPORT"; }
close_conn() { exec {CONN}>&-; }

# --- control port
ctrl_conn
head -c 4096 /dev/urandom >&$CONN
is "$(wait_closed $CONN)" "" "control, random bytes: closed, nothing answered"
close_conn
log_has "Warning: control connection from $peer_re: (request of [0-9]+ bytes \\(at most 1048576\\)|command [0-9]+ before VERSION|malformed [A-Z_ ]+): closed" \
	"control, random bytes: logged with the peer"

ctrl_conn
send $CONN "$(ctrl_hdr 5 $((2 << 20)))"
is "$(wait_closed $CONN)" "" "control, a 2 MiB request: closed before reading it"
close_conn
log_has "control connection from $peer_re: request of 2097152 bytes \\(at most 1048576\\): closed" \
	"control, a 2 MiB request: logged"

ctrl_conn
send $CONN "$(ctrl_hdr 1 0)"
is "$(wait_closed $CONN)" "" "control, ADD_STREAM before VERSION: closed"
close_conn
log_has "control connection from $peer_re: command 1 before VERSION: closed" \
	"control, a command before VERSION: logged"

ctrl_conn
send $CONN "$(ctrl_hdr 5 8)$(h32 3)$(h32 0)"
is "$(wait_closed $CONN)" "000000020000000f" "control, VERSION 3.0: the relay says 2.15, then closes"
close_conn
log_has "control connection from $peer_re: protocol 3\\.0, we speak 2\\.15: closing" \
	"control, another major: logged"

ctrl_conn
send $CONN "$(ctrl_hdr 5 8)$(h32 2)$(h32 11)$(ctrl_hdr 99 3)616263$(ctrl_hdr 1 0)"
is "$(wait_closed $CONN)" "000000020000000f0000000c" \
	"control, command 99: UNSUPPORTED (12), then ADD_STREAM before CREATE_SESSION: closed"
close_conn
log_has "control connection from $peer_re: ADD_STREAM before CREATE_SESSION: closed" \
	"control, a command before CREATE_SESSION: logged"

ctrl_conn
# CREATE_SESSION whose name lengths say more than the payload holds
send $CONN "$(ctrl_hdr 5 8)$(h32 2)$(h32 11)$(ctrl_hdr 2 60)$(h32 200)$(h32 10)$(h32 1)$(h32 0)$(zeros 44)"
is "$(wait_closed $CONN)" "000000020000000f" "control, CREATE_SESSION that does not add up: closed"
close_conn
log_has "control connection from $peer_re: malformed CREATE_SESSION: closed" \
	"control, a malformed CREATE_SESSION: logged"

# The relay's idle clock starts when the half header arrives, which is
# after t0 (taken before the connection is made) and before the close:
# however slow the machine, the close comes at least the idle time after
# t0.  (Taken after the send, t0 could come late: the relay's clock then
# ran while date started, and a loaded machine made it look early.)
t0=$(date +%s%N)
ctrl_conn
send $CONN "$(ctrl_hdr 5 8 | head -c 20)"
is "$(wait_closed $CONN)" "" "control, half a header then silence: closed"
t1=$(date +%s%N)
close_conn
ok "$([ $(((t1 - t0) / 1000000)) -ge 900 ]; echo $?)" \
	"control, half a header: closed after the idle time, not before ($(((t1 - t0) / 1000000)) ms since before the connection)"
log_has "control connection from $peer_re: no progress for 1000 ms in the middle of a message: closed" \
	"control, a stalled request: logged"

ctrl_conn
send $CONN "$(ctrl_hdr 5 8)$(h32 2)"
is "$(wait_closed $CONN)" "" "control, half a payload then silence: closed"
close_conn

ctrl_conn
send $CONN "$(ctrl_hdr 5 8)$(h32 2)"
close_conn
ctrl_conn
close_conn

# A peer that pipelines 500000 requests without reading the replies: the
# relay stops reading it while 1 MiB of replies wait, and serves the rest
# once they are read; nothing lost, nothing unbounded.
req=$(ctrl_hdr 5 8)$(h32 2)$(h32 11)
perl -e 'print pack("H*", $ARGV[0]) x 500000' "$req" >"$TEST_TMP/flood"
ctrl_conn
cat "$TEST_TMP/flood" >&$CONN &
writer=$!
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$RELAYD_PID/status")
got=$(timeout "$TEST_TIMEOUT" head -c 4000000 <&$CONN | md5sum)
is "$got" "$(perl -e 'print pack("H*", "000000020000000f") x 500000' | md5sum)" \
	"control, 500000 pipelined requests: 500000 replies once read"
wait $writer
is $? 0 "control, 500000 pipelined requests: all were taken"
ok "$([ "$rss" -lt 65536 ]; echo $?)" "the relay stayed small meanwhile (${rss} KiB)"
close_conn

# names that would leave the output directory, or are not one component
for bad in "../x" "a/b" "."; do
	run relay_client --host "$bad" --session s pending "$CPORT" "$DPORT"
	like "$OUT" "CREATE_SESSION: .*(invalid|value)" "control, host name '$bad': refused"
done
run relay_client --host h --session "../up" pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "control, session name '../up': refused"
run relay_client --host h --session s --base-path "/abs" pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "control, base path '/abs': refused"
run relay_client --host h --session s --base-path "a/../../b" pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "control, base path 'a/../../b': refused"
run relay_client --host h --session s --pathname "../../esc" pending "$CPORT" "$DPORT"
like "$OUT" "ADD_STREAM .*(invalid|value)" "control, stream path '../../esc': refused"
# names that would pass for others on screen (U+202E, U+200B), as sessiond refuses them
run relay_client --host h --session "adm$(printf '\342\200\256')nimda" pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "control, a session name with U+202E: refused"
run relay_client --host "h$(printf '\342\200\213')" --session s pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "control, a host name with U+200B: refused"
is "$(ls "$TEST_TMP" | grep -c -e '^x$' -e '^b$' -e '^up' -e '^esc$')" 0 \
	"nothing was created outside the output directory"
is "$(ls "$OUT_ROOT")" "good
h" "the output directory holds only the good and the well-named sessions"

# --- data port
data_conn
head -c 4096 /dev/urandom >&$CONN
is "$(wait_closed $CONN)" "" "data, random bytes: closed"
close_conn
log_has "data connection from $peer_re: packet [0-9]+ of stream [0-9]+ .*: closed" \
	"data, random bytes: logged with the peer"

data_conn
send $CONN "$(data_hdr 999999 0 4096 0)$(zeros 4096)"
is "$(wait_closed $CONN)" "" "data, a packet for an unknown stream: closed"
close_conn
log_has "data connection from $peer_re: packet 0 of stream 999999 \\(4096 \\+ 0 bytes\\) for an unknown stream: closed" \
	"data, an unknown stream: logged"

data_conn
send $CONN "$(data_hdr 1 0 0 0)"
is "$(wait_closed $CONN)" "" "data, an empty packet: closed"
close_conn

data_conn
send $CONN "$(data_hdr 1 0 4096 0 | head -c 40)"
close_conn
data_conn
close_conn

t0=$(date +%s%N)
run relay_client --session stall stall "$CPORT" "$DPORT"
t1=$(date +%s%N)
like "$OUT" $'CLOSED_BY_RELAY\nRESENT pending=0' \
	"data, half a packet then silence: closed; the packet sent again is taken"
ok "$([ $(((t1 - t0) / 1000000)) -ge 2900 ]; echo $?)" \
	"  established: closed after the bound idle time, not the idle time ($(((t1 - t0) / 1000000)) ms)"
sdir=$(printf '%s\n' "$OUT" | sed -n 's/^OUTPUT //p')/ust/uid/0/64-bit
is "$(stat -c %s "$sdir/chan_0")" 8192 "data, the half packet was cut from the file, the whole one kept"
log_has "data connection from $peer_re: no progress for 3000 ms in the middle of a message: closed" \
	"data, a stalled packet: logged"

# --- random garbage, many times, on both ports, and idle connections
for i in $(seq 1 20); do
	for port in "$CPORT" "$DPORT"; do
		exec {CONN}<>"/dev/tcp/127.0.0.1/$port"
		head -c $((RANDOM % 3000 + 1)) /dev/urandom >&$CONN 2>/dev/null
		exec {CONN}>&-
	done
done
idle=()
for i in $(seq 1 40); do
	exec {CONN}<>"/dev/tcp/127.0.0.1/$CPORT"
	idle+=($CONN)
	exec {CONN}<>"/dev/tcp/127.0.0.1/$DPORT"
	idle+=($CONN)
done
relayd_alive
ok $? "after 40 random connections and with 80 idle ones: the relay serves a new session"
for c in "${idle[@]}"; do
	exec {c}>&-
done

# --- the good session finishes: untouched by all of the above
close_fd $good_in
wait $good
is $? 0 "the good session closed its streams, nothing pending"
while read -r -t 1 -u $good_out LINE; do
	lines="$lines$LINE;"
done
like "$lines" "PENDING_POLLS [0-9]+;$" "the good session saw no pending data at the end"
gdir=$(ls -d "$OUT_ROOT"/good/keep-*)/ust/uid/0/64-bit
same_files "$LOCAL" "$gdir"
ok $? "the good session's trace is byte for byte the local one"
bt "$gdir" "$TEST_TMP/good.txt"
bt "$LOCAL" "$TEST_TMP/local.txt"
is "$(md5sum <"$TEST_TMP/good.txt")" "$(md5sum <"$TEST_TMP/local.txt")" \
	"babeltrace2 reads the same events from it"

ok "$(proc_alive "$RELAYD_PID"; echo $?)" "the relay still runs"
is "$(grep -c -e 'Error' -e 'Assert' "$RELAYD_LOG")" 0 "no error of the relay's own in its log"
stop_relayd TERM
is $? 0 "the relay stops on SIGTERM"

done_testing
