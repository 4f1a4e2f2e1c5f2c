#!/bin/bash
# The limits of what a user controls (sessions, channels per domain, rules
# per channel, message size): reaching one is a clear LIMIT error that
# changes nothing, and whatever fits within the limits can still be listed
# and destroyed.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
plan 23

m_limit="a resource limit was reached; destroy unused sessions, channels or rules"
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# --- 128 channels per domain
lttctl -q create c --no-output
names=$(printf 'ch%03d,' $(seq 1 128))
run lttctl -q enable-channel -u "${names%,}" -s c
is "$RC" 0 "128 user channels in one session"
run lttctl enable-channel -u ch129 -s c
is "$RC" 1 "the 129th user channel: exit 1"
is "$ERR" "Error: channel 'ch129' of session 'c': $m_limit" "the 129th user channel: LIMIT"
lttctl -q create c2 --no-output
run lttctl enable-channel -u ch129 -s c2
is "$RC" 0 "the limit is per session: another session still takes a channel"
lttctl -q destroy c2
run lttctl list c
is "$(grep -c '^- ch[0-9]*: \[enabled\]' <<<"$STDOUT")" 128 "list shows the 128 user channels"

# --- 1024 rules per channel
pats=$(printf 'e%04d,' $(seq 1 1024))
run lttctl -q enable-event -u "${pats%,}" -s c -c ch001
is "$RC" 0 "1024 rules in one channel"
run lttctl enable-event -u e1025 -s c -c ch001
is "$ERR" "Error: event rule 'e1025' in channel 'ch001' of session 'c': $m_limit" "the 1025th rule: LIMIT"
run lttctl enable-event -u e1025 -s c -c ch002
is "$RC" 0 "the limit is per channel: another channel takes it"
run lttctl list c
is "$(grep -c '^      e[0-9]* (loglevel: any) \[enabled\]' <<<"$STDOUT")" 1025 "list shows the 1025 rules"
lttctl -q destroy c

# --- a session whose description is large, every part within its limits:
# 4 channels with 219-byte names (the most), 1024 rules each with 255-byte patterns:
# the 4096 rules a session may hold.
lttctl -q create big --no-output
chan() { printf "c%0218d" "$1"; }	# 219 bytes (LTT_CHANNEL_NAME_MAX)
fails=0
for c in 1 2 3 4; do
	ch=$(chan $c)
	lttctl -q enable-channel -u "$ch" -s big || fails=$((fails + 1))
	# An argument holds at most 128 KiB: three lists of up to 342 patterns.
	for part in 0 1 2; do
		list=""
		for ((i = part * 342 + 1; i <= (part + 1) * 342 && i <= 1024; i++)); do
			printf -v p "p%d%0253d" "$c" "$i"	# 255 bytes
			list+="$p,"
		done
		lttctl -q enable-event -u "${list%,}" -s big -c "$ch" || fails=$((fails + 1))
	done
done
is "$fails" 0 "4 channels of 1024 rules, names of 219 bytes and patterns of 255"
run lttctl list big
is "$RC" 0 "such a session can be listed"
is "$(grep -c '(loglevel: any) \[enabled\]' <<<"$STDOUT")" 4096 "list big shows its 4096 rules"
run lttctl enable-event -u one.more -s big -c "$(chan 1)"
c1=$(chan 1)
is "$ERR" "Error: event rule 'one.more' in channel '${c1:0:64}...' of session 'big': $m_limit" \
	"a 1025th rule in a full channel: LIMIT (and not another error)"
lttctl -q enable-channel -u fifth -s big
run lttctl enable-event -u one.more -s big -c fifth
is "$ERR" "Error: event rule 'one.more' in channel 'fifth' of session 'big': $m_limit" \
	"a 4097th rule in a session: LIMIT"
run lttctl destroy big
is "$OUT" "Session big destroyed." "such a session can be destroyed"

# --- 1024 sessions, with long names and outputs
long=$(printf 'o%.0s' $(seq 4000))
fill=$(printf 'n%.0s' $(seq 240))
# Created on one connection: 1024 lttctl runs would spend seconds in
# fsync() of .lttrc, which is not what this is about.
run "$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" "hello" \
	"repeat 1024 CREATE_SESSION str:s%d-$fill u32:1 str:/$long/%d u8:0 u32:0"
is "$(tail -n 1 <<<"$OUT")" "REPEAT ok=1024 failed=0" "1024 sessions, 245-byte names, 4006-byte outputs"
run lttctl create one.more --no-output
is "$RC" 1 "the 1025th session: exit 1"
is "$ERR" "Error: session 'one.more': $m_limit" "the 1025th session: LIMIT"
run lttctl list
is "$RC" 0 "1024 sessions can be listed"
is "$(grep -c "^ *[0-9]*) s[0-9]*-$fill (/$long/[0-9]*) \\[inactive\\]\$" <<<"$STDOUT")" 1024 \
	"list shows the 1024 sessions"
run lttctl destroy -a
is "$RC" 0 "1024 sessions can be destroyed with destroy -a"
run lttctl list
is "$OUT" "No sessions." "nothing left"
pid=$(sessiond_pid)
ok "$(proc_alive "$pid"; echo $?)" "the daemon runs"

term_sessiond
done_testing
