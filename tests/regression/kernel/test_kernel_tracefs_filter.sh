#!/bin/bash
# test_kernel_tracefs_filter.sh - kernel filters through tracefs,
# natively (no VM).  The consumer runs each event's filter programs, the
# module's bytecode, on the kernel's records: the same language and the
# same result as with the module.  A channel with a filter beside one
# without, recording the same load, holds exactly the records the
# expression selects (a char array compared and globbed; $ctx.tid of
# programs held at a gate); rules added while the session records change
# what is kept from then on (a second filtered rule ORs, an unfiltered
# one keeps all); filtered records are not counted as discarded.  The
# kernel's own filter of each event says what ftrace's grammar can of the
# programs (common/ftrace/ftrace-prefilter.h), so rejected records stay out of
# the kernel's buffer: a tiny buffer, its consumer stopped, holds one
# program's calls whole while another's 20,000 never enter it.  What
# tracefs can't evaluate ($ctx.procname) and type errors are refused,
# and nothing changes.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 27
TFS=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)

# kfilter SYS/EVENT: the kernel's filter of the event in each of this
# daemon's instances that has it, sorted, one a line.
kfilter() {
	cat "$TFS/instances/ltt-$(sessiond_pid)-"*/events/"$1"/filter 2>/dev/null | sort
}

# chan_text DIR CHAN: babeltrace2's text of channel CHAN of the kernel trace in DIR.
chan_text() {
	local d="$TEST_TMP/chan-$CHAN_N"
	CHAN_N=$((CHAN_N + 1))
	mkdir "$d" && cp "$1/kernel/metadata" "$1/kernel/$2"_* "$d/" &&
		timeout "$BT_TIMEOUT" babeltrace2 "$d" 2>/dev/null
}
CHAN_N=0

# discarded SESSION: the discarded events of each channel of SESSION, one line.
discarded() {
	lttctl list "$1" | sed -n 's/^ *discarded events: //p' | tr '\n' ' '
}

# Field filters: two channels record sched_switch, one filtered on the
# char arrays, beside two threads handing a byte back and forth.
lttctl -q create sw -o "$TEST_TMP/sw"
lttctl -q enable-channel -k all -s sw
lttctl -q enable-channel -k f -s sw
lttctl -q enable-event -k sched_switch -c all -s sw
run lttctl enable-event -k sched_switch -c f -s sw --filter 'prev_comm == "kload" || next_comm == "kl*"'
is "$RC" 0 "enable-event -k with a filter on char arrays (== and a glob): taken"
ok_cmd "start" lttctl start sw
is "$(kfilter sched/sched_switch)" "$(printf '%s\n' '(prev_comm == "kload") || (next_comm ~ "kl*")' none)" \
	"the kernel filters the channel's sched_switch as well (a glob with ~), not the other channel's"
"$KLOAD" pingpong 1000 >/dev/null || echo "Bail out! kload pingpong failed"
lttctl -q stop sw
chan_text "$TEST_TMP/sw" all >"$TEST_TMP/all.txt"
chan_text "$TEST_TMP/sw" f >"$TEST_TMP/f.txt"
mine='prev_comm = "kload"|next_comm = "kload"'
want=$(grep -cE "$mine" "$TEST_TMP/all.txt")
ok "$([ "$want" -ge 1998 ]; echo $?)" "the unfiltered channel: $want switches from or to kload, of $(wc -l <"$TEST_TMP/all.txt")"
is "$(wc -l <"$TEST_TMP/f.txt")" "$want" "the filtered channel: exactly those"
is "$(grep -cvE "$mine" "$TEST_TMP/f.txt")" 0 "... and no other"
is "$(discarded sw)" "0 0 " "filtered records are not counted as discarded"
lttctl -q destroy sw

# $ctx.tid, and rules that change while the session records.
gated p1 300 0 0
gated p2 300 0 0
gated p3 300 0 0
gated p4 300 0 0
lttctl -q create t -o "$TEST_TMP/t"
lttctl -q add-context -k -t tid -s t
run lttctl enable-event -k --syscall getppid -s t --filter "\$ctx.tid == ${GPID[p1]}"
is "$RC" 0 "enable-event -k --syscall with a \$ctx.tid filter: taken"
lttctl -q start t
is "$(kfilter syscalls/sys_enter_getppid):$(kfilter syscalls/sys_exit_getppid)" \
	"common_pid == ${GPID[p1]}:common_pid == ${GPID[p1]}" "... the kernel's filter: common_pid"
go p1
run lttctl enable-event -k --syscall getppid -s t --filter "\$ctx.tid == ${GPID[p2]}"
is "$RC" 0 "a second filtered rule while recording: taken"
is "$(kfilter syscalls/sys_enter_getppid)" "(common_pid == ${GPID[p1]}) || (common_pid == ${GPID[p2]})" \
	"... the kernel's: either program"
go p2 p3
run lttctl enable-event -k --syscall getppid -s t
is "$RC" 0 "an unfiltered rule while recording: taken"
is "$(kfilter syscalls/sys_enter_getppid)" none "... the kernel's: none"
go p4
lttctl -q stop t
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/t" >"$TEST_TMP/t.txt" 2>/dev/null
counts=""
for p in p1 p2 p3 p4; do
	counts="$counts$(grep -c " syscall_entry_getppid: .*{ tid = ${GPID[$p]} }" "$TEST_TMP/t.txt")/"
	counts="$counts$(grep -c " syscall_exit_getppid: .*{ tid = ${GPID[$p]} }" "$TEST_TMP/t.txt") "
done
is "$counts" "300/300 300/300 0/0 300/300 " \
	"entries/exits kept: the first rule's program, both rules' after the second, all after the unfiltered one"
first=$(grep getppid "$TEST_TMP/t.txt" | head -1200 |
	grep -cE "\{ tid = (${GPID[p1]}|${GPID[p2]}) \}")
is "$first" 1200 "the first 1200 records: the two filtered programs' calls, no other task's (made before the unfiltered rule)"
is "$(discarded t)" "0 " "nothing counted as discarded"
lttctl -q destroy t

# The kernel's filter keeps rejected records out of its buffer: 8 KiB a
# CPU in discard mode, its consumer stopped, one CPU's load of 20,000
# calls the filter rejects, then 50 it keeps.  Without the kernel's
# filter the first would fill the buffer and the 50 be discarded.
gated noisy 20000 0 0
gated kept 50 0 0
lttctl -q create pre -o "$TEST_TMP/pre"
lttctl -q enable-channel -k tiny --subbuf-size 4k --num-subbuf 2 --discard -s pre
lttctl -q add-context -k -t tid -c tiny -s pre
run lttctl enable-event -k --syscall getppid -c tiny -s pre \
	--filter "\$ctx.tid == ${GPID[kept]} && (\$ctx.tid << 1) > 0"
lttctl -q start pre
is "$(kfilter syscalls/sys_enter_getppid)" "common_pid == ${GPID[kept]}" \
	"an operand ftrace can't say (a shift) is the consumer's alone: the kernel's filter is the rest"
cons=$(consumer_pid)
stop_proc "$cons"
taskset -p -c 0 "${GPID[noisy]}" >/dev/null
taskset -p -c 0 "${GPID[kept]}" >/dev/null
go noisy
go kept
kill -CONT "$cons"
lttctl -q stop pre
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/pre" >"$TEST_TMP/pre.txt" 2>/dev/null
is "$(grep -c " syscall_entry_getppid: .*{ tid = ${GPID[kept]} }" "$TEST_TMP/pre.txt")/$(grep -c " syscall_exit_getppid: .*{ tid = ${GPID[kept]} }" "$TEST_TMP/pre.txt")/$(wc -l <"$TEST_TMP/pre.txt")" \
	"50/50/100" "the consumer stopped: the 50 calls kept, whole, and nothing else"
is "$(discarded pre)" "0 " "... nothing discarded: the 20,000 rejected calls never took room"
lttctl -q destroy pre

# Refused, naming what is wrong; nothing added.
lttctl -q create bad -o "$TEST_TMP/bad"
run lttctl enable-event -k sched_switch -s bad --filter '$ctx.procname == "x"'
like "$RC.$ERR" "^1.Error: " "a filter reading \$ctx.procname: refused"
like "$(cat "$LOG")" "reading \\\$ctx.procname refused: the kernel tracing backend is tracefs" \
	"... the log says tracefs records the tid and the CPU only"
run lttctl enable-event -k sched_switch -s bad --filter 'prev_comm == 3'
like "$RC.$ERR" "^1.Error: " "a type error (a char array compared with a number): refused"
run lttctl enable-event -k sched_switch -s bad --filter 'prev_prio > 1.5'
like "$RC.$ERR" "^1.Error: " "a float: refused"
run lttctl list bad
unlike "$OUT" "sched_switch" "list: no rule was added"
# in a list, a type error is the one event's: the others are still added
run lttctl enable-event -k sched_switch,sched_process_exec -s bad --filter 'prev_comm == 3'
is "$RC:$(grep -c "^Error: event rule 'sched_switch'" <<<"$ERR")" 1:1 \
	"a list where the filter fails one event's types: status 1, that event named"
run lttctl list bad
like "$OUT" "sched_process_exec \\(type: tracepoint\\)" "... the other event's rule added all the same, as LTTng does"
lttctl -q destroy bad
stop_sessiond
done_testing
