#!/bin/bash
# A TLS relay's silent data slots go to members only (issue 61, 1): the
# data port lets as many connections stay silent past the first-message
# deadline as sessions are open (a consumer sends its first packet only
# when there is one), and gave those slots to any connection.  A
# stranger's plain TCP connections, opened before a member's session,
# took the one slot; the member's idle data connection was closed at its
# deadline and the session lost every event (0 of 90,300 in the issue).
# Now a connection that has not finished its TLS handshake is closed at
# the deadline, logged as such; the member's handshaken connection keeps
# the slot, and the session records every event after staying idle past
# the deadline.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/tls-lib.sh"

need_openssl
ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
plan 9
C="$TEST_TMP/certs"
tls_certs "$C" || { echo "Bail out! openssl could not make the certificates"; exit 1; }
TLS=(--tls-cert "$C/client.pem" --tls-key "$C/client.key" --tls-ca "$C/ca.pem")
N=500
host=$(hostname)

# 2 s for a first message (the default is 30 s)
export LTT_RELAYD_HELLO_TIMEOUT_MS=2000
start_relayd -v -o "$TEST_TMP/out" --tls-cert "$C/relay.pem" --tls-key "$C/relay.key" \
	--tls-ca "$C/ca.pem" || { echo "Bail out! ltt-relayd did not start"; exit 1; }

# the stranger first: three plain TCP connections to the data port
exec {S1}<>"/dev/tcp/127.0.0.1/$DPORT" {S2}<>"/dev/tcp/127.0.0.1/$DPORT" \
	{S3}<>"/dev/tcp/127.0.0.1/$DPORT"
# then the member's session, started with no program: its data connection
# stays silent
lttctl -q create m -U "tls://127.0.0.1:$CPORT:$DPORT" "${TLS[@]}" &&
	lttctl -q enable-event -u 'ltt_test:seq' -s m && lttctl -q start m
ok $? "a member's TLS session started, idle"
s=
for fd in $S1 $S2 $S3; do
	s="$s$(wait_closed "$fd");"
done
is "$s" ";;;" "the stranger's three plain connections: closed at the deadline, none kept"
exec {S1}>&- {S2}>&- {S3}>&-
is "$(grep -c "data connection from 127\.0\.0\.1:[0-9]*: no TLS handshake within 2000 ms of connecting: closed" "$RELAYD_LOG")" 3 \
	"the relay says why, for each"
# the member's connection reached its deadline too: kept, silent
timeout "$TEST_TIMEOUT" tail -n +1 -F "$RELAYD_LOG" 2>/dev/null |
	grep -q -m 1 "data connection from 127\.0\.0\.1:[0-9]*: silent past 2000 ms, kept (1 silent)"
ok $? "the member's data connection, handshaken, silent past the deadline: kept in the session's slot"
ust_app -n "$N" -r idle >/dev/null
ok $? "a program records $N events in it after that"
ok_cmd "stop" lttctl stop m
run lttctl list m
like "$STDOUT" "Relay connection \(user space\): connected, [1-9][0-9]* packets sent \([^)]*\), 0 lost" \
	"list: connected, nothing lost"
lttctl -q destroy m
bt "$(ls -d "$TEST_TMP/out/$host"/m-* | head -n 1)" "$TEST_TMP/m.txt"
is "$(grep -c ' ltt_test:seq: .*role = "idle"' "$TEST_TMP/m.txt")" "$N" "the relay's trace holds the $N events"
stop_relayd
ok $? "the relay stops"
done_testing
