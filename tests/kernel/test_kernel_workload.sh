#!/bin/bash
# Kernel tracing through lttctl and the root ltt-sessiond in a real kernel,
# checked with babeltrace2 on the host, in one boot: the scheduler events
# and system calls of known workloads (tests/kernel/kworkload.c), recorded
# by the module and again through tracefs (the kernel's own buffers, as on
# a kernel that can't load it), two kernel sessions at once, full buffers
# in discard and overwrite mode, stop and destroy flushing everything,
# and user-space events on one time line with each backend's.  One
# program's system calls (paths, sockaddrs, pollfds, epoll events)
# recorded by the module, then by the tracefs backend's BPF program
# (LTT_KERNEL_BPF=on), compared field by field.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

KVM_EXTRA_BINS="tests/regression/app/ust_app tests/regression/kload"
kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_sched kernel_syscalls kernel_sched_tracefs kernel_syscalls_tracefs \
	kernel_syscalls_bpf kernel_two_sessions kernel_buffers kernel_flush kernel_timeline
plan 125

# bt DIR NAME: babeltrace2's text of trace DIR into $TEST_TMP/NAME (its
# stderr in NAME.err); returns babeltrace2's status.
bt() {
	timeout "$BT_TIMEOUT" babeltrace2 "$1" >"$TEST_TMP/$2" 2>"$TEST_TMP/$2.err"
}

# count NAME PATTERN: the lines of $TEST_TMP/NAME matching the ERE PATTERN.
count() {
	grep -cE -- "$2" "$TEST_TMP/$1"
}

# fact SCENARIO FILE KEY: KEY's value in a KEY=VALUE file of the scenario.
fact() {
	sed -n "s/^$3=//p" "$KVM_OUT/$1/$2"
}

# seqs NAME: the test events' sequence numbers in trace order, as runs
# "A-B" of consecutive numbers separated by spaces.
seqs() {
	sed -n 's/.* ltt_test_event: .*{ seq = \([0-9]*\),.*/\1/p' "$TEST_TMP/$1" |
		awk 'NR == 1 { s = $1 } NR > 1 && $1 != p + 1 { printf "%s-%s ", s, p; s = $1 }
			{ p = $1 } END { if (NR) printf "%s-%s", s, p }'
}

# bt_discarded NAME: the events babeltrace2 says the tracer discarded.
bt_discarded() {
	sed -n 's/.*Tracer discarded \([0-9]*\) events\{0,1\} between .*/\1/p' "$TEST_TMP/$1.err" |
		awk '{ s += $1 } END { print s + 0 }'
}

# --- scheduler events (kernel_sched, kernel_sched_tracefs) ---
# check_sched SCENARIO BACKEND: its trace holds the workload's events.
# Through tracefs, sched_process_fork's tgids are the consumer's (ftrace's
# event lacks them: doc/kernel-tracefs.md); both are processes here.
check_sched() {
local s=$1 b=$2 parent child n ping pong tgids
kvm_scenario_ok $s
parent=$(fact $s forkexec parent_pid)
child=$(fact $s forkexec child_pid)
is "$(fact $s forkexec status)" 42 "$b: kworkload's child exited 42"
bt "$KVM_OUT/$s/trace" sched
is $? 0 "$b: babeltrace2 reads the scheduler trace"
tgids=(", parent_pid = $parent" ", child_pid = $child" ", child_pid = $parent")
is "$(count sched "sched_process_fork: .*parent_comm = \"kworkload\", parent_tid = $parent${tgids[0]}, child_comm = \"kworkload\", child_tid = $child${tgids[1]} }")" 1 \
	"$b: sched_process_fork: parent $parent, child $child, as kworkload printed"
is "$(count sched "sched_process_fork: .*child_tid = $parent${tgids[2]} }")" 1 \
	"$b: sched_process_fork: the shell forked kworkload ($parent)"
is "$(count sched "sched_process_exec: .*filename = \"/ltt/bin/kworkload\", tid = $child, old_tid = $child }")" 1 \
	"$b: sched_process_exec: the child execs /ltt/bin/kworkload"
is "$(count sched "sched_process_exec: .*filename = \"/ltt/bin/kworkload\", tid = $parent, old_tid = $parent }")" 1 \
	"$b: sched_process_exec: so did the shell's child"
is "$(count sched "sched_process_exit: .*comm = \"kworkload\", tid = $child, prio = 20(, group_dead = 1)? }")" 1 \
	"$b: sched_process_exit: the child (group_dead where the kernel has it, as lttng-modules records it)"
is "$(count sched 'syscall_entry_exit_group: .*\{ error_code = 42 \}')" 1 \
	"syscall_entry_exit_group: one exit with code 42"
n=$(kvm_file $s rounds)
ping=$(fact $s pingpong ping_tid)
pong=$(fact $s pingpong pong_tid)
like "$ping $pong" '^[0-9]+ [0-9]+$' "$b: kworkload pingpong printed its threads' ids"
# Both threads SCHED_FIFO 10 (prio 99 - 10 - 100 = -11) on CPU 1: each
# blocks in read() (prev_state 1) once a round, switching to the other.
is "$(count sched "sched_switch: .*prev_tid = $ping, prev_prio = -11, prev_state = 1, .*next_tid = $pong, next_prio = -11 }")" "$n" \
	"$b: sched_switch: ping -> pong, blocked in read, exactly $n times"
# pong blocks in each of its n reads too, but its first may come before
# ping exists (then it switches to another task).
like "$(count sched "sched_switch: .*prev_tid = $pong, prev_prio = -11, prev_state = 1, .*next_tid = $ping, next_prio = -11 }")" "^($((n - 1))|$n)\$" \
	"$b: sched_switch: pong -> ping, blocked in read, $((n - 1)) or $n times"
ok $(($(count sched "sched_switch: \{ cpu_id = 1 \}, \{ prev_comm = \"kw-ping\", prev_tid = $ping, prev_prio = -11, prev_state = 1, next_comm = \"kw-pong\", next_tid = $pong, next_prio = -11 }") >= n - 1 ? 0 : 1)) \
	"$b: sched_switch: prev_comm kw-ping, next_comm kw-pong, on CPU 1"
ok $(($(count sched "sched_switch: \{ cpu_id = 1 \}, \{ prev_comm = \"kw-pong\", prev_tid = $pong, prev_prio = -11, prev_state = 1, next_comm = \"kw-ping\", next_tid = $ping, next_prio = -11 }") >= n - 1 ? 0 : 1)) \
	"$b: sched_switch: prev_comm kw-pong, next_comm kw-ping, on CPU 1"
like "$(count sched "sched_switch: .*prev_tid = ($ping|$pong), .*prev_state = 1, .*next_tid = ($ping|$pong), ")" "^($((2 * n - 1))|$((2 * n)))\$" \
	"$b: the threads switched to each other $((2 * n - 1)) or $((2 * n)) times, no more"
# pong is woken once for each read that slept: all n, or n - 1 when ping
# ran first on the CPU and wrote before pong's first read.
like "$(count sched "sched_wakeup: .*\{ comm = \"kw-pong\", tid = $pong, prio = -11, target_cpu = 1 }")" "^($((n - 1))|$n)\$" \
	"$b: sched_wakeup: pong woken $((n - 1)) or $n times, on CPU 1"
is "$(count sched "sched_wakeup: .*\{ comm = \"kw-ping\", tid = $ping, prio = -11, target_cpu = 1 }")" "$n" \
	"$b: sched_wakeup: ping woken $n times, on CPU 1"
kvm_kernel_clean $s
}
check_sched kernel_sched module
# The users' own analyses on the module's trace (its env names
# lttng-modules 2.13): Debian's lttng-cputop lists the ping-pong threads
# by tid, each with priority -11 (SCHED_FIFO 10) among its priorities, and
# by the name they forked with (lttng-cputop keeps it).
if command -v lttng-cputop >/dev/null; then
	timeout 300 lttng-cputop --no-progress --limit 100000 "$KVM_OUT/kernel_sched/trace" \
		>"$TEST_TMP/cputop.txt" 2>&1
	is $? 0 "module: lttng-cputop reads the scheduler trace"
	is "$(grep -cE " kworkload \(($(fact kernel_sched pingpong ping_tid)|$(fact kernel_sched pingpong pong_tid))\) +[0-9]+ +\[[^]]*-11" "$TEST_TMP/cputop.txt")" 2 \
		"module: ... the ping-pong threads (kworkload) by tid, priority -11"
else
	skip 2 "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
fi
check_sched kernel_sched_tracefs tracefs
is "$(cat "$KVM_OUT/kernel_sched_tracefs/prefilter")" \
	'((prev_prio < 120 || prev_prio < -2147483548) || (CPU == 1)) || (next_comm ~ "kw*")' \
	"tracefs: the kernel takes the filter's text (prio less its bias, CPU, a glob)"
# module_load through tracefs: taints as lttng-modules' enumeration taint
# (1 << each flag; letters of /sys/module/M/taint, kernel/panic.c's order)
tf=$KVM_OUT/kernel_sched_tracefs
taint=0
letters=PFSRMBUDAWCIOELKXT
for ((i = 0; i < ${#letters}; i++)); do
	[[ $(cat "$tf/mod_taint") == *"${letters:i:1}"* ]] && taint=$((taint | 1 << i))
done
is "$(cat "$tf/mod_load.rc") $taint" "0 $taint" "tracefs: modprobe ltt-tracer in a session of module_load (taints $(cat "$tf/mod_taint"): $taint)"
timeout "$BT_TIMEOUT" babeltrace2 "$tf/mod" >"$TEST_TMP/mod.txt" 2>&1
is "$(grep -cE "module_load: .*\\{ taints = \\( .* : container = $taint \\), name = \"ltt_tracer\" \\}" "$TEST_TMP/mod.txt")" 1 \
	"tracefs: babeltrace2 shows module_load's taints as an enumeration of its value"
timeout "$BT_TIMEOUT" babeltrace2 --output-format=ctf-metadata "$tf/mod/kernel" >"$TEST_TMP/mod.tsdl" 2>&1
like "$(tr -d '\t\n' <"$TEST_TMP/mod.tsdl")" 'enum : integer \{ size = 32; align = [0-9]+; signed = 0; [^}]*\} \{"PROPRIETARY_MODULE" = 1,.*"OOT_MODULE" = 4096,"UNSIGNED_MODULE" = 8192,.*"RANDSTRUCT" = 131072\} _taints;' \
	"tracefs: the metadata declares taints lttng-modules' taint, u32, a label per flag"

# --- system calls with arguments (kernel_syscalls, kernel_syscalls_tracefs) ---
# calls NAME START: kworkload's calls, from the openat entry matching
# START on its CPU (0): the entry and exit of openat, write and close, as
# one line each.
calls() {
	awk -v start="$2" '
		!/\{ cpu_id = 0 \}/ { next }
		index($0, "syscall_entry_openat:") && index($0, start) { on = 1 }
		on && / syscall_(entry|exit)_(openat|write|close): / {
			sub(/^.* syscall_/, ""); sub(/\{ cpu_id = 0 \}, /, "")
			sub(/\{ tid = [0-9]+ \}, /, ""); print
			if (++n == 6) exit
		}' "$TEST_TMP/$1"
}
# check_syscalls SCENARIO BACKEND: the known calls with their values.
# Through tracefs a path is read by an event probe (this kernel has them),
# as the module reads it.
check_syscalls() {
local s=$1 b=$2 fd start path want t
kvm_scenario_ok $s
fd=$(fact $s files fd)
is "$(fact $s files written)" 1234 "$b: kworkload wrote 1234 bytes to fd $fd"
matches "$(kvm_file $s list_some)" $'\n *openat \\(type: syscall\\) \\[enabled\\]\n *close \\(type: syscall\\) \\[enabled\\]\n *write \\(type: syscall\\) \\[enabled\\]$' \
	"$b: list: --syscall openat,close,write is three system call rules"
path='"/tmp/kworkload.out"'
start="filename = $path"
want="entry_openat: { dfd = -100, filename = $path, flags = $(fact $s files flags), mode = $(fact $s files mode) }
exit_openat: { ret = $fd }
entry_write: { fd = $fd, buf = 0xX, count = 1234 }
exit_write: { ret = 1234 }
entry_close: { fd = $fd }
exit_close: { ret = 0 }"
for t in some all; do
	bt "$KVM_OUT/$s/$t" $t
	is $? 0 "$b: babeltrace2 reads session $t's trace"
	is "$(calls $t "$start" | sed 's/buf = 0x[0-9A-F]*/buf = 0xX/; s/filename = 0x[0-9A-F]*/filename = 0xX/')" "$want" \
		"$b: session $t: openat's path, flags (O_WRONLY|O_CREAT|O_TRUNC) and mode (0640), the fd it returned, write's count and return, close's fd"
done
is "$(sed -n 's/.* \(syscall_[a-z_0-9]*\): .*/\1/p' "$TEST_TMP/some" | sort -u | tr '\n' ' ')" \
	"syscall_entry_close syscall_entry_openat syscall_entry_write syscall_exit_close syscall_exit_openat syscall_exit_write " \
	"$b: session some recorded those three calls and nothing else"
ok $(($(sed -n 's/.* syscall_entry_\([a-z_0-9]*\): .*/\1/p' "$TEST_TMP/all" | sort -u | wc -l) >= 20 ? 0 : 1)) \
	"$b: session all (--syscall -a) recorded every call kworkload made (20 or more kinds)"
# the users' analysis of system calls: exactly the calls the trace has of kworkload
pid=$(fact $s files pid)
if command -v lttng-syscallstats >/dev/null; then
	timeout 300 lttng-syscallstats --no-progress "$KVM_OUT/$s/all" >"$TEST_TMP/sc-$b.txt" 2>&1
	is $? 0 "$b: lttng-syscallstats reads session all's trace"
	t=$(awk -v t="TID: $pid)" 'index($0, t) { on = 1; next } $1 == "Total:" { on = 0 }
		on && $1 == "-" && $2 == "write" { print $3 }' "$TEST_TMP/sc-$b.txt")
	is "$t" "$(count all "syscall_entry_write: .*\\{ tid = $pid \\}")" \
		"$b: ... kworkload's write calls, as many as the trace has of its tid ($pid)"
else
	skip 2 "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
fi
is "$(count all 'syscall_entry_execve: .*filename = "/ltt/bin/kworkload"')" 1 \
	"$b: session all: execve with its path (taskset runs kworkload)"
kvm_kernel_clean $s
}
check_syscalls kernel_syscalls module
check_syscalls kernel_syscalls_tracefs tracefs

# --- the module and the BPF program, one program's calls (kernel_syscalls_bpf) ---
# bpf_compare MODULE-TEXT BPF-TEXT MTIDS BTIDS: kload's events (tids
# MTIDS, BTIDS: "T1 T2") in each babeltrace2 text, paired in order:
# line 1 how many pairs (or why they don't pair), line 2 each field of
# the module's whose value differs in the BPF trace or lacks there
# (addresses aside: 0xX), line 3 the fields the BPF trace adds, by event.
bpf_compare() {
	python3 - "$@" <<'EOF'
import re, sys

def split_top(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        depth += ch in '{[(' and 1 or 0
        depth -= ch in '}])' and 1 or 0
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])

def events(path, tids):
    evs = []
    for line in open(path, errors='replace'):
        m = re.search(r' (syscall_\w+): \{ cpu_id = \d+ \}, \{ tid = (\d+) \}, \{ (.*) \}$', line)
        if not m or m.group(2) not in tids:
            continue
        fields = []
        for f in split_top(m.group(3)):
            name, _, value = f.partition(' = ')
            fields.append((name, re.sub(r'0x[0-9A-F]+', '0xX', value)))
        evs.append((m.group(1), fields))
    return evs

mod = events(sys.argv[1], sys.argv[3].split())
bpf = events(sys.argv[2], sys.argv[4].split())
if [e[0] for e in mod] != [e[0] for e in bpf]:
    print('unpaired: %d module events, %d BPF events' % (len(mod), len(bpf)))
else:
    print(len(mod))
diffs, added = [], {}
for (name, mf), (_, bf) in zip(mod, bpf):
    bd = dict(bf)
    for f, v in mf:
        if name == 'syscall_entry_epoll_ctl' and f == 'event':
            continue        # the module's address, the program's structure read there
        if bd.get(f) != v:
            diffs.append('%s.%s: %s / %s' % (name, f, v, bd.get(f)))
    extra = [f for f, _ in bf if f not in dict(mf)]
    if extra:
        added[name] = ','.join(extra)
print(';'.join(sorted(set(diffs))))
print(';'.join('%s:%s' % kv for kv in sorted(added.items())))
EOF
}
s=kernel_syscalls_bpf
kvm_scenario_ok $s
like "$(kvm_file $s list_bpf)" "read as strings by ltt's BPF program: chosen by LTT_KERNEL_BPF=on, where this kernel's event probes" \
	"bpf: LTT_KERNEL_BPF=on: the BPF program reads the payloads on a kernel with event probes, list -k says it was chosen"
unlike "$(kvm_file $s list_bpf)" "refuses event probes" \
	"bpf: LTT_KERNEL_BPF=on: list -k does not say the kernel refuses event probes"
is "$(timeout "$BT_TIMEOUT" babeltrace2 --output-format=ctf-metadata "$KVM_OUT/$s/bpf/kernel" |
	grep -o 'ltt_syscall_strings = "[^"]*"' | sed 's/.*: //; s/ (doc.*//')" \
	'chosen by LTT_KERNEL_BPF=on, where this kernel'"'"'s event probes would read them too' \
	"bpf: LTT_KERNEL_BPF=on: the trace's env says the program was chosen"
# babeltrace 1 where it is: babeltrace2 2.0 shows a string it read as ""
# as the same field's value in the event decoded before (doc/ctf.md)
BT1=$(command -v babeltrace || echo babeltrace2)
for t in module bpf; do
	timeout "$BT_TIMEOUT" "$BT1" "$KVM_OUT/$s/$t" >"$TEST_TMP/bpf_$t" 2>"$TEST_TMP/bpf_$t.err"
	is $? 0 "$t: ${BT1##*/} reads kload's trace"
	read -r _ ot _ <<<"$(kvm_file $s openat_$t)"
	read -r _ pt _ <<<"$(kvm_file $s payloads_$t)"
	eval "${t}_tids=\"$ot $pt\""
	is "$(count "bpf_$t" "syscall_entry_openat: .*\\{ tid = $ot \\}, \\{ dfd = -100, filename = \"/tmp/kbpf-probe\", flags = 524288, mode = 0 \\}")" 3 \
		"$t: kload's 3 openat of /tmp/kbpf-probe, the path a string"
	ep=$(awk '{ print $11 }' <<<"$(kvm_file $s payloads_$t)")
	is "$(sed -n "s/.*syscall_entry_epoll_ctl: .*{ tid = $pt }, { epfd = $ep, \\(op_enum = ( \"[A-Z_]*\" : container = [0-9] )\\).*/\\1/p" "$TEST_TMP/bpf_$t" | tr '\n' ';')" \
		'op_enum = ( "EPOLL_CTL_ADD" : container = 1 );op_enum = ( "EPOLL_CTL_MOD" : container = 3 );op_enum = ( "EPOLL_CTL_DEL" : container = 2 );' \
		"$t: epoll_ctl's op_enum, lttng-modules' enumeration: ADD, MOD, DEL"
done
# shellcheck disable=SC2154
cmp=$(bpf_compare "$TEST_TMP/bpf_module" "$TEST_TMP/bpf_bpf" "$module_tids" "$bpf_tids")
like "$(sed -n 1p <<<"$cmp")" '^[0-9]{3,}$' \
	"module and BPF: kload's events the same, in the same order ($(sed -n 1p <<<"$cmp"))"
is "$(sed -n 2p <<<"$cmp")" "" \
	"module and BPF: each field the module writes, the same value in the BPF trace (addresses aside; epoll_ctl's event the structure read at the module's address)"
is "$(sed -n 3p <<<"$cmp" | tr ';' '\n')" \
	"syscall_entry_connect:family,dport,_v4addr_length,v4addr,_v6addr_length,v6addr
syscall_entry_poll:fds_length,overflow,fds
syscall_entry_ppoll:fds_length,overflow,fds
syscall_exit_accept:upeer_addrlen,family,sport,_v4addr_length,v4addr,_v6addr_length,v6addr
syscall_exit_accept4:upeer_addrlen,family,sport,_v4addr_length,v4addr,_v6addr_length,v6addr
syscall_exit_epoll_pwait:fds_length,overflow,fds
syscall_exit_epoll_wait:fds_length,overflow,fds
syscall_exit_poll:nfds,fds_length,fds
syscall_exit_ppoll:nfds,fds_length,overflow,fds" \
	"BPF: lttng-modules' fields beside the module's: connect's address, poll's fds, accept's peer, epoll_wait's events"
read -r _ _ _ port _ <<<"$(kvm_file $s payloads_bpf)"
like "$(grep "syscall_entry_connect: .*{ tid = $(awk '{ print $2 }' <<<"$bpf_tids") }" "$TEST_TMP/bpf_bpf" | head -n 1)" \
	"addrlen = 16, family = 2, dport = $port, _v4addr_length = 4, v4addr = \\[ \\[0\\] = 127, \\[1\\] = 0, \\[2\\] = 0, \\[3\\] = 1 \\]" \
	"BPF: connect to 127.0.0.1:$port read from the process in this kernel"
kvm_kernel_clean $s

# --- two kernel sessions at once (kernel_two_sessions) ---
s=kernel_two_sessions
kvm_scenario_ok $s
bt "$KVM_OUT/$s/a" a
is $? 0 "babeltrace2 reads session a"
bt "$KVM_OUT/$s/b" b
is $? 0 "babeltrace2 reads session b"
is "$(count a ' ltt_test_event: ')" 1500 "a: 1000 alone + 500 with b = 1500 test events"
is "$(seqs a)" "0-999 0-499" "a: seq 0-999, then 0-499, none lost or twice"
is "$(count b ' ltt_test_event: ')" 700 "b: 500 with a + 200 alone = 700 test events"
is "$(seqs b)" "0-499 0-199" "b: seq 0-499, then 0-199"
is "$(sed -n 's/.* ltt_logger: .*msg = "\(.*\)" }$/\1/p' "$TEST_TMP/a")" both \
	"a: the logger line while it was on, not the later one"
is "$(count b ltt_logger)" 0 "b: no logger event (b has no rule for it)"
kvm_kernel_clean $s

# --- full buffers (kernel_buffers) ---
s=kernel_buffers
kvm_scenario_ok $s
emitted=$(kvm_file $s emitted)
lost=$(sed -n 's/^ *discarded events: //p' "$KVM_OUT/$s/list_d")
bt "$KVM_OUT/$s/disc" disc
is $? 0 "discard: babeltrace2 reads the trace"
recorded=$(count disc ' ltt_test_event: ')
ok $((recorded > 0 && lost > 0 ? 0 : 1)) "discard: 2 x 4 KiB recorded $recorded events and discarded $lost"
is $((recorded + lost)) "$emitted" "discard: recorded + discarded (lttctl list) == $emitted emitted, exactly"
is "$(bt_discarded disc)" "$lost" "discard: babeltrace2's 'Tracer discarded' warnings add up to lttctl list's count"
like "$(kvm_file $s stop_d)" "^Warning: channel 'tiny' of session 'disc' discarded $lost events: its buffers were full" \
	"discard: lttctl stop warns with the same count"
is "$(sed -n 's/.* ltt_test_event: .*{ seq = \([0-9]*\),.*/\1/p' "$TEST_TMP/disc" | sort -n | uniq -d | wc -l)" 0 \
	"discard: no event recorded twice"
is "$(kvm_file $s stopped_before_d) $(kvm_file $s stopped_after_d) $(kvm_file $s stopped_before_o) $(kvm_file $s stopped_after_o)" \
	"yes yes yes yes" "discard and overwrite: the consumer was stopped during each burst"
bt "$KVM_OUT/$s/ow" ow
is $? 0 "overwrite: babeltrace2 reads the trace"
ow_seqs=$(seqs ow)
is "${ow_seqs#*-}" $((emitted - 1)) "overwrite: the newest events survive, one run ending at seq $((emitted - 1)) ($ow_seqs)"
ow_lost=$(sed -n 's/^ *lost packets: //p' "$KVM_OUT/$s/list_o")
ok $((ow_lost > 0 ? 0 : 1)) "overwrite: lttctl list reports $ow_lost lost packets"
# Per stream: the packets in the file + those lost == the last packet's
# sequence number + 1 (the index's last entry, packet_seq_num at 64).
in_files=0 produced=0
for idx in "$KVM_OUT/$s/ow/kernel/index"/*.idx; do
	np=$((($(stat -c %s "$idx") - 16) / 72))
	[ $np -gt 0 ] || continue
	in_files=$((in_files + np))
	produced=$((produced + 1 + $(od -An -tu8 --endian=big -j $((16 + 72 * (np - 1) + 64)) -N8 "$idx" | tr -d ' ')))
done
ok $((in_files >= 1 && in_files <= 2 ? 0 : 1)) "overwrite: the trace holds at most the 2 sub-buffers ($in_files packets)"
is $((in_files + ow_lost)) "$produced" "overwrite: packets in the trace + lost packets (list) == packets produced ($produced)"
like "$(kvm_file $s stop_o)" "^Warning: channel 'tiny' of session 'ow' lost $ow_lost packets \\(overwritten before they were read\\)" \
	"overwrite: lttctl stop warns with the same count"
kvm_kernel_clean $s

# --- stop and destroy flush (kernel_flush) ---
s=kernel_flush
kvm_scenario_ok $s
bt "$KVM_OUT/$s/stopped" stopped
is $? 0 "babeltrace2 reads the stopped session's trace"
is "$(count stopped ' ltt_test_event: ')" 5000 "stop right after 5000 test events: all 5000 in the trace"
is "$(seqs stopped)" "0-4999" "... seq 0-4999"
is "$(kvm_file $s destroy_d.rc)" 0 "destroy without stop succeeds"
bt "$KVM_OUT/$s/destroyed" destroyed
is $? 0 "babeltrace2 reads the destroyed session's trace"
is "$(count destroyed ' ltt_test_event: ')" 3000 "destroy without stop right after 3000 test events: all 3000 in the trace"
is "$(seqs destroyed)" "0-2999" "... seq 0-2999"
kvm_kernel_clean $s

# --- one time line (kernel_timeline) ---
# Each getppid's entry and exit between the program's user events around
# it, with the module and with tracefs (the guest's user-space clock is
# CLOCK_MONOTONIC: QEMU's CPU has no invariant TSC).
s=kernel_timeline
kvm_scenario_ok $s
for backend in module tracefs; do
	is "$(kvm_file $s ${backend}_app.rc)" 0 "$backend: the program ran"
	bt "$KVM_OUT/$s/$backend" tl_$backend
	is $? 0 "$backend: babeltrace2 reads the session's trace"
	is "$(timeline_order "$TEST_TMP/tl_$backend")" "U$(printf 'EXU%.0s' $(seq 100))" \
		"$backend: both domains on one time line: 101 user events, each getppid's entry and exit between two"
done
kvm_kernel_clean $s
done_testing
