#!/bin/bash
# test_kernel_tracefs_fork.sh - sched_process_fork through tracefs laid
# out as lttng-modules lays it out: parent_comm, parent_tid, parent_pid,
# child_comm, child_tid, child_pid.  ftrace's record has only the tids;
# the consumer adds each one's thread group (/proc when it converts the
# record; a task gone by then is taken for a process of its own).  A
# program (kload threads) started by the test's shell and its 3 threads:
# the program's fork has parent_pid and parent_tid the shell, child_pid
# and child_tid the program; each thread's has child_pid the program.  A
# filter on the derived child_pid is the consumer's (the kernel's filter
# would read ftrace's tid): child_pid != child_tid keeps the threads.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 12

# forks FILE: the sched_process_fork lines of FILE's trace, fields only.
forks() {
	sed -n 's/.* sched_process_fork: .*{ \(parent_comm = .*\) }$/\1/p' "$1"
}

# record SESSION [ENABLE-EVENT ARGS...]: a session of sched_process_fork
# while the test's shell starts kload threads 3 forky; stopped while the
# program lives (its record is converted then), then the program ends.
# KPID is its pid, KTIDS its threads' tids.
record() {
	local name=$1 in out word
	shift
	lttctl -q create "$name" -o "$TEST_TMP/$name" &&
		lttctl -q enable-event -k sched_process_fork "$@" &&
		lttctl -q start || return 1
	mkfifo "$TEST_TMP/$name.in" "$TEST_TMP/$name.out"
	"$KLOAD" threads 3 forky <"$TEST_TMP/$name.in" >"$TEST_TMP/$name.out" &
	exec {in}>"$TEST_TMP/$name.in" {out}<"$TEST_TMP/$name.out"
	read -r -t "$TEST_TIMEOUT" -u "$out" word KPID word KTIDS
	KTIDS=${KTIDS#* }	# the threads, the main thread left out
	lttctl -q stop "$name"
	exec {in}>&- {out}<&-
	wait
	lttctl -q destroy "$name"
	babeltrace2 "$TEST_TMP/$name" >"$TEST_TMP/$name.txt" 2>"$TEST_TMP/$name.err"
}

record s
is $? 0 "a session of sched_process_fork recorded, babeltrace2 reads it"
ok "$([ -n "$KPID" ] && [ "$(wc -w <<<"$KTIDS")" = 3 ]; echo $?)" "the program ($KPID) and its 3 threads ($KTIDS)"
meta=$(babeltrace2 --output-format=ctf-metadata "$TEST_TMP/s/kernel" | tr -d '\t\n')
like "$meta" 'name = "sched_process_fork";.*_parent_comm;.*_parent_tid;.*_parent_pid;.*_child_comm;.*_child_tid;.*_child_pid;' \
	"metadata: lttng-modules' fields, in its order"
forks "$TEST_TMP/s.txt" >"$TEST_TMP/s.forks"
is "$(grep -c "child_tid = $KPID," "$TEST_TMP/s.forks")" 1 "one fork made the program"
like "$(grep "child_tid = $KPID," "$TEST_TMP/s.forks")" \
	"^parent_comm = \"[^\"]*\", parent_tid = $$, parent_pid = $$, child_comm = \"[^\"]*\", child_tid = $KPID, child_pid = $KPID\$" \
	"... its parent the test's shell ($$), a process of its own"
n=0
for t in $KTIDS; do
	grep -q "^parent_comm = \"forky\", parent_tid = $KPID, parent_pid = $KPID, child_comm = \"forky\", child_tid = $t, child_pid = $KPID\$" \
		"$TEST_TMP/s.forks" && n=$((n + 1))
done
is "$n" 3 "each thread's fork: parent the program, child_tid the thread, child_pid the program"
[ "$n" = 3 ] || diag "$(grep -E "parent_tid = $KPID," "$TEST_TMP/s.forks")"
is "$(grep -c . "$TEST_TMP/s.err")" 0 "babeltrace2 says nothing else"

# A short-lived child, gone before its record is converted: a process.
lttctl -q create g -o "$TEST_TMP/g" && lttctl -q enable-event -k sched_process_fork &&
	lttctl -q start && /bin/true && lttctl -q stop && lttctl -q destroy
babeltrace2 "$TEST_TMP/g" >"$TEST_TMP/g.txt" 2>/dev/null
like "$(forks "$TEST_TMP/g.txt" | grep "parent_tid = $$,")" \
	"parent_pid = $$, child_comm = \"[^\"]*\", child_tid = ([0-9]+), child_pid = \\1\$" \
	"a child gone before the stop: child_pid is its tid"

# A filter on a derived field: the consumer judges it (ftrace's own
# child_pid is the tid: a kernel filter "child_pid != child_pid" would
# keep nothing).
record f --filter 'child_pid != child_tid'
is $? 0 "a session filtering child_pid != child_tid (threads)"
is "$(forks "$TEST_TMP/f.txt" | grep -c "child_comm = \"forky\".*child_pid = $KPID\$")" 3 \
	"... the program's 3 threads recorded"
is "$(forks "$TEST_TMP/f.txt" | grep -c "child_tid = $KPID,")" 0 "... not the program's own fork"
stop_sessiond
