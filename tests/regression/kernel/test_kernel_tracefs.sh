#!/bin/bash
# test_kernel_tracefs.sh - the tracefs kernel backend, natively (no VM): a
# root daemon started with --kernel-backend=tracefs traces the kernel
# through the kernel's own tracing buffers.  `lttctl list -k` lists
# exactly what the running kernel offers (available_events), under
# LTTng's names.  A known load (kload) is recorded exactly: system calls
# with their values, context switches, the tid context; two sessions at
# once; losses counted; what tracefs can't do is refused naming it; a
# daemon killed leaves no ftrace instance behind.  A bad --kernel-backend
# is refused before the daemon starts.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
plan 64
kernel_lock

# A bad backend: refused, nothing started.
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$LTT_RUNDIR" --kernel-backend=ftrace
is "$RC" 1 "--kernel-backend=ftrace: refused"
is "$ERR" "ltt-sessiond: Error: --kernel-backend=ftrace: give auto, module or tracefs" \
	"... saying what to give"
ok "$([ ! -e "$LTT_RUNDIR/sessiond.pid" ]; echo $?)" "... and no daemon started"

# sessiond_log ARGS...: a daemon with ARGS, its messages in $LOG.
sessiond_log() {
	LOG="$TEST_TMP/sessiond.$#.log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv "$@" \
		</dev/null >/dev/null 2>"$LOG"
}

sessiond_log --kernel-backend=tracefs
ok $? "a root daemon with --kernel-backend=tracefs started"
# (tracefs is mounted now, where the system had it or at its usual place)
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
ok "$([ -r "$tfs/available_events" ]; echo $?)" "tracefs is mounted (${tfs:-nowhere})"
like "$(cat "$LOG")" "kernel tracer tracefs .* \\(ABI [0-9.]+, backend tracefs\\): [1-9][0-9]* events, [1-9][0-9]* system calls" \
	"it traces through tracefs, and says how many events and system calls it found"

# The catalog is available_events under LTTng's names: SYS:NAME is NAME
# when NAME starts with SYS_, else SYS_NAME; syscalls:sys_enter_NAME is
# the system call NAME; and the module's three state dump events, which
# the daemon writes itself (test_kernel_tracefs_statedump.sh).
expect_events() {
	{ awk -F: '$1 != "syscalls" {
		n = index($2, $1 "_") == 1 ? $2 : $1 "_" $2; print n }' "$tfs/available_events"
	  printf 'lttng_statedump_%s\n' start process_state end; } | sort
}
expect_syscalls() {
	sed -n 's/^syscalls:sys_enter_//p' "$tfs/available_events" | sort
}
listed() {
	sed -n 's/^    \([^ ]*\) (type: \(tracepoint\|syscall\))$/\1/p' | sort
}
run lttctl list -k
is "$RC" 0 "list -k works"
LISTK=$OUT
like "$OUT" "^Kernel tracer: tracefs \\(tracefs [^)]*\\)(: system call paths and names: [^:]*: .*)?$" \
	"list -k says the kernel is traced through tracefs (asked for: no reason given, but what it records of system call strings)"
is "$(listed <<<"$OUT" | wc -l)" "$(expect_events | wc -l)" \
	"list -k: as many events as available_events has outside syscalls, and the state dump's 3 ($(expect_events | wc -l))"
is "$(listed <<<"$OUT")" "$(expect_events)" "list -k: each of them, under its LTTng name"
is "$(listed <<<"$OUT" | grep -cxE 'sched_switch|irq_handler_entry|timer_hrtimer_start|kmem_mm_page_alloc')" 4 \
	"list -k: sched_switch, irq_handler_entry, timer_hrtimer_start, kmem_mm_page_alloc"
run lttctl list -k --syscall
is "$(listed <<<"$OUT")" "$(expect_syscalls)" \
	"list -k --syscall: every system call of the kernel ($(expect_syscalls | wc -l))"
is "$(listed <<<"$OUT" | grep -cxE 'getppid|openat')" 2 "list -k --syscall: getppid, openat"

KLOAD="$LTT_TOP_BUILDDIR/tests/regression/kload"
[ -x "$KLOAD" ] || { echo "Bail out! $KLOAD not built"; exit 1; }
spid=$(sessiond_pid)

# instances: this daemon's ftrace instances (ltt-PID-N).
instances() {
	ls "$tfs/instances" | grep -c "^ltt-$1-" || true
}

# count TRACE REGEX: babeltrace2's lines of TRACE matching REGEX.
count() {
	timeout "$BT_TIMEOUT" babeltrace2 "$1" 2>/dev/null | grep -cE -- "$2" || true
}

# A known load: getppid 1000 times, openat of one path 100 times, 1000
# round trips between two threads on CPU 0.
lttctl -q create s -o "$TEST_TMP/s"
lttctl -q enable-event -k sched_switch -s s
lttctl -q enable-event -k --syscall getppid -s s
lttctl -q enable-event -k --syscall openat -s s
run lttctl add-context -k -t tid -s s
is "$RC" 0 "add-context -k -t tid: taken (a record holds its tid)"
ok_cmd "start s" lttctl start s
is "$(instances "$spid")" 1 "one ftrace instance for the session's channel"
is "$(cat "$tfs/instances/ltt-$spid-"*/trace_clock | grep -o '\[[a-z_]*\]')" "[mono]" \
	"its clock is mono (CLOCK_MONOTONIC, the time line of user-space events)"
"$KLOAD" getppid 1000 >"$TEST_TMP/getppid" || echo "Bail out! kload getppid failed"
echo known >"$TEST_TMP/known"
"$KLOAD" openat "$TEST_TMP/known" 100 >"$TEST_TMP/openat" || echo "Bail out! kload openat failed"
"$KLOAD" pingpong 1000 >"$TEST_TMP/pingpong" || echo "Bail out! kload pingpong failed"
ok_cmd "stop s" lttctl stop s
t1=$(sed -n 's/^tid //p' "$TEST_TMP/getppid")
read -r t2 addr < <(sed -n 's/^tid \([0-9]*\) path \(0x[0-9A-F]*\)$/\1 \2/p' "$TEST_TMP/openat")
read -r a b < <(sed -n 's/^tids //p' "$TEST_TMP/pingpong")
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/s" >"$TEST_TMP/s.txt" 2>"$TEST_TMP/s.err"
is "$?" 0 "babeltrace2 reads the trace"
is "$(grep -c " syscall_entry_getppid: .*{ tid = $t1 }" "$TEST_TMP/s.txt")" 1000 \
	"exactly 1000 getppid entries of the program's tid"
is "$(grep -c " syscall_exit_getppid: .*{ tid = $t1 }, { ret = $$ }" "$TEST_TMP/s.txt")" 1000 \
	"exactly 1000 exits, each returning the parent's pid ($$)"
is "$(grep -c " syscall_entry_getppid: .*{ tid = $t1 }, { [^}]" "$TEST_TMP/s.txt")" 0 \
	"an entry of getppid has no field (no __syscall_nr: the event says which call)"
# the path where ltt's BPF program reads it (doc/kernel-bpf.md), else its address
want=$addr what="its path's address ($addr)"
if grep -q "read as strings by ltt's BPF program" <<<"$LISTK"; then
	want="\"$TEST_TMP/known\"" what="its path (read by the BPF program)"
fi
is "$(grep -cF " filename = $want," <(grep " syscall_entry_openat: .*{ tid = $t2 }, {" "$TEST_TMP/s.txt"))" \
	100 "exactly 100 openat entries of the second program with $what"
is "$(grep -c " syscall_exit_openat: .*{ tid = $t2 }" "$TEST_TMP/s.txt")" \
	"$(grep -c " syscall_entry_openat: .*{ tid = $t2 }" "$TEST_TMP/s.txt")" \
	"... and as many exits as entries (the loader's opens included)"
# On one CPU, each round trip switches each thread out once at least
# (the other runs only then), whatever else runs between them.
n=$(grep -cE " sched_switch: .*prev_tid = ($a|$b)," "$TEST_TMP/s.txt")
ok "$([ "$n" -ge 1998 ]; echo $?)" \
	"at least 1998 switches out of the two threads on one CPU ($n, LTTng's field names)"
diag "of which $(grep -cE " sched_switch: .*prev_tid = ($a|$b),.*next_tid = ($a|$b)," "$TEST_TMP/s.txt") straight from one to the other"
ok "$(grep -q "sched_switch: { cpu_id = [0-9]* }, { tid = [0-9]* }, { prev_comm = " "$TEST_TMP/s.txt"; echo $?)" \
	"sched_switch has packet and event contexts, then its fields"
# the threads run at the test's nice: 0 is the kernel's prio 120, lttng-modules' 20
is "$(grep -E " sched_switch: .*prev_tid = ($a|$b)," "$TEST_TMP/s.txt" | grep -o 'prev_prio = -*[0-9]*' | sort -u)" \
	"prev_prio = $((20 + $(nice)))" "sched_switch's priorities as lttng-modules gives them: nice 0 is 20"
run lttctl list s
like "$OUT" "discarded events: 0" "list s: nothing discarded"
like "$OUT" "=== Domain: Kernel ===

Buffering scheme: global
Tracer: tracefs \\(tracefs " "list s: its kernel domain says the tracer"
run lttctl --mi xml list s
printf '%s\n' "$OUT" >"$TEST_TMP/list-s.xml"
is "$(mi_xp 'concat(//domain/type, ":", //domain/buffer_type)' "$TEST_TMP/list-s.xml"):$(mi_valid "$TEST_TMP/list-s.xml")" \
	"KERNEL:GLOBAL:$TEST_TMP/list-s.xml validates" \
	"list s --mi xml: the KERNEL domain, GLOBAL buffers, valid against LTTng's schema (the tracer is in the text only)"

# One time line: a program emits a user event, calls getppid, emits the
# next, 100 times, in a session with both domains: every getppid lies
# between the user events around it.
lttctl -q create tl -o "$TEST_TMP/tl"
lttctl -q enable-event -u ltt_test:seq -s tl
lttctl -q add-context -u -t vtid -s tl
lttctl -q enable-event -k --syscall getppid -s tl
lttctl -q add-context -k -t tid -s tl
lttctl -q start tl
ust_app -n 101 -G -e 5 >/dev/null
lttctl -q stop tl
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/tl" >"$TEST_TMP/tl.txt" 2>/dev/null
is "$(timeline_order "$TEST_TMP/tl.txt")" "U$(printf 'EXU%.0s' $(seq 100))" \
	"both domains on one time line: 101 user events, each getppid's entry and exit between two"
# The user-space trace's clock (doc/clock.md): CLOCK_MONOTONIC with the
# kernel's offset, or the TSC at its own frequency, counted from
# CLOCK_MONOTONIC's zero, with the same offset in seconds and cycles: a
# reader converting it to ns (and truncating) gets the kernel's offset.
kmeta=$(tr -c '[:print:]\t\n' '\n' <"$TEST_TMP/tl/kernel/metadata")
umeta=$(cat "$TEST_TMP"/tl/ust/uid/*/64-bit/metadata | tr -c '[:print:]\t\n' '\n')
koff=$(grep -A8 '^clock {' <<<"$kmeta" | grep -o "offset = [0-9]*" | grep -o "[0-9]*")
uoff=$(grep -A8 '^clock {' <<<"$umeta" | awk '/freq =/ { f = $3 + 0 } /offset_s =/ { s = $3 }
	/offset =/ { o = $3 } END { sub(";", "", s); sub(";", "", o);
	if (f == 1000000000) print o; else printf "%s%09d", s, int(o * 1e9 / f) }')
is "$uoff" "$koff" "the kernel's and the program's traces have one clock offset, to the ns ($(grep -o 'ltt_clock = "[a-z]*"' <<<"$umeta"))"
# Debian's lttng-analyses (babeltrace 1) read both domains together: it
# keeps one clock offset for all of them.
if command -v lttng-syscallstats >/dev/null; then
	run timeout "$BT_TIMEOUT" lttng-syscallstats --no-progress "$TEST_TMP/tl"
	ok $(( RC != 0 )) "lttng-syscallstats reads the kernel's and the program's traces together"
	unlike "$OUT" "differs|Assertion" "... with no clock warning"
else
	skip 2 "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
fi
lttctl -q destroy tl

# What tracefs can't do: refused, naming it; nothing changed.
run lttctl add-context -k -t prio -s s
like "$RC.$ERR" "^1.Error: context prio, session 's': the session daemon traces the kernel through tracefs" \
	"add-context -k -t prio: refused, naming the backend (procname, pid ...: test_kernel_tracefs_procname.sh)"
like "$(cat "$LOG")" "records hold the tid and the CPU only" "... and the log says which contexts it has"
run lttctl enable-event -k sched_wakeup --filter '$ctx.vpid == 10' -s s
like "$RC.$ERR" "^1.Error: " "a kernel filter reading a context records lack: refused (test_kernel_tracefs_filter.sh)"
run lttctl track -k --uid 0 -s s
like "$RC.$ERR" "^1.Error: .*through tracefs" "track -k --uid: refused, naming the backend (pids only: test_kernel_tracefs_track.sh)"
run lttctl enable-event -k no_such_event -s s
is "$RC" 1 "an event the kernel lacks: refused"
run lttctl list s
unlike "$OUT" "sched_wakeup|no_such_event" "list s: no rule was added"
ok_cmd "destroy s" lttctl destroy s
is "$(instances "$spid")" 0 "destroy: the session's instance is removed"

# Two sessions at once, each in its own instance, each with every event.
for x in a b; do
	lttctl -q create "$x" -o "$TEST_TMP/$x"
	lttctl -q enable-event -k --syscall getppid -s "$x"
	lttctl -q add-context -k -t tid -s "$x"
	lttctl -q start "$x"
done
is "$(instances "$spid")" 2 "two sessions: two instances"
"$KLOAD" getppid 500 >"$TEST_TMP/getppid2"
t3=$(sed -n 's/^tid //p' "$TEST_TMP/getppid2")
for x in a b; do
	lttctl -q stop "$x"
	is "$(count "$TEST_TMP/$x" " syscall_exit_getppid: .*\\{ tid = $t3 \\}")" 500 \
		"session $x: all 500 getppid exits"
	lttctl -q destroy "$x"
done

# Discard mode, tiny buffers, the consumer stopped: the load fills the
# kernel's buffer; what it could not hold is counted, exactly.  getcpu
# comes from the vDSO in programs: the load alone makes the system call.
N=20000
lttctl -q create d -o "$TEST_TMP/d"
lttctl -q enable-channel -k c --subbuf-size 4096 --num-subbuf 2 --discard -s d
lttctl -q enable-event -k --syscall getcpu -c c -s d
lttctl -q start d
cons=$(consumer_pid)
ok "$([ -n "$cons" ]; echo $?)" "the kernel consumer runs (pid ${cons:-none})"
stop_proc "$cons"
"$KLOAD" getcpu $N >"$TEST_TMP/getcpu"
# list reads the channel's counters in its statistics page, which the
# consumer keeps: it asks the stopped consumer nothing (it used to try
# CHANNEL_STATS, wait 200 ms, and leave the consumer owing the reply,
# which the next list showed as a stall).
t0=$(date +%s%N)
run lttctl list d
diag "list d, its consumer stopped: $((($(date +%s%N) - t0) / 1000000)) ms"
is "$RC" 0 "list of a session whose kernel consumer is stopped answers"
run lttctl list d
unlike "$OUT" "Consumer daemon: stalled" "... and asked that consumer nothing: it owes no reply"
kill -CONT "$cons"
# Running again, the consumer reads the backlog and stores the tracer's
# count of what it dropped in the page: list shows it, before any stop
# (looked at again until then, bounded).
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(lttctl list d | sed -n 's/^ *discarded events: //p')" -gt 0 ] 2>/dev/null ||
	[ $SECONDS -ge $deadline ]; do :; done
early=$(lttctl list d | sed -n 's/^ *discarded events: //p')
ok "$([ "${early:-0}" -gt 0 ]; echo $?)" \
	"the page shows the overflow once the consumer runs again, before stop (${early:-0} discarded)"
lttctl -q stop d
run lttctl list d
lost=$(sed -n 's/^ *discarded events: //p' <<<"$OUT")
got=$(count "$TEST_TMP/d" " syscall_(entry|exit)_getcpu: ")
ok "$([ "${lost:-0}" -gt 0 ]; echo $?)" "the buffer overflowed: ${lost:-0} events discarded"
is "$((got + lost))" $((2 * N)) "recorded ($got) + discarded ($lost) = the $((2 * N)) events made"
lttctl -q destroy d

# A daemon killed mid-session leaves its instance; the next one removes it.
lttctl -q create k -o "$TEST_TMP/k"
lttctl -q enable-event -k sched_switch -s k
lttctl -q start k
is "$(instances "$spid")" 1 "a session runs in an instance"
kc=$(consumer_pid)
kill -KILL "$spid"
wait_pid_exit "$spid"
wait_pid_exit "$kc"
ok $? "the consumer of the killed daemon exits on its own (it held the instance's files)"
# Any daemon reaps a dead daemon's instances when it starts: the killed
# one's goes, whether this test's next daemon or one of a test beside it
# (make check -j) removes it first.  What the next daemon itself says it
# removed is an instance only it takes for a gone daemon's: one named
# after its own pid (a daemon of before that had it), which every other
# daemon sees alive.  So that its pid is known before it starts, it runs
# in the foreground, in the very process that made that instance, and is
# waited for until its log says it is ready.  (Before, the next daemon
# was asked to say it removed the killed one's, which another daemon
# could remove between this test's look and its start: check 56 failed
# now and then in CI.)
ns=$(readlink /proc/self/ns/pid)
ns=${ns#pid:[}
ns=${ns%]}
LOG="$TEST_TMP/sessiond.reap.log"
(
	# the tag of a pid (ftrace-names.c): its number, and "_ns" and its
	# PID namespace's inode outside the first namespace
	tag=$BASHPID
	[ "$ns" = 4026531836 ] || tag=${tag}_ns$ns
	mkdir "$tfs/instances/ltt-$tag-1" || exit 1
	echo "$tag" >"$TEST_TMP/reap.tag"
	exec "$SESSIOND" --rundir "$LTT_RUNDIR" -vv --kernel-backend=tracefs
) </dev/null >/dev/null 2>"$LOG" &
rpid=$!
timeout "$TEST_TIMEOUT" bash -c \
	'until grep -q "ready: run directory" "$1"; do kill -0 "$2" 2>/dev/null || exit 3; done' \
	_ "$LOG" "$rpid"
ok $? "a new daemon started"
tag=$(cat "$TEST_TMP/reap.tag" 2>/dev/null)
is "$(instances "$spid")" 0 "the dead daemon's instance is gone"
like "$(cat "$LOG")" "removed ftrace instance ltt-$tag-1, left by a daemon that is gone" \
	"... and the new daemon removes the instance named after its own pid, saying so"
ok "$([ -n "$tag" ] && [ ! -e "$tfs/instances/ltt-$tag-1" ]; echo $?)" \
	"... which is gone (ltt-$tag-1)"
[ -n "$tag" ] && rmdir "$tfs/instances/ltt-$tag-1" 2>/dev/null
spid=$(sessiond_pid)
lttctl -q create k2 -o "$TEST_TMP/k2"
lttctl -q enable-event -k --syscall getppid -s k2
lttctl -q add-context -k -t tid -s k2
lttctl -q start k2
"$KLOAD" getppid 10 >"$TEST_TMP/getppid3"
lttctl -q stop k2
t4=$(sed -n 's/^tid //p' "$TEST_TMP/getppid3")
is "$(count "$TEST_TMP/k2" " syscall_entry_getppid: .*\\{ tid = $t4 \\}")" 10 "a new session records"
stop_sessiond
is "$(ls "$tfs/instances" | grep -c "^ltt-$spid-")" 0 "a daemon that stops leaves no instance"

# The default backend is auto: the module where it loads, else tracefs.
sessiond_log
ok $? "a daemon with the default backend started"
if [ ! -e /proc/modules ]; then
	like "$(cat "$LOG")" "the module can't serve \\(.*CONFIG_MODULES.*\\): tracing through tracefs instead" \
		"it tried the module, says why it can't serve, and traces through tracefs"
	like "$(cat "$LOG")" "backend tracefs" "... the kernel tracer is tracefs"
	run lttctl list -k
	like "$OUT" "^Kernel tracer: tracefs \\(tracefs [^)]*\\): ltt's module can't serve: .*CONFIG_MODULES" \
		"list -k says so, and why"
	run lttctl --mi xml list -k
	is "$(mi_xp 'concat(//domain/type, ":", count(//domain/events/event[type="TRACEPOINT"]) > 0)' <<<"$OUT")" \
		"KERNEL:true" "--mi xml list -k: the KERNEL domain's events (the tracer is in the text only)"
else
	like "$(cat "$LOG")" "backend (module|tracefs)" "it picked a backend"
	ok 0 "(the module's reasons are the kernel tests')"
	ok 0 "(list -k's reason is the kernel tests')"
	ok 0 "(... and in --mi xml)"
fi
stop_sessiond
done_testing
