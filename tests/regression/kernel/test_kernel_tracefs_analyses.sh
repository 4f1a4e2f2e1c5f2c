#!/bin/bash
# test_kernel_tracefs_analyses.sh - a kernel trace through tracefs read
# by the users' own analyses, natively: Debian's lttng-analyses
# (python3-lttnganalyses, on babeltrace 1) take ltt's trace as
# lttng-modules' (its env names LTTng's tracer and version, which they
# need to start).  A known load: a program's 1000 getppid calls, two
# threads handing a byte back and forth 500 times; lttng-syscallstats
# counts exactly the getppid calls under the program's name and tid,
# lttng-cputop lists the ping-pong's threads with their priority as
# LTTng gives it (20 for nice 0) in a trace with the procname context
# (test_kernel_tracefs_procname.sh), lttng-irqstats and lttng-schedtop run without an
# error.  The getppid program runs before the session starts (the
# state dump, lttng_statedump_*, has it).  sched_process_fork is enabled:
# lttng-analyses read its parent_pid and child_pid, which the consumer
# derives (test_kernel_tracefs_fork.sh).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
command -v lttng-syscallstats >/dev/null ||
	skip_all "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 13

# The getppid program exists before the session starts (held at its
# gate), as the programs users analyse usually do.  Everything on CPU 0,
# from the fork on: a running task that the kernel's stopper moves to
# another CPU (taskset, exec balancing) runs there with no sched_switch
# into it (the kernel's own ftrace has none either, measured on 6.18),
# and lttng-analyses know a CPU's task, and a thread's priority, by the
# switches into it.
# record TRY: the program g$TRY and the ping-pong in session t; pid,
# ping and pong their tids
record() {
	local g=g$1
	rm -rf "$TEST_TMP/t"
	gated_cpu0 "$g" 1000
	switch_watch_begin
	lttctl -q create t -o "$TEST_TMP/t" &&
		lttctl -q enable-event -k sched_switch,sched_wakeup,sched_process_exec,sched_process_fork,irq_handler_entry,irq_handler_exit &&
		lttctl -q enable-event -k 'lttng_statedump_*' &&
		lttctl -q enable-event -k --syscall getppid,read,write &&
		lttctl -q add-context -k -t procname -t tid &&
		lttctl -q start || { echo "Bail out! session t"; exit 1; }
	go "$g"
	pp=$("$KLOAD" pingpong 500) || { echo "Bail out! kload pingpong failed"; exit 1; }
	lttctl -q stop && lttctl -q destroy
	switch_watch_end "$TEST_TMP/t/kernel" "$1"
	pid=${GPID[$g]}
	read -r ping pong <<<"${pp#tids }"
}
# lttng-analyses know a task by the switches into it: a trace where the
# kernel left one out (lib.sh, switch_gaps) is recorded again, three
# times at most.  Each recording's switches are compared with a raw
# ftrace instance's (lib.sh, switch_watch_end): a gap ltt made would fail
# there, not be skipped below.
for try in 1 2 3; do
	record $try
	gaps=$(switch_gaps "$TEST_TMP/t/kernel" "$pid" "$ping" "$pong")
	[ "$gaps" = 0 ] && break
	diag "recording $try: $gaps records of the programs follow no switch to them; again"
done
is "$SW_DROPPED" "" "each recording's switches, CPU by CPU, are those a raw ftrace instance got over the same time: ltt dropped none ($try recordings)"
like "$(babeltrace2 --output-format=ctf-metadata "$TEST_TMP/t/kernel" | grep -E '^\s*tracer_(name|major|minor|patchlevel) ' | tr -d '\t\n')" \
	'^tracer_name = "lttng-modules";tracer_major = 2;tracer_minor = 13;tracer_patchlevel = 0;$' \
	"the env names LTTng's kernel tracer, 2.13.0"

analysis syscallstats
is $? 0 "lttng-syscallstats reads the trace"
# the program's block: from its "NAME (PID, TID: T)" line to its "Total:"
calls=$(awk -v t="TID: $pid)" '$1 == "kload" && index($0, t) { on = 1; next } $1 == "Total:" { on = 0 }
	on && $1 == "-" && $2 == "getppid" { print $3 }' "$TEST_TMP/syscallstats.txt")
if [ "$gaps" = 0 ]; then
	is "$calls" 1000 "... the program's 1000 getppid calls, under its name and tid" ||
		diag "$(grep -E '^[^ ]+ \(|getppid' "$TEST_TMP/syscallstats.txt")"
else
	skip 1 "the kernel left out a switch into the program in 3 recordings: lttng-analyses can't name its task"
fi
unlike "$(cat "$TEST_TMP/syscallstats.txt")" "Error" "... no error"

analysis cputop --limit 100000
is $? 0 "lttng-cputop reads the trace"
if [ "$gaps" = 0 ]; then
	is "$(grep -cE " \(($ping|$pong)\) +[0-9]+ +\[20\]" "$TEST_TMP/cputop.txt")" 2 \
		"... the two threads, by tid, priority 20 (nice 0)" ||
		diag "$(grep -E "Process|\(($ping|$pong)\)" "$TEST_TMP/cputop.txt")"
else
	skip 1 "the kernel left out a switch into a thread in 3 recordings: lttng-analyses can't name it"
fi
# (the main thread keeps the name it had before exec: lttng-analyses
# take a procname context at sched_process_exec only, and cputop keeps
# the name a thread had when first met)
like "$(cat "$TEST_TMP/cputop.txt")" " kload \($pong\) " "... the second named kload"
unlike "$(cat "$TEST_TMP/cputop.txt")" "Error" "... no error"

analysis irqstats
is $? 0 "lttng-irqstats reads the trace"
analysis schedtop
is $? 0 "lttng-schedtop reads the trace"
unlike "$(cat "$TEST_TMP/irqstats.txt" "$TEST_TMP/schedtop.txt")" "Error" "... neither says an error"
stop_sessiond
done_testing
