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
# itself.  --privsep-user=root: the daemon's process keeps root's rights
# (the first daemon here); the drop is the default (the last one, to ltt
# or nobody).  --privsep-user=nobody: the process that owns client.sock and
# app.sock runs as nobody with no capability (its /proc status) while a
# kernel and a user-space session record exact counts (none of a
# program in a time namespace 1000 s ahead, refused: the dropped
# process reads its /proc/PID/timens_offsets itself), a rotation is archived, a session --load'ed at
# start is root's; stopped, ltt-priv
# removes the run directory's files it could not.  The option refused
# where it can't work.  (OWNER_FILES refused for an owner with no
# session once the daemon dropped: test_chunk_owner.)
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
KLOAD="$LTT_TOP_BUILDDIR/tests/regression/kload"
[ -x "$KLOAD" ] || { echo "Bail out! $KLOAD not built"; exit 1; }
plan 66
kernel_lock

# sessiond_log ARGS...: a daemon with ARGS, its messages in $LOG.
sessiond_log() {
	LOG="$TEST_TMP/sessiond.$#.log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv "$@" \
		</dev/null >/dev/null 2>"$LOG"
}

# status_field PID FIELD: FIELD's value in /proc/PID/status (tabs as spaces).
status_field() {
	sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" | tr '\t' ' '
}

# rotate_stop_count KOUT UOUT KLOAD_OUT NK N1 N2: with sessions k (a
# kload getppid of NK calls recorded, its output KLOAD_OUT) and u (a
# program's N1 events recorded): rotate u (its archive, through
# ltt-priv), a second program's N2 events, stop both; k holds exactly the
# NK getppid exits of kload's thread, u's archive N1 events, u and its
# archive N1 + N2; both destroyed.
rotate_stop_count() {
	local kout=$1 uout=$2 kload_out=$3 nk=$4 n1=$5 n2=$6 archive t1

	run lttctl -q rotate u
	is "$RC" 0 "rotate u: its first chunk archived through ltt-priv"
	archive=$STDOUT
	ust_app -n "$n2" -r "p$n2"
	ok_cmd "stop k" lttctl stop k
	ok_cmd "stop u" lttctl stop u
	t1=$(sed -n 's/^tid //p' "$kload_out")
	bt "$kout" "$kout.txt"
	is "$(grep -c " syscall_exit_getppid: .*{ tid = $t1 }, { ret = $$ }" "$kout.txt")" "$nk" \
		"k: exactly $nk getppid exits of the program's tid, each returning $$"
	bt "$archive" "$uout.1.txt"
	is "$(grep -c " ltt_test:seq: " "$uout.1.txt")" "$n1" \
		"u's archive ($archive): the first program's $n1 events"
	bt "$uout" "$uout.txt"
	is "$(grep -c " ltt_test:seq: " "$uout.txt")" $((n1 + n2)) \
		"u, archive and chunk: the two programs' $((n1 + n2)) events"
	lttctl -q destroy k
	lttctl -q destroy u
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

sessiond_log --kernel-backend=tracefs --privsep-user=root
ok $? "a root daemon (tracefs backend) started, keeping root's rights (--privsep-user=root)"
spid=$(sessiond_pid)
is "$(status_field "$spid" Uid)" "0 0 0 0" "as asked: the process that owns the sockets is root's"
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
rotate_stop_count "$TEST_TMP/k" "$TEST_TMP/u" "$TEST_TMP/getppid" 1000 500 200

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

stop_sessiond

# --privsep-user: the main process drops to nobody once its sockets are bound.
nobody_uid=$(id -u nobody)
cp "$LTT_TOP_SRCDIR/tests/regression/saveload/good.ltt" "$TEST_TMP/boot.ltt"
sessiond_log --kernel-backend=tracefs --privsep-user=nobody --load "$TEST_TMP/boot.ltt"
ok $? "a root daemon with --privsep-user=nobody started"
spid=$(sessiond_pid)
priv=$(pgrep -P "$spid" -x ltt-priv)
like "$(cat "$LOG")" "root's rights given up: uid $nobody_uid, gid [0-9]+, no capability" \
	"its log says it gave root's rights up"
is "$(sock_owner "$LTT_RUNDIR/client.sock" | tr '\n' ' ')$(sock_owner "$LTT_RUNDIR/app.sock")" \
	"$spid $spid" "client.sock and app.sock are still the daemon's process's"
is "$(status_field "$spid" Uid)" "$nobody_uid $nobody_uid $nobody_uid $nobody_uid" \
	"that process's uids are nobody's (real, effective, saved, file system)"
is "$(status_field "$spid" CapEff)/$(status_field "$spid" CapPrm)/$(status_field "$spid" CapBnd)" \
	"0000000000000000/0000000000000000/0000000000000000" \
	"it has no capability: effective, permitted and bounding sets empty"
is "$(status_field "$spid" NoNewPrivs)/$(status_field "$spid" Groups)" "1/" \
	"no_new_privs set, no supplementary group"
# each thread's status read once: a thread that ended meanwhile has none
bad=0 seen=0
for t in /proc/"$spid"/task/*; do
	st=$(cat "$t/status" 2>/dev/null) && [ -n "$st" ] || continue
	seen=$((seen + 1))
	[ "$(sed -n 's/^CapEff:[[:space:]]*//p; s/^CapBnd:[[:space:]]*//p; s/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' <<<"$st" | tr '\n' /)" = \
		"$nobody_uid/0000000000000000/0000000000000000/" ] || {
		bad=$((bad + 1))
		diag "$t: $(grep -E '^(Name|Uid|CapEff|CapBnd):' <<<"$st" | tr '\n\t' '  ')"
	}
done
is "$bad" 0 "and so has each of its threads ($seen)"
is "$(status_field "$priv" Uid | cut -d' ' -f1)" 0 "ltt-priv ($priv) keeps root's"
run lttctl list
like "$STDOUT" "1\) good " "--load's session, loaded by a process that kept root's rights"
like "$(cat "$LOG")" "session 'good' created by uid 0" "is root's"
lttctl -q destroy good

lttctl -q create k -o "$TEST_TMP/dk" &&
	lttctl -q enable-event -k --syscall getppid -s k --filter '$ctx.tid > 0' &&
	lttctl -q add-context -k -t tid -s k &&
	lttctl -q create u -o "$TEST_TMP/du" && lttctl -q enable-event -u ltt_test:seq -s u &&
	lttctl -q start k && lttctl -q start u
ok $? "kernel session k (tracefs) and user-space session u started"
# what ltt-priv opens for the dropped process: a file of one kind only,
# with the owner's rights (PROBE_FILE: an ELF file; TLS_FILE, PEM text:
# test_relay_tls.sh)
run lttctl enable-event -k --userspace-probe=/etc/passwd:main notelf -s k
like "$RC:$(grep notelf "$LOG")" "^1:.*probe notelf refused: /etc/passwd: Exec format error" \
	"a uprobe on a file that is not ELF: refused, ltt-priv opened no such file for the daemon"
"$KLOAD" getppid 700 >"$TEST_TMP/getppid2" || echo "Bail out! kload getppid failed"
ust_app -n 300 -r d1
is "$(ls "$LTT_RUNDIR/chunks" | grep -c "^$spid-")/$(stat -c %U "$LTT_RUNDIR/chunks" "$LTT_RUNDIR/chunks/$spid-"* | sort -u | tr '\n' ' ')" \
	"2/root " "the sessions' two chunk journals are root's, in root's directory: written by ltt-priv"
timeout "$TEST_TIMEOUT" unshare -T --fork --monotonic 1000 "$UST_APP" -n 20 -r tns >/dev/null 2>&1
like "$(cat "$LOG")" "\(pid [0-9]+\) runs in another time namespace" \
	"a root program whose time namespace is 1000 s ahead is refused (its offset read by the process that dropped root's rights)"
rotate_stop_count "$TEST_TMP/dk" "$TEST_TMP/du" "$TEST_TMP/getppid2" 700 300 100
unlike "$(cat "$LOG")" "Error:" "nothing failed for want of root's rights"
stop_sessiond
wait_pid_exit "$priv"
ok $? "stopped: ltt-priv exited"
is "$(ls "$LTT_RUNDIR" | grep -v '^sessiond.lock$' | tr '\n' ' ')" "" \
	"and removed the sockets, pid file and journals' directory the daemon could no longer"
is "$(ls "$tfs/instances" | grep -c "^ltt-$spid-")" 0 "no ftrace instance left"

# As under the systemd unit, whose CapabilityBoundingSet= lacks
# CAP_SETPCAP: the bounding set can't be emptied; the drop goes on.  And
# as the unit starts it, with no option: the drop is the default, to the
# user ltt (Debian's postinst makes it), else nobody.
default_uid=$(id -u ltt 2>/dev/null || echo "$nobody_uid")
timeout "$TEST_TIMEOUT" setpriv --bounding-set=-setpcap "$SESSIOND" --background \
	--rundir "$LTT_RUNDIR" -vv </dev/null >/dev/null 2>"$TEST_TMP/nopcap.log"
ok $? "without CAP_SETPCAP in its bounding set, a root daemon with no option starts"
spid=$(sessiond_pid)
is "$(status_field "$spid" Uid | cut -d' ' -f2)/$(status_field "$spid" CapEff)/$(status_field "$spid" NoNewPrivs)" \
	"$default_uid/0000000000000000/1" "by default: ltt, else nobody (uid $default_uid), no capability, no_new_privs"
like "$(cat "$TEST_TMP/nopcap.log")" "bounding set keeps [0-9]+ capabilities \\(no CAP_SETPCAP" \
	"the log says the bounding set was kept, and why"
lttctl -q create u -o "$TEST_TMP/pu" && lttctl -q enable-event -u ltt_test:seq -s u && lttctl -q start u
ust_app -n 50 -r pcap
lttctl -q stop u
bt "$TEST_TMP/pu" "$TEST_TMP/pu.txt"
is "$(grep -c " ltt_test:seq: " "$TEST_TMP/pu.txt")" 50 "a user-space session records the program's 50 events"
lttctl -q destroy u
stop_sessiond

# The option where it can't work: nothing starts, and the error says why.
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run-x" --privsep-user=nobody --no-privsep
is "$RC" 1 "--privsep-user with --no-privsep refused"
like "$ERR" "without its privileged part the daemon needs root's rights" "saying why"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run-x" --privsep-user=no-such-user-ltt
is "$RC" 1 "--privsep-user of a user that does not exist refused"
like "$ERR" "no-such-user-ltt: no such user; create it" "saying what to do"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run-x" --no-privsep-drop
is "$RC" 1 "--no-privsep-drop refused: --privsep-user=root keeps root's rights"
like "$ERR" "no-privsep-drop" "naming the option"
ok "$([ ! -e "$TEST_TMP/run-x" ]; echo $?)" "none of them made its run directory"
