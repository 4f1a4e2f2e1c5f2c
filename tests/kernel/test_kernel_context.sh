#!/bin/bash
# Context fields of kernel channels (lttctl add-context -k), in a real
# kernel, read by babeltrace2 on the host: every value of a known process
# (tests/kernel/kctxload.c: its own UTS and pid namespaces, pinned on a
# CPU, reniced, distinct uids and gids) compared with the truth in every
# event, with exact counts; the refusals; list, MI and save/load.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_context
plan 41

s=kernel_context
out=$KVM_OUT/$s
kvm_scenario_ok $s

# fact KEY: KEY's value in the child's and parent's KEY=VALUE lines.
fact() {
	sed -n "s/^$1=//p" "$out/load_facts"
}

# count PATTERN: the events of the trace matching the ERE PATTERN.
count() {
	grep -cE -- "$1" "$TEST_TMP/bt"
}

n=$(cat "$out/n")
cpu=$(cat "$out/cpu")
nice=$(cat "$out/nice")
host=$(cat "$out/host")
child=$(fact child_pid)
parent=$(fact parent_pid)
is "$(cat "$out/add_a.rc") $(cat "$out/add_b.rc")" "0 0" "add-context -k: 15 contexts to ctxa, 20 to ctxb"
is "$(grep -c '^kernel context .* added to channel ctxa$' "$out/add_a")" 15 \
	"  each said: kernel context TYPE added to channel ctxa"
is "$(fact status) $(fact emitted) $(fact vpid) $(fact vtid) $(fact cpu) $(fact nice)" \
	"0 $n 1 1 $cpu $nice" "kctxload's child: pid 1 in its pid namespace, on CPU $cpu, nice $nice, $n events"

timeout "$TEST_TIMEOUT" babeltrace2 "$out/trace" >"$TEST_TMP/bt" 2>"$TEST_TMP/bt.err"
is "$?" 0 "babeltrace2 reads the trace"
is "$(count 'ltt_test_event: ')" $((2 * n)) "every event twice: once per channel"

# Channel ctxa: the process and scheduler contexts, in the order added.
# prio: nice 7 is priority 27 (120 + 7 - MAX_RT_PRIO), as /proc/PID/stat.
a="pid = $child, tid = $child, vpid = 1, vtid = 1, ppid = $parent, vppid = 0, procname = \"kctx-child\", prio = $((20 + nice)), nice = $nice, cpu_id = $cpu, hostname = \"$host\", interruptible = 1, preemptible = 1, need_reschedule = [01], migratable = 1"
is "$(count "ltt_test_event: \{ cpu_id = $cpu \}, \{ $a \}, \{ seq = ")" "$n" \
	"ctxa: all $n events carry the child's exact values"
is "$(count 'ltt_test_event: \{ cpu_id = [0-9]+ \}, \{ pid = ')" "$n" "ctxa: no other event"
is "$(count "pid = $child, tid = $child, vpid = 1, vtid = 1, ")" "$n" "  pid and tid $child (root namespace), vpid and vtid 1"
is "$(count "ppid = $parent, vppid = 0, ")" "$n" "  ppid $parent, vppid 0 (the parent is outside the child's pid namespace)"
is "$(count 'procname = "kctx-child", ')" "$n" "  procname kctx-child"
is "$(count "prio = $((20 + nice)), nice = $nice, cpu_id = $cpu, ")" "$n" "  prio $((20 + nice)), nice $nice, cpu_id $cpu"
is "$(count "hostname = \"$host\", ")" "$n" "  hostname $host (the child's UTS namespace)"
is "$(count "interruptible = 1, preemptible = 1, need_reschedule = [01], migratable = 1 \}")" "$n" \
	"  interruptible, preemptible and migratable 1 (process context, no lock held)"

# Channel ctxb: the namespace inode numbers of /proc/self/ns/* and the ids.
b=""
for ns in cgroup ipc mnt net pid time user uts; do
	v=$(fact ${ns}_ns)
	like "$v" '^[0-9]+$' "the child's $ns namespace: inode $v"
	b="$b${ns}_ns = $v, "
done
b="${b}uid = 1000, euid = 1001, suid = 1002, gid = 100, egid = 200, sgid = 300, vuid = 1000, veuid = 1001, vsuid = 1002, vgid = 100, vegid = 200, vsgid = 300"
is "$(count "ltt_test_event: \{ cpu_id = $cpu \}, \{ $b \}, \{ seq = ")" "$n" \
	"ctxb: all $n events carry the child's namespaces and its real, effective and saved ids"
# PROC_PID_INIT_INO and PROC_UTS_INIT_INO: the initial namespaces' inodes.
ok "$([ "$(fact pid_ns)" != 4026531836 ] && [ "$(fact uts_ns)" != 4026531838 ]; echo $?)" \
	"  the child's own pid and UTS namespaces (not the initial ones)"

# The seq numbers in each channel: 0..n-1, once each.
is "$(grep -E 'pid = ' "$TEST_TMP/bt" | sed -n 's/.*{ seq = \([0-9]*\),.*/\1/p' | sort -n | uniq | wc -l)" "$n" \
	"ctxa: seq 0 .. $((n - 1)), each once"

# Refusals, before the start, changed nothing (list before == after).
is "$(cat "$out/dup.rc")" 1 "a context twice: refused"
like "$(cat "$out/dup")" "already has this context" "  CONTEXT_EXISTS"
like "$(cat "$out/ip.rc") $(cat "$out/ip")" "^2 .*'ip' is not a kernel context: .*--list -k" \
	"ip (user space's): refused, pointing at --list -k"
like "$(cat "$out/perf.rc") $(cat "$out/perf")" "^1 .*a perf counter context in the kernel domain .*is not supported by ltt: add the counter to a user-space channel" \
	"perf:cpu:cycles: refused with a sentence (what ltt lacks, what to do)"
like "$(cat "$out/late.rc") $(cat "$out/late")" "^1 .*contexts can't be added to a session that was started" \
	"after the start: CONTEXT_STARTED"
is "$(grep -cxE 'pid|tid|ppid|vppid|prio|nice|hostname|interruptible|preemptible|need_reschedule|migratable|uid|euid|suid|gid|egid|sgid|vpid|vtid|procname|cpu_id|[a-z]+_ns|v[es]?[ug]id' "$out/list_types")" 35 \
	"add-context --list -k: the kernel domain's 35 types"
is "$(grep -cxE 'ip|pthread_id|perf:.*' "$out/list_types")" 0 "  not ip, pthread_id or perf counters"

# list, MI, save/load.
is "$(sed -n '/Contexts:/,/Event rules:/p' "$out/list_before" | grep -cE '^      [a-z_]+$')" 35 \
	"list: the 35 contexts under the two channels' Contexts:"
is "$(mi_xp 'count(//domain[type="KERNEL"]/channels/channel)' "$out/mi_before"):$(mi_valid "$out/mi_before")" \
	"2:$out/mi_before validates" \
	"list --mi xml: the two kernel channels, valid against LTTng's schema (its list has no contexts)"
is "$(mi_xp 'count(//contexts/context/type)' "$out/mi_types") $(mi_xp 'count(//contexts/context[type="HOSTNAME"])' "$out/mi_types")" \
	"34 1" "add-context --list -k --mi xml: 34 of the 35 in LTTng's names (cpu_id has none there)"
is "$(grep -c '<context>' "$out/saved/kctx.ltt")" 35 "save: the 35 contexts in the file"
is "$(cat "$out/load.rc")" 0 "load: the saved session"
is "$(diff "$out/list_before" "$out/list_loaded" && echo same)" same \
	"  lists the same channels, contexts and rules as before the save"

# The raw ABI (ltt-ktest contexts): every size, every refusal.
like "$(tail -n 1 "$out/ktest_ctx")" "^ltt-ktest: PASS$" "ltt-ktest contexts: CONTEXT_ADD's sizes and refusals"
is "$(grep -c '^not ok' "$out/ktest_ctx")" 0 "  no check failed$(grep '^not ok' "$out/ktest_ctx" | head -3 | sed 's/^/; /')"
kvm_kernel_clean $s
