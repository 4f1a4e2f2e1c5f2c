#!/bin/bash
# test_ust_torn.sh - programs that die while they record, with per-UID
# and per-PID buffers.  Every event a program committed is in the trace
# after stop; an event torn by the death (reserved, not committed) is a
# skip event (ltt_ust:torn) and counted in the discarded events; a
# program that comes after on the same CPU records every event.
#
#   tear  3 threads commit 2000 events each; then the program reserves
#         one more, writes half of it and raises SIGKILL (mid-copy,
#         between reserve and commit).  Exact: 6000 recorded, 1 torn, 1
#         discarded.  Then a second program pinned to the same CPU.
#   flat  2 threads record flat out; SIGKILL from the test.  Per thread
#         the calls that returned are known (a shared counter): each is
#         recorded once or counted lost, and the discarded events are the
#         torn ones plus those of packets given up, which are exactly the
#         calls missing, or up to one more per thread (a call cut short
#         by the kill, committed).  A packet is given up when the dead
#         threads' records can't tell what they owed (one had committed
#         an event of the size the other had reserved, not cleared its
#         record yet): rare, and then every call it held is missing.
#         Nothing given up: every call that returned is recorded, gapless.
#   untracked  32 threads record 100 events each and stay, holding every
#         writer record; main, a writer without one, records 100 and is
#         killed mid-event (per-PID).  Its packet can't be repaired, only
#         given up when the program has ended, counted: recorded +
#         discarded = 3300, a packet lost, no skip event.
#   tearchan  tear in one buffer for the whole channel (per-channel):
#         the next program runs on another CPU and writes the same buffer.
#   exit  3 threads record flat out while main calls exit(): every event
#         committed before exit() is recorded, gapless, nothing torn,
#         nothing discarded (the library stops recording and waits for
#         the threads' slots before the process ends).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

UST_TORN="$LTT_TOP_BUILDDIR/tests/regression/app/ust_torn"
if [ -x "$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_torn" ] &&
	grep -q '^relink_command=""' "$UST_TORN" 2>/dev/null; then
	UST_TORN="$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_torn"
fi

ust_setup
plan 75

# torn_app ARGS...: the program, its registration waited for as long as it
# takes (a loaded machine can take longer than the default 3 s to set up
# a per-PID trace: the calls made before it are not recorded, and this
# test counts every call that returned), bounded by the test's timeout.
torn_app() {
	(
		close_fifos
		export LTT_UST_REGISTER_TIMEOUT=$((TEST_TIMEOUT * 1000))
		exec timeout "$TEST_TIMEOUT" "$UST_TORN" "$@"
	)
}

# session NAME MODE [CHANNEL OPTIONS]: create, a channel, ltt_test:seq, start.
session() {
	local name=$1 mode=$2
	shift 2
	{
		lttctl -q create "$name" -o "$TEST_TMP/$name" &&
		lttctl -q enable-channel -u c0 --buffers-"$mode" "$@" &&
		lttctl -q enable-event -u ltt_test:seq -c c0 &&
		lttctl -q start
	} || { echo "Bail out! $name: the session could not be set up"; exit 1; }
}

# finish NAME: stop, the discarded count into LOST, the lost packets into
# LOSTP, the trace into OUT.
finish() {
	ok_cmd "$1: stop" lttctl stop "$1"
	local list
	list=$(lttctl list "$1")
	LOST=$(sed -n 's/^ *discarded events: //p' <<<"$list")
	LOSTP=$(sed -n 's/^ *lost packets: //p' <<<"$list")
	OUT="$TEST_TMP/$1.out"
	bt "$TEST_TMP/$1" "$OUT"
	is "$?:$(grep -vc -e ' ltt_test:seq: ' -e ' ltt_ust:torn: ' "$OUT")" 0:0 \
		"$1: babeltrace2 reads the trace: seq and torn events only"
}

# per_thread OUT ROLE THREADS COUNTS FIRST: per thread t, the recorded seqs
# are exactly 0..m-1 with m the count of returned calls (slot FIRST + t of
# the file COUNTS) or one more; prints what is wrong.  TORN_OK=1 allows
# m + 1 to be the count of one torn call instead.
per_thread() {
	od -An -v -t u8 -w8 "$4" | awk -v role="$2" -v threads="$3" -v first="$5" "$SEQ_AWK"'
	FILENAME == "-" { c[NR - 1] = $1 + 0; next }
	seq_event(role) {
		t = T; s = S
		if (t < 0 || t >= threads || seen[t, s]++) { bad++; next }
		n[t]++
		if (s + 1 > m[t]) m[t] = s + 1
	}
	END {
		for (t = 0; t < threads; t++) {
			want = c[first + t]
			if (n[t] != m[t]) printf "thread %d: %d events for seqs 0..%d\n", t, n[t], m[t] - 1
			if (m[t] < want || m[t] > c[t] + 1)
				printf "thread %d: %d recorded, %d calls had returned (%d at the end)\n", t, m[t], want, c[t]
		}
		if (bad) printf "%d events recorded twice or out of range\n", bad
	}' - "$1"
}

# missing OUT ROLE THREADS COUNTS: the calls that returned (per thread t,
# slot t of the file COUNTS, or COUNTS itself, a number) but are not in
# the trace; first, one line per thread with an event recorded twice or
# past the calls made (the one cut short by the kill may be there).
missing() {
	{ if [ -f "$4" ]; then od -An -v -t u8 -w8 "$4"; else yes "$4" | head -n "$3"; fi; } |
	awk -v role="$2" -v threads="$3" "$SEQ_AWK"'
	FILENAME == "-" { c[NR - 1] = $1 + 0; next }
	seq_event(role) {
		t = T; s = S
		if (t < 0 || t >= threads || seen[t, s]++ || s > c[t]) { bad[t]++; next }
		if (s < c[t]) n[t]++
	}
	END {
		for (t = 0; t < threads; t++) {
			if (bad[t]) printf "thread %d: %d events twice or past its calls\n", t, bad[t]
			sum += c[t] - n[t]
		}
		print sum
	}' - "$1"
}

open_fifo ready "$TEST_TMP/ready"

# The three skip event classes through babeltrace2: a torn event of 12
# bytes (compact header), of ~50 bytes, of ~330 bytes (a long role).
long=$(printf 'r%.0s' $(seq 300))
for torn in "tearcrit torn" "tear torn" "tear $long"; do
	set -- $torn
	name=skip${#2}$1
	session $name uid
	lttctl -q enable-event -u ltt_test:crit -c c0
	torn_app -m $1 -r $2 -t 1 -n 100 -p 0 &
	{ wait $!; } 2>/dev/null
	is $? $((128 + 9)) "$name: the program killed itself mid-event"
	finish $name
	is "$(count_events "$OUT" ltt_test:seq):$(count_events "$OUT" ltt_ust:torn):$LOST" 100:1:1 \
		"$name: 100 events, one skip event, one discarded"
	lttctl -q destroy $name
done

for mode in uid pid; do
	# tear: killed between reserve and commit, a program after it on CPU 0
	name=tear$mode
	session $name $mode
	torn_app -m tear -r torn -t 3 -n 2000 -p 0 &
	{ wait $!; } 2>/dev/null	# no "Killed" notice
	is $? $((128 + 9)) "$name: the program killed itself mid-event"
	torn_app -m plain -r after -t 2 -n 3000 -p 0
	is $? 0 "$name: a program after it on the same CPU"
	finish $name
	is "$(seq_check "$OUT" torn 3 2000)" "" "$name: the killed program's 3 x 2000 committed events, once each"
	is "$(seq_check "$OUT" after 2 3000)" "" "$name: the next program's 2 x 3000 events, once each"
	is "$(count_events "$OUT" ltt_test:seq)" 12000 "$name: no other seq event"
	is "$(count_events "$OUT" ltt_ust:torn)" 1 "$name: the torn event is one skip event"
	is "$LOST" 1 "$name: and counted: 1 discarded event"
	lttctl -q destroy $name

	# flat: SIGKILL while two threads record flat out
	name=flat$mode
	session $name $mode --subbuf-size 1M --num-subbuf 8
	torn_app -m flat -r flat -t 2 -n 20000 -c "$TEST_TMP/$name.counts" -w "$TEST_TMP/ready" &
	pid=$!
	wait_ready $ready
	ok $? "$name: every thread has recorded 20000 events"
	kill -KILL $READY_PIDS
	{ wait $pid; } 2>/dev/null
	is $? $((128 + 9)) "$name: killed by SIGKILL while recording"
	torn_app -m plain -r after -t 2 -n 3000
	is $? 0 "$name: a program after it"
	finish $name
	torn=$(count_events "$OUT" ltt_ust:torn)
	ok "$([ "$torn" -le 2 ]; echo $?)" "$name: at most one torn event per thread ($torn)"
	# per-UID: the next program may share a packet given up
	flat=$(missing "$OUT" flat 2 "$TEST_TMP/$name.counts")
	after=$(missing "$OUT" after 2 3000)
	given=$((LOST - torn))
	diag "$name: $torn torn event(s), $given event(s) in $LOSTP packet(s) given up, calls returned: $(od -An -v -t u8 "$TEST_TMP/$name.counts" | xargs)"
	gone=$(( $(tail -n1 <<<"$flat") + $(tail -n1 <<<"$after") ))
	is "$(head -n -1 <<<"$flat")$(head -n -1 <<<"$after")" "" \
		"$name: no event recorded twice, none past the calls made"
	ok "$([ "$gone" -le "$given" ] && [ "$given" -le $((gone + 2)) ]; echo $?)" \
		"$name: every call that returned is recorded or counted lost ($gone missing, $given counted)"
	is "$(( given > 0 ? LOSTP > 0 : gone ))" "$(( given > 0 ))" \
		"$name: lost packets counted with them, or nothing missing"
	if [ $mode = pid ]; then
		is "$(seq_check "$OUT" after 2 3000)" "" "$name: the next program's 2 x 3000 events, once each"
	else
		ok "$([ "$(tail -n1 <<<"$after")" = 0 ] || [ "$given" -gt 0 ]; echo $?)" \
			"$name: the next program's 2 x 3000 events, unless a packet was given up"
	fi
	lttctl -q destroy $name

	# exit: exit() while three threads record
	name=exit$mode
	session $name $mode --subbuf-size 1M --num-subbuf 8
	torn_app -m exit -r exiting -t 3 -n 5000 -c "$TEST_TMP/$name.counts"
	is $? 0 "$name: exit() while threads record"
	finish $name
	is "$(per_thread "$OUT" exiting 3 "$TEST_TMP/$name.counts" 3)" "" \
		"$name: per thread, every call that returned before exit() is recorded, gapless"
	is "$(count_events "$OUT" ltt_ust:torn)" 0 "$name: nothing torn"
	is "$LOST" 0 "$name: nothing discarded"
	lttctl -q destroy $name
done

# tear, one buffer for the channel (--buffer-allocation=per-channel): the
# killed program on CPU 0, the next one on another CPU, in the same buffer
other=0
[ "$(nproc)" -gt 1 ] && other=1
name=tearchan
session $name uid --buffer-allocation=per-channel
torn_app -m tear -r torn -t 3 -n 2000 -p 0 &
{ wait $!; } 2>/dev/null
is $? $((128 + 9)) "$name: the program killed itself mid-event"
torn_app -m plain -r after -t 2 -n 3000 -p $other
is $? 0 "$name: a program after it on CPU $other, same buffer"
finish $name
is "$(seq_check "$OUT" torn 3 2000)$(seq_check "$OUT" after 2 3000)" "" \
	"$name: the killed program's 3 x 2000 committed events and the next one's 2 x 3000, once each"
is "$(count_events "$OUT" ltt_test:seq):$(count_events "$OUT" ltt_ust:torn):$LOST" 12000:1:1 \
	"$name: no other seq event, the torn one a skip event, 1 discarded"
lttctl -q destroy $name

name=untracked
session $name pid
torn_app -m untracked -r held -t 32 -n 100 -p 0 &
{ wait $!; } 2>/dev/null
is $? $((128 + 9)) "$name: the program killed itself mid-event, a writer without a record"
finish $name
held=$(missing "$OUT" held 33 100)
rec=$(count_events "$OUT" ltt_test:seq)
is "$(head -n -1 <<<"$held")" "" "$name: no event recorded twice"
is "$rec + $LOST" "$((3300 - $(tail -n1 <<<"$held"))) + $((3300 - rec))" \
	"$name: every committed event recorded or counted: recorded + discarded = 3300"
ok "$([ "${LOSTP:-0}" -ge 1 ]; echo $?)" "$name: the packet given up is a lost packet ($LOSTP)"
is "$(count_events "$OUT" ltt_ust:torn)" 0 "$name: no skip event (not repaired)"
lttctl -q destroy $name
done_testing
