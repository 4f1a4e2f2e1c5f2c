#!/bin/bash
# TLS 1.3 between consumers and ltt-relayd, certificates made here by the
# openssl CLI: a session over tls:// records every event (read back from
# the relay's output with babeltrace2); openssl s_client sees TLS 1.3 and
# the relay's certificate, and is refused without a client certificate; a
# plain session and one whose certificate no trusted CA signed are
# refused (start fails, saying why) and leave no file on the relay; the
# bytes that cross the loopback (through a tap, tcp_tap.py) hold an
# event's payload in plain, never in TLS; bad TLS files are refused at
# create, nothing created; save and load keep the TLS files; -C/-D
# spelled tls://; babeltrace2 reads a
# live session over TLS through lttctl view --live's bridge.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/tls-lib.sh"

need_openssl
ust_setup --log
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"
relayd_init
TAP_PIDS=
trap 'for p in $TAP_PIDS; do kill "$p"; done 2>/dev/null; _relayd_cleanup; _cleanup' EXIT
command -v stdbuf >/dev/null || skip_all "stdbuf (coreutils) is not installed"
C="$TEST_TMP/certs"
tls_certs "$C" || { echo "Bail out! openssl could not make the certificates"; exit 1; }
RELAY_OUT="$TEST_TMP/relay-out"
N=1000
SECRET=ltt-tls-secret-payload-4e1d
TLS=(--tls-cert "$C/client.pem" --tls-key "$C/client.key" --tls-ca "$C/ca.pem")
host=$(hostname)
RELAY_TLS_MSG="the TLS handshake with the relay failed: its certificate is not signed by --tls-ca or not for the URL's host, or it refused ours (not signed by its CA), or it does not speak TLS; the session daemon's log says which"

# record NAME OUTPUT-OPTIONS...: the test program's N events of role
# $SECRET in session NAME, stopped (waiting), not destroyed.
record() {
	local name=$1
	shift
	lttctl -q create "$name" "$@" &&
		lttctl -q enable-event -u 'ltt_test:seq' -s "$name" &&
		lttctl -q start "$name" &&
		ust_app -n "$N" -r "$SECRET" >/dev/null &&
		lttctl -q stop "$name"
}

# start_tap CAPTURE CTRL DATA: a tap in front of a relay's two ports
# (tcp_tap.py), every byte appended to CAPTURE; sets TAP_C and TAP_D.
start_tap() {
	local fd pid
	exec {fd}< <(exec python3 "$LTT_TOP_SRCDIR/tests/regression/tcp_tap.py" "$@")
	read -r -t "$TEST_TIMEOUT" pid TAP_C TAP_D <&"$fd" || return 1
	TAP_PIDS="$TAP_PIDS $pid"
}

# relay_files: the files the relay wrote, one a line, sorted.
relay_files() {
	(cd "$RELAY_OUT" 2>/dev/null && find . -type f | sort)
}

# --- the relay's options
run "$RELAYD" --tls-cert "$C/relay.pem" --tls-key "$C/relay.key"
is "$RC:$ERR" "1:ltt-relayd: Error: TLS needs all three of --tls-cert, --tls-key and --tls-ca (the CA that signs the clients' certificates)
Try 'ltt-relayd --help'." "ltt-relayd: --tls-cert without --tls-ca is refused"
run "$RELAYD" -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 -o "$RELAY_OUT" \
	--tls-cert "$C/relay.pem" --tls-key "$C/rogue.key" --tls-ca "$C/ca.pem"
is "$RC" 1 "ltt-relayd: a key that is not the certificate's: exit 1"
like "$ERR" "^ltt-relayd: Error: TLS key '$C/rogue.key' is not the key of certificate '$C/relay.pem'" \
	"and says which files"
ok "$([ ! -e "$RELAY_OUT" ]; echo $?)" "nothing written"

# systemd's credentials (LoadCredential=): the files without --tls-*
mkdir -p "$TEST_TMP/creds"
cp "$C/relay.pem" "$TEST_TMP/creds/tls-cert"
cp "$C/relay.key" "$TEST_TMP/creds/tls-key"
run env CREDENTIALS_DIRECTORY="$TEST_TMP/creds" "$RELAYD" -o "$RELAY_OUT"
is "$RC:$ERR" "1:ltt-relayd: Error: the credentials in $TEST_TMP/creds hold some of tls-cert, tls-key and tls-ca, not all three: give the unit all three LoadCredential= lines, or none for plain TCP" \
	"credentials: two of the three files are refused"
cp "$C/ca.pem" "$TEST_TMP/creds/tls-ca"
CREDENTIALS_DIRECTORY="$TEST_TMP/creds" start_relayd -o "$TEST_TMP/cred-out" ||
	echo "Bail out! ltt-relayd did not start with credentials"
out=$(timeout "$TEST_TIMEOUT" openssl s_client -connect "127.0.0.1:$CPORT" -CAfile "$C/ca.pem" \
	-cert "$C/client.pem" -key "$C/client.key" -verify_return_error </dev/null 2>&1)
like "$out" "New, TLSv1.3, Cipher is" "credentials: the relay speaks TLS 1.3 with their files"
stop_relayd
ok $? "and stops"

start_relayd -o "$RELAY_OUT" --tls-cert "$C/relay.pem" --tls-key "$C/relay.key" --tls-ca "$C/ca.pem" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
like "$(cat "$RELAYD_LOG")" "live port $LPORT \(TLS 1.3 only\)" "the relay says it speaks only TLS"

# --- openssl s_client: TLS 1.3, the relay's certificate; none of ours: refused
for port in "$CPORT" "$DPORT" "$LPORT"; do
	out=$(timeout "$TEST_TIMEOUT" openssl s_client -connect "127.0.0.1:$port" -CAfile "$C/ca.pem" \
		-cert "$C/client.pem" -key "$C/client.key" -verify_return_error </dev/null 2>&1)
	like "$out" "New, TLSv1.3, Cipher is" "port $port: s_client speaks TLS 1.3"
	like "$out" "subject=CN = ltt-relay" "port $port: the relay's certificate (CN=ltt-relay)"
	like "$out" "Verify return code: 0 \(ok\)" "port $port: signed by the test's CA"
done
# (-ign_eof: it reads until the relay closes, so it sees the relay's alert)
out=$(timeout "$TEST_TIMEOUT" openssl s_client -connect "127.0.0.1:$CPORT" -CAfile "$C/ca.pem" \
	-ign_eof </dev/null 2>&1)
like "$out" "alert certificate required" "s_client without a certificate: refused in the handshake"
like "$(cat "$RELAYD_LOG")" "TLS handshake failed: .*peer did not return a certificate: closed" \
	"the relay says why"

# --- bad TLS files at create: a clear error, nothing created
run lttctl create bad -U "tls://127.0.0.1:$CPORT:$DPORT"
is "$RC" 2 "a tls:// URL without --tls-*: a usage error"
like "$ERR" "TLS needs a tls:// URL with all three of --tls-cert, --tls-key and --tls-ca" "and says what is needed"
run lttctl create bad -U "tls://127.0.0.1:$CPORT:$DPORT" --tls-cert "$C/client.pem" \
	--tls-key "$C/rogue.key" --tls-ca "$C/ca.pem"
is "$RC" 1 "a key that is not the certificate's: exit 1"
is "$ERR" "Error: TLS key '$C/rogue.key' is not the key of certificate '$C/client.pem' (error:05800074:x509 certificate routines::key values mismatch); nothing was created" \
	"and names both files"
run lttctl create bad -U "tls://127.0.0.1:$CPORT:$DPORT" --tls-cert "$C/nonexistent.pem" \
	--tls-key "$C/client.key" --tls-ca "$C/ca.pem"
like "$RC:$ERR" "^1:Error: TLS certificate '$C/nonexistent.pem' can't be used: .*; nothing was created" \
	"a certificate file that is not there: exit 1, named"
run lttctl create bad -U "net://127.0.0.1:$CPORT:$DPORT" "${TLS[@]}"
like "$RC:$ERR" "^2:Error: TLS needs a tls:// URL" "--tls-* with a net:// URL: a usage error"
run lttctl list
is "$OUT" "No sessions." "nothing was created"

# --- a session over TLS: every event, on the relay
ok_cmd "a session over tls:// (N=$N)" record tls -U "tls://127.0.0.1:$CPORT:$DPORT" "${TLS[@]}"
dir=$(ls -d "$RELAY_OUT/$host"/tls-* | head -n 1)
bt "$dir" "$TEST_TMP/tls.txt"
is "$(count_events "$TEST_TMP/tls.txt" ltt_test:seq)" "$N" "the relay's trace holds the $N events"
is "$(grep -c "role = \"$SECRET\"" "$TEST_TMP/tls.txt")" "$N" "each with its payload"
like "$(cat "$SESSIOND_LOG")" "connected \(protocol 2\.[0-9]+, ltt-relayd, TLS 1\.3\)" \
	"the consumer says TLS 1.3"
like "$(cat "$RELAYD_LOG")" "data connection from 127.0.0.1:[0-9]+: TLS 1.3, client /CN=ltt-client" \
	"the relay saw the consumer's certificate"
run lttctl list tls
like "$STDOUT" "Session tls \(tls://127.0.0.1:$CPORT:$DPORT\)" "list shows the tls:// URL"
like "$STDOUT" "Relay connection \(user space\): connected, [1-9][0-9]* packets sent \([^)]*\), 0 lost" \
	"list: nothing lost"
# save keeps the TLS files; load gives them back
run lttctl save tls
saved="$LTT_HOME/.lttng/sessions/tls.ltt"
is "$RC:$(sed -n '/<tls>/,/<\/tls>/p' "$saved" | tr -d ' \n')" \
	"0:<tls><cert>$C/client.pem</cert><key>$C/client.key</key><ca>$C/ca.pem</ca></tls>" \
	"save writes the session's TLS files"
run xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$saved"
is "$RC" 0 "the saved file is valid against the schema"
ok_cmd "destroy the TLS session" lttctl destroy tls
# (loaded under another name: a trace of its own on the relay, whatever
# second the first one was created in)
ok_cmd "load it" lttctl load tls --override-name tlsl
ok_cmd "start the loaded session (the relay takes its certificate)" lttctl start tlsl
ust_app -n "$N" -r "$SECRET" >/dev/null
ok $? "the program ran in it"
ok_cmd "stop the loaded session" lttctl stop tlsl
is "$(babeltrace2 "$(ls -d "$RELAY_OUT/$host"/tlsl-* | tail -n 1)" 2>/dev/null | grep -c ' ltt_test:seq: ')" \
	"$N" "the loaded session streamed its $N events over TLS"
ok_cmd "destroy it" lttctl destroy tlsl
before=$(relay_files)

# --- refused: a plain session, a certificate no trusted CA signed
run lttctl create plain -U "net://127.0.0.1:$CPORT:$DPORT"
lttctl -q enable-event -u 'ltt_test:seq' -s plain
run lttctl start plain
is "$RC" 1 "a plain session to the TLS relay: start fails"
is "$ERR" "Error: session 'plain': relay net://127.0.0.1:$CPORT:$DPORT: what answers on the control port is not a relay daemon (ltt-relayd, or LTTng's lttng-relayd 2.11 or later); check the URL's ports (control, then data), and give a relay that speaks only TLS (ltt-relayd --tls-cert) a tls:// URL" \
	"start says to give it a tls:// URL"
lttctl -q destroy plain
run lttctl create rogue -U "tls://127.0.0.1:$CPORT:$DPORT" --tls-cert "$C/rogue.pem" \
	--tls-key "$C/rogue.key" --tls-ca "$C/ca.pem"
is "$RC" 0 "a session whose certificate the relay's CA did not sign: created"
lttctl -q enable-event -u 'ltt_test:seq' -s rogue
run lttctl start rogue
is "$RC" 1 "its start fails"
is "$ERR" "Error: session 'rogue': relay tls://127.0.0.1:$CPORT:$DPORT: $RELAY_TLS_MSG" \
	"start says the TLS handshake failed"
like "$(cat "$SESSIOND_LOG")" "the TLS handshake with port $CPORT failed: .*alert unknown ca" \
	"the daemon's log says why (the relay did not know its CA)"
like "$(cat "$RELAYD_LOG")" "control connection from 127.0.0.1:[0-9]+: TLS handshake failed: the peer.s certificate: unable to get local issuer certificate: closed" \
	"the relay's log too"
lttctl -q destroy rogue
run lttctl create mitm -U "tls://127.0.0.1:$CPORT:$DPORT" --tls-cert "$C/client.pem" \
	--tls-key "$C/client.key" --tls-ca "$C/rogue-ca.pem"
lttctl -q enable-event -u 'ltt_test:seq' -s mitm
run lttctl start mitm
is "$RC:$ERR" "1:Error: session 'mitm': relay tls://127.0.0.1:$CPORT:$DPORT: $RELAY_TLS_MSG" \
	"a relay whose certificate --tls-ca did not sign: start fails"
lttctl -q destroy mitm
is "$(relay_files)" "$before" "the refused sessions left no file on the relay"

# --- the loopback's bytes: the payload in plain, never in TLS
# a second, plain relay, and a tap in front of each relay's two ports
PLAIN_OUT="$TEST_TMP/plain-out"
P_RUNDIR="$TEST_TMP/plain-run"
mkdir -p "$P_RUNDIR"
LTT_RUNDIR=$P_RUNDIR timeout "$TEST_TIMEOUT" "$RELAYD" -b -p "$TEST_TMP/relayd-plain.pid" \
	-C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 -o "$PLAIN_OUT" </dev/null ||
	echo "Bail out! the plain relay did not start"
PC=$(cat "$P_RUNDIR/relayd-control.port") PD=$(cat "$P_RUNDIR/relayd-data.port")
start_tap "$TEST_TMP/cap-plain" "$PC" "$PD"
ok $? "a tap in front of the plain relay ($TAP_C $TAP_D)"
ok_cmd "a plain session through it" record tp -U "net://127.0.0.1:$TAP_C:$TAP_D"
lttctl -q destroy tp
start_tap "$TEST_TMP/cap-tls" "$CPORT" "$DPORT"
ok $? "a tap in front of the TLS relay ($TAP_C $TAP_D)"
ok_cmd "a TLS session through it" record tt -U "tls://127.0.0.1:$TAP_C:$TAP_D" "${TLS[@]}"
lttctl -q destroy tt
bt "$(echo "$RELAY_OUT/$host"/tt-*)" "$TEST_TMP/tt.txt"
is "$(count_events "$TEST_TMP/tt.txt" ltt_test:seq)" "$N" "the TLS session through the tap: $N events"
plain_hits=$(grep -c -a "$SECRET" "$TEST_TMP/cap-plain")
ok "$([ "$plain_hits" -gt 0 ]; echo $?)" "plain: the loopback's bytes hold the payload ($plain_hits lines)"
size=$(stat -c %s "$TEST_TMP/cap-tls")
ok "$([ "$size" -gt 20000 ]; echo $?)" "TLS: the tap saw the session's bytes ($size bytes)"
is "$(grep -c -a "$SECRET" "$TEST_TMP/cap-tls")" 0 "TLS: no payload in the loopback's bytes"
is "$(grep -c -a 'ltt_test' "$TEST_TMP/cap-tls")" 0 "TLS: not even the metadata's event names"

# --- snapshots over TLS: a snapshot session's tls:// outputs take its files
ok_cmd "a snapshot session with TLS files, no output yet" \
	lttctl create sn --snapshot --no-output "${TLS[@]}"
ok_cmd "enable and start" lttctl enable-event -u 'ltt_test:seq' -s sn
lttctl -q start sn && ust_app -n "$N" -r snap >/dev/null
ok $? "the program ran in it"
ok_cmd "add a tls:// snapshot output" lttctl snapshot add-output -s sn "tls://127.0.0.1:$CPORT:$DPORT/snaps"
run lttctl snapshot record -s sn
is "$RC" 0 "record over TLS"
snap=$(tail -n 1 <<<"$STDOUT")
is "$(babeltrace2 "$snap" 2>/dev/null | grep -c 'role = "snap"')" "$N" "the relay wrote the snapshot: $N events"
lttctl -q destroy sn
# a certificate whose text dump runs past 4 KiB before its PEM block (what
# 'openssl x509 -text' writes, for a long one): the root daemon's check
# reads the whole file, as OpenSSL does
{ for i in $(seq 80); do echo "        $i: explanatory text, as openssl x509 -text writes it ....."; done
  cat "$C/client.pem"; } >"$C/client-text.pem"
ok_cmd "a certificate with $(($(stat -c %s "$C/client-text.pem") - $(stat -c %s "$C/client.pem"))) bytes of text before its PEM block: taken" \
	lttctl create st --snapshot --no-output --tls-cert "$C/client-text.pem" \
	--tls-key "$C/client.key" --tls-ca "$C/ca.pem"
lttctl -q destroy st
ok_cmd "a snapshot session without TLS files" lttctl create sp --snapshot --no-output
run lttctl snapshot add-output -s sp "tls://127.0.0.1:$CPORT:$DPORT"
like "$RC:$ERR" "^1:Error: .*TLS needs a tls:// URL with all three of --tls-cert" \
	"its tls:// snapshot output is refused: the session has no TLS files"
lttctl -q destroy sp

# --- a root daemon reads a client's TLS files only if the user may (it
# opens them with the user's ids and the user's groups in the group
# database: lttctl, given adm by setpriv only, loaded them through that
# group here, which the daemon does not count, and refuses; a directory
# the user can't enter refuses them too)
if ! can_switch_user || ! getent group adm >/dev/null; then
	skip 17 "a root daemon's clients need root, setpriv, nobody and the group adm"
else
	R3="$TEST_TMP/rootd"
	mkdir -p "$R3" "$TEST_TMP/nbcerts"
	nobody_dir "$TEST_TMP/nbhome"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$R3" --group nogroup --no-kernel \
		</dev/null >/dev/null 2>"$TEST_TMP/rootd.log" || echo "Bail out! the root daemon did not start"
	is "$(sed -n 's/^Uid:[[:space:]]*[0-9]*[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$(sessiond_pid "$R3")/status")" \
		"$(id -u ltt 2>/dev/null || id -u nobody)" "the root daemon gave root's rights up by default (to ltt, else nobody)"
	for f in client.pem client.key ca.pem; do
		install -m 0640 -o root -g adm "$C/$f" "$TEST_TMP/nbcerts/$f"
	done
	chmod 755 "$TEST_TMP/nbcerts"
	g_ctl() {
		timeout "$TEST_TIMEOUT" setpriv --reuid=nobody --regid=nogroup --groups=adm \
			env HOME="$TEST_TMP/nbhome" LTT_HOME="$TEST_TMP/nbhome" LTT_RUNDIR="$R3" \
			"$LTTCTL_BIN" "$@"
	}
	N3=(-U "tls://127.0.0.1:$CPORT:$DPORT" --tls-cert "$TEST_TMP/nbcerts/client.pem"
	    --tls-key "$TEST_TMP/nbcerts/client.key" --tls-ca "$TEST_TMP/nbcerts/ca.pem")
	run g_ctl create g "${N3[@]}"
	is "$RC:$ERR" "1:Error: session 'g': $(sed -n 's/.*X(TLS_FILES, [0-9]*, "\(.*\)") \\$/\1/p' "$LTT_TOP_SRCDIR/include/ltt/ltt-error.h")" \
		"files the user reads through a supplementary group only: the root daemon refuses them"
	like "$(cat "$TEST_TMP/rootd.log")" "TLS file $TEST_TMP/nbcerts/client.pem: not a regular file that uid [0-9]+ \(gid [0-9]+\) may read;" \
		"and says which file"
	# files whose own mode lets anyone read them, in a directory only root enters
	mkdir -m 0700 "$TEST_TMP/rootcerts"
	install -m 0644 "$C/client.pem" "$C/client.key" "$C/ca.pem" "$TEST_TMP/rootcerts/"
	# (lttctl create checks them as the user first; load leaves them to the daemon)
	sed -e "s|$C/|$TEST_TMP/rootcerts/|g" "$saved" \
		>"$TEST_TMP/rc.ltt"
	chmod 644 "$TEST_TMP/rc.ltt"
	run g_ctl load -i "$TEST_TMP/rc.ltt" --override-name rc tls
	like "$RC:$ERR" "^1:Error: .*session 'rc'" \
		"files of mode 0644 in a directory of mode 0700 the user can't enter: refused"
	is "$(g_ctl list 2>/dev/null | grep -c 'rc ')" 0 "... no session rc"
	like "$(cat "$TEST_TMP/rootd.log")" "TLS file $TEST_TMP/rootcerts/client.pem: not a regular file that uid [0-9]+" \
		"and says which file"
	# a file the user may read whose size, checked, is 0 and that reads
	# on (the environment of one of nobody's processes, 100 KB, then a
	# PEM block's first line; a file grown after the check reads the same
	# way): ltt-priv reads no further than the size it checked and
	# refuses it, free for the next request (it read on, to the end of
	# whatever it had grown to, hours for the sparse TiB of the issue,
	# took the file, and the daemon found it empty)
	exec {nbfd}< <(exec setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env "PAD=$(printf '%0100000d' 0)" "PEM=-----BEGIN CERTIFICATE-----" \
		sh -c 'echo $$; exec sleep 60')
	read -r -t "$TEST_TIMEOUT" nb_sleep <&"$nbfd"
	pm=/proc/$nb_sleep/environ
	sed -e "s|$C/client.pem|$pm|g" "$saved" >"$TEST_TMP/pm.ltt"
	chmod 644 "$TEST_TMP/pm.ltt"
	t0=$SECONDS
	run g_ctl load -i "$TEST_TMP/pm.ltt" --override-name pm tls
	like "$RC:$ERR" "^1:Error: .*session 'pm'" \
		"a TLS file of size 0 whose PEM text comes after 100 KB (nobody's $pm): refused"
	ok "$((SECONDS - t0 < 10 ? 0 : 1))" "... at once ($((SECONDS - t0)) s)"
	like "$(cat "$TEST_TMP/rootd.log")" "TLS file $pm: not a regular file that uid [0-9]+ .*PEM files of at most 1 MiB \(Exec format error\)" \
		"by ltt-priv, which opened it with the user's rights and read none of it past its size 0; the log says which file"
	kill "$nb_sleep"
	exec {nbfd}<&-
	# a TLS file on a file system that never answers (stuckfs, a FUSE
	# mount told to stop answering: SIGUSR1): ltt-priv opens it in a
	# child of its own, kills it after 2 s and refuses the file, free
	# for the next request (it opened it in its one loop, which waited
	# for good, and every daemon request that needs root with it)
	mkdir -p "$TEST_TMP/fsback" "$TEST_TMP/fsmnt"
	install -m 0644 "$C/client.pem" "$TEST_TMP/fsback/client.pem"
	"$LTT_TOP_BUILDDIR/tests/regression/stuckfs" "$TEST_TMP/fsback" "$TEST_TMP/fsmnt" \
		"$TEST_TMP/fs.state" 2>"$TEST_TMP/stuckfs.err" &
	fs_pid=$!
	TAP_PIDS="$TAP_PIDS $fs_pid"
	# fs_wait STATE: stuckfs said STATE (bounded; it exits 77 without FUSE)
	fs_wait() {
		timeout "$TEST_TIMEOUT" bash -c \
			'until [ "$(cat "$1" 2>/dev/null)" = "$2" ]; do kill -0 "$0" 2>/dev/null || exit 3; done' \
			"$fs_pid" "$TEST_TMP/fs.state" "$1"
	}
	if ! fs_wait running; then
		skip 3 "no FUSE mount here ($(cat "$TEST_TMP/stuckfs.err"))"
	else
		kill -USR1 "$fs_pid" && fs_wait stuck
		sed -e "s|$C/client.pem|$TEST_TMP/fsmnt/client.pem|g" "$saved" >"$TEST_TMP/fs.ltt"
		chmod 644 "$TEST_TMP/fs.ltt"
		t0=$SECONDS
		run g_ctl load -i "$TEST_TMP/fs.ltt" --override-name fs tls
		like "$RC:$ERR" "^1:Error: .*session 'fs'" \
			"a TLS file on a FUSE mount that stopped answering: refused"
		ok "$((SECONDS - t0 < 10 ? 0 : 1))" "... within 10 s ($((SECONDS - t0)) s: ltt-priv waits 2 s)"
		like "$(cat "$TEST_TMP/rootd.log")" "$TEST_TMP/fsmnt/client.pem: its file system did not answer within 2000 ms: refused" \
			"ltt-priv says which file it gave up on"
	fi
	kill -TERM "$fs_pid" 2>/dev/null && wait "$fs_pid" 2>/dev/null
	umount -l "$TEST_TMP/fsmnt" 2>/dev/null
	run g_ctl list
	like "$RC:$STDOUT" "^0:" "the next client's request is answered"
	chmod 0644 "$TEST_TMP/nbcerts/"*
	run g_ctl create g "${N3[@]}"
	is "$RC:$(head -n 1 <<<"$STDOUT")" "0:Session g created." "once their mode lets the user read them: created"
	# the key made root's alone after create: start fails where the key is
	# used, in the owner's consumer, which reads it with the owner's rights
	# (the daemon, dropped to nobody, checked the texts read at create)
	chmod 0600 "$TEST_TMP/nbcerts/client.key"
	g_ctl -q enable-event -u 'ltt_test:seq' -s g
	run g_ctl start g
	like "$RC:$ERR" "^1:Error: " "the key made unreadable to the owner after create: start fails"
	like "$(cat "$TEST_TMP/rootd.log")" "relay session g .*TLS key '$TEST_TMP/nbcerts/client.key' can't be used: .*Permission denied" \
		"... the owner's consumer could not read it, and says which file"
	g_ctl destroy g >/dev/null
	stop_sessiond "$R3"
	ok $? "the root daemon stops"
fi

# --- -C/-D spelled tls://
ok_cmd "-C/-D as tls://HOST:PORT" record cd -C "tls://127.0.0.1:$CPORT/cd" -D "tls://127.0.0.1:$DPORT" "${TLS[@]}"
run lttctl list cd
like "$STDOUT" "Session cd \(tls://127.0.0.1:$CPORT:$DPORT/cd\)" "the session's URL is tls://"
lttctl -q destroy cd
bt "$RELAY_OUT/$host/cd" "$TEST_TMP/cd.txt"
is "$(count_events "$TEST_TMP/cd.txt" ltt_test:seq)" "$N" "-C/-D over TLS: $N events"
kill "$(cat "$TEST_TMP/relayd-plain.pid")"

# --- live over TLS: babeltrace2 through lttctl view --live's bridge
run query_sessions
is "$RC" 1 "babeltrace2 straight to the TLS live port: fails"
wait_for "$RELAYD_LOG" "live: viewer [0-9]+: TLS handshake failed"
ok $? "the relay refused it in the handshake"
run lttctl view --live "net://127.0.0.1:$LPORT"
like "$RC:$ERR" "^2:Error: view --live 'net://127.0.0.1:$LPORT': give the relay's live port as tls://HOST" \
	"view --live wants a tls:// URL"
run lttctl view --live "tls://127.0.0.1:$LPORT" --tls-cert "$C/client.pem"
like "$RC:$ERR" "^2:Error: view --live tls://...: give all three of --tls-cert, --tls-key and --tls-ca" \
	"and the three TLS files"
exec {BR}< <(exec "$LTTCTL_BIN" view --live "tls://127.0.0.1:$LPORT" "${TLS[@]}" 2>"$TEST_TMP/bridge.err")
TAP_PIDS="$TAP_PIDS $!"
read -r -t "$TEST_TIMEOUT" line <&"$BR"
BPORT=$(sed -n 's|^Live bridge: net://127.0.0.1:\([0-9]*\) forwards to 127.0.0.1:'"$LPORT"' in TLS 1.3$|\1|p' <<<"$line")
ok "$([ -n "$BPORT" ]; echo $?)" "the bridge listens and says where ($line)"
ok_cmd "a live session over TLS" lttctl -q create lv --live=100000 -U "tls://127.0.0.1:$CPORT:$DPORT" "${TLS[@]}"
lttctl -q enable-event -u 'ltt_test:seq' -s lv && lttctl -q start lv && ust_app -n "$N" -r live >/dev/null
ok $? "the program ran in it"
like "$(LPORT=$BPORT query_sessions)" "url: net://127.0.0.1:$BPORT/host/$host/lv" \
	"babeltrace2 query through the bridge lists the live session"
LURL="net://127.0.0.1:$BPORT/host/$host/lv"
timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$LURL" >"$TEST_TMP/v" 2>"$TEST_TMP/v.err" &
viewer=$!
wait_for "$TEST_TMP/v" 'role = "live"' "$N"
ok $? "babeltrace2 reads the live session through the bridge"
ok_cmd "destroy the live session" lttctl destroy lv
wait "$viewer"
is $? 0 "babeltrace2 ends cleanly with the session"
is "$(grep -c ' ltt_test:seq: .*role = "live"' "$TEST_TMP/v")" "$N" "it printed the $N events, each once"
like "$(cat "$RELAYD_LOG")" "live: viewer [0-9]+: TLS 1.3, client /CN=ltt-client" \
	"the relay saw the bridge's certificate"
done_testing
