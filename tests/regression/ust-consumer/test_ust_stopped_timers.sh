#!/bin/bash
# test_ust_stopped_timers.sh - a stopped session's channels cost their
# consumer no core, whatever their timers (issue 25): a stop's flush
# tells the consumer the writers stopped (FLUSH_CHANNEL's stopped flag,
# consumer protocol 1.11), and the channels' 100 us switch and read
# timers tick every 100 ms until their streams get a packet again.  A
# user-space channel and a kernel one (tracefs) in one session: stopped,
# the consumers use almost no CPU over 2 s (they took a quarter of a core);
# started again, both record everything, stopped again, the same.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 7

# consumer_ticks: the CPU time (clock ticks) of the daemon's consumers so far.
consumer_ticks() {
	local p t=0
	for p in $(pgrep -P "$(sessiond_pid)" -f ltt-consumerd); do
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
	done
	echo "$t"
}

# stopped_ticks: the consumers' ticks over 2 s (a measure, not a wait
# for anything: the timers run meanwhile).
stopped_ticks() {
	local a b
	a=$(consumer_ticks)
	timeout 2 tail -f /dev/null
	b=$(consumer_ticks)
	echo $((b - a))
}

lttctl -q create t -o "$TEST_TMP/t" &&
	lttctl -q enable-channel -u uc --switch-timer 100 --read-timer 100 &&
	lttctl -q enable-event -u ltt_test:seq -c uc &&
	lttctl -q enable-channel -k kc --switch-timer 100 --read-timer 100 &&
	lttctl -q enable-event -k --syscall getcpu -c kc &&
	lttctl -q add-context -k -t tid -c kc || { echo "Bail out! session t"; exit 1; }
lttctl -q start
ust_app -n 10 -r normal
tid1=$(taskset -c 0 "$KLOAD" getcpu 30 | sed -n 's/^tid //p')
ok_cmd "stop" lttctl stop
n=$(stopped_ticks)
diag "the consumers' CPU over 2 s stopped: $n ticks of $(getconf CLK_TCK)/s"
ok "$([ "$n" -lt 5 ] && echo 0 || echo 1)" \
	"stopped, the consumers of 100 us timers take under 5 ticks in 2 s ($n; about 150 before)"
ok_cmd "start again" lttctl start
ust_app -n 10 -r normal
tid2=$(taskset -c 0 "$KLOAD" getcpu 30 | sed -n 's/^tid //p')
lttctl -q stop
n=$(stopped_ticks)
ok "$([ "$n" -lt 5 ] && echo 0 || echo 1)" "stopped again: the same ($n)"
bt "$TEST_TMP/t" "$TEST_TMP/t.txt"
is "$(count_events "$TEST_TMP/t.txt" ltt_test:seq)" 20 "the two programs' 20 events are recorded"
is "$(grep -c "syscall_exit_getcpu: .*{ tid = $tid1 }" "$TEST_TMP/t.txt"):$(grep -c "syscall_exit_getcpu: .*{ tid = $tid2 }" "$TEST_TMP/t.txt")" \
	"30:30" "the two kernel loads' 30 calls each are recorded"
lttctl -q destroy t
