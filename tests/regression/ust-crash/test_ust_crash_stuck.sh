#!/bin/bash
# test_ust_crash_stuck.sh - a root daemon that gave root's rights up has
# its privileged part (ltt-priv) make a session's crash-copy files
# (--shm-path, SHM_FILE): on a file system that stops answering (stuckfs,
# a FUSE mount told to stop: SIGUSR1), that work holds a child of
# ltt-priv's, killed after 2 s, never ltt-priv's one loop, which serves
# every request that needs root (a root client's create, OWNER_ADD, next).
# Also when the file system took the operation and stalls (stuckfs held:
# SIGHUP): the child then waits through SIGKILL, and ltt-priv leaves it
# to be reaped later rather than wait for it; such a child, which may
# outlive ltt-priv, holds none of ltt-priv's descriptors.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup (a root daemon that gives its rights up)"
back="$TEST_TMP/backing"
mnt="$TEST_TMP/mnt"
stuckfs_start "$back" "$mnt"
plan 15

# crash_session NAME DIR WHAT: a started session of ltt_test:seq whose crash copy is under DIR
crash_session() {
	ok_cmd "$3" bash -c \
		"'$LTTCTL_BIN' -q create $1 --shm-path '$2' -o '$TEST_TMP/out-$1' &&
		 '$LTTCTL_BIN' -q enable-event -u ltt_test:seq -s $1 && '$LTTCTL_BIN' -q start $1"
}

# foreign_fds PARENT CHILD...: the descriptors (past stdio) of each CHILD
# that are PARENT's too (the same file, socket or pipe), as PID:FD=TARGET
foreign_fds() {
	local parent=$1 p f g t
	local -A mine=()

	shift
	for g in /proc/"$parent"/fd/*; do
		[ "${g##*/}" -gt 2 ] && t=$(readlink "$g") && mine[$t]=1
	done
	for p in "$@"; do
		for f in /proc/"$p"/fd/*; do
			[ "${f##*/}" -gt 2 ] && t=$(readlink "$f") && [ -n "${mine[$t]:-}" ] &&
				printf '%s ' "$p:${f##*/}=$t"
		done
	done
}

# create_answered NAME WHAT: a root client's create of NAME, which needs ltt-priv, answered in 10 s
create_answered() {
	local t0=$SECONDS

	run timeout 20 "$LTTCTL_BIN" create "$1" -o "$TEST_TMP/out-$1"
	is "$RC" 0 "$2" || diag "$OUT"
	ok "$((SECONDS - t0 < 10 ? 0 : 1))" "... within 10 s ($((SECONDS - t0)) s: ltt-priv gives a file 2 s)"
}

root_sessiond
ok "$([ "$(awk '/^Uid:/ { print $3 }' "/proc/$spid/status")" != 0 ]; echo $?)" "the root daemon gave root's rights up"
crash_session s "$mnt/shm" "a root session whose crash copy is on the FUSE mount"
kill -USR1 "$FS_PID" && fs_wait stuck
ok $? "the file system stops answering"
# a program registers: its trace's files under the shm path, by ltt-priv
ust_app_bg -n 10
APP=$BG_PID
fs_wait waiting
ok $? "ltt-priv's work on the shm path waits on the file system"
create_answered t "a root client's create, which needs ltt-priv, is answered meanwhile"
like "$(cat "$SESSIOND_LOG")" "$mnt/shm/[^ ]*: its file system did not answer within 2000 ms: refused" \
	"ltt-priv says which file it gave up on"
# the trace's metadata was refused for the crash copy: its user hears it
run lttctl list s
like "$STDOUT" "Crash copy \\(--shm-path $mnt/shm\\): lacks a trace's metadata since [^:]+.*: Connection timed out \\(ETIMEDOUT\\); ltt-crash can't read" \
	"list says the crash copy lacks a trace's metadata, and why (the daemon's log alone said it)"
kill -USR2 "$FS_PID"
wait "$APP"
run lttctl stop s
like "$ERR" "Warning: session 's' could not write a trace's metadata under its shared memory path $mnt/shm since .*Connection timed out" \
	"stop warns of it"
lttctl -q destroy s
crash_session s2 "$mnt/shm2" "a second root session whose crash copy is on the mount"
kill -HUP "$FS_PID"
ust_app_bg -n 10
APP=$BG_PID
fs_wait holding
ok $? "the file system took an operation of ltt-priv's child and holds it unanswered"
create_answered t2 "a root client's create is answered while that child can't be killed out of its wait"
priv=$(pgrep -P "$spid" -x ltt-priv)
held=$(pgrep -P "${priv:-1}" -x ltt-priv)
# shellcheck disable=SC2086 # one pid a word
shared=$(foreign_fds "${priv:-1}" $held)
ok "$([ -n "$held" ] && [ -z "$shared" ]; echo $?)" \
	"the held children keep none of ltt-priv's descriptors (its link to the daemon among them): ${shared:-none}"
kill -USR2 "$FS_PID" && fs_wait running
wait "$APP"
lttctl -q destroy -a
left=$(for p in $held; do [ -e "/proc/$p" ] && echo "$p"; done)
ok "$([ -n "$held" ] && [ -z "$left" ]; echo $?)" \
	"the killed children (${held//$'\n'/ }) are reaped once their file system answered (left: ${left:-none})"
done_testing
