#!/bin/bash
# test_ust_output_start.sh - 'lttctl start' that can't create the trace fails
# on the command line with the reason (exit 1, no "Tracing started"), and
# changes nothing: the session stays stopped, and starts once the cause
# is fixed.  Causes: a read-only file system (EROFS), a directory the
# session's owner can't write (EACCES, a personal daemon run as nobody),
# a consumer without a free descriptor (EMFILE, its RLIMIT_NOFILE lowered
# with prlimit), and buffers larger than the host's memory (refused by
# enable-channel).  An output directory deleted before the first start is
# made again.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
[ "$(id -u)" = 0 ] || skip_all "needs root to mount file systems and set limits"
RO="$TEST_TMP/ro"
mkdir -p "$RO"
mount -t tmpfs -o size=1m,ro ltt-test "$RO" 2>/dev/null || skip_all "can't mount a tmpfs here"
trap 'umount -l "$RO" 2>/dev/null; _cleanup' EXIT
plan 33

# session NAME DIR: a session writing to DIR with ltt_test:seq enabled.
session() {
	lttctl -q create "$1" -o "$2" && lttctl -q enable-event -u ltt_test:seq -s "$1"
}

# inactive NAME: the session is listed as stopped.
inactive() {
	lttctl list | grep -Eq "^ *[0-9]+\\) $1 \\(.*\\) \\[inactive\\]\$"
}

m_start="^Tracing started for session"

# --- a read-only file system
ok_cmd "create a session on a read-only file system" session ro "$RO/out"
run lttctl start ro
is "$RC" 1 "EROFS: start fails"
is "$ERR" "Error: session 'ro': output directory $RO/out: the trace's file system is read-only; remount it read-write (or create the session with another -o), then run 'lttctl start' again" \
	"EROFS: the reason, the directory and what to do"
unlike "$OUT" "$m_start" "EROFS: no 'Tracing started'"
ok "$(inactive ro; echo $?)" "EROFS: the session stays stopped"
mount -o remount,rw "$RO"
run lttctl start ro
is "$RC" 0 "EROFS: start works once the file system is writable"
ust_app -n 100
ok_cmd "stop" lttctl stop ro
bt "$RO/out" "$TEST_TMP/bt-ro"
is "$(count_events "$TEST_TMP/bt-ro" ltt_test:seq)" 100 "EROFS: then the session records"
ok_cmd "destroy" lttctl destroy ro

# --- an output directory deleted before the first start
mkdir -p "$TEST_TMP/del/out"
ok_cmd "create a session in an existing directory" session del "$TEST_TMP/del/out"
rm -rf "$TEST_TMP/del"
run lttctl start del
is "$RC" 0 "deleted before the first start: start makes it again"
ust_app -n 100
ok_cmd "stop" lttctl stop del
bt "$TEST_TMP/del/out" "$TEST_TMP/bt-del"
is "$(count_events "$TEST_TMP/bt-del" ltt_test:seq)" 100 "deleted before start: the session records"
ok_cmd "destroy" lttctl destroy del

# --- no descriptor left in the consumer
# (a started session keeps the consumer running: it exits with the last one)
session keep "$TEST_TMP/keep" && lttctl -q start keep
ok_cmd "create a session" session fds "$TEST_TMP/fds"
consumer=$(pgrep -P "$(sessiond_pid)" -f ltt-consumerd | head -1)
ok "$([ -n "$consumer" ]; echo $?)" "the consumer runs (pid $consumer)"
# The lowest free descriptor as the limit: the consumer can open nothing more.
low=0
while [ -e "/proc/$consumer/fd/$low" ]; do low=$((low + 1)); done
# (the soft limit only: raising a hard limit back takes CAP_SYS_RESOURCE)
old=$(prlimit --pid "$consumer" --nofile --output SOFT --noheadings | tr -d ' ')
prlimit --pid "$consumer" --nofile="$low:"
run lttctl start fds
is "$RC" 1 "EMFILE: start fails"
is "$ERR" "Error: session 'fds': output directory $TEST_TMP/fds: the consumer daemon has no file descriptor left; raise its limit (LimitNOFILE= in the unit, ulimit -n) or destroy unused sessions, then run 'lttctl start' again" \
	"EMFILE: the reason and what to do"
ok "$(inactive fds; echo $?)" "EMFILE: the session stays stopped"
prlimit --pid "$consumer" --nofile="$old:"
run lttctl start fds
is "$RC" 0 "EMFILE: start works once the limit is raised"
ust_app -n 100
ok_cmd "stop" lttctl stop fds
bt "$TEST_TMP/fds" "$TEST_TMP/bt-fds"
is "$(count_events "$TEST_TMP/bt-fds" ltt_test:seq)" 100 "EMFILE: then the session records"
ok_cmd "destroy" lttctl destroy fds
lttctl -q destroy keep

# --- a directory the session's owner can't write (EACCES)
if can_switch_user; then
	nhome="$TEST_TMP/nobody-home"
	nrun="$TEST_TMP/nobody-run"
	nobody_dir "$nhome"
	nobody_dir "$nrun"
	nctl() { as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$nrun" "$LTTCTL_BIN" "$@"; }
	as_nobody "$SESSIOND" --daemonize --rundir "$nrun"
	mkdir -p "$TEST_TMP/root-only"
	chmod 755 "$TEST_TMP/root-only"
	nctl -q create acc -o "$TEST_TMP/root-only/out" && nctl -q enable-event -u ltt_test:seq
	ok $? "nobody creates a session in a directory only root may write"
	run nctl start acc
	is "$RC" 1 "EACCES: start fails"
	is "$ERR" "Error: session 'acc': output directory $TEST_TMP/root-only/out: permission denied writing the trace in its output directory; make it writable by the session's owner (or create the session with another -o), then run 'lttctl start' again" \
		"EACCES: the reason, the directory and what to do"
	like "$(nctl list)" "^ *1\\) acc \\(.*\\) \\[inactive\\]\$" "EACCES: the session stays stopped"
	chmod 777 "$TEST_TMP/root-only"
	run nctl start acc
	is "$RC" 0 "EACCES: start works once the owner may write there"
	ok "$([ "$(stat -c %U "$TEST_TMP/root-only/out")" = nobody ]; echo $?)" \
		"the directory made is the session owner's"
	term_sessiond "$nrun"
else
	skip 6 "needs root and setpriv to run a daemon as nobody"
fi

# --- buffers larger than the host's memory
ok_cmd "create a session" lttctl -q create mem -o "$TEST_TMP/mem"
run lttctl enable-channel -u huge --subbuf-size 1G --num-subbuf 1024 -s mem
is "$RC" 1 "ENOMEM: a channel of 1 TiB per CPU is refused"
is "$ERR" "Error: channel 'huge' of session 'mem': the channel's buffers (sub-buffer size x count, per CPU) would not fit in this host's available memory; use fewer or smaller sub-buffers" \
	"ENOMEM: the reason and what to do"
unlike "$(lttctl list mem)" "huge" "ENOMEM: no channel was added"
done_testing
