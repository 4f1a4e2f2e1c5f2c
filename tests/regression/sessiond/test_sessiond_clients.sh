#!/bin/bash
# Clients at once: a client stuck in the middle of a request, a client that
# never reads its replies, many lttctl processes racing on the same
# daemon, and more connections than the daemon serves.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
plan 48

sock="$LTT_RUNDIR/client.sock"
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# bg_client STEP...: proto_client in the background, driven through fifos:
# read its lines with bg_read, let a "pause" step go on with bg_go.
BG_N=0
bg_client() {
	local d="$TEST_TMP/bg.$((++BG_N))"
	mkdir "$d" && mkfifo "$d/in" "$d/out" || return 1
	"$PROTO_CLIENT" "$sock" "$@" <"$d/in" >"$d/out" &
	BG_PID=$!
	exec {BG_IN}>"$d/in" {BG_OUT}<"$d/out"
}
bg_read() {
	LINE=""
	read -t "$TEST_TIMEOUT" -r -u "$BG_OUT" LINE
}
bg_go() {
	echo go >&"$BG_IN"
}
bg_end() {
	exec {BG_IN}>&-
	local rest
	rest=$(timeout "$TEST_TIMEOUT" cat <&"$BG_OUT")
	exec {BG_OUT}<&-
	wait "$BG_PID"
	BG_STATUS=$?
	LINE=$rest
}

lttctl -q create first --no-output

# --- (a) a client stuck in the middle of a request header
bg_client "hello" "split 8 LIST_SESSIONS" "pause" "rest" "reply"
bg_read
like "$LINE" "^HELLO OK " "slow client: HELLO done"
bg_read
is "$LINE" "PAUSED" "slow client: stuck after 8 of the 16 header bytes"
run lttctl create during --no-output
is "$RC" 0 "while it is stuck: lttctl create works"
run lttctl enable-event -u ev -s during
is "$RC" 0 "while it is stuck: lttctl enable-event works"
run lttctl list
is "$OUT" "  1) first (no output) [inactive]
  2) during (no output) [inactive]" "while it is stuck: lttctl list works and shows both sessions"
run lttctl destroy first
is "$OUT" "Session first destroyed." "while it is stuck: lttctl destroy works"
bg_go
bg_read
like "$LINE" "^LIST_SESSIONS OK len=[0-9]+ count=1 sessions=during\$" \
	"slow client: its request, completed later, is answered with the current state"
bg_end
is "$BG_STATUS" 0 "slow client: exits cleanly"

# A client that connects and sends nothing at all, not even HELLO.
bg_client "pause"
bg_read
is "$LINE" "PAUSED" "a silent connection is open"
run lttctl list
is "$OUT" "  1) during (no output) [inactive]" "while it is silent: lttctl list works"
bg_go
bg_end

# --- (a2) a client that floods requests and never reads the replies
bg_client "hello" "flood 1000000 LIST_SESSIONS" "pause"
bg_read
like "$LINE" "^HELLO OK " "flooding client: HELLO done"
bg_read
is "$LINE" "FLOOD full" "flooding client: the daemon stops reading a client that does not read its replies"
bg_read
is "$LINE" "PAUSED" "flooding client: holds its full socket"
run lttctl create during2 --no-output
is "$RC" 0 "while it floods: lttctl create works"
run lttctl list
is "$OUT" "  1) during (no output) [inactive]
  2) during2 (no output) [inactive]" "while it floods: lttctl list works"
bg_go
bg_end
is "$BG_STATUS" 0 "flooding client: exits (the daemon drops it with its replies pending)"
run lttctl list
is "$RC" 0 "after it left: lttctl list works"
pid=$(sessiond_pid)
ok "$(proc_alive "$pid"; echo $?)" "the daemon runs"
lttctl -q destroy -a

# --- (b) lttctl processes racing
W=8
# Each worker creates 12 sessions and destroys the odd ones.
for w in $(seq 1 $W); do
	(
		f=0
		for i in $(seq 1 12); do
			lttctl -q create "w$w-$i" --no-output ||
				{ echo "# w$w: create w$w-$i exited $?" >&2; f=1; }
		done
		for i in $(seq 1 2 12); do
			lttctl -q destroy "w$w-$i" ||
				{ echo "# w$w: destroy w$w-$i exited $?" >&2; f=1; }
		done
		exit $f
	) &
done
fails=0
for w in $(seq 1 $W); do
	wait -n || fails=$((fails + 1))
done
is "$fails" 0 "$W workers creating and destroying sessions at once: all succeeded"
expected=$(for w in $(seq 1 $W); do for i in $(seq 2 2 12); do echo "w$w-$i"; done; done | sort)
got=$(lttctl list | sed -n 's/^ *[0-9]*) \([^ ]*\) .*/\1/p' | sort)
is "$(wc -l <<<"$got")" $((W * 6)) "exactly $((W * 6)) sessions left"
is "$got" "$expected" "exactly the even sessions of every worker are left"
matches "$(cat "$LTT_HOME/.lttrc" 2>/dev/null || echo none)" '^(none|session=w[0-9]+-[0-9]+)$' \
	".lttrc after concurrent updates: absent or one valid session line"
lttctl -q destroy -a

# Rules added to one session by many processes at once.
lttctl -q create shared --no-output
for w in $(seq 1 $W); do
	(
		f=0
		for i in $(seq 1 10); do
			lttctl -q enable-event -u "w$w:ev$i" -s shared ||
				{ echo "# w$w: enable-event w$w:ev$i exited $?" >&2; f=1; }
		done
		exit $f
	) &
done
fails=0
for w in $(seq 1 $W); do
	wait -n || fails=$((fails + 1))
done
is "$fails" 0 "$W workers adding rules to one session at once: all succeeded"
run lttctl list shared
is "$(grep -c '^- ' <<<"$STDOUT")" 1 "one channel: channel0, created once"
is "$(grep -c '(loglevel: any) \[enabled\]' <<<"$STDOUT")" $((W * 10)) "exactly $((W * 10)) rules, all enabled"
is "$(grep -o 'w[0-9]*:ev[0-9]*' <<<"$STDOUT" | sort -u | wc -l)" $((W * 10)) "every rule once"

# The same name created by every worker: exactly one wins.
outdir="$TEST_TMP/race"
mkdir -p "$outdir"
for w in $(seq 1 $W); do
	lttctl create same --no-output >"$outdir/$w.out" 2>"$outdir/$w.err" &
done
wait
is "$(cat "$outdir"/*.out | grep -c '^Session same created\.$')" 1 "same name at once: one create succeeds"
is "$(cat "$outdir"/*.err | grep -c "^Error: session 'same': a session with that name already exists")" $((W - 1)) \
	"same name at once: the others get SESSION_EXISTS"
# Started by every worker: exactly one starts it.
for w in $(seq 1 $W); do
	lttctl start shared >"$outdir/$w.out" 2>"$outdir/$w.err" &
done
wait
is "$(cat "$outdir"/*.out | grep -c '^Tracing started for session shared\.$')" 1 "start at once: one succeeds"
is "$(cat "$outdir"/*.err | grep -c "^Error: session 'shared': the session is already started")" $((W - 1)) \
	"start at once: the others get SESSION_STARTED"
# Destroyed by every worker: exactly one destroys it.
for w in $(seq 1 $W); do
	lttctl destroy shared >"$outdir/$w.out" 2>"$outdir/$w.err" &
done
wait
is "$(cat "$outdir"/*.out | grep -c '^Session shared destroyed\.$')" 1 "destroy at once: one succeeds"
is "$(cat "$outdir"/*.err | grep -c "^Error: session 'shared': no session by that name")" $((W - 1)) \
	"destroy at once: the others get SESSION_NOT_FOUND"
run lttctl list
is "$OUT" "  1) same (no output) [inactive]" "afterwards: only 'same' is left"

# Creating and destroying while another client lists in a loop.
(
	for i in $(seq 1 40); do
		lttctl -q create "churn$i" --no-output && lttctl -q destroy "churn$i" || exit 1
	done
) &
churn=$!
lfail=0
for i in $(seq 1 40); do
	out=$(lttctl list 2>&1) || lfail=$((lfail + 1))
	grep -q '^  1) same ' <<<"$out" || lfail=$((lfail + 1))
done
wait "$churn"
is "$?" 0 "creating and destroying while another client lists: all succeeded"
is "$lfail" 0 "every concurrent list succeeded and showed the stable session first"

# --- (c) more connections than the daemon serves (256)
bg_client "conns 300" "pause" "close-conns" "pause"
bg_read
like "$LINE" "^CONNS ok=256 limit=[0-9]+ perm=0 " "300 connections: 256 served"
like "$LINE" " closed=0 " \
	"300 connections: each of the 44 refused gets a reply saying why, not a silent close"
ok "$(proc_alive "$pid"; echo $?)" "300 connections: the daemon runs"
bg_read
is "$LINE" "PAUSED" "256 connections held open"
run lttctl list
is "$RC" 1 "while 256 are held: lttctl list is refused (exit 1)"
unlike "$ERR" "lost the connection" "while 256 are held: the error is not 'lost the connection' (the daemon runs)"
like "$ERR" "^Error: session daemon \\(run directory $LTT_RUNDIR\\): .+" \
	"while 256 are held: an error naming the daemon"
ok "$([[ "$ERR" != *$'\n'* ]]; echo $?)" "while 256 are held: one line"
like "$ERR" "too many client connections from all users at once \\(256\\): try again" \
	"while 256 are held: the advice is the cap's (try again), not LIMIT's (destroy sessions)"
bg_go
bg_read
is "$LINE" "PAUSED" "the 256 connections are closed"
run lttctl list
is "$OUT" "  1) same (no output) [inactive]" "once they are closed: the daemon serves again, state intact"
bg_go
bg_end
is "$BG_STATUS" 0 "the connection holder exits cleanly"
run "$PROTO_CLIENT" "$sock" "conns 256" "close-conns"
is "$OUT" "CONNS ok=256 limit=0 perm=0 closed=0 other=0" "all 256 slots are free again"

term_sessiond
done_testing
