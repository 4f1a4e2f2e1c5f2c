#!/bin/bash
# test_kernel_tracefs_takeover.sh - overwrite mode through tracefs, its
# losses, and a consumer killed.
#  - The kernel laps a channel's buffers while its consumer is stopped,
#    on two CPUs: what it overwrote is counted exactly (ftrace's stats
#    "overrun"), recorded + discarded = the events made.  A page that had
#    no room for its missed count says 1: counted from it, one run had 2
#    discarded of 39324 lost.
#  - The consumer killed between two loads: the new one goes on writing
#    after the dead one's packets (their numbers go on), both loads whole.
#  - The consumer killed while it holds what it read (no flush before):
#    the new one counts those events discarded, from the dead one's
#    ledger in the stream's slot (doc/consumerd.md "Taking over");
#    recorded + discarded = the events made.
#  - The consumer killed (SIGKILL) mid-session: the session daemon gives
#    its streams to a new consumer, which reads ftrace's totals again and
#    starts from what the dead one counted lost itself (the converter's
#    own count, which no ftrace total holds: carried in the stream's
#    slot; none here, where every loss is ftrace's: test_consumerd_tracefs
#    checks the carry).  The count never steps back, in `lttctl list` nor in the
#    packets' events_discarded (babeltrace2 reads the trace whole);
#    recorded + discarded = the events made, exactly.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 15
N=20000

discarded() { lttctl list "${1:-o}" | sed -n 's/^ *discarded events: //p' | head -1; }
# the last online CPU (/sys's list, "0-1" or "0,2-3")
last=$(sed 's/.*[,-]//' /sys/devices/system/cpu/online)
# bt_discarded FILE: the events babeltrace2 (its warnings, in FILE) read
# as discarded from the packets' events_discarded, all streams together
bt_discarded() {
	sed -n 's/^WARNING: Tracer discarded \([0-9]*\) events .*/\1/p' "$1" | awk '{ n += $1 } END { print n + 0 }'
}

# getcpu_session S N WHAT [OPTION...]: session S, started, a channel c of
# getcpu in N sub-buffers of 4 KiB (OPTION: enable-channel's); WHAT says it
getcpu_session() {
	local s=$1 n=$2 what=$3

	shift 3
	lttctl -q create "$s" -o "$TEST_TMP/$s" &&
		lttctl -q enable-channel -k c --subbuf-size 4096 --num-subbuf "$n" "$@" -s "$s" &&
		lttctl -q enable-event -k --syscall getcpu -c c -s "$s" &&
		lttctl -q start "$s"
	ok $? "$s: $what of getcpu, $n sub-buffers, started"
}

# overwrite_stopped S: session S, started, an overwrite channel of
# getcpu with tiny buffers, its consumer (pid in cons) stopped: the
# kernel laps its buffers
overwrite_stopped() {
	getcpu_session "$1" 2 "an overwrite channel" --overwrite
	cons=$(consumer_pid)
	stop_proc "$cons"
}

# --- the kernel laps the buffers of two CPUs: every overwritten event counted
overwrite_stopped x
taskset -c 0 "$KLOAD" getcpu $((N / 2)) >/dev/null
taskset -c "$last" "$KLOAD" getcpu $((N / 2)) >/dev/null
kill -CONT "$cons"
lttctl -q stop x
lost=$(discarded x)
babeltrace2 "$TEST_TMP/x" >"$TEST_TMP/x.txt" 2>"$TEST_TMP/x.err"
got=$(grep -cE ' syscall_(entry|exit)_getcpu: ' "$TEST_TMP/x.txt")
is "$((got + lost)):$(bt_discarded "$TEST_TMP/x.err")" "$((2 * N)):$lost" \
	"CPUs 0 and $last lapped: recorded ($got) + discarded (${lost:-none}) = the $((2 * N)) events made, the packets saying as much"
lttctl -q destroy x

# --- the consumer killed between two loads: the new one writes on after
# its packets (their numbers go on; the files took none numbered as
# theirs, and a new source numbered from 0: the whole second load went)
getcpu_session d 64 "a discard channel"
taskset -c 0 "$KLOAD" getcpu 1000 >/dev/null
lttctl -q stop d && lttctl -q start d
cons=$(consumer_pid)
kill -KILL "$cons"
wait_pid_exit "$cons"
taskset -c 0 "$KLOAD" getcpu 1000 >/dev/null
lttctl -q stop d
babeltrace2 "$TEST_TMP/d" >"$TEST_TMP/d.txt" 2>"$TEST_TMP/d.err"
is "$(grep -cE ' syscall_(entry|exit)_getcpu: ' "$TEST_TMP/d.txt"):$(discarded d)" 4000:0 \
	"d: both loads recorded whole (4000 events), the consumer killed between them" ||
	diag "$(grep -i 'discard\|continuing' "$TEST_TMP/d.err" "$LOG" | head -5)"
lttctl -q destroy d

# --- the consumer killed while it holds what it read (its open packet,
# no flush before): the new one counts those discarded, from the dead
# one's ledger in the stream's slot and ftrace's count of records read
getcpu_session h 8 "a discard channel"
stats=$(echo /sys/kernel/tracing/instances/ltt-"$(sessiond_pid)"-*/per_cpu/cpu0/stats)
[ -f "$stats" ] || { echo "Bail out! h: not one instance of the daemon's: $stats"; exit 1; }
# 2000 events, some 90 KiB, in a buffer of 32 KiB: ftrace wakes the
# consumer at each 4 KiB sub-buffer (buffer_percent 12), and it reads as
# the load goes (what it can't read in time is dropped, counted)
taskset -c 0 "$KLOAD" getcpu 1000 >/dev/null
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(sed -n 's/^read events: //p' "$stats")" -gt 0 ] 2>/dev/null ||
	[ $SECONDS -ge $deadline ]; do :; done
read1=$(sed -n 's/^read events: //p' "$stats")
cons=$(consumer_pid)
kill -KILL "$cons"
wait_pid_exit "$cons"
taskset -c 0 "$KLOAD" getcpu 1000 >/dev/null
lttctl -q stop h
hlost=$(discarded h)
babeltrace2 "$TEST_TMP/h" >"$TEST_TMP/h.txt" 2>"$TEST_TMP/h.err"
hgot=$(grep -cE ' syscall_(entry|exit)_getcpu: ' "$TEST_TMP/h.txt")
# the new consumer's log: what the dead one held (it had read, and
# without a flush its open packet held events at least)
held=$(sed -n 's/.*cpu 0: \([0-9]*\) events the dead consumer had read and not written.*/\1/p' "$LOG" | tail -1)
ok "$([ "${held:-0}" -gt 0 ]; echo $?)" \
	"h: killed after reading ${read1:-no} records, unflushed: the new consumer counts ${held:-none} it held"
is "$((hgot + hlost)):$(bt_discarded "$TEST_TMP/h.err")" "4000:$hlost" \
	"h: recorded ($hgot) + discarded ($hlost) = the 4000 events made, the packets saying as much" ||
	diag "$(grep -i 'dead consumer' "$LOG" | tail -5)"
lttctl -q destroy h

# --- the consumer killed: its own count carried over
overwrite_stopped o
"$KLOAD" getcpu $N >/dev/null
kill -CONT "$cons"
# Running again, the consumer reads the pages, counts what the kernel
# overwrote and publishes the count in the stream's slot (after each drain)
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(discarded)" -gt 0 ] 2>/dev/null || [ $SECONDS -ge $deadline ]; do :; done
before=$(discarded)
ok "$([ "${before:-0}" -gt 0 ]; echo $?)" \
	"the consumer counted overwritten events (${before:-0}, of $((2 * N)) made)"
# a stop's switch writes a packet that says them; the new consumer's
# packets must not say fewer (its source counts ftrace's totals from its
# start, not at its first switch)
lttctl -q stop o && lttctl -q start o
kill -KILL "$cons"
wait_pid_exit "$cons"
ok $? "the consumer killed"
"$KLOAD" getcpu $N >/dev/null
run lttctl stop o
is "$RC" 0 "stop: a new consumer took the streams over" || diag "$OUT"
after=$(discarded)
ok "$([ "${after:-0}" -ge "${before:-0}" ]; echo $?)" \
	"the count did not step back across the takeover (${before:-0} then ${after:-0})"
babeltrace2 "$TEST_TMP/o" >"$TEST_TMP/o.txt" 2>"$TEST_TMP/o.err"
is "$?:$(bt_discarded "$TEST_TMP/o.err")" "0:$after" \
	"babeltrace2 reads the trace whole, the packets' events_discarded as many as listed" ||
	diag "$(head -5 "$TEST_TMP/o.err")"
got=$(grep -cE ' syscall_(entry|exit)_getcpu: ' "$TEST_TMP/o.txt")
# What the dead consumer had read and not written yet (its open packet,
# its queue) is counted discarded by the new one (the ledger).  Before,
# it was in neither count (a bound of what the kernel's buffers held was
# all this could check); before the own count was carried over (and
# overwritten events were counted from the pages, the converter's own
# then), the first load's, which the dead consumer had counted, were in
# neither either (one run: 29918 + 10283 of 80000).
is "$((got + after))" $((4 * N)) \
	"recorded ($got) + discarded ($after) = the $((4 * N)) events made: nothing counted twice, nothing lost uncounted"
lttctl -q destroy o
