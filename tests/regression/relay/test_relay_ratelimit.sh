#!/bin/bash
# A flood of malformed connections does not flood the relay's log: the
# lines a peer causes go through the rate limit (--log-ratelimit
# LINES/SECONDS, as ltt-sessiond's), what is dropped is counted in a
# "N similar messages suppressed" line, and the relay serves a good
# session afterwards.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

relayd_init
plan 11

# --- the option is checked
run "$RELAYD" --log-ratelimit 10
is "$RC" 1 "--log-ratelimit 10 (no SECONDS): refused"
like "$ERR" "^ltt-relayd: Error: --log-ratelimit=10: give LINES/SECONDS" "and the error says what to give"
run env LTT_RELAYD_LOG_RATELIMIT=5/0 "$RELAYD"
like "$ERR" "^ltt-relayd: Error: LTT_RELAYD_LOG_RATELIMIT=5/0: give LINES/SECONDS" \
	"LTT_RELAYD_LOG_RATELIMIT=5/0 (0 seconds): refused"

burst=10
interval=1
start_relayd -o "$TEST_TMP/relay" --log-ratelimit $burst/$interval
is $? 0 "the relay started (-v, at most $burst similar lines per $interval s)"

# bad: one control connection sending a header that announces a 2 MiB
# request (refused at once), closed without waiting.
hdr=$(ctrl_hdr 5 $((2 << 20)))
esc=
for ((i = 0; i < ${#hdr}; i += 2)); do esc+="\\x${hdr:i:2}"; done
bad() {
	exec {c}<>"/dev/tcp/127.0.0.1/$CPORT" || return 1
	# shellcheck disable=SC2059
	printf "$esc" >&$c
	exec {c}>&-
}
re_line='control connection from 127\.0\.0\.1:[0-9]+: request of 2097152 bytes \(at most 1048576\): closed'
n=2000
sent=0
t0=$(date +%s)
for ((i = 0; i < n; i++)); do
	bad && sent=$((sent + 1))
done
is "$sent" "$n" "$n malformed connections sent"

# Stop on a line that was printed: every line dropped before it then lies
# in an earlier interval, whose count a later line has reported.  So send
# bad connections one at a time (each waiting for the relay to close it)
# until one is printed, bounded.
re_sum='Warning: ([0-9]+) similar messages suppressed \(ctrl\.c:[0-9]+, at most 10 per 1000 ms\)'
deadline=$((SECONDS + TEST_TIMEOUT))
while [ $SECONDS -lt $deadline ]; do
	before=$(grep -Ec "$re_line" "$RELAYD_LOG")
	exec {c}<>"/dev/tcp/127.0.0.1/$CPORT" || break
	# shellcheck disable=SC2059
	printf "$esc" >&$c
	wait_closed $c >/dev/null
	exec {c}>&-
	sent=$((sent + 1))
	[ "$(grep -Ec "$re_line" "$RELAYD_LOG")" -gt "$before" ] && break
done
elapsed=$(($(date +%s) - t0 + 1))
like "$(cat "$RELAYD_LOG")" "$re_sum" "the log says how many similar lines were suppressed"

lines=$(grep -Ec "$re_line" "$RELAYD_LOG")
bound=$((burst * (elapsed / interval + 2)))
ok "$([ "$lines" -le "$bound" ]; echo $?)" \
	"$lines 'request of 2097152 bytes' lines for $sent bad connections in ${elapsed}s (at most $bound)"
all=$(grep -Ec 'connection from 127\.0\.0\.1' "$RELAYD_LOG")
ok "$([ "$all" -le $((3 * bound)) ]; echo $?)" \
	"$all per-connection lines in all (connect, refusal, close: at most $((3 * bound)))"
# Every bad connection is either logged or counted: the last line printed
# opened a new interval, so nothing is left uncounted.
suppressed=$(grep -Eo "$re_sum" "$RELAYD_LOG" | sed -E "s/$re_sum/\\1/" | paste -sd+ | bc)
is "$((lines + suppressed))" "$sent" "logged ($lines) + suppressed ($suppressed) = sent"

relayd_alive
ok $? "the relay still serves a good session"
stop_relayd
ok $? "the relay stops on SIGTERM"
