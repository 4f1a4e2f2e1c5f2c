#!/bin/bash
# test_ust_owner_groups.sh - the root daemon's consumer for another user
# runs with that user's supplementary groups (the group database's, as a
# login of that user gets them): nobody's session writes into a directory
# that only a supplementary group of nobody's may write, and the files are
# nobody's.  An owner's consumer is kept idle after the owner's last
# session (--consumerd-idle-ms, long here); a new session of a user whose
# groups changed meanwhile gets a new consumer, with the groups of now
# (the idle one exits, its pid goes away), which records.  The consumer's
# exit after its grace: test_ust_consumer_idle.sh.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
can_switch_user && command -v groupadd >/dev/null && command -v gpasswd >/dev/null &&
	command -v groupdel >/dev/null ||
	skip_all "needs root, setpriv, nobody and groupadd/gpasswd/groupdel"
G="ltt-sg$$"
groupadd "$G" 2>/dev/null && gpasswd -a nobody "$G" >/dev/null 2>&1 ||
	{ groupdel "$G" 2>/dev/null; skip_all "can't make a temporary group here"; }
cleanup_group() {
	groupdel "$G" 2>/dev/null
	_cleanup
}
trap cleanup_group EXIT
plan 15

timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --group nogroup \
	--no-kernel --consumerd-idle-ms 3600000 -v </dev/null >/dev/null 2>"$TEST_TMP/sessiond.log" ||
	{ echo "Bail out! the root daemon did not start"; exit 1; }
nhome="$TEST_TMP/nhome"
nobody_dir "$nhome"
out="$TEST_TMP/shared"
mkdir "$out"
chown root:"$G" "$out"
chmod 2770 "$out"
# nobody_ctl ARGS...: lttctl as nobody, whose login groups include $G
# (setpriv clears the client's own: the consumer's come from the database)
nobody_ctl() {
	as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$LTT_RUNDIR" "$LTTCTL_BIN" "$@"
}
# nobody_app ARGS...: one of nobody's programs (a member's session records
# its own user's: ltt-sessiond --member-reach)
nobody_app() {
	as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$LTT_RUNDIR" "$UST_APP" "$@"
}

ok_cmd "nobody creates a session writing into a directory of group $G" \
	nobody_ctl create s -o "$out/s"
nobody_ctl enable-event -u ltt_test:seq >/dev/null
ok_cmd "it starts: the consumer may write there" nobody_ctl start
N=3000
nobody_app -n $N -r grp >/dev/null
ok_cmd "it stops" nobody_ctl stop
bt "$out/s" "$TEST_TMP/s.out"
is "$(grep ' ltt_test:seq: ' "$TEST_TMP/s.out" | grep -c 'role = "grp"')" $N \
	"all $N events are in the trace"
is "$(stat -c %U "$out/s/ust/uid/$(id -u nobody)/64-bit/metadata")" nobody "the files are nobody's"
spid=$(sessiond_pid)
c1=$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)
ok_cmd "nobody destroys its last session" nobody_ctl destroy s
is "$(pgrep -P "$spid" -u nobody -x ltt-consumerd)" "$c1" "nobody's consumer is kept idle (pid $c1)"

# A new session gets a new consumer, with the groups of now: without the
# group, the same directory refuses the start with its reason, and the
# idle consumer, which had the group, is told to exit and reaped.
gpasswd -d nobody "$G" >/dev/null 2>&1
nobody_ctl create t -o "$out/t" >/dev/null
nobody_ctl enable-event -u ltt_test:seq >/dev/null
run nobody_ctl start
is "$RC" 1 "without the group, a new session's start fails"
like "$ERR" "ermission" "and says why"
wait_pid_exit "$c1"
ok $? "the idle consumer (pid $c1), which had the group, exited"
like "$(cat "$TEST_TMP/sessiond.log")" "uid 65534\) consumer daemon's user has other groups now" \
	"the daemon said why"
nobody_ctl destroy t >/dev/null
nobody_ctl create u -o "$nhome/u" >/dev/null
nobody_ctl enable-event -u ltt_test:seq >/dev/null
ok_cmd "a new session in nobody's home starts" nobody_ctl start
c2=$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)
ok "$([ -n "$c2" ] && [ "$c2" != "$c1" ]; echo $?)" "with a new consumer (pid $c2)"
nobody_app -n $N -r again >/dev/null
ok_cmd "it stops" nobody_ctl stop
bt "$nhome/u" "$TEST_TMP/u.out"
is "$(grep ' ltt_test:seq: ' "$TEST_TMP/u.out" | grep -c 'role = "again"')" $N \
	"the new consumer records all $N events"
nobody_ctl destroy u >/dev/null
done_testing
