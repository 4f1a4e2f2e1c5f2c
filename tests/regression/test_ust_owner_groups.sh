#!/bin/bash
# test_ust_owner_groups.sh - the root daemon's consumer for another user
# runs with that user's supplementary groups (the group database's, as a
# login of that user gets them): nobody's session writes into a directory
# that only a supplementary group of nobody's may write, and the files are
# nobody's.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/regression/lib.sh"
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
plan 5

timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --group nogroup \
	--no-kernel </dev/null >/dev/null 2>"$TEST_TMP/sessiond.log" ||
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

ok_cmd "nobody creates a session writing into a directory of group $G" \
	nobody_ctl create s -o "$out/s"
nobody_ctl enable-event -u ltt_test:seq >/dev/null
ok_cmd "it starts: the consumer may write there" nobody_ctl start
N=3000
ust_app -n $N -r grp >/dev/null
ok_cmd "it stops" nobody_ctl stop
bt "$out/s" "$TEST_TMP/s.out"
is "$(grep ' ltt_test:seq: ' "$TEST_TMP/s.out" | grep -c 'role = "grp"')" $N \
	"all $N events are in the trace"
is "$(stat -c %U "$out/s/ust/uid/0/64-bit/metadata")" nobody "the files are nobody's"
nobody_ctl destroy s >/dev/null

done_testing
