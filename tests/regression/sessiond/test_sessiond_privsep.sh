#!/bin/bash
# test_sessiond_privsep.sh - the root daemon's privileged part (doc/sessiond.md,
# "Privilege separation"), as far as it goes: a root daemon forks
# ltt-priv, which alone opens tracefs and holds the kernel objects; the
# daemon's process (the one that owns client.sock and app.sock) holds of
# tracefs only the streams' trace_pipe_raw fds its consumer reads, handed
# back by the privileged part.  Through it a kernel session records a
# known load exactly (system calls with a filter: a request whose user
# pointers cross the socket), a process tracker (the tracker's ids) and
# list -k (the list's entries); a user-space session beside it records
# every event.  ltt-priv spawns the consumers, as the daemon's children
# (CLONE_PARENT), which the daemon reaps; a rotation's archive (written
# by ltt-priv, OWNER_FILES) holds exactly what was recorded before it.
# The daemon stopped, ltt-priv and the consumers are gone and leave no
# ftrace instance.  --no-privsep: no ltt-priv, the daemon opens tracefs
# itself.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
KLOAD="$LTT_TOP_BUILDDIR/tests/regression/kload"
[ -x "$KLOAD" ] || { echo "Bail out! $KLOAD not built"; exit 1; }
plan 30
kernel_lock

# sessiond_log ARGS...: a daemon with ARGS, its messages in $LOG.
sessiond_log() {
	LOG="$TEST_TMP/sessiond.$#.log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv "$@" \
		</dev/null >/dev/null 2>"$LOG"
}

# sock_owner PATH: the pids whose fds hold the listening socket bound at PATH.
sock_owner() {
	local ino p
	ino=$(awk -v path="$1" '$NF == path { print $7; exit }' /proc/net/unix)
	[ -n "$ino" ] || return 1
	for p in /proc/[0-9]*; do
		ls -l "$p/fd" 2>/dev/null | grep -q "socket:\[$ino\]" && echo "${p#/proc/}"
	done
}

# tracefs_fds PID: what PID holds open under tracefs, one a line.
tracefs_fds() {
	ls -l "/proc/$1/fd" 2>/dev/null | sed -n "s|.* -> \($tfs/.*\)|\1|p"
}

sessiond_log --kernel-backend=tracefs
ok $? "a root daemon (tracefs backend) started"
spid=$(sessiond_pid)
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
priv=$(pgrep -P "$spid" -x ltt-priv)
ok "$([ -n "$priv" ]; echo $?)" "it forked its privileged part, ltt-priv (pid ${priv:-none})"
like "$(cat "$LOG")" "privileged part: pid $priv " "and says so in its log"
is "$(sock_owner "$LTT_RUNDIR/client.sock" | tr '\n' ' ')" "$spid " \
	"client.sock is the daemon's process's, not ltt-priv's"
is "$(sock_owner "$LTT_RUNDIR/app.sock" | tr '\n' ' ')" "$spid " "so is app.sock"

run lttctl list -k --syscall
like "$OUT" "^    getppid \(type: syscall\)$" "list -k --syscall, through ltt-priv, lists getppid"

lttctl -q create k -o "$TEST_TMP/k" &&
	lttctl -q enable-event -k --syscall getppid -s k --filter '$ctx.tid > 0' &&
	lttctl -q add-context -k -t tid -s k
ok $? "kernel session k: getppid with a filter, the tid context"
ok_cmd "track -k --pid 1 in k" lttctl track -k --pid 1 -s k
like "$(lttctl list k)" "process ids \\(pid\\) +1$" "list k shows the tracked pid (TRACKER_GET's ids)"
ok_cmd "track -k --pid --all: every process again" lttctl track -k --pid --all -s k
lttctl -q create u -o "$TEST_TMP/u" && lttctl -q enable-event -u ltt_test:seq -s u
ok $? "user-space session u: ltt_test:seq"
ok_cmd "start k" lttctl start k
ok_cmd "start u" lttctl start u
is "$(ls "$tfs/instances" | grep -c "^ltt-$spid-")" 1 "one ftrace instance, named after the daemon's pid"
is "$(tracefs_fds "$spid" | grep -vc '/per_cpu/cpu[0-9]*/trace_pipe_raw$')" 0 \
	"the daemon's process holds nothing of tracefs but the streams' trace_pipe_raw"
ok "$([ "$(tracefs_fds "$priv" | grep -c "/instances/ltt-$spid-")" -gt 0 ]; echo $?)" \
	"ltt-priv holds the instance's files"
"$KLOAD" getppid 1000 >"$TEST_TMP/getppid" || echo "Bail out! kload getppid failed"
ust_app -n 500 -r p1
consumers=$(pgrep -P "$spid" -x ltt-consumerd | sort -n | tr '\n' ' ')
is "$(wc -w <<<"$consumers")" 2 "two consumers (the kernel's, root's user-space one): the daemon's children"
is "$(grep -o "consumer daemon .* started, pid [0-9]*, by the privileged part" "$LOG" |
	sed 's/.*pid \([0-9]*\),.*/\1/' | sort -n | tr '\n' ' ')" "$consumers" \
	"each one spawned by ltt-priv (the log says so, with its pid)"
is "$(pgrep -P "$priv" | wc -l)" 0 "ltt-priv has no child of its own"
run lttctl -q rotate u
is "$RC" 0 "rotate u: its first chunk archived through ltt-priv"
archive=$STDOUT
ust_app -n 200 -r p2
ok_cmd "stop k" lttctl stop k
ok_cmd "stop u" lttctl stop u
t1=$(sed -n 's/^tid //p' "$TEST_TMP/getppid")
bt "$TEST_TMP/k" "$TEST_TMP/k.txt"
is "$(grep -c " syscall_exit_getppid: .*{ tid = $t1 }, { ret = $$ }" "$TEST_TMP/k.txt")" 1000 \
	"k: exactly 1000 getppid exits of the program's tid, each returning $$"
bt "$archive" "$TEST_TMP/u1.txt"
is "$(grep -c " ltt_test:seq: " "$TEST_TMP/u1.txt")" 500 "u's archive ($archive): the first program's 500 events"
bt "$TEST_TMP/u" "$TEST_TMP/u.txt"
is "$(grep -c " ltt_test:seq: " "$TEST_TMP/u.txt")" 700 "u, archive and chunk: the two programs' 700 events"
lttctl -q destroy k
lttctl -q destroy u

stop_sessiond
wait_pid_exit "$priv"
ok $? "the daemon stopped: ltt-priv exited"
for c in $consumers; do wait_pid_exit "$c" || break; done
ok $? "and so did the consumers ($consumers)"
is "$(ls "$tfs/instances" | grep -c "^ltt-$spid-")" 0 "and left no ftrace instance"

sessiond_log --kernel-backend=tracefs --no-privsep
spid=$(sessiond_pid)
lttctl -q create k2 -o "$TEST_TMP/k2" && lttctl -q enable-event -k sched_switch -s k2 &&
	lttctl -q start k2
is "$(pgrep -P "$spid" -x ltt-priv | wc -l)" 0 "--no-privsep: no ltt-priv"
ok "$([ "$(tracefs_fds "$spid" | grep -c "/instances/ltt-$spid-")" -gt 0 ]; echo $?)" \
	"the daemon holds the instance's files itself"
lttctl -q destroy k2
