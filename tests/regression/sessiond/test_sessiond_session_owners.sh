#!/bin/bash
# Session names of the root daemon are per user: two members of the
# tracing group may both have a session "web"; neither sees, nor acts on,
# nor is blocked by the other's; root sees all of them, others' named
# UID/NAME, and names them so (a plain name: root's own session, else the
# only one of that name, else SESSION_AMBIGUOUS).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup to act as two other users"

# Two users without a passwd entry: the daemon admits them by their
# primary group, the tracing group (--group nogroup).
U1=4101
U2=4102
run_dir="$TEST_TMP/grun"
start_sessiond "$run_dir" --group nogroup --no-kernel --max-sessions-per-uid=3 ||
	{ echo "Bail out! the root daemon did not start"; exit 1; }
group_homes "$run_dir" $U1 $U2
# as UID lttctl ARGS...
as() {
	local u=$1
	shift
	as_gid_user "$u" "$LTTCTL_BIN" "$@"
}
rootctl() { lttctl --rundir "$run_dir" "$@"; }
m_nf="no session by that name; 'lttctl list' shows the existing sessions"

# --- a name taken by one user is free for another
run as $U1 create web -o "$TEST_TMP/out1"
is "$RC/$(head -n 1 <<<"$OUT")" "0/Session web created." "user $U1 creates 'web'"
run as $U2 create web -o "$TEST_TMP/out2"
is "$RC/$(head -n 1 <<<"$OUT")" "0/Session web created." "user $U2 creates 'web' too: the name is not squatted"
run as $U2 create web --no-output
is "$RC/$ERR" "1/Error: session 'web': a session with that name already exists; pick another name or destroy it first" \
	"a user's own names stay unique"
run as $U2 create only2 --no-output
is "$RC" 0 "user $U2 creates 'only2'"

# --- each user sees and acts on their own only
run as $U1 list
is "$OUT" "  1) web ($TEST_TMP/out1) [inactive]" "user $U1 lists only their 'web'"
run as $U2 list
is "$OUT" "  1) web ($TEST_TMP/out2) [inactive]
  2) only2 (no output) [inactive]" "user $U2 lists only their own two"
run as $U1 list only2
is "$RC/$ERR" "1/Error: session 'only2': $m_nf" "user $U1: another user's 'only2' is not found (the name does not leak)"
for args in "list $U2/web" "destroy $U2/web" "start $U2/only2" "enable-channel -u c -s $U2/web" \
	"set-session $U2/only2"; do
	# shellcheck disable=SC2086
	run as $U1 $args
	is "$RC/$ERR" "1/Error: session '${args##* }': $m_nf" "user $U1: lttctl $args: not found"
done
run as $U1 create only2 --no-output
is "$RC" 0 "user $U1 may create 'only2' although user $U2 has one"
ok_cmd "user $U1 adds a channel to their 'web'" as $U1 enable-channel -u mine -s web
run as $U2 list web
unlike "$OUT" "mine" "user $U2's 'web' did not get user $U1's channel"
run as $U2 list $U2/web
like "$OUT" "^Session web \\($TEST_TMP/out2\\)" "a user may name their own session UID/NAME"

# --- root sees every session, others' as UID/NAME
run rootctl list
is "$OUT" "  1) $U1/web ($TEST_TMP/out1) [inactive]
  2) $U2/web ($TEST_TMP/out2) [inactive]
  3) $U2/only2 (no output) [inactive]
  4) $U1/only2 (no output) [inactive]" "root lists every session, each named UID/NAME"
run rootctl list web
is "$RC/$ERR" "1/Error: session 'web': several users have a session by that name: name one as UID/NAME ('lttctl list' shows them so)" \
	"root naming 'web' plainly, which two users have: SESSION_AMBIGUOUS"
run rootctl list $U2/web
like "$OUT" "^Session $U2/web \\($TEST_TMP/out2\\)" "root names user $U2's 'web' as $U2/web"
ok_cmd "root adds a channel to $U2/web" rootctl -q enable-channel -u rc -s $U2/web
run as $U2 list web
like "$OUT" "- rc: \\[enabled\\]" "user $U2's 'web' got root's channel"
run as $U1 list web
unlike "$OUT" "- rc:" "user $U1's 'web' did not"
ok_cmd "root creates its own 'web'" rootctl -q create web --no-output
run rootctl list web
like "$OUT" "^Session web \\(no output\\)" "root's plain 'web' is now root's own"
run rootctl destroy $U1/web
is "$RC/$OUT" "0/Session $U1/web destroyed." "root destroys $U1/web"
run as $U2 list
is "$OUT" "  1) web ($TEST_TMP/out2) [inactive]
  2) only2 (no output) [inactive]" "user $U2's sessions are untouched"
run as $U1 destroy -a
is "$OUT" "Session only2 destroyed." "user $U1's destroy -a destroys their own only"
run rootctl destroy -a
is "$OUT" "Session $U2/web destroyed.
Session $U2/only2 destroyed.
Session web destroyed." "root's destroy -a names each session so that it is found"
run rootctl list
is "$OUT" "No sessions." "no session is left"

# --- no user takes every slot: at most 3 sessions each (root is not limited)
m_limit="a resource limit was reached; destroy unused sessions, channels or rules"
for n in c1 c2 c3; do
	run as $U1 create $n --no-output
	is "$RC" 0 "user $U1 creates '$n' (of at most 3)"
done
run as $U1 create c4 --no-output
is "$RC/$ERR" "1/Error: session 'c4': $m_limit" "user $U1's 4th session is refused"
run as $U1 list
is "$(grep -c ') c[0-9]' <<<"$OUT")" 3 "and user $U1 still has their 3"
run as $U2 create d1 --no-output
is "$RC" 0 "user $U2 still creates a session"
for n in r1 r2 r3 r4; do
	rootctl -q create $n --no-output || break
done
run rootctl list r4
is "$RC" 0 "root creates 4 sessions: not limited"
rootctl -q destroy -a
run rootctl list
is "$OUT" "No sessions." "every session destroyed"

term_sessiond "$run_dir"
done_testing
