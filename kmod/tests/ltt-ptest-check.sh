#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ltt-ptest-check.sh DIR - on the host, check what "ltt-ptest DIR" recorded
# in a guest (DIR/trace, DIR/facts, and when the runner saved them
# DIR/log, DIR/rc, DIR/dmesg, DIR/console.log): read the trace with
# babeltrace2 and assert that the workload's events are there with the
# values the workload knows (its pid, its child's, the file it opened,
# the program it ran, the signal it sent, ...).  TAP output; exit status 0
# when every check passed.
set -u

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
d=$1
n=0 failed=0

ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

fact() {
	sed -n "s/^$1=//p" "$d/facts"
}

# babeltrace2 on trace $1 into $2 (stderr in $3).  The metadata (the
# session daemon's generator) names the host "guest", which babeltrace2
# prints before each event's name: dropped, so lines read "(+delta) name:".
read_trace() {
	babeltrace2 "$1" >"$2" 2>"$3" || return
	sed -i -E 's/^(\[[^]]*\] \([^)]*\)) guest /\1 /' "$2"
}

# has EVENT REGEX DESCRIPTION: some EVENT line matches REGEX.
has() {
	grep -E "\] \(\+[^)]*\) $1: " "$txt" | grep -Eq -- "$2"
	ok $? "$3"
}

count() {
	grep -cE "\] \(\+[^)]*\) $1: " "$txt"
}

# some EVENT...: at least one of each
some() {
	local e c
	for e in "$@"; do
		c=$(count "$e")
		[ "$c" -gt 0 ]
		ok $? "$e: $c recorded"
	done
}

[ -f "$d/facts" ] && [ -d "$d/trace" ] || { echo "Bail out! no $d/facts or $d/trace"; exit 1; }
if [ -f "$d/rc" ]; then
	[ "$(cat "$d/rc")" = 0 ] && grep -q "^ltt-ptest: PASS" "$d/log"
	ok $? "ltt-ptest passed in the guest ($(grep -c '^ok' "$d/log") checks)"
fi
if [ -f "$d/dmesg" ]; then
	! grep -Eqi "warning|bug|oops|stall|lockdep|ltt:.*(fail|invalid)" "$d/dmesg"
	ok $? "no warning, bug or oops in the guest kernel's log"
fi
if [ -f "$d/console.log" ]; then
	grep -q LTT_MODULE_UNLOADED "$d/console.log"
	ok $? "ltt-tracer.ko unloaded after the test"
fi

txt=$d/trace.txt
read_trace "$d/trace" "$txt" "$d/babeltrace2.err"
ok $? "babeltrace2 reads the trace ($(wc -l <"$txt") events)"

pid=$(fact pid) child=$(fact child_pid)
# kernel addresses: the upper half, 0xFFFF... with 4-level paging, 0xFF...
# with 5-level (a 6.12 guest on QEMU's -cpu max)
has syscall_entry_openat "dfd = -100, filename = \"$(fact openat_path)\", flags = $(fact openat_flags), mode = $(fact openat_mode) }" \
	"syscall_entry_openat: dfd, the opened file's name, flags, mode"
# the next syscall_exit_openat of the entry's CPU (other CPUs' events interleave)
awk -v path="filename = \"$(fact openat_path)\"" '
	index($0, "syscall_entry_openat: ") && index($0, path) {
		match($0, /cpu_id = [0-9]+/); cpu = substr($0, RSTART, RLENGTH); next }
	cpu != "" && index($0, "syscall_exit_openat: { " cpu " }") { print; exit }' "$txt" |
	grep -q "{ ret = $(fact openat_fd) }"
ok $? "syscall_exit_openat: ret = the fd ($(fact openat_fd))"
has syscall_entry_execve "filename = \"$(fact exec_filename)\", argv = 0x[0-9A-F]+, envp = 0x" \
	"syscall_entry_execve: the program's path and pointers"
has syscall_exit_execve "ret = 0 }" "syscall_exit_execve: ret = 0"
has sched_process_fork "parent_comm = \"ltt-ptest\", parent_tid = $pid, parent_pid = $pid, child_comm = \"ltt-ptest\", child_tid = $child, child_pid = $child }" \
	"sched_process_fork: parent $pid, child $child"
has sched_wakeup_new "comm = \"ltt-ptest\", tid = $child, prio = 20, target_cpu = [0-9]+ }" \
	"sched_wakeup_new: the child"
has sched_process_exec "filename = \"$(fact exec_filename)\", tid = $child, old_tid = $child }" \
	"sched_process_exec: the child's new program"
has sched_process_exit "comm = \"ltt-ptest\", tid = $child, prio = 20(, group_dead = 1)? }" "sched_process_exit: the child"
has sched_process_wait "comm = \"ltt-ptest\", tid = $child, prio = 20 }" \
	"sched_process_wait: the parent waits for the child"
has sched_switch "prev_comm = \"ltt-ptest\", prev_tid = $pid, prev_prio = 20, prev_state = 1, " \
	"sched_switch: the test sleeps (prev_state 1, interruptible)"
has sched_switch "next_comm = \"ltt-ptest\", next_tid = $pid, next_prio = 20 }" \
	"sched_switch: the test runs again"
has sched_migrate_task "comm = \"ltt-ptest\", tid = $pid, prio = 20, orig_cpu = 0, dest_cpu = $(fact migrated_to) }" \
	"sched_migrate_task: CPU 0 -> $(fact migrated_to)"
has sched_wakeup "comm = \"ltt-ptest\", tid = $pid, prio = 20, target_cpu = [0-9]+ }" \
	"sched_wakeup: the test, woken after its sleep"
has syscall_entry_kill "pid = $pid, sig = $(fact signal) }" "syscall_entry_kill: pid and signal"
has syscall_exit_kill "ret = 0 }" "syscall_exit_kill: ret = 0"
has signal_generate "sig = $(fact signal), errno = 0, code = 0, comm = \"ltt-ptest\", pid = $pid, group = 1, result = 0 }" \
	"signal_generate: SIGUSR1 to the test, SI_USER, delivered"
has signal_deliver "sig = $(fact signal), errno = 0, code = 0, sa_handler = $(fact sa_handler | tr a-f A-F | sed 's/^0X/0x/'), " \
	"signal_deliver: SIGUSR1 to the handler at $(fact sa_handler)"
has signal_generate "sig = 17, .*pid = $pid, " "signal_generate: SIGCHLD to the parent"
has syscall_entry_unknown "id = $(fact unknown_nr), args = \[ \[0\] = 0x1, \[1\] = 0x2, \[2\] = 0x3, \[3\] = 0x4, \[4\] = 0x5, \[5\] = 0x6 \] }" \
	"syscall_entry_unknown: id $(fact unknown_nr) and its six arguments"
has syscall_exit_unknown "id = $(fact unknown_nr), ret = $(fact unknown_ret), " \
	"syscall_exit_unknown: ret $(fact unknown_ret)"
has net_dev_xmit "skbaddr = 0x[0-9A-F]+, len = $(fact udp_frame_len), rc = 0, name = \"lo\" }" \
	"net_dev_xmit: the UDP datagram on lo ($(fact udp_frame_len) bytes)"
has netif_receive_skb "skbaddr = 0x[0-9A-F]+, len = $(($(fact udp_frame_len) - 14)), name = \"lo\" }" \
	"netif_receive_skb: received on lo, Ethernet header pulled"
if [ -n "$(fact block_sector)" ]; then
	has block_rq_issue "sector = $(fact block_sector), nr_sector = $(fact block_nr_sector), bytes = $(($(fact block_nr_sector) * 512)), tid = [0-9]+, rwbs = [0-9]*[13579], " \
		"block_rq_issue: the 64 KiB write at sector $(fact block_sector)"
	has block_rq_complete "sector = $(fact block_sector), nr_sector = $(fact block_nr_sector), error = 0, rwbs = [0-9]*[13579] }" \
		"block_rq_complete: the write, no error"
fi
has kmem_mm_page_alloc "page = 0xFF[0-9A-F]{14}, pfn = [0-9]+, order = [0-9]+, gfp_flags = 0x[0-9A-F]+, migratetype = [0-9]+ }" \
	"kmem_mm_page_alloc: page, pfn, order, gfp_flags, migratetype"
has kmem_mm_page_free "page = 0xFF[0-9A-F]{14}, pfn = [0-9]+, order = [0-9]+ }" "kmem_mm_page_free: page, pfn, order"
! grep -E "irq_softirq_(entry|exit|raise): " "$txt" | grep -Evq "vec = [0-9] }"
ok $? "irq_softirq_*: every vec in 0..9"
has irq_handler_entry "irq = [0-9]+, name = \"[^\"]+\" }" "irq_handler_entry: irq and handler name"
has timer_hrtimer_start "hrtimer = 0xFF[0-9A-F]{14}, function = 0xFF[0-9A-F]{14}, expires = [0-9]+, softexpires = [0-9]+, mode = [0-9]+ }" \
	"timer_hrtimer_start: hrtimer, function, expires"
some sched_switch sched_waking sched_wakeup irq_softirq_entry irq_softirq_exit irq_softirq_raise \
	irq_handler_exit timer_hrtimer_expire_entry timer_hrtimer_expire_exit timer_start
[ "$(fact discarded)" = 0 ]
ok $? "nothing discarded"

# The second session: every system call's entry and exit events.
if [ -d "$d/trace-syscalls" ]; then
	f=$d/facts-syscalls
	txt=$d/trace-syscalls.txt
	fact() { sed -n "s/^$1=//p" "$f"; }
	read_trace "$d/trace-syscalls" "$txt" "$d/babeltrace2-syscalls.err"
	ok $? "every syscall: babeltrace2 reads the trace and its $(($(fact syscalls_listed) * 2)) event classes ($(wc -l <"$txt") events)"
	pid=$(fact pid) child=$(fact child_pid)
	names=$(grep -oE "\) syscall_entry_[a-z0-9_]+:" "$txt" | sort -u | wc -l)
	[ "$names" -ge 20 ]
	ok $? "every syscall: $names different system calls entered"
	! grep -E "\) syscall_e(ntry|xit)_[a-z0-9_]+: " "$txt" | grep -Evq "syscall_exit_[a-z0-9_]+: \{ cpu_id = [0-9]+ \}, \{ ret = -?[0-9]+ \}$|syscall_entry_|syscall_exit_unknown"
	ok $? "every syscall: each exit event holds ret only (unknown: id, ret, args)"
	entries=$(grep -cE "\) syscall_entry_" "$txt") exits=$(grep -cE "\) syscall_exit_" "$txt")
	[ "$entries" -gt 30 ] && [ $((entries - exits)) -le 4 ] && [ $((exits - entries)) -le 4 ]
	ok $? "every syscall: $entries entries, $exits exits"
	has syscall_entry_openat "dfd = -100, filename = \"$(fact openat_path)\", flags = $(fact openat_flags), mode = $(fact openat_mode) }" \
		"every syscall: syscall_entry_openat with its filename"
	has syscall_entry_execve "filename = \"$(fact exec_filename)\"" "every syscall: syscall_entry_execve"
	has syscall_entry_clone "clone_flags = [0-9]+, newsp = [0-9]+, parent_tidptr = 0x[0-9A-F]+, child_tidptr = " \
		"every syscall: syscall_entry_clone (argument names syscalls.h leaves out: SYSCALL_DEFINE's)"
	has syscall_entry_rt_sigaction "sig = $(fact signal), " "every syscall: syscall_entry_rt_sigaction SIGUSR1"
	has syscall_entry_wait4 "pid = $child, " "every syscall: syscall_entry_wait4 for the child"
	has syscall_entry_sendto "fd = [0-9]+, buff = 0x[0-9A-F]+, len = 123, " "every syscall: syscall_entry_sendto, 123 bytes (len, as lttng-analyses read it)"
	has syscall_entry_unknown "id = $(fact unknown_nr), " "every syscall: the unknown one"
	has syscall_entry_readlink "path = \"/proc/self/exe\", buf = 0x[0-9A-F]+, bufsiz = [0-9]+ }" \
		"every syscall: syscall_entry_readlink with its path"
	[ "$(fact discarded)" = 0 ]
	ok $? "every syscall: nothing discarded"
fi

echo "1..$n"
[ $failed -eq 0 ]
