#!/bin/bash
# test_kernel_tracefs_triggers.sh - channel-buffer-usage triggers on a
# kernel channel, natively through tracefs (the daemon reads each CPU's
# "bytes:" statistic of the channel's instance).  A channel of 16 KiB a
# CPU in discard mode, its consumer stopped: a program's getcpu calls on
# CPU 0 fill CPU 0's buffer, and usage-ge (75%) notifies once, with the
# bytes held; both CPUs filled, usage-le (50%) holds for no stream until
# the consumer runs again and empties them, then notifies once.  A
# trigger on a channel the session does not have never fires; a session
# that does not exist is refused.  Nothing lost unseen: recorded +
# discarded = the events made.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip_all "needs two online CPUs"
tracefs_setup 20

# wait_for_waiter FD: a wait-trigger started with its stderr on FIFO FD said it is subscribed
wait_for_waiter() {
	read_line "$1" && [[ $LINE == "Waiting for trigger "* ]]
}

# load CPU N: N getcpu calls on CPU (a system call nothing else makes:
# programs read the CPU from the vDSO), each an entry and an exit.
load() {
	taskset -c "$1" "$KLOAD" getcpu "$2" >/dev/null ||
		{ echo "Bail out! kload getcpu on CPU $1 failed"; exit 1; }
}

run lttctl add-trigger --condition=channel-buffer-usage-ge --session=nosuch --channel=c -k \
	--threshold-ratio=0.5 --action=notify
like "$RC:$OUT" "^1:.*no session by that name" "a kernel channel of a session that does not exist: refused"

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
open_fifo W1 "$TEST_TMP/w1"
lttctl wait-trigger full --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w1.out" 2>&"$W1" &
WAITER=$!
wait_for_waiter "$W1"
ok $? "wait-trigger full is subscribed"
stop_proc "$cons"
N=5000
load 0 $N
wait $WAITER
is $? 0 "CPU 0's buffer filled with the consumer stopped: usage-ge notified"
bytes=$(sed -n "s/.*session kb, \([0-9]*\) bytes in the channel's fullest buffer.*/\1/p" "$TEST_TMP/w1.out")
ok "$([ "${bytes:-0}" -ge 12288 ]; echo $?)" "with the bytes CPU 0's buffer held (${bytes:-none} >= 12288): $(cat "$TEST_TMP/w1.out")"

# le: both streams full (CPU 1's too), so 50% holds for none of them
load 1 $N
ok_cmd "add usage-le 50% of c -> notify" lttctl add-trigger --name low \
	--condition=channel-buffer-usage-le --session=kb --channel=c -k --threshold-ratio=0.5 \
	--action=notify
open_fifo W2 "$TEST_TMP/w2"
lttctl wait-trigger low --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w2.out" 2>&"$W2" &
WAITER=$!
wait_for_waiter "$W2"
ok $? "wait-trigger low is subscribed"
run lttctl --mi xml list-triggers
# each trigger's fired count, in the order listed
fired() {
	tr -d '\n' <<<"$OUT" | sed 's|<trigger>|\n<trigger>|g' | grep "<name>$1</name>" |
		sed -n 's|.*<fired>\([0-9]*\)</fired>.*|\1|p'
}
is "$(fired full):$(fired low):$(fired other)" "1:0:0" \
	"full fired once (the buffer stays full: no new crossing), low not yet, other never"
kill -CONT "$cons"
wait $WAITER
is $? 0 "the consumer runs again and empties both buffers: usage-le notified"
like "$(cat "$TEST_TMP/w2.out")" "^Trigger low fired \(#1\): session kb, [0-9]+ bytes in the channel's emptiest buffer" \
	"with the bytes of the emptiest stream"
low=$(sed -n "s/.*session kb, \([0-9]*\) bytes in the channel's emptiest buffer.*/\1/p" "$TEST_TMP/w2.out")
ok "$([ "${low:-99999}" -le 8192 ]; echo $?)" "at most 50% of 16 KiB (${low:-none})"

ok_cmd "stop kb" lttctl stop kb
run lttctl list kb
lost=$(sed -n 's/^ *discarded events: //p' <<<"$OUT" | awk '{ s += $1 } END { print s + 0 }')
got=$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/kb" 2>/dev/null | grep -cE ' syscall_(entry|exit)_getcpu: ')
ok "$([ "$lost" -gt 0 ]; echo $?)" "the full buffers discarded events ($lost)"
is "$((got + lost))" $((4 * N)) "recorded ($got) + discarded ($lost) = the $((4 * N)) events made"
run lttctl --mi xml list-triggers
is "$(fired full):$(fired low):$(fired other)" "1:1:0" "list-triggers: full and low fired once each, other never"
for t in full low other; do lttctl -q remove-trigger $t || break; done
ok $? "the triggers are removed"
lttctl -q destroy kb
