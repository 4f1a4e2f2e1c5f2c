#!/bin/bash
# test_ust_track.sh - process trackers (lttctl track / untrack, doc/trackers.md):
# several programs at once, each told apart by its role (one pid each);
# vpid tracking of 2 of 3 programs; untracking and tracking again while
# the session is active, checked on each program's own sequence numbers
# around the change (rounds released through FIFOs, never sleep); a
# program registering later; --all; vuid and vgid with a program run as
# nobody; the kernel domain and bad input refused, changing nothing.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup

N=200

# roles FILE: "ROLE COUNT" per role of the ltt_test:seq events in FILE, sorted.
roles() {
	grep ' ltt_test:seq: ' "$1" | sed 's/.*role = "\([^"]*\)".*/\1/' | sort | uniq -c |
		awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }'
}

# seqs FILE ROLE: the ranges of seq numbers ROLE recorded, "0-199 400-599",
# each number once (a number twice prints "dup N").
seqs() {
	grep ' ltt_test:seq: ' "$1" | grep "role = \"$2\"" |
		sed 's/.* seq = \([0-9]*\).*/\1/' | sort -n |
		awk 'NR > 1 && $1 == last { printf "dup %d ", $1 }
		     NR == 1 { lo = $1 } NR > 1 && $1 != last + 1 && $1 != last { printf "%d-%d ", lo, last; lo = $1 }
		     { last = $1 } END { if (NR) printf "%d-%d", lo, last }'
}

# start_app VAR ROLE ARGS...: a program in the background, registered; its
# pid in VAR, timeout's (to wait for) in VAR_BG.
start_app() {
	local var=$1 role=$2
	shift 2
	ust_app_bg -w "$TEST_TMP/ready" -r "$role" "$@"
	eval "${var}_BG=$BG_PID"
	wait_ready $ready || { echo "Bail out! program $role did not register"; exit 1; }
	eval "$var=$READY_PIDS"
}

open_fifo ready "$TEST_TMP/ready"
open_fifo done "$TEST_TMP/done"

# --- vpid: 2 of 3 running programs
ok_cmd "create s1" lttctl create s1 -o "$TEST_TMP/s1"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
open_fifo go "$TEST_TMP/go"
start_app PA a -s "$TEST_TMP/go" -n $N
start_app PB b -s "$TEST_TMP/go" -n $N
start_app PC c -s "$TEST_TMP/go" -n $N
run lttctl track -u --vpid "$PA,$PB"
is "$RC" 0 "track --vpid A,B on an inactive session"
is "$STDOUT" "vpid $PA tracked in session s1 (user).
vpid $PB tracked in session s1 (user)." "track says what it tracked"
run lttctl list s1
matches "$STDOUT" $'\nProcess trackers \\(user space\\):\n  process ids \\(vpid\\)   '"$PA, $PB|$PB, $PA"$'\n  user ids \\(vuid\\)      all\n  group ids \\(vgid\\)     all' \
	"list shows the vpid set, the other trackers all"
ok_cmd "start s1" lttctl start
close_fd $go
for bg in $PA_BG $PB_BG $PC_BG; do
	wait "$bg"
	is $? 0 "program (timeout pid $bg) ran and exited"
done
ok_cmd "stop s1" lttctl stop
bt "$TEST_TMP/s1" "$TEST_TMP/out.s1"
is "$(roles "$TEST_TMP/out.s1")" "a $N, b $N" "only the two tracked pids recorded, $N events each"
is "$(seqs "$TEST_TMP/out.s1" a)/$(seqs "$TEST_TMP/out.s1" b)" "0-$((N - 1))/0-$((N - 1))" \
	"each tracked program: every event once"

# --- a program registering later is checked at registration
ust_app -n $N -r late
ok_cmd "start s1 again" lttctl start
ust_app -n $N -r late2
is $? 0 "an untracked program registering while s1 is active"
ok_cmd "track --vpid --all" lttctl track -u --vpid --all
ust_app -n $N -r late3
ok_cmd "stop s1" lttctl stop
bt "$TEST_TMP/s1" "$TEST_TMP/out.s1"
is "$(roles "$TEST_TMP/out.s1")" "a $N, b $N, late3 $N" \
	"a later program is recorded only once the tracker includes every pid"
lttctl destroy s1 >/dev/null

# --- untrack while active, then track again: exact boundaries
ok_cmd "create s2" lttctl create s2 -o "$TEST_TMP/s2"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
open_fifo ctla "$TEST_TMP/ctla"
open_fifo ctlb "$TEST_TMP/ctlb"
start_app PU u -p "$TEST_TMP/ctla" -k "$TEST_TMP/done" -n $N
start_app PV v -p "$TEST_TMP/ctlb" -k "$TEST_TMP/done" -n $N
ok_cmd "track --vpid U,V" lttctl track -u --vpid "$PU,$PV"
ok_cmd "start s2" lttctl start
round() {
	echo go >&$ctla && echo go >&$ctlb && wait_done $done 2
}
round
ok $? "round 1: both programs emitted seq 0-$((N - 1))"
run lttctl untrack -u --vpid "$PU"
is "$RC/$STDOUT" "0/vpid $PU untracked in session s2 (user)." "untrack U while s2 is active"
round
ok $? "round 2: both emitted seq $N-$((2 * N - 1)) after untrack returned"
run lttctl track -u --vpid "$PU"
is "$RC" 0 "track U again while active"
round
ok $? "round 3: both emitted seq $((2 * N))-$((3 * N - 1)) after track returned"
close_fd $ctla
close_fd $ctlb
wait $PU_BG && wait $PV_BG
ok $? "both programs exited"
ok_cmd "stop s2" lttctl stop
bt "$TEST_TMP/s2" "$TEST_TMP/out.s2"
is "$(seqs "$TEST_TMP/out.s2" u)" "0-$((N - 1)) $((2 * N))-$((3 * N - 1))" \
	"U: rounds 1 and 3 recorded whole, nothing of round 2 (untracked)"
is "$(seqs "$TEST_TMP/out.s2" v)" "0-$((3 * N - 1))" "V: all three rounds, every event once"
is "$(discarded "$TEST_TMP/out.s2.err")" 0 "nothing discarded"

# --- untrack --all: none; track --vpid then includes only that pid
ok_cmd "untrack --vpid --all" lttctl untrack -u --vpid --all
run lttctl list s2
like "$STDOUT" "process ids \(vpid\) +none" "list: vpid none"
ok_cmd "start s2" lttctl start
ust_app -n $N -r none1
ok_cmd "stop s2" lttctl stop
bt "$TEST_TMP/s2" "$TEST_TMP/out.s2"
is "$(seqs "$TEST_TMP/out.s2" none1)" "" "untrack --all: a program records nothing"
run lttctl untrack -u --vpid "$PU"
is "$RC" 1 "untrack of a pid from 'none' fails"
like "$ERR" "this tracker includes every process or none" "... saying there is no set"
ok_cmd "track --vpid --all" lttctl track -u --vpid --all
run lttctl untrack -u --vpid 5
is "$RC" 1 "untrack of a pid from 'all' fails too (LTTng's semantics)"

# --- MI: track's result and list's <trackers>
run lttctl --mi xml track -u --vpid 7,3
is "$RC" 0 "track --mi xml"
matches "$(tr -d ' \n' <<<"$STDOUT")" "<process_attr_trackers><vpid_process_attr_tracker><process_attr_values><vpid><type><id>7</id></type><success>true</success></vpid><vpid><type><id>3</id></type><success>true</success></vpid></process_attr_values></vpid_process_attr_tracker></process_attr_trackers>" \
	"its result, as LTTng's: the values given, in their order, each with its success"
run lttctl track -u --vpid 3
is "$RC" 0 "tracking a tracked pid succeeds"
like "$ERR" "Warning: vpid 3 was already tracked in session s2 \(user\)" "... with a warning"
run lttctl untrack -u --vpid 9
like "$RC/$ERR" "0/Warning: vpid 9 was not tracked in session s2 \(user\)" "untracking an absent pid: a warning"

# --- bad input: refused, nothing changed
before=$(lttctl list s2 | grep -A3 'Process trackers')
for args in "--vpid abc" "--vpid 12x" "--vpid -3" "--vpid 1,,2" "--vpid 1,1" "--vpid ''" \
	"--vpid 4294967296" "--vuid no-such-user-xyz" "--vgid no-such-group-xyz" "--vpid" \
	"--vpid 1 --all" "" "--vuid -1" "--uid 1" "--pid 1 --vpid 2" "-p abc" "-k --vpid 1"; do
	eval "run lttctl track -u $args"
	[ "$args" = "-k --vpid 1" ] && run lttctl track -k --vpid 1
	ok "$([ "$RC" != 0 ] && [ -n "$ERR" ]; echo $?)" "track $args: refused ($RC: ${ERR%%$'\n'*})"
done
run lttctl track -u --vpid "$(seq -s, 1 1025)"
like "$RC/$ERR" "1/Error: --vpid: 1025 ids: a tracker holds at most 1024 ids" "1025 ids refused"
# This daemon has no kernel domain (not root, or no module to load here):
# kernel trackers are tested in a guest (tests/kernel/test_kernel_track.sh).
run lttctl track -k --vpid 1
like "$RC/$ERR" "1/Error: .*[Kk]ernel" "the kernel domain: refused with the daemon's reason"
run lttctl track -u --gid 1
like "$RC/$ERR" "1/Error: track -u --gid: the user-space domain has the trackers --vpid, --vuid and --vgid only" \
	"--gid (a kernel tracker) with -u: a clear sentence"
is "$(lttctl list s2 | grep -A3 'Process trackers')" "$before" "the trackers did not change"
# LTTng's tracker tests' spelling: -p/--pid with -u is the vpid tracker
run lttctl track -p 666 -u
is "$RC/$STDOUT" "0/vpid 666 tracked in session s2 (user)." "track -p 666 -u: LTTng's --vpid"
like "$(lttctl list s2 | grep 'process ids (vpid)')" "process ids \(vpid\) +(.*, )?666(, .*)?$" \
	"... 666 is in the vpid set"
run lttctl untrack -u --pid=666
is "$RC/$STDOUT" "0/vpid 666 untracked in session s2 (user)." "untrack -u --pid=666: out of the vpid set"
is "$(lttctl list s2 | grep -A3 'Process trackers')" "$before" "... the trackers are as before"
run lttctl track -u -s nosuch --vpid 1
like "$RC/$ERR" "1/Error: vpid tracker of session 'nosuch': no session by that name" "an unknown session"

# --- vuid / vgid, with a program run as nobody
if can_switch_user; then
	NOBODY_UID=$(id -u nobody)
	chmod 666 "$TEST_TMP/ready" "$TEST_TMP/done"
	ok_cmd "create s3" lttctl create s3 -o "$TEST_TMP/s3"
	ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq -s s3
	run lttctl track -u -s s3 --vuid nobody
	is "$RC/$STDOUT" "0/vuid nobody tracked in session s3 (user)." "track --vuid nobody (a name)"
	run lttctl list s3
	like "$STDOUT" "user ids \(vuid\) +$NOBODY_UID\$" "list: resolved to its uid"
	ok_cmd "start s3" lttctl start s3
	ust_app -n $N -r asroot
	(close_fifos; as_nobody "$UST_APP" -n $N -r asnobody)
	is $? 0 "a program run as nobody"
	ok_cmd "track --vgid root while active (vuid still nobody)" lttctl track -u -s s3 --vgid root
	(close_fifos; as_nobody "$UST_APP" -n $N -r nogroup)
	ust_app -n $N -r rootgroup
	ok_cmd "vuid --all" lttctl track -u -s s3 --vuid --all
	ust_app -n $N -r rootall
	ok_cmd "stop s3" lttctl stop s3
	bt "$TEST_TMP/s3" "$TEST_TMP/out.s3"
	is "$(roles "$TEST_TMP/out.s3")" "asnobody $N, rootall $N" \
		"vuid nobody: only nobody's program; vuid nobody + vgid root: neither; vgid root: root's"
else
	skip 8 "needs root, setpriv, nobody and nogroup"
fi

# --- save and load carry the trackers
ok_cmd "create s4" lttctl create s4 -o "$TEST_TMP/s4"
ok_cmd "track vpid" lttctl track -u -s s4 --vpid 42,17
ok_cmd "untrack vgid --all" lttctl untrack -u -s s4 --vgid --all
ok_cmd "enable" lttctl enable-event -u -s s4 ltt_test:seq
list_before=$(lttctl list s4)
# (in ltt's format, a .ltt file: a directory would get LTTng's, s4.lttng)
mkdir -p "$TEST_TMP/saved"
ok_cmd "save s4" lttctl save s4 -o "$TEST_TMP/saved/s4.ltt"
saved=$(cat "$TEST_TMP/saved/s4.ltt")
like "$saved" "<policy>none</policy>" "the file has the vgid tracker"
matches "$saved" "<type>vpid</type>[[:space:]]*<policy>set</policy>[[:space:]]*<id>17</id>[[:space:]]*<id>42</id>" \
	"and the vpid set"
ok_cmd "destroy s4" lttctl destroy s4
ok_cmd "load s4" lttctl load s4 -i "$TEST_TMP/saved"
is "$(lttctl list s4)" "$list_before" "loaded: list shows the same session, trackers included"
# a tracker that lists ids with 'none' is refused
sed 's|<policy>none</policy>|<policy>none</policy><id>3</id>|' "$TEST_TMP/saved/s4.ltt" >"$TEST_TMP/bad.ltt"
lttctl destroy s4 >/dev/null
run lttctl load -i "$TEST_TMP/bad.ltt"
like "$RC/$ERR" "1/.*bad.ltt:[0-9]+: vgid tracker: 'all' and 'none' list no id" "a bad tracker in a file is refused"
run lttctl list s4
is "$RC" 1 "... and nothing was loaded"

close_fd $ready
close_fd $done
done_testing
