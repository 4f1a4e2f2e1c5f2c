#!/bin/bash
# test_lttng_compat_216.sh - LTTng 2.16's clients (Debian sid's lttng, in
# a root made by scripts/debian-root.sh) and Debian 12's 2.13 clients
# drive one ltt-sessiond --lttng-compat at once, each answered in its own
# version's layout: the daemon tells them apart by the liblttng-ctl each
# runs (lttng-compat-peer.c), never taking a request for another command
# (2.16's LIST_DOMAINS is 2.13's DESTROY_SESSION, its START_TRACE 2.13's
# LIST_SESSIONS).  Sid's lttng creates sessions (CTF 1.8 and, with -F,
# CTF 2), channels, event rules and contexts, starts, stops, lists and
# destroys; a program's events are in the trace, counted; what ltt lacks
# of 2.16 (per-channel buffers, map channels) is refused with LTTng's
# code and the daemon's sentence.  As root in its own mount namespace
# (/var/run/lttng), the root's /run the test's.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
root_or_skip sid
plan 30
N=300

lttng_client
ROOT_RUN=/run
# sid's lttng, as root: /var/run/lttng, the daemon's
lttng216() { in_root env LTTNG_HOME="$LTTNG_HOME" timeout "$TEST_TIMEOUT" lttng "$@"; }

like "$(lttng216 --version)" "2\\.16\\." "the root's lttng is LTTng 2.16's"
ok_cmd "Debian 12's lttng create s13" lttng create s13 -o "$TEST_TMP/s13"

# --- a 2.16 request is never taken for 2.13's command of its number
run lttng216 list s13
is "$RC" 0 "sid's lttng list s13 (LIST_SESSIONS, LIST_DOMAINS: 2.13's LIST_DOMAINS, DESTROY_SESSION)" ||
	diag "$OUT"
like "$(lttctl list)" "s13" "... and s13 is still there"
like "$(cat "$SESSIOND_LOG")" "LTTng 2\\.16 client pid [0-9]+ uid 0: LIST_DOMAINS \\(9\\) -> 10" \
	"the daemon took 2.16's 9 for LIST_DOMAINS"

# --- a session of sid's lttng, recorded
ok_cmd "sid's lttng create s16" lttng216 create s16 -o "$TEST_TMP/s16"
ok_cmd "sid's lttng enable-channel -u c1 (2.16's channel: its watchdog, its policies)" \
	lttng216 enable-channel -u c1 -s s16 --subbuf-size 64k
ok_cmd "sid's lttng enable-event -u 'ltt_test:*' -c c1 (the event, then its rule)" \
	lttng216 enable-event -u 'ltt_test:*' -c c1 -s s16
ok_cmd "sid's lttng add-context -u -t vpid" lttng216 add-context -u -t vpid -c c1 -s s16
ok_cmd "sid's lttng start s16" lttng216 start s16
ust_app -n "$N" -r r16 >/dev/null
ok $? "a program records $N events"
run lttng216 list s16
like "$OUT" "Trace format: CTF 1\\.8" "sid's lttng list s16: its trace format (ltt's default)" ||
	diag "$OUT"
like "$OUT" "Event record channel \`c1\`" "... its channel c1"
like "$OUT" "4 sub-buffers of 64\\.00 KiB per CPU, per Unix user" "... with its buffers"
like "$OUT" "Event rule \`ltt_test:\\*\`" "... and its event rule"
like "$(lttng list s16)" "ltt_test:\\*" "Debian 12's lttng lists s16 too"
ok_cmd "sid's lttng stop s16" lttng216 stop s16
bt "$TEST_TMP/s16" "$TEST_TMP/bt16"
is "$(grep -c ' ltt_test:seq: .*vpid = ' "$TEST_TMP/bt16")" "$N" \
	"babeltrace2 reads the $N events, each with its vpid"
ok_cmd "sid's lttng destroy s16" lttng216 destroy s16
unlike "$(lttctl list)" "s16" "... and s16 is gone"

# --- CTF 2, as LTTng 2.15 and later write by default
ok_cmd "sid's lttng create s2 -F ctf-2" lttng216 create s2 -F ctf-2 -o "$TEST_TMP/s2"
like "$(lttng216 list s2)" "Trace format: CTF 2" "... listed as CTF 2"
lttng216 enable-event -u 'ltt_test:*' -s s2 >/dev/null && lttng216 start s2 >/dev/null &&
	ust_app -n 10 -r r2 >/dev/null && lttng216 stop s2 >/dev/null
ok $? "10 events recorded in s2"
is "$(head -c 1 "$TEST_TMP/s2/ust/uid/0/64-bit/metadata" | od -An -tx1 | tr -d ' ')" "1e" \
	"its metadata is CTF 2's (a JSON text sequence)"

# --- what ltt lacks of 2.16, refused with LTTng's code
run lttng216 enable-channel -u c2 -s s2 --buffer-allocation=per-channel
ok $((RC == 0)) "sid's lttng enable-channel --buffer-allocation=per-channel: refused" || diag "$OUT"
like "$(cat "$SESSIOND_LOG")" "does not serve buffers per channel" \
	"... the daemon's log says what ltt lacks"
run lttng216 add-map-channel --session=s2 --type=user m1
ok $((RC == 0)) "sid's lttng add-map-channel: refused" || diag "$OUT"
like "$(cat "$SESSIOND_LOG")" "ltt does not serve ADD_MAP_CHANNEL" "... ADD_MAP_CHANNEL named in the log"

# --- 2.13's clients, the same daemon, the same sessions
run lttng list
is "$(grep -cE '^  [0-9]\) (s13|s2) ' <<<"$OUT")" 2 "Debian 12's lttng list: s13 and s2, the 2.16 client's" ||
	diag "$OUT"
ok_cmd "Debian 12's lttng destroy -a" lttng destroy -a
