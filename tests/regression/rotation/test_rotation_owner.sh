#!/bin/bash
# A root session daemon archives a user's trace chunks with that user's
# rights: a symlink the user plants in the session's output (its
# archives/ pointing at a root-only directory) makes the rotation fail
# with the user's own EACCES and creates nothing there; without the
# symlink the archive belongs to the user.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup to act as a user"
plan 9

U=4131
home="$TEST_TMP/home$U"
rootonly="$TEST_TMP/rootonly"
mkdir -p "$home" "$rootonly"
chown $U:nogroup "$home"
chmod 700 "$rootonly"

SESSIOND_LOG="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --group nogroup \
	--no-kernel -vvv </dev/null >/dev/null 2>"$SESSIOND_LOG" ||
	{ echo "Bail out! the root daemon did not start"; exit 1; }
as() {
	timeout "$TEST_TIMEOUT" setpriv --reuid="$U" --regid=nogroup --clear-groups \
		env HOME="$home" LTT_HOME="$home" LTT_RUNDIR="$LTT_RUNDIR" "$LTTCTL_BIN" "$@"
}

out="$home/out"
ok_cmd "the user creates a session" as -q create s -o "$out"
ok_cmd "its events enabled" as -q enable-event -u 'ltt_test:*' -s s
ok_cmd "started" as -q start s
ln -s "$rootonly" "$out/archives" 2>/dev/null || {
	mkdir -p "$out" && chown $U:nogroup "$out" && ln -s "$rootonly" "$out/archives"
}
chown -h $U:nogroup "$out/archives"
run as rotate s
is "$RC" 1 "rotate through a symlink to a root-only directory fails"
is "$(ls -A "$rootonly")" "" "and creates nothing there"
rm "$out/archives"
run as -q rotate s
is "$RC" 0 "without the symlink, rotate succeeds"
archive=$STDOUT
ok "$([ -d "$archive" ]; echo $?)" "the archive is a directory ($archive)"
is "$(stat -c %u "$archive")" "$U" "owned by the user"
ok_cmd "destroy" as -q destroy s
done_testing
