#!/bin/bash
# test_ust_member_reach.sh - whose programs a session records on the root
# daemon (issue 77): root's sessions every user's; a member of the
# tracing group's sessions its own user's alone, unless the daemon runs
# with --member-reach=all (LTTng's reach: the tracing group records
# everyone's).  Three programs, root's and two members' (A, B), each
# 100 events, while root's session and each member's record: before,
# A's session held root's and B's events, in directories A owns.  A
# member's list -u shows the programs its sessions may record, and its
# track -u --vuid of another user is refused, naming the setting.  A bad
# --member-reach is refused with what to give.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup to act as a user"
plan 15
N=100
A=4141 B=4142

# as UID CMD...: CMD run by UID (of the group nogroup), at home in
# $TEST_TMP/homeUID, with this test's daemon
as() {
	local u=$1
	shift
	timeout "$TEST_TIMEOUT" setpriv --reuid="$u" --regid=nogroup --clear-groups \
		env HOME="$TEST_TMP/home$u" LTT_HOME="$TEST_TMP/home$u" LTT_RUNDIR="$LTT_RUNDIR" "$@"
}
for u in $A $B; do
	mkdir -p "$TEST_TMP/home$u" && chown "$u:nogroup" "$TEST_TMP/home$u"
done

# record REACH: root's session r and A's and B's sessions record while
# root's, A's and B's programs each emit N events (role root, a, b),
# waiting (-e) until their rules are there; then stopped and destroyed
record() {
	lttctl -q create r -o "$TEST_TMP/$1/r" && lttctl -q enable-event -u ltt_test:seq -s r &&
		lttctl -q start r || return 1
	for u in $A $B; do
		as "$u" "$LTTCTL_BIN" -q create "m$u" -o "$TEST_TMP/home$u/$1" &&
			as "$u" "$LTTCTL_BIN" -q enable-event -u ltt_test:seq -s "m$u" &&
			as "$u" "$LTTCTL_BIN" -q start "m$u" || return 1
	done
	ust_app -n $N -e 5 -r root >/dev/null &&
		as $A "$UST_APP" -n $N -e 5 -r a >/dev/null &&
		as $B "$UST_APP" -n $N -e 5 -r b >/dev/null || return 1
	lttctl -q stop r && lttctl -q destroy r || return 1
	for u in $A $B; do
		as "$u" "$LTTCTL_BIN" -q stop "m$u" && as "$u" "$LTTCTL_BIN" -q destroy "m$u" || return 1
	done
}
# roles DIR: "ROLE:COUNT ..." of the ltt_test:seq events under DIR, and
# the uid directories of its trace
roles() {
	bt "$1" "$TEST_TMP/bt.out"
	echo "$(sed -n 's/.* ltt_test:seq: .*role = "\([a-z]*\)".*/\1/p' "$TEST_TMP/bt.out" |
		sort | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }')" \
		"uids: $(ls "$1/ust/uid" 2>/dev/null | tr '\n' ' ')"
}

SESSIOND_LOG="$TEST_TMP/sessiond.log"
run "$SESSIOND" --member-reach=some --rundir "$LTT_RUNDIR"
is "$RC:$ERR" "1:ltt-sessiond: Error: --member-reach=some: give own (a member's sessions record its own programs) or all (every user's)" \
	"--member-reach=some: refused, saying what to give"

# --- the default: own
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --group nogroup \
	--no-kernel </dev/null >/dev/null 2>"$SESSIOND_LOG" ||
	{ echo "Bail out! the root daemon did not start"; exit 1; }
record own
ok $? "root's, A's and B's sessions record while their three programs run"
is "$(roles "$TEST_TMP/own/r")" "a:$N b:$N root:$N uids: 0 $A $B " \
	"root's session: every user's program"
is "$(roles "$TEST_TMP/home$A/own")" "a:$N uids: $A " "A's session: A's program alone"
is "$(roles "$TEST_TMP/home$B/own")" "b:$N uids: $B " "B's session: B's program alone"
is "$(find "$TEST_TMP/home$A/own" ! -user $A | wc -l)" 0 "  A's output: A's files alone"

# list -u: the programs one's sessions may record; root's program, then
# A's, each registered ("ready PID") and held (-k) until killed
mkfifo -m 666 "$TEST_TMP/ready"
exec {ready}<>"$TEST_TMP/ready"
ust_app_bg -n 1 -r root -w "$TEST_TMP/ready" -k /dev/null
read -r -t "$TEST_TIMEOUT" -u "$ready" _ rpid
as $A "$UST_APP" -n 1 -r a -w "$TEST_TMP/ready" -k /dev/null &
read -r -t "$TEST_TIMEOUT" -u "$ready" _ apid
run as $A "$LTTCTL_BIN" list -u
is "$RC:$(grep -c "^PID: $apid " <<<"$STDOUT"):$(grep -c "^PID: $rpid " <<<"$STDOUT")" "0:1:0" \
	"A's list -u: A's program, not root's"
run lttctl list -u
is "$RC:$(grep -c "^PID: $apid " <<<"$STDOUT"):$(grep -c "^PID: $rpid " <<<"$STDOUT")" "0:1:1" \
	"root's list -u: both"
kill "$rpid" "$apid"
wait
exec {ready}>&-

# tracking another user's id: refused, naming the setting; one's own taken
as $A "$LTTCTL_BIN" -q create t --no-output
run as $A "$LTTCTL_BIN" track -u --vuid $B -s t
like "$RC:$ERR" "^1:.*record its own user's programs only.*--member-reach=all" \
	"A's track -u --vuid B: refused, naming --member-reach=all"
run as $A "$LTTCTL_BIN" track -u --vuid $A -s t
is "$RC" 0 "A's track -u --vuid A: taken"
as $A "$LTTCTL_BIN" -q destroy t

term_sessiond

# --- --member-reach=all: LTTng's reach
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --group nogroup \
	--no-kernel --member-reach=all </dev/null >/dev/null 2>"$SESSIOND_LOG" ||
	{ echo "Bail out! the root daemon did not start"; exit 1; }
record all
ok $? "--member-reach=all: the same three sessions and programs"
as $A "$LTTCTL_BIN" -q create t --no-output
run as $A "$LTTCTL_BIN" track -u --vuid $B -s t
is "$RC" 0 "  A's track -u --vuid B: taken"
as $A "$LTTCTL_BIN" -q destroy t
is "$(roles "$TEST_TMP/all/r")" "a:$N b:$N root:$N uids: 0 $A $B " \
	"root's session: every user's program"
is "$(roles "$TEST_TMP/home$A/all")" "a:$N b:$N root:$N uids: 0 $A $B " \
	"A's session: every user's program, as LTTng's tracing group records"
is "$(roles "$TEST_TMP/home$B/all")" "a:$N b:$N root:$N uids: 0 $A $B " \
	"B's session: the same"
term_sessiond
done_testing
