#!/bin/bash
# test_kernel_tracefs_procname.sh - the process contexts on a tracefs
# channel (add-context -k -t procname -t pid -t ppid -t vpid -t vtid),
# which ftrace's records don't hold: the consumer derives them from its
# task table, kept by the records of task_newtask, task_rename,
# sched_process_exec, sched_switch and sched_process_free, which the
# session daemon enables for the table and doesn't write into the trace.
# A program that exists before the start (kload rename, at its gate)
# makes 1000 getppid calls, renames itself, 1000 more, forks a child
# process that makes 1000 and starts a thread that makes 1000: every call
# carries its name of that moment (1000 then 1000, in that order), its
# process, its parent.  A program the shell forks and execs while
# recorded carries the name its exec gave it; one in a new pid
# namespace (unshare) its ids there, 1 and 1.  The contexts of the
# user's own sched_switch, written from its enable to its disable
# whatever the table read; the other contexts and a filter reading
# $ctx.procname refused.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 27
N=1000

# kload prints its tid before its calls: each program is waited for
# before the next step (under ASan's load a stop came before 61 of a
# program's 1000 calls, and an enable before its last switches).

# getppid FILE TID: the context fields of TID's getppid entries in FILE,
# one line each, "procname pid ppid vpid vtid", in time order.
getppid_of() {
	sed -n "s/.* syscall_entry_getppid: { cpu_id = [0-9]* }, { tid = $2, procname = \"\\([^\"]*\\)\", pid = \\([0-9-]*\\), ppid = \\([0-9-]*\\), vpid = \\([0-9-]*\\), vtid = \\([0-9-]*\\) }.*/\\1 \\2 \\3 \\4 \\5/p" "$1"
}

# The renaming program, at its gate before the session starts.
mkfifo "$TEST_TMP/r.in" "$TEST_TMP/r.out"
"$KLOAD" rename "$N" knew <"$TEST_TMP/r.in" >"$TEST_TMP/r.out" &
exec {rin}>"$TEST_TMP/r.in" {rout}<"$TEST_TMP/r.out"
read -r -t "$TEST_TIMEOUT" -u "$rout" word rpid
[ "$word" = ready ] || { echo "Bail out! kload rename did not get ready"; exit 1; }

lttctl -q create p -o "$TEST_TMP/p" &&
	lttctl -q enable-event -k --syscall getppid,read &&
	lttctl -q add-context -k -t tid -t procname -t pid -t ppid -t vpid -t vtid &&
	lttctl -q start
is $? 0 "a session of getppid and read with tid, procname, pid, ppid, vpid, vtid started"
exec {rin}>&-
read -r -t "$TEST_TIMEOUT" -u "$rout" word main child thread
wait "$rpid"
is "$word $main" "tids $rpid" "the renaming program ran: child $child, thread $thread"
# a program the shell forks, and that execs, while recorded
read -r word etid < <("$KLOAD" getppid "$N")
wait $!	# its calls made, its switches done
# a program in a pid namespace of its own, alive until the stop (its
# ids there come from /proc: a parent's unshare shows in no record)
mkfifo "$TEST_TMP/ns.in" "$TEST_TMP/ns.out"
unshare --pid --fork "$KLOAD" threads 1 kns <"$TEST_TMP/ns.in" >"$TEST_TMP/ns.out" &
exec {nsin}>"$TEST_TMP/ns.in" {nsout}<"$TEST_TMP/ns.out"
read -r -t "$TEST_TIMEOUT" -u "$nsout" word nspid word nstids
lttctl -q stop && lttctl -q destroy
exec {nsin}>&- {nsout}<&-
wait
babeltrace2 "$TEST_TMP/p" >"$TEST_TMP/p.txt" 2>"$TEST_TMP/p.err"
is $? 0 "babeltrace2 reads the trace"
like "$(babeltrace2 --output-format=ctf-metadata "$TEST_TMP/p/kernel" | tr -d '\t\n')" \
	'event.context := struct \{.*_tid;.*_procname\[17\];.*_pid;.*_ppid;.*_vpid;.*_vtid;' \
	"metadata: the contexts, procname a char[17] as lttng-modules'"

getppid_of "$TEST_TMP/p.txt" "$main" >"$TEST_TMP/main"
is "$(wc -l <"$TEST_TMP/main")" $((2 * N)) "the program's $((2 * N)) calls recorded"
is "$(uniq -c <"$TEST_TMP/main" | awk '{ $1 = $1; print }' | tr '\n' ';')" \
	"$N kload $main $$ $main $main;$N knew $main $$ $main $main;" \
	"... $N named kload then $N named knew, pid $main, ppid the shell ($$), vpid and vtid its own"
getppid_of "$TEST_TMP/p.txt" "$child" | sort | uniq -c | awk '{ $1 = $1; print }' >"$TEST_TMP/child"
is "$(cat "$TEST_TMP/child")" "$N knew $child $main $child $child" \
	"the child process's $N: named knew, its own pid, ppid the program"
getppid_of "$TEST_TMP/p.txt" "$thread" | sort | uniq -c | awk '{ $1 = $1; print }' >"$TEST_TMP/thread"
is "$(cat "$TEST_TMP/thread")" "$N knew $main $$ $main $thread" \
	"the thread's $N: named knew, pid the program, ppid the shell"
getppid_of "$TEST_TMP/p.txt" "$etid" | sort | uniq -c | awk '{ $1 = $1; print }' >"$TEST_TMP/exec"
is "$(cat "$TEST_TMP/exec")" "$N kload $etid $$ $etid $etid" \
	"a program forked and exec'd while recorded: its $N named kload (its exec's name)"
ns=$(sed -n 's/.* syscall_entry_read: .*, { tid = \([0-9]*\), procname = "kns", pid = \1, ppid = [0-9]*, vpid = 1, vtid = 1 }.*/\1/p' "$TEST_TMP/p.txt" | sort -u)
like "$ns" "^[0-9]+\$" "a program in a new pid namespace (it says pid $nspid, tids $nstids): its read with vpid 1, vtid 1"
unlike "$ns" "^1\$" "... and its pid outside"
is "$(grep -cE ' (sched_switch|task_rename|task_newtask|sched_process_exec|sched_process_free):' "$TEST_TMP/p.txt")" 0 \
	"the events the table reads are not written (not enabled)"
is "$(grep -c . "$TEST_TMP/p.err")" 0 "babeltrace2 says nothing else"

# The user's own sched_switch beside the table's: written, with contexts;
# a filter reading $ctx.procname refused (the consumer's filters read tid
# and cpu_id only).
lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q add-context -k -t procname -t pid &&
	lttctl -q enable-event -k sched_switch &&
	lttctl -q enable-event -k --syscall getppid &&
	lttctl -q start
is $? 0 "a session with sched_switch enabled and the contexts"
read -r word stid < <("$KLOAD" getppid "$N")
wait $!	# its calls made, its switches done
# disabled: the table reads it on, the trace no longer has it
lttctl -q disable-event -k sched_switch
read -r word dtid < <("$KLOAD" getppid "$N")
wait $!	# its calls made, its switches done
lttctl -q stop
lttctl -q enable-event -k sched_process_exec --filter '$ctx.procname == "kload"' 2>"$TEST_TMP/f.err"
ok "$([ $? -ne 0 ]; echo $?)" "a kernel filter reading \$ctx.procname refused"
lttctl -q destroy
babeltrace2 "$TEST_TMP/s" >"$TEST_TMP/s.txt" 2>/dev/null
is "$(grep -c "syscall_entry_getppid: .*{ procname = \"kload\", pid = $stid }" "$TEST_TMP/s.txt")" "$N" \
	"... the program's $N calls named kload"
ok "$(grep -q "sched_switch: .*{ procname = \"kload\", pid = $stid }, { prev_comm = \"kload\", prev_tid = $stid," "$TEST_TMP/s.txt"; echo $?)" \
	"... its switches out of it written, with its contexts"
is "$(grep -cE ' (task_rename|task_newtask|sched_process_free):' "$TEST_TMP/s.txt")" 0 \
	"... the events only the table reads not written"
is "$(grep -c "syscall_entry_getppid: .*{ procname = \"kload\", pid = $dtid }" "$TEST_TMP/s.txt")" "$N" \
	"sched_switch disabled: a later program's $N calls named kload all the same"
is "$(grep -c "sched_switch: .*prev_tid = $dtid," "$TEST_TMP/s.txt")" 0 "... and none of its switches written"

# sched_switch enabled while recorded, read for the table before: its
# records of before the enable (still in the kernel's buffer) not
# written, those after written.
lttctl -q create u -o "$TEST_TMP/u" &&
	lttctl -q add-context -k -t procname &&
	lttctl -q enable-event -k --syscall getppid &&
	lttctl -q start
read -r word atid < <("$KLOAD" getppid "$N")
wait $!	# its calls made, its switches done
lttctl -q enable-event -k sched_switch
read -r word btid < <("$KLOAD" getppid "$N")
wait $!	# its calls made, its switches done
lttctl -q stop && lttctl -q destroy
babeltrace2 "$TEST_TMP/u" >"$TEST_TMP/u.txt" 2>/dev/null
is "$(grep -cE "sched_switch: .*(prev|next)_tid = $atid," "$TEST_TMP/u.txt")" 0 \
	"sched_switch enabled after a program ran: none of its switches written"
ok "$(grep -q "sched_switch: .*prev_tid = $btid," "$TEST_TMP/u.txt"; echo $?)" \
	"... those of a program after the enable written"

# The kernel's other contexts stay refused on tracefs.
lttctl -q create x -o "$TEST_TMP/x" && lttctl -q enable-event -k --syscall getppid
lttctl -q add-context -k -t prio 2>"$TEST_TMP/x.err"
ok "$([ $? -ne 0 ]; echo $?)" "add-context -k -t prio refused"
like "$(cat "$TEST_TMP/x.err")" "tracefs" "... saying why (the backend)"
# a refused type among others: the others are added all the same, as LTTng does
run lttctl add-context -k -t procname -t prio -t pid
is "$RC:$(grep -c "context prio" <<<"$ERR")" 1:1 "add-context -t procname -t prio -t pid: status 1, prio named in the error"
is "$(lttctl list x | sed -n 's/^ *\(procname\|prio\|pid\)$/\1/p' | sort | tr '\n' ' ')" "pid procname " \
	"... and procname and pid, before and after it, added"
lttctl -q destroy x
stop_sessiond
