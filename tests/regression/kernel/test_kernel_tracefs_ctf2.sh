#!/bin/bash
# test_kernel_tracefs_ctf2.sh - a kernel session of the tracefs backend
# created with --trace-format=ctf-2 writes CTF 2 (doc/ctf.md): LTTng's
# kernel environment in its trace class, and for babeltrace2 2.1 (Debian
# sid's, in a root made by scripts/debian-root.sh) the same events and
# fields as the CTF 1.8 session that recorded the same program beside it:
# system calls with their payloads (a path, return values), the process
# contexts, sched_switch, and the structures the BPF system call source
# reads from user memory where event probes are refused (doc/kernel-bpf.md:
# poll's pollfds, connect's address, epoll_wait's events); then a snapshot and a rotation's archive of a
# CTF 2 session, each read by babeltrace2 2.1 whole.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"
root_or_skip sid
tracefs_setup 30
N=1000

# the system calls in a channel of their own, large enough not to drop
# any under the load of a whole suite (sched_switch events flood then)
started=0
for f in 1.8 2; do
	lttctl -q create "k$f" -F "ctf-$f" -o "$TEST_TMP/k$f" &&
		lttctl -q enable-channel -k -s "k$f" --subbuf-size 1M --num-subbuf 8 sys &&
		lttctl -q enable-event -k -s "k$f" -c sys --syscall getppid,openat,poll,connect,epoll_wait &&
		lttctl -q enable-event -k -s "k$f" -c channel0 sched_switch &&
		lttctl -q add-context -k -s "k$f" -t tid -t procname &&
		lttctl -q start "k$f" && started=$((started + 1))
done
is "$started" 2 "two kernel sessions, -F ctf-1.8 and -F ctf-2, started"
FILE=$TEST_TMP/a-file
: >"$FILE"
# the output files opened here, by the test's shell: kload's tid then
# makes no openat but its N (a redirection's, before the exec, would be
# its first one, under the shell's name)
exec {out1}>"$TEST_TMP/args.out" {out2}>"$TEST_TMP/openat.out" {out3}>"$TEST_TMP/payloads.out"
"$KLOAD" args $N >&$out1 && "$KLOAD" openat "$FILE" $N >&$out2 && "$KLOAD" payloads >&$out3
ok $? "kload: $N getppid calls, $N openat calls of a file, system calls with structures"
exec {out1}>&- {out2}>&- {out3}>&-
read -r _ atid _ <"$TEST_TMP/args.out"
read -r _ otid _ <"$TEST_TMP/openat.out"
read -r _ ptid _ <"$TEST_TMP/payloads.out"
lttctl -q stop k1.8 && lttctl -q stop k2
ok $? "both stopped"

meta=$TEST_TMP/k2/kernel/metadata
is "$(head -c 1 "$meta" | od -An -tx1 | tr -d ' ')" "1e" "the CTF 2 metadata: a JSON text sequence"
run python3 - "$meta" <<'EOF'
import json, sys
frags = [json.loads(f) for f in open(sys.argv[1], 'rb').read().split(b'\x1e')[1:]]
env = frags[1]['environment']
print(env['domain'], env['tracer_name'], env['ltt_kernel_backend'], 'sysname' in env)
names = [f['name'] for f in frags if f['type'] == 'event-record-class']
print(' '.join(n for n in ('syscall_entry_getppid', 'syscall_exit_openat', 'sched_switch')
               if n in names))
print(len([f for f in frags if f['type'] == 'event-record-class' and 'attributes' in f]))
EOF
is "$RC:$STDOUT" "0:kernel lttng-modules tracefs True
syscall_entry_getppid syscall_exit_openat sched_switch
0" "LTTng's kernel environment, the events' classes, no log level"

bt21 "$TEST_TMP/k1.8" "$TEST_TMP/bt18"
ok $? "babeltrace2 2.1 reads the CTF 1.8 kernel trace"
bt21 "$TEST_TMP/k2" "$TEST_TMP/bt2"
ok $? "babeltrace2 2.1 reads the CTF 2 kernel trace"
is "$(cat "$TEST_TMP/bt2.err")" "" "and says nothing on stderr"

# tid's lines of EVENT in FILE, the time taken off (each session timed its own)
of_tid() {
	grep " $2: .*{ tid = $3, " "$1" | sed 's/^\[[^]]*\] ([^)]*) //'
}
is "$(of_tid "$TEST_TMP/bt2" syscall_entry_getppid "$atid" | grep -c 'procname = "kload" }, { }$')" \
	$N "the CTF 2 trace: every getppid entry, with the process contexts"
is "$(of_tid "$TEST_TMP/bt2" syscall_entry_openat "$otid" | grep -c "filename = \"$FILE\"")" \
	$N "  every openat entry with its path"
is "$(of_tid "$TEST_TMP/bt2" syscall_exit_openat "$otid" | wc -l)" \
	"$(of_tid "$TEST_TMP/bt2" syscall_entry_openat "$otid" | wc -l)" "  an exit for each openat entry"
# same EVENT TID: EVENT's lines of TID alike in both traces (files kept, their
# differences shown with both counts); none at all fails
same() {
	of_tid "$TEST_TMP/bt18" "$1" "$2" >"$TEST_TMP/$1.18"
	of_tid "$TEST_TMP/bt2" "$1" "$2" >"$TEST_TMP/$1.2"
	[ -s "$TEST_TMP/$1.18" ] && cmp -s "$TEST_TMP/$1.18" "$TEST_TMP/$1.2"
	ok $? "$1: the same lines in both traces, some" ||
		diag "CTF 1.8: $(wc -l <"$TEST_TMP/$1.18") lines, CTF 2: $(wc -l <"$TEST_TMP/$1.2")" \
			"$(diff "$TEST_TMP/$1.18" "$TEST_TMP/$1.2" | head -6)" \
			"discarded: $(grep -c 'discarded' "$TEST_TMP/bt18.err" "$TEST_TMP/bt2.err" | tr '\n' ' ')"
}
for ev in syscall_entry_getppid syscall_exit_getppid; do
	same $ev "$atid"
done
for ev in syscall_entry_openat syscall_exit_openat; do
	same $ev "$otid"
done
# the structures: the same lines, and the pollfds there at all
for ev in syscall_entry_poll syscall_exit_poll syscall_entry_connect syscall_exit_epoll_wait; do
	same $ev "$ptid"
done
like "$(of_tid "$TEST_TMP/bt2" syscall_entry_poll "$ptid" | head -n 1)" \
	"fds_length = 2, overflow = 0, fds = \\[ \\[0\\] = \\{ fd = [0-9]+, raw_events = " \
	"  poll's entry with its two pollfds, in CTF 2"
sw=$(grep -c ' sched_switch: ' "$TEST_TMP/bt2")
ok "$([ "$sw" -gt 0 ]; echo $?)" "sched_switch events in the CTF 2 trace ($sw)"
like "$(grep -m 1 ' sched_switch: ' "$TEST_TMP/bt2")" \
	"prev_comm = \"[^\"]*\", prev_tid = [0-9]+, prev_prio = -?[0-9]+, prev_state = [0-9]+, next_comm = \"[^\"]*\", next_tid = [0-9]+, next_prio = -?[0-9]+ \\}\$" \
	"  with their fields"
lttctl -q destroy -a

# a snapshot and a rotation's archive of a CTF 2 kernel session
lttctl -q create snap -F ctf-2 --snapshot -o "$TEST_TMP/snap" &&
	lttctl -q enable-event -k -s snap --syscall getppid &&
	lttctl -q add-context -k -s snap -t tid && lttctl -q start snap
ok $? "a CTF 2 snapshot session"
"$KLOAD" getppid $N >"$TEST_TMP/g.out"
read -r _ gtid <"$TEST_TMP/g.out"
run lttctl snapshot record -s snap
ok "$RC" "snapshot record"
bt21 "$TEST_TMP/snap" "$TEST_TMP/btsnap"
ok $? "babeltrace2 2.1 reads the CTF 2 snapshot"
is "$(grep -c " syscall_entry_getppid: .*{ tid = $gtid " "$TEST_TMP/btsnap" 2>/dev/null)" "$N" \
	"  every getppid entry of the program"
lttctl -q destroy snap
lttctl -q create rot -F ctf-2 -o "$TEST_TMP/rot" &&
	lttctl -q enable-event -k -s rot --syscall getppid &&
	lttctl -q add-context -k -s rot -t tid && lttctl -q start rot
"$KLOAD" getppid $N >"$TEST_TMP/g.out"
read -r _ gtid <"$TEST_TMP/g.out"
run lttctl rotate rot
ok "$RC" "a CTF 2 session rotated"
arch=$(find "$TEST_TMP/rot/archives" -mindepth 1 -maxdepth 1 -type d | head -n 1)
bt21 "$arch" "$TEST_TMP/btrot"
ok $? "babeltrace2 2.1 reads its archive"
is "$(grep -c " syscall_entry_getppid: .*{ tid = $gtid " "$TEST_TMP/btrot")" "$N" "  every getppid entry of the program"
lttctl -q destroy rot
done_testing
