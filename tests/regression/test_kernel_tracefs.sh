#!/bin/bash
# test_kernel_tracefs.sh - the tracefs kernel backend, natively (no VM): a
# root daemon started with --kernel-backend=tracefs traces the kernel
# through the kernel's own tracing buffers.  `lttctl list -k` lists
# exactly what the running kernel offers (available_events), under
# LTTng's names; until the backend records, every command that would
# record is refused with a sentence naming the backend, and nothing is
# made.  A bad --kernel-backend is refused before the daemon starts.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
plan 18

# A bad backend: refused, nothing started.
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$LTT_RUNDIR" --kernel-backend=ftrace
is "$RC" 1 "--kernel-backend=ftrace: refused"
is "$ERR" "ltt-sessiond: Error: --kernel-backend=ftrace: give module or tracefs" \
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
# the system call NAME.
expect_events() {
	awk -F: '$1 != "syscalls" {
		n = index($2, $1 "_") == 1 ? $2 : $1 "_" $2; print n }' "$tfs/available_events" | sort
}
expect_syscalls() {
	sed -n 's/^syscalls:sys_enter_//p' "$tfs/available_events" | sort
}
listed() {
	sed -n 's/^    \([^ ]*\) (type: \(tracepoint\|syscall\))$/\1/p' | sort
}
run lttctl list -k
is "$RC" 0 "list -k works"
is "$(listed <<<"$OUT" | wc -l)" "$(expect_events | wc -l)" \
	"list -k: as many events as available_events has outside syscalls ($(expect_events | wc -l))"
is "$(listed <<<"$OUT")" "$(expect_events)" "list -k: each of them, under its LTTng name"
is "$(listed <<<"$OUT" | grep -cxE 'sched_switch|irq_handler_entry|timer_hrtimer_start|kmem_mm_page_alloc')" 4 \
	"list -k: sched_switch, irq_handler_entry, timer_hrtimer_start, kmem_mm_page_alloc"
run lttctl list -k --syscall
is "$(listed <<<"$OUT")" "$(expect_syscalls)" \
	"list -k --syscall: every system call of the kernel ($(expect_syscalls | wc -l))"
is "$(listed <<<"$OUT" | grep -cxE 'getppid|openat')" 2 "list -k --syscall: getppid, openat"

# Recording is not there yet: refused with the backend named, nothing made.
lttctl -q create s -o "$TEST_TMP/s"
run lttctl enable-event -k sched_switch -s s
like "$RC.$ERR" "^1.Error: .*the session daemon traces the kernel through tracefs .* does not record them yet" \
	"enable-event -k: refused, naming the backend"
run lttctl enable-channel -k c -s s
like "$RC.$ERR" "^1.Error: channel 'c' of session 's': the session daemon traces the kernel through tracefs" \
	"enable-channel -k: refused the same way"
run lttctl list s
unlike "$OUT" "Kernel" "list s: no kernel channel was made"
stop_sessiond

# The default backend is the module (auto, the module else tracefs, comes
# with tracefs recording).
sessiond_log
ok $? "a daemon with the default backend started"
if [ ! -e /proc/modules ]; then
	like "$(cat "$LOG")" "cannot load modules \\(it was built without CONFIG_MODULES\\)" \
		"it tried the module, and says why it can't serve"
else
	like "$(cat "$LOG")" "backend module|ltt-tracer" "it tried the module"
fi
unlike "$(cat "$LOG")" "backend tracefs" "... and did not fall back to tracefs"
stop_sessiond
done_testing
