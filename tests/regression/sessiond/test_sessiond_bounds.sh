#!/bin/bash
# test_sessiond_bounds.sh - no local user denies the session daemon to the others:
# stalled registrations by another user leave clients and programs served;
# per-user connection caps refuse one user and not another; a connection
# announcing a huge message is dropped without the daemon's memory growing;
# a program's event descriptions are bounded; a flood of bad messages makes
# a bounded number of log lines and a count of what was suppressed.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

PEER="$LTT_TOP_BUILDDIR/tests/regression/peer_hold"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
can_switch_user || skip_all "needs root, setpriv and a nobody user"
[ -x "$PEER" ] || { echo "Bail out! $PEER not built"; exit 1; }
need_proto_client
plan 59

# --- the bounds' options: bad values are refused clearly, nothing starts
run "$SESSIOND" --rundir "$TEST_TMP/bad" --max-apps-per-uid=0
is "$RC" 1 "--max-apps-per-uid=0: exit 1"
is "$ERR" "ltt-sessiond: Error: --max-apps-per-uid=0: give a number from 1 to 4096" \
	"--max-apps-per-uid=0: says what it takes"
run env LTT_SESSIOND_APP_METADATA_MAX=lots "$SESSIOND" --rundir "$TEST_TMP/bad"
is "$ERR" "ltt-sessiond: Error: LTT_SESSIOND_APP_METADATA_MAX=lots: give a size (e.g. 4M) from 4096 to 1073741824" \
	"a bad LTT_SESSIOND_APP_METADATA_MAX: says what it takes"
run "$SESSIOND" --rundir "$TEST_TMP/bad" --log-ratelimit=10
is "$ERR" "ltt-sessiond: Error: --log-ratelimit=10: give LINES/SECONDS (e.g. 10/5: at most 10 similar lines per 5 s), or 0 for no limit" \
	"--log-ratelimit=10: says what it takes"
ok "$([ ! -e "$TEST_TMP/bad" ]; echo $?)" "and none of them made a run directory"

LOG="$TEST_TMP/sessiond.log"
app_sock="$LTT_RUNDIR/app.sock"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" \
	--log-ratelimit=10/1 </dev/null >/dev/null 2>"$LOG" ||
	{ echo "Bail out! the session daemon did not start"; exit 1; }
pid=$(sessiond_pid)

# peer_bg VAR USER ARGS...: peer_hold as USER (root, nobody, daemon) in the
# background; its output is read with peer_read VAR, its stdin closed
# (it exits) with peer_end VAR.
PEER_N=0
PEER_FDS=""
peer_bg() {
	local var=$1 user=$2 d="$TEST_TMP/peer.$((++PEER_N))"
	shift 2
	mkdir "$d" && mkfifo "$d/in" "$d/out" || return 1
	(
		# not the other peers' stdin: they must see it close
		for f in $PEER_FDS; do
			exec {f}>&-
		done
		if [ "$user" != root ]; then
			exec setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups \
				"$PEER" "$@"
		fi
		exec "$PEER" "$@"
	) <"$d/in" >"$d/out" &
	local p=$! in out
	exec {in}>"$d/in" {out}<"$d/out"
	PEER_FDS="$PEER_FDS $in $out"
	printf -v "${var}_PID" %s "$p"
	printf -v "${var}_IN" %s "$in"
	printf -v "${var}_OUT" %s "$out"
}
peer_read() {
	local fd="${1}_OUT"
	LINE=""
	read -t "$TEST_TIMEOUT" -r -u "${!fd}" LINE
}
peer_end() {
	local in="${1}_IN" out="${1}_OUT" p="${1}_PID"
	local fi=${!in} fo=${!out}
	exec {fi}>&- {fo}<&-
	wait "${!p}"
}
vmrss() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status"
}

# --- stalled registrations by another user (not in any tracing group)
chmod 755 "$LTT_RUNDIR"
peer_bg P2 nobody "$app_sock" register 300
peer_read P2
is "$LINE" "HELD opened=300 registered=300 closed=0" \
	"nobody: 300 programs that say REGISTER and then nothing"
peer_bg P1 nobody "$app_sock" partial 300
peer_read P1
like "$LINE" "^HELD opened=[0-9]+ registered=0 " \
	"nobody: 300 connections that stop in the middle of a REGISTER"
lttctl -q create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq
lttctl -q start
run timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" list
like "$OUT" "^  1\\) s \\(.*\\) \\[active\\]" "meanwhile root's lttctl list answers"
ust_app -n 500 -r normal
is "$?" 0 "meanwhile a program runs"
lttctl -q stop
bt "$TEST_TMP/s" "$TEST_TMP/s.txt"
is "$(count_events "$TEST_TMP/s.txt" ltt_test:seq)" 500 "and is traced with all its 500 events"
peer_read P1
is "$LINE" "ALL-CLOSED" "the stalled REGISTERs are all dropped (refused, or past their deadline)"
peer_read P2
is "$LINE" "ALL-CLOSED" "the REGISTERs without event descriptions are all dropped after their deadline"
peer_end P1
peer_end P2
like "$(grep -c 'uid 65534 has 16 connections waiting to register' "$LOG")" "^[1-9][0-9]?$" \
	"refusals beyond 16 unregistered connections of a user are logged, rate-limited"
grep -q 'no event descriptions in time: dropped' "$LOG"
ok $? "the deadline after REGISTER is logged"
lttctl -q destroy s

# --- a program that never reads what the daemon sends is dropped; the
# others are served meanwhile.  (Its 5000 event classes' metadata goes to
# the consumer in one message: one round trip each made start take minutes
# under the sanitizers.)
lttctl -q create d -o "$TEST_TMP/d"
lttctl -q enable-event -u 'peer_hold:*'
lttctl -q enable-event -u ltt_test:seq
peer_bg D nobody "$app_sock" deaf 1 5000
peer_read D
is "$LINE" "HELD opened=1 registered=1 closed=0" \
	"a program with 5000 events registers, then stops reading"
# (the daemon's deadline for the deaf program is what is tested, not
# lttctl's: that one is stretched where the tests' waits are)
"$LTTCTL_BIN" --timeout $((60 * ${LTT_TEST_TIME_SCALE:-1})) start >"$TEST_TMP/start.out" 2>&1 &
start_pid=$!
# Once start has sent its commands, while it waits for that program:
timeout "$TEST_TIMEOUT" bash -c 'until "$0" list | grep -q "^  1) d (.*) \[active\]"; do :; done' \
	"$LTTCTL_BIN"
ok $? "another client sees the session active while start waits"
# (it waits for its registration as long as the test's waits: the
# daemon serving it while the deaf program is pending is what is tested,
# not how fast this machine is; its default wait is 3 s)
LTT_UST_REGISTER_TIMEOUT=$((TEST_TIMEOUT * 1000)) ust_app -n 300 -r normal
is "$?" 0 "meanwhile a program registers and runs"
wait "$start_pid"
like "$(cat "$TEST_TMP/start.out")" "Tracing started for session d" "start gives up waiting for it"
peer_read D
is "$LINE" "ALL-CLOSED" "and it is dropped: it did not take or answer its commands"
lttctl -q stop
bt "$TEST_TMP/d" "$TEST_TMP/d.txt"
is "$(count_events "$TEST_TMP/d.txt" ltt_test:seq)" 300 "the other program is traced with all its events"
peer_end D
lttctl -q destroy d

# --- another user's programs of 30,000 events each register while a
# session records every event: their classes and records are found by a
# name index (src/common/base/name-index.h), so the work of each is O(n)
# (lists searched per name held the daemon 7 s a program, and root's
# programs, waiting their 3 s, ran untraced and lost every event)
lttctl -q create many -o "$TEST_TMP/many"
lttctl -q enable-event -u -a
lttctl -q start
peer_bg M nobody "$app_sock" deaf 2 30000
for i in 1 2 3 4 5; do
	LTT_UST_REGISTER_TIMEOUT=$((3000 * ${LTT_TEST_TIME_SCALE:-1})) ust_app -n 200 -r normal
done
peer_read M
is "$LINE" "HELD opened=2 registered=2 closed=0" "nobody: 2 programs of 30,000 events each register"
lttctl -q stop
bt "$TEST_TMP/many" "$TEST_TMP/many.txt"
is "$(count_events "$TEST_TMP/many.txt" ltt_test:seq)" 1000 \
	"meanwhile 5 programs of root's, each waiting its 3 s to register, are traced with all their 1000 events"
peer_end M
lttctl -q destroy many

# --- another user's programs announcing new names one after another: a
# per-UID trace's channel holds at most 65,536 event classes (as many as
# one program may announce), so its metadata stops growing; the refusal
# is logged, and root's programs are traced as before
lttctl -q create flood -o "$TEST_TMP/flood"
lttctl -q enable-event -u -a
lttctl -q start
PEER_HOLD_FIRST=0 peer_bg F1 nobody "$app_sock" idle 1 40000
peer_read F1
PEER_HOLD_FIRST=40000 peer_bg F2 nobody "$app_sock" idle 1 40000
peer_read F2
is "$LINE" "HELD opened=1 registered=1 closed=0" "nobody: a second program of 40,000 other events registers"
ust_app -n 200 -r normal
run lttctl stop
like "$OUT" "channel 'channel0' of session 'flood' refused 14464 event descriptions" \
	"stop says what the channel refused: 80,000 - 65,536 descriptions"
like "$(lttctl list flood)" "event descriptions refused: 14464 " "list shows the count under the channel"
lttctl --mi xml list flood >"$TEST_TMP/flood.xml"
is "$(mi_xp '//domain[type="UST"]/channels/channel/name' "$TEST_TMP/flood.xml")" channel0 \
	"--mi xml lists the channel (the count is in the text: LTTng's schema has no place for it)"
is "$(mi_valid "$TEST_TMP/flood.xml")" "$TEST_TMP/flood.xml validates" "which LTTng's schema validates"
meta=$(find "$TEST_TMP/flood" -path '*/uid/65534/*' -name metadata | head -1)
is "$(timeout "$BT_TIMEOUT" babeltrace2 --output-format=ctf-metadata "$(dirname "$meta")" |
	grep -c '^event {')" $((65536 + 3)) \
	"nobody's trace describes 65,536 classes (and the 3 torn events'), not 80,000"
grep -q "holds 65536 event classes in a channel, at most: event peer_hold:ev65536 of peer_hold (pid [0-9]*, uid 65534) and later new names are not recorded there" "$LOG"
ok $? "the refusal is logged, naming the first name refused and its program"
# root's trace alone: babeltrace2 takes minutes over nobody's 65,536
# classes on a loaded machine, past BT_TIMEOUT (then it printed nothing)
bt "$TEST_TMP/flood/ust/uid/$(id -u)" "$TEST_TMP/flood.txt"
is "$(count_events "$TEST_TMP/flood.txt" ltt_test:seq)" 200 "root's program is traced with all its 200 events"
peer_end F1
peer_end F2
lttctl -q destroy flood

# --- unregistered connections announcing a huge message
before=$(vmrss)
peer_bg H root "$app_sock" huge 200 16777200
peer_read H
like "$LINE" "^HELD opened=200 " "200 connections announce 16 MiB REGISTERs and send up to 1 MiB each"
peer_read H
is "$LINE" "ALL-CLOSED" "all are dropped"
after=$(vmrss)
peer_end H
diag "VmRSS before $before kB, after $after kB"
ok "$([ $((after - before)) -lt 8192 ] && echo 0 || echo 1)" \
	"the daemon's RSS grew by less than 8 MiB ($((after - before)) kB)"
grep -q 'sent a REGISTER message of 16777200 bytes (at most 4096 here): dropped' "$LOG"
ok $? "the reason is logged"

# --- a client whose request stops in the middle is dropped after its deadline
run "$PROTO_CLIENT" "$LTT_RUNDIR/client.sock" "hello" "split 20 CREATE_SESSION str:x u32:1 str:/x u8:0 u32:0" "expect-eof"
like "$OUT" "EOF\$" "a client that sent part of a request after HELLO is disconnected"
grep -q 'a request did not arrive whole in time: disconnected' "$LOG"
ok $? "and the reason is logged"

# --- per-user caps: programs, then clients, of a daemon run with low ones
term_sessiond
LOG2="$TEST_TMP/sessiond2.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" \
	--max-apps-per-uid=8 --app-metadata-max=64K --app-max-events=50 \
	</dev/null >/dev/null 2>"$LOG2" ||
	{ echo "Bail out! the session daemon did not start"; exit 1; }
chmod 755 "$LTT_RUNDIR"
peer_bg C1 nobody "$app_sock" idle 12
peer_read C1
is "$LINE" "HELD opened=12 registered=8 closed=4" \
	"--max-apps-per-uid=8: nobody's 9th to 12th programs are refused"
peer_bg C2 root "$app_sock" idle 3
peer_read C2
is "$LINE" "HELD opened=3 registered=3 closed=0" "while root's programs still register"
if getent passwd daemon >/dev/null; then
	peer_bg C3 daemon "$app_sock" idle 1
	peer_read C3
	is "$LINE" "HELD opened=1 registered=1 closed=0" "and another user's (daemon's) too"
else
	skip 1 "no 'daemon' user to be another user"
fi
grep -q 'uid 65534 has 8 program connections (at most 8, ltt-sessiond --max-apps-per-uid): pid [0-9]* refused' "$LOG2"
ok $? "the refusal is logged with the limit and its option"
peer_end C2
peer_end C1
[ -n "${C3_PID:-}" ] && peer_end C3

# event descriptions: at most 64 KiB and 50 events per program
peer_bg M1 root "$app_sock" idle 1 40
peer_read M1
is "$LINE" "HELD opened=1 registered=1 closed=0" "a program with 40 events registers"
run lttctl list -u
is "$(grep -c '^    peer_hold:ev' <<<"$STDOUT")" 40 "its 40 events are listed"
peer_end M1
peer_bg M2 root "$app_sock" idle 1 100
peer_read M2
is "$LINE" "HELD opened=1 registered=1 closed=0" "a program with 100 events registers"
run lttctl list -u
is "$(grep -c '^    peer_hold:ev' <<<"$STDOUT")" 50 "--app-max-events=50: 50 of its events are kept"
peer_end M2
grep -q 'announces more than 50 events: 50 are ignored' "$LOG2"
ok $? "and the reason is logged"
# (a session that would trace it: the refusal is counted there, list
# shows it and stop says it; before, only the daemon's log did)
lttctl -q create ref -o "$TEST_TMP/ref" && lttctl -q enable-event -u 'peer_hold:*' -s ref &&
	lttctl -q start ref
peer_bg M3 root "$app_sock" idle 1 3000
peer_read M3
is "$LINE" "HELD opened=1 registered=1 closed=0" \
	"a program describing more than 64 KiB of events still registers"
run lttctl list -u
is "$(grep -c '^    peer_hold:ev' <<<"$STDOUT")" 0 "--app-metadata-max=64K: none of those events is kept"
like "$(lttctl list ref)" "event descriptions refused: 3000 \(programs' events not recorded: .*--app-metadata-max" \
	"list: the session that would trace it counts the 3000 descriptions refused, counted before the program was answered"
run lttctl stop ref
like "$OUT" "channel 'channel0' of session 'ref' refused 3000 event descriptions: .*--app-metadata-max or --max-bytes-per-uid" \
	"stop says so"
lttctl -q destroy ref
peer_end M3
grep -q 'describes more than 65536 bytes of events: [0-9]* more bytes refused' "$LOG2"
ok $? "and the reason is logged"

# --- a flood of bad messages: a bounded number of log lines, and the
# count of the others
run "$PEER" "$app_sock" bad 2000
is "$OUT" "BAD closed=2000" "2000 connections send a bad header and are dropped"
# Each later bad header either prints its line or is counted; once every
# interval that dropped lines was summarized and the last one printed,
# printed + suppressed is exactly what was sent.
sent=2000
header_lines() { grep -c 'sent a malformed message header: dropped' "$LOG2"; }
suppressed() {
	sed -n 's/.*: \([0-9]*\) similar messages suppressed (app-thread\.c:.*/\1/p' "$LOG2" |
		awk '{ s += $1 } END { print s + 0 }'
}
SECONDS=0
while [ $(($(header_lines) + $(suppressed))) -ne $sent ] && [ $SECONDS -lt "$TEST_TIMEOUT" ]; do
	"$PEER" "$app_sock" bad 1 >/dev/null
	sent=$((sent + 1))
done
lines=$(header_lines)
diag "$sent bad headers: $lines lines, $(suppressed) suppressed"
is "$(($(header_lines) + $(suppressed)))" "$sent" "every bad header is printed or counted as suppressed"
ok "$([ "$lines" -le $((10 * (SECONDS + 2))) ] && echo 0 || echo 1)" \
	"at most 10 lines per 5 s were printed ($lines)"
grep -q 'similar messages suppressed (app-thread\.c:[0-9]*, at most 10 per 5000 ms)' "$LOG2"
ok $? "the summary names the place and the limit"
ok "$(proc_alive "$(sessiond_pid)"; echo $?)" "the daemon runs"
term_sessiond

# --- clients: a personal daemon of nobody's, at most 4 connections of its
# owner; root still connects
nhome="$TEST_TMP/nobody-home"
nrun="$TEST_TMP/nobody-run"
nobody_dir "$nhome"
nobody_dir "$nrun"
as_nobody env HOME="$nhome" LTT_HOME="$nhome" "$SESSIOND" --daemonize --rundir "$nrun" \
	--max-clients-per-uid=4 --client-idle-timeout=1
ok $? "a personal daemon of nobody's with --max-clients-per-uid=4"
d="$TEST_TMP/cl"
mkdir "$d" && mkfifo "$d/in" "$d/out"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$PROTO_CLIENT" "$nrun/client.sock" \
	"conns 10" "pause" <"$d/in" >"$d/out" &
cl_pid=$!
exec {cl_in}>"$d/in" {cl_out}<"$d/out"
read -t "$TEST_TIMEOUT" -r -u "$cl_out" LINE
like "$LINE" "^CONNS ok=4 limit=6 " "nobody's 5th to 10th connections are refused with LIMIT"
run env LTT_RUNDIR="$nrun" timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" list
is "$OUT" "No sessions." "while root's lttctl list is served"
exec {cl_in}>&- {cl_out}<&-
wait "$cl_pid"
run env LTT_RUNDIR="$nrun" "$PROTO_CLIENT" "$nrun/client.sock" "hello" "expect-eof"
like "$OUT" "EOF\$" "--client-idle-timeout=1: a client idle after HELLO is disconnected"
term_sessiond "$nrun"
done_testing
