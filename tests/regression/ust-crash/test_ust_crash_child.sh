#!/bin/bash
# test_ust_crash_child.sh - ltt-priv does a session's crash-copy file work
# (--shm-path, SHM_FILE) in a child of its own; a child that dies before
# it answers (LTT_FAULT="kill priv-open-child": SIGKILL at its start) is
# logged as what happened, never as a file system that did not answer in
# 2000 ms, and the request is refused with EIO, which the session's user
# hears from list.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && getent group nogroup >/dev/null ||
	skip_all "needs root, setpriv and the group nogroup (a root daemon that gives its rights up)"
plan 5

export LTT_FAULT="kill priv-open-child"
root_sessiond
unset LTT_FAULT
ok_cmd "a root session with a crash copy" bash -c \
	"'$LTTCTL_BIN' -q create s --shm-path '$TEST_TMP/shm' -o '$TEST_TMP/out' &&
	 '$LTTCTL_BIN' -q enable-event -u ltt_test:seq -s s && '$LTTCTL_BIN' -q start s"
# a program registers: its trace's files under the shm path, by ltt-priv's child
ust_app -n 10
is $? 0 "a program emitted 10 events"
ended="$TEST_TMP/shm/[^ ]*: the process opening it (was killed by signal 9 before it answered|ended without answering): refused"
wait_for "$SESSIOND_LOG" "$ended"
ok $? "ltt-priv says its child ended without answering"
is "$(grep -c 'did not answer within' "$SESSIOND_LOG")" 0 "... and never that a file system did not answer"
run lttctl list s
like "$STDOUT" "Crash copy \\(--shm-path $TEST_TMP/shm\\): lacks a trace's metadata since [^:]+.*: Input/output error \\(EIO\\)" \
	"list says the crash copy lacks a trace's metadata: EIO"
lttctl -q destroy -a
