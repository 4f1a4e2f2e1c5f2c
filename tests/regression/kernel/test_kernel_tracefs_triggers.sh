#!/bin/bash
# test_kernel_tracefs_triggers.sh - triggers on the kernel, natively
# through tracefs.
#
# Event rules (kernel-notify.c: a channel of the trigger's own, read by
# the daemon): a system call rule filtered on one program's tid fires
# exactly for that program's calls, entry and exit (fired + dropped = the
# records made), not for another program's; its first notification
# carries the captures (the tid, and the exit's ret: unavailable at the
# entry); a rule of the exits alone (kernel:syscall:exit) fires for
# each exit and no entry; a tracepoint rule (sched_process_exec) captures the exec'd
# file's name; a removed trigger's instance is gone and it fires no more;
# rules tracefs can't take are refused whole.
#
# Buffer usage (the daemon reads each CPU's "bytes:" statistic of the
# channel's instance).  A channel of 16 KiB a
# CPU in discard mode, its consumer stopped: a program's getcpu calls on
# CPU 0 fill CPU 0's buffer, and usage-ge (75%) notifies once, with the
# bytes held; both CPUs filled, usage-le (50%) holds for no stream until
# the consumer runs again and empties them, then notifies once.  A
# trigger on a channel the session does not have never fires; one on a
# session that does not exist yet is added, as LTTng's.  Nothing lost unseen: recorded +
# discarded = the events made.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip_all "needs two online CPUs"
tracefs_setup 51

# waiter NAME: lttctl wait-trigger NAME in the background (WAITER its
# pid, its output in $TEST_TMP/NAME.out, without the gates' write ends: they
# open when the test closes its own); one check: it is subscribed
waiter() {
	local fd
	open_fifo fd "$TEST_TMP/$1.err"
	(
		for g in "${GIN[@]}"; do exec {g}>&-; done
		exec timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" wait-trigger "$1" --timeout "$TEST_TIMEOUT"
	) >"$TEST_TMP/$1.out" 2>&"$fd" &
	WAITER=$!
	read_line "$fd" && [[ $LINE == "Waiting for trigger "* ]]
	ok $? "wait-trigger $1 is subscribed"
}

# load CPU N: N getcpu calls on CPU (a system call nothing else makes:
# programs read the CPU from the vDSO), each an entry and an exit.
load() {
	taskset -c "$1" "$KLOAD" getcpu "$2" >/dev/null ||
		{ echo "Bail out! kload getcpu on CPU $1 failed"; exit 1; }
}

tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
spid=$(sessiond_pid)
# instances: the ftrace instances of our daemon
instances() {
	ls "$tfs/instances" | grep -c "^ltt-$spid-" || true
}
# --- event rules: refusals
run lttctl add-trigger --condition=event-rule-matches --type=kernel:tracepoint --name=no_such_event \
	--action=notify
like "$RC:$OUT" "^1:.*no event \(or system call\) by that name" "an event tracefs lacks: refused"
run lttctl add-trigger --condition=event-rule-matches --type=kernel:syscall --name=getppid \
	--filter='$ctx.procname == "x"' --action=notify
like "$RC:$OUT" "^1:.*context" "a filter on a context tracefs can't read: refused"
run lttctl add-trigger --condition=event-rule-matches --type=kernel:syscall --name=getppid \
	--filter='nosuch == 1' --action=notify
like "$RC:$OUT" "^1:.*does not type-check against the kernel event's fields" \
	"a filter on a field none of the rule's events has: refused"
is "$(lttctl list-triggers)" "" "the refusals added nothing (no trigger listed)"
is "$(instances)" 0 "... and left no instance"

# --- a system call rule on one program's tid
N=3000
gated g1 $N 0 0
gated g2 $N 0 0
tid=${GPID[g1]}
ok_cmd "a trigger on getppid of tid $tid, capturing the tid and ret" lttctl add-trigger --name kp \
	--condition=event-rule-matches --type=kernel:syscall --name=getppid \
	--filter="\$ctx.tid == $tid" --capture='$ctx.tid' --capture=ret --capture='$ctx.cpu_id' \
	--action=notify
is "$(instances)" 1 "its notifier is an instance of its own"
waiter kp
go g1 g2
wait $WAITER
is $? 0 "the program's calls notified"
like "$(cat "$TEST_TMP/kp.out")" "^Trigger kp fired \(#1\): event syscall_entry_getppid, pid $tid; captures: \\\$ctx.tid=$tid, ret=unavailable, \\\$ctx.cpu_id=[0-9]+\$" \
	"the first is the first call's entry: its tid, no ret yet, its CPU"
# every record is read once the reader drained what ftrace holds: look again (bounded)
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(($(trigger_count kp fired) + $(trigger_count kp dropped)))" -ge $((2 * N)) ] ||
	[ $SECONDS -ge $deadline ]; do :; done
fired=$(trigger_count kp fired) dropped=$(trigger_count kp dropped)
# Exact, with drops or without (a burst larger than ftrace's buffer, under
# load): every match fired or counted once, no other program's fired
# (doc/triggers.md, "Losses").
is "$((fired + dropped))" $((2 * N)) \
	"fired ($fired) + dropped ($dropped) = the $N calls' entries and exits, the other program's none"
ok_cmd "remove kp" lttctl remove-trigger kp
is "$(instances)" 0 "its instance is gone"

# --- a system call rule of the exits alone (LTTng's kernel:syscall:exit)
N2=500
gated g3 $N2 0 0
tid=${GPID[g3]}
ok_cmd "a trigger on getppid's exits of tid $tid (--type=kernel:syscall:exit)" lttctl add-trigger \
	--name kx --condition=event-rule-matches --type=kernel:syscall:exit --name=getppid \
	--filter="\$ctx.tid == $tid" --capture=ret --action=notify
waiter kx
go g3
wait $WAITER
is $? 0 "the program's calls notified"
like "$(cat "$TEST_TMP/kx.out")" "^Trigger kx fired \(#1\): event syscall_exit_getppid, pid $tid; captures: ret=[0-9]+\$" \
	"the first is an exit, its ret captured" || diag "$(cat "$TEST_TMP/kx.out")"
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(($(trigger_count kx fired) + $(trigger_count kx dropped)))" -ge $N2 ] ||
	[ $SECONDS -ge $deadline ]; do :; done
is "$(trigger_count kx fired):$(trigger_count kx dropped)" "$N2:0" \
	"fired = the $N2 calls' exits, none of their entries"
like "$(lttctl list-triggers)" "getppid \(type: kernel:syscall:exit" \
	"list-triggers shows its site, as LTTng writes it"
ok_cmd "remove kx" lttctl remove-trigger kx
# saved with the session its action names, and loaded back, its site kept
lttctl -q create ks -o "$TEST_TMP/ks" || { echo "Bail out! session ks"; exit 1; }
ok_cmd "a kernel:syscall:entry trigger starting ks" lttctl add-trigger --name kse \
	--condition=event-rule-matches --type=kernel:syscall:entry --name=getppid \
	--action=start-session ks
ok_cmd "save ks" lttctl save ks -o "$TEST_TMP/ks-save"
lttctl -q remove-trigger kse && lttctl -q destroy ks
ok_cmd "load ks" lttctl load ks -i "$TEST_TMP/ks-save"
like "$(lttctl list-triggers)" "getppid \(type: kernel:syscall:entry" \
	"the loaded trigger takes the entries alone, as saved" || diag "$(cat "$TEST_TMP"/ks-save/*)"
lttctl -q remove-trigger kse && lttctl -q destroy ks

# --- a tracepoint rule: the exec'd file's name
ok_cmd "a trigger on sched_process_exec of kload, capturing filename" lttctl add-trigger --name ke \
	--condition=event-rule-matches --type=kernel:tracepoint --name=sched_process_exec \
	--filter='filename == "*/kload"' --capture=filename --capture=tid --action=notify
waiter ke
pid=$("$KLOAD" getppid 1 | sed -n 's/^tid //p')
wait $WAITER
is $? 0 "kload's exec notified"
like "$(cat "$TEST_TMP/ke.out")" "event sched_process_exec, pid $pid; captures: filename=\"$KLOAD\", tid=$pid\$" \
	"with the file's name and the new program's pid"
ok_cmd "remove ke" lttctl remove-trigger ke
is "$(trigger_count ke fired)" "" "ke is gone"

# --- buffer usage
run lttctl add-trigger --name later --condition=channel-buffer-usage-ge --session=nosuch \
	--channel=c -k --threshold-ratio=0.5 --action=notify
like "$RC:$OUT" "^0:Added trigger" \
	"a kernel channel of a session that does not exist yet: added, as LTTng (it holds once there is one)"
ok_cmd "remove later" lttctl remove-trigger later

lttctl -q create kb -o "$TEST_TMP/kb" &&
	lttctl -q enable-channel -k c --subbuf-size 4k --num-subbuf 4 --discard -s kb &&
	lttctl -q enable-event -k --syscall getcpu -c c -s kb || { echo "Bail out! session kb"; exit 1; }
ok_cmd "start kb: a kernel channel of 16 KiB a CPU" lttctl start kb
cons=$(consumer_pid)
ok "$([ -n "$cons" ]; echo $?)" "the kernel consumer runs (pid ${cons:-none})"

ok_cmd "add usage-ge 75% of c -> notify" lttctl add-trigger --name full \
	--condition=channel-buffer-usage-ge --session=kb --channel=c -k --threshold-ratio=0.75 \
	--action=notify
ok_cmd "add usage-ge 75% of a channel kb does not have" lttctl add-trigger --name other \
	--condition=channel-buffer-usage-ge --session=kb --channel=nochan -k --threshold-ratio=0.75 \
	--action=notify
waiter full
stop_proc "$cons"
N=5000
load 0 $N
wait $WAITER
is $? 0 "CPU 0's buffer filled with the consumer stopped: usage-ge notified"
bytes=$(sed -n "s/.*session kb, \([0-9]*\) bytes in the channel's fullest buffer.*/\1/p" "$TEST_TMP/full.out")
ok "$([ "${bytes:-0}" -ge 12288 ]; echo $?)" "with the bytes CPU 0's buffer held (${bytes:-none} >= 12288): $(cat "$TEST_TMP/full.out")"

# le: both streams full (CPU 1's too), so 50% holds for none of them
load 1 $N
ok_cmd "add usage-le 50% of c -> notify" lttctl add-trigger --name low \
	--condition=channel-buffer-usage-le --session=kb --channel=c -k --threshold-ratio=0.5 \
	--action=notify
waiter low
# each trigger's fired count
fired() {
	trigger_count "$1" fired
}
is "$(fired full):$(fired low):$(fired other)" "1:0:0" \
	"full fired once (the buffer stays full: no new crossing), low not yet, other never"
kill -CONT "$cons"
wait $WAITER
is $? 0 "the consumer runs again and empties both buffers: usage-le notified"
like "$(cat "$TEST_TMP/low.out")" "^Trigger low fired \(#1\): session kb, [0-9]+ bytes in the channel's fullest buffer" \
	"with the bytes of the fullest stream"
low=$(sed -n "s/.*session kb, \([0-9]*\) bytes in the channel's fullest buffer.*/\1/p" "$TEST_TMP/low.out")
ok "$([ "${low:-99999}" -le 8192 ]; echo $?)" "at most 50% of 16 KiB (${low:-none})"

ok_cmd "stop kb" lttctl stop kb
run lttctl list kb
lost=$(sed -n 's/^ *discarded events: //p' <<<"$OUT" | awk '{ s += $1 } END { print s + 0 }')
got=$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/kb" 2>/dev/null | grep -cE ' syscall_(entry|exit)_getcpu: ')
ok "$([ "$lost" -gt 0 ]; echo $?)" "the full buffers discarded events ($lost)"
is "$((got + lost))" $((4 * N)) "recorded ($got) + discarded ($lost) = the $((4 * N)) events made"
is "$(fired full):$(fired low):$(fired other)" "1:1:0" "list-triggers: full and low fired once each, other never"
for t in full low other; do lttctl -q remove-trigger $t || break; done
ok $? "the triggers are removed"
lttctl -q destroy kb
