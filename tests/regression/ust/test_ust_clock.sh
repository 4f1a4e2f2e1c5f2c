#!/bin/bash
# test_ust_clock.sh - the clock of user-space events (doc/clock.md): the
# daemon's --clock and LTT_CLOCK, refused when wrong; the clock each trace
# says it counts, and why; events at the realtime they were recorded at,
# whichever clock counted them.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 22

cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
flags=$(grep -m1 '^flags' /proc/cpuinfo)
tsc_flags=no
if [ "$(uname -m)" = x86_64 ]; then
	tsc_flags=yes
	for f in constant_tsc nonstop_tsc; do
		grep -qw "$f" <<<"$flags" || tsc_flags=no
	done
fi
tsc_ok=no
[ "$cs" = tsc ] && tsc_ok=$tsc_flags
# what the kernel keeps time with, as the reason says it (doc/clock.md)
source="the TSC"
mono_why="the kernel keeps time with $cs, not the TSC"
if [ "$cs" = kvm-clock ]; then
	source="kvm-clock, whose host promises one stable TSC for every vCPU (pvclock's stable bit)"
	mono_why="the kernel keeps time with kvm-clock, whose host does not promise one stable TSC for every vCPU (no pvclock stable bit)"
fi
# how programs read the TSC: rdtscp where the CPU lists it
tsc_read="lfence; rdtsc"
tsc_why="the kernel keeps time with $source; the CPU lacks rdtscp: read with lfence; rdtsc, the CPU from rseq"
if grep -qw rdtscp <<<"$flags"; then
	tsc_read=rdtscp
	tsc_why="the kernel keeps time with $source"
fi

# Bad choices: refused at start, saying what to give; no daemon left.
rd="$TEST_TMP/rd-bad"
mkdir -p "$rd"
run "$SESSIOND" --rundir "$rd" --clock=cycles
like "$OUT" "^ltt-sessiond: Error: --clock=cycles: unknown clock 'cycles': give auto, tsc or monotonic$" \
	"--clock=cycles: refused, saying what to give"
n=$(ls -A "$rd" | wc -l)
ok $(( RC == 0 || n != 0 )) "... non-zero, and nothing made in the run directory ($n entries)"
run env LTT_CLOCK=hpet "$SESSIOND" --rundir "$rd"
like "$OUT" "LTT_CLOCK=hpet: unknown clock 'hpet'" "LTT_CLOCK=hpet: refused the same way"
if [ "$cs" = kvm-clock ] && [ $tsc_flags = yes ]; then
	# pvclock's stable bit decides (test_tclock checks both ways): --clock=tsc says which
	rd2="$TEST_TMP/rd-tsc"
	mkdir -p "$rd2"
	if start_sessiond "$rd2" --clock=tsc 2>"$TEST_TMP/tsc.err"; then
		tsc_ok=yes
		stop_sessiond "$rd2"
		ok 0 "--clock=tsc where kvm-clock's host promises a stable TSC: started"
	else
		like "$(cat "$TEST_TMP/tsc.err")" "--clock=tsc: the TSC cannot time events here: $mono_why" \
			"--clock=tsc on kvm-clock without the pvclock stable bit: refused, saying why"
	fi
elif [ $tsc_ok = no ]; then
	run "$SESSIOND" --rundir "$rd" --clock=tsc
	like "$OUT" "--clock=tsc: the TSC cannot time events here: " \
		"--clock=tsc where the kernel does not keep time with it: refused, saying why"
else
	rd2="$TEST_TMP/rd-tsc"
	mkdir -p "$rd2"
	start_sessiond "$rd2" --clock=tsc
	ok $? "--clock=tsc where the kernel keeps time with it: started"
	stop_sessiond "$rd2"
fi
diag "clocksource $cs; the TSC usable: $tsc_ok, read with $tsc_read"

# trace_of DIR: the events of the trace, as seconds since the Epoch.
trace_of() {
	timeout "$BT_TIMEOUT" babeltrace2 --clock-seconds --no-delta "$1" 2>/dev/null
}

# session NAME: trace 50 events of a program between two readings of the
# realtime clock; BEFORE, AFTER (ns), TRACE (text) and LISTED, STATUS (the
# clock lines of `lttctl list NAME` and `lttctl status`) are set.
session() {
	lttctl -q create "$1" -o "$TEST_TMP/$1"
	lttctl -q enable-event -u ltt_test:seq -s "$1"
	lttctl -q start "$1"
	BEFORE=$(date +%s%N)
	ust_app -n 50 >/dev/null
	AFTER=$(date +%s%N)
	LISTED=$(lttctl list "$1" | grep '^User-space clock:')
	STATUS=$(lttctl status | grep '^User-space clock:')
	lttctl -q destroy "$1"
	TRACE=$(trace_of "$TEST_TMP/$1")
	META=$(cat "$TEST_TMP/$1"/ust/uid/*/64-bit/metadata | tr -c '[:print:]\t\n' '\n')
}

# within: every event's time (s.ns) lies in [BEFORE, AFTER]; prints the count.
within() {
	awk -v b="$BEFORE" -v a="$AFTER" -F'[][]' '
		/ltt_test:seq/ { split($2, t, "."); ns = t[1] t[2];
			n++; if (ns < b || ns > a) bad++ }
		END { printf "%d %d", n, bad }' <<<"$TRACE"
}

# The daemon's own choice (auto).
session auto
want=monotonic
[ $tsc_ok = yes ] && want=tsc
like "$META" "ltt_clock = \"$want\";" "auto: the trace says the clock is $want"
if [ $want = tsc ]; then
	like "$META" "ltt_clock_reason = \"$(sed 's/[()]/\\&/g' <<<"$tsc_why")\";" "... and why"
	like "$META" "ltt_clock_read = \"$tsc_read\";" "... and how programs read it ($tsc_read)"
	like "$(grep -A8 '^clock {' <<<"$META" | tr -d '\n')" \
		'name = "monotonic";.*description = "Monotonic Clock, counted by the TSC";	freq = [1-9][0-9]{7,};	offset_s = [1-9][0-9]+;	offset = [0-9]+;' \
		"... its frequency and an offset in seconds and cycles"
else
	like "$META" "ltt_clock_reason = \"$(sed 's/[()]/\\&/g' <<<"$mono_why")\";" "... and why"
	like "$META" 'ltt_clock_read = "clock_gettime";' "... and how programs read it"
	like "$(grep -A8 '^clock {' <<<"$META" | tr -d '\n')" 'freq = 1000000000;	offset = [0-9]+;' \
		"... at 1 GHz, one offset in ns"
fi
auto_line="User-space clock: monotonic, read with clock_gettime ($mono_why)"
[ $want = tsc ] && auto_line="User-space clock: tsc, read with $tsc_read ($tsc_why)"
is "$LISTED" "$auto_line" "auto: lttctl list SESSION says the clock, how it is read and why"
is "$STATUS" "$auto_line" "... and so does lttctl status"
is "$(within)" "50 0" "auto: the 50 events lie between the realtime before and after the program"
mono=$(awk -F'[][]' '/ltt_test:seq/ { print $2 }' <<<"$TRACE" | sort -c && echo sorted)
is "$mono" sorted "... in order"

# CLOCK_MONOTONIC asked for: the trace says so, and the events fall right.
stop_sessiond
start_sessiond "$LTT_RUNDIR" --clock=monotonic
ok $? "a daemon with --clock=monotonic"
session mono
like "$META" 'ltt_clock = "monotonic";' "monotonic: the trace says so"
like "$META" 'ltt_clock_reason = "asked for \(--clock or LTT_CLOCK\)";' "... and why"
like "$META" 'ltt_clock_read = "clock_gettime";' "... read with clock_gettime"
like "$(grep -A8 '^clock {' <<<"$META" | tr -d '\n')" 'freq = 1000000000;	offset = [0-9]+;' \
	"... counted in ns, one offset in ns"
is "$LISTED" "User-space clock: monotonic, read with clock_gettime (asked for (--clock or LTT_CLOCK))" \
	"monotonic: lttctl list SESSION says so, and why"
is "$(within)" "50 0" "monotonic: the 50 events lie between the realtime before and after"
stop_sessiond
LTT_CLOCK=monotonic start_sessiond "$LTT_RUNDIR"
ok $? "a daemon with LTT_CLOCK=monotonic"
session env
like "$META" 'ltt_clock = "monotonic";' "LTT_CLOCK=monotonic: the trace says so"
is "$STATUS" "User-space clock: monotonic, read with clock_gettime (asked for (--clock or LTT_CLOCK))" \
	"LTT_CLOCK=monotonic: lttctl status says so, and why"
