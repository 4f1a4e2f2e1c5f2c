#!/bin/bash
# A session's time line while the system clock steps or slews, inside the
# test guest (where changing the clock disturbs no one).
#
# Steps (scenario ust_clock_step): the example program runs three times
# with the realtime clock stepped an hour forward, then two back, between
# the runs, once with --clock=monotonic and once with the default, auto
# (which takes CLOCK_MONOTONIC in this guest too: QEMU's emulated CPU has
# no invariant TSC; the TSC's realtime offset is taken the same way, once,
# at the session's creation).  Read on the host with babeltrace2, the
# events are in the order they happened, and at the realtime they
# happened: neither step moves them.
#
# Slews (scenario ust_clock_slew): adjtimex(2) makes CLOCK_MONOTONIC run
# 1000 ppm fast (ADJ_FREQUENCY +500 ppm and an adjtime slew in progress),
# then 1000 ppm slow, in one session of both domains, with each kernel
# backend.  The slews were in effect (adjtimex's state, and
# CLOCK_MONOTONIC's rate against CLOCK_MONOTONIC_RAW's over each run);
# every getppid's entry and exit lies between the user events around it;
# every stream's timestamps are in order; every event's realtime lies
# between the realtime before and after its run.  doc/clock.md, "What
# holds" and "Limits".  Needs the module (the slews meet each kernel
# backend).
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

KVM_EXTRA_BINS="tests/regression/app/ust_app"
kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot ust_clock_step ust_clock_slew
plan 45

s=ust_clock_step
kvm_scenario_ok $s
for clock in monotonic auto; do
	f() { kvm_file $s "${clock}_$1"; }
	is "$(f run1.rc) $(f run2.rc) $(f run3.rc)" "0 0 0" "$clock: the program ran three times"
	# the realtime before the session, and the most it can be after (the
	# uptime, which no step moves, says how long it ran; steps lose a
	# fraction of a second each, so the guest's own clock can't say it)
	before=$(f before)
	after=$(awk -v b="$before" -v u0="$(f up0)" -v u1="$(f up1)" \
		'BEGIN { e = u1 - u0; printf "%d", b + e + (e > int(e)) + 1 }')
	ok $(( $(f stepped_forward) - before >= 3600 ? 0 : 1 )) \
		"$clock: the guest's clock stepped an hour forward between runs 1 and 2"
	ok $(( before - $(f stepped_back) >= 3590 ? 0 : 1 )) \
		"$clock: and two back between runs 2 and 3"
	run babeltrace2 --clock-seconds "$KVM_OUT/$s/$clock"
	is "$RC" 0 "$clock: babeltrace2 reads the trace"
	[ "$RC" = 0 ] || diag "$ERR"
	# "[SECONDS.NS] ... hello_world:NAME: { ... { vpid = PID } ...": time and pid
	# of each event, in the reader's order (by time).
	events=$(sed -n 's/^\[\([0-9]*\)\.[0-9]*\].* hello_world:.*vpid = \([0-9]*\).*/\1 \2/p' \
		<<<"$STDOUT")
	pids=$(awk '{print $2}' <<<"$events" | uniq | tr '\n' ' ')
	is "$pids" "$(f run1.pid) $(f run2.pid) $(f run3.pid) " \
		"$clock: read by time, the three runs' events come in the order the runs were, each whole"
	is "$(wc -l <<<"$events")" 18 "$clock: 6 events a run"
	first=$(head -n 1 <<<"$events" | cut -d' ' -f1)
	last=$(tail -n 1 <<<"$events" | cut -d' ' -f1)
	ok $(( first >= before && last <= after ? 0 : 1 )) \
		"$clock: every event's time lies between the realtime before and after the session (${first}..${last} in ${before}..${after}): no step moved one"
done
meta=$(find "$KVM_OUT/$s/auto" -name metadata | head -n 1)
env=$(babeltrace2 --output-format=ctf-metadata "$(dirname "${meta:-/nonexistent/x}")" 2>/dev/null)
like "$env" 'ltt_clock = "(tsc|monotonic)"' "the auto trace says which clock it used"
diag "auto chose $(grep -o 'ltt_clock[a-z_]* = "[^"]*"' <<<"$env" | tr "\n" " ") in the guest (clocksource: $(kvm_file $s clocksource))"
kvm_kernel_clean $s

# --- slews (ust_clock_slew) ---
s=ust_clock_slew
# adjtimex's frequency (ppm << 16) in the scenario's two runs: it sets
# +500 ppm with an adjtime slew of +1 s (worked off at 500 ppm), then
# -500 ppm with -1 s
FAST_FREQ=$((500 << 16)) SLOW_FREQ=$((-500 << 16))

# slew_fact FILE KEY: KEY's value in a kslew read of the scenario (0 when
# it has none: the checks then fail rather than the arithmetic).
slew_fact() {
	local v
	v=$(sed -n "s/^$2=//p" "$KVM_OUT/$s/$1" 2>/dev/null)
	echo "${v:-0}"
}

# slew_ppm RUN: CLOCK_MONOTONIC's rate against CLOCK_MONOTONIC_RAW over
# RUN (between its _start and _end reads), in ppm of the raw clock.
slew_ppm() {
	local dm dr
	dm=$(($(slew_fact "$1_end" mono_ns) - $(slew_fact "$1_start" mono_ns)))
	dr=$(($(slew_fact "$1_end" raw_ns) - $(slew_fact "$1_start" raw_ns)))
	echo $(((dm - dr) * 1000000 / (dr > 0 ? dr : 1)))
}

# ns_times: the times of babeltrace2 --clock-seconds lines on stdin, in ns,
# sorted (all have 19 digits, so their text sorts as their values).
ns_times() {
	sed -n 's/^\[\([0-9]*\)\.\([0-9]\{9\}\)\].*/\1\2/p' | sort
}

# within LO HI: "ok" when every time on stdin (ns_times) lies in LO..HI, else
# "N events, FIRST..LAST".
within() {
	local t first last
	t=$(ns_times)
	first=$(head -n 1 <<<"$t") last=$(tail -n 1 <<<"$t")
	if [ -n "$t" ] && [ "$first" -ge "$1" ] && [ "$last" -le "$2" ]; then
		echo ok
	else
		echo "$(grep -c . <<<"$t") events, ${first:-none}..${last:-none}"
	fi
}

# stream_order DIR: each data stream of the traces under DIR read alone
# (with its trace's metadata, in a directory of its own) by babeltrace2:
# "STREAMS streams, EVENTS events, BACK steps back" (BACK: timestamps
# less than the one before in their stream).
stream_order() {
	local meta dir f n=0 events=0 back=0 one=$TEST_TMP/stream out
	while read -r meta; do
		dir=$(dirname "$meta")
		for f in "$dir"/*; do
			{ [ -f "$f" ] && [ "$f" != "$meta" ]; } || continue
			rm -rf "$one" && mkdir -p "$one" && cp "$meta" "$f" "$one/" || return 1
			out=$(timeout "$BT_TIMEOUT" babeltrace2 --clock-cycles --no-delta "$one" 2>&1) ||
				{ diag "babeltrace2 on $f:" "$out"; back=$((back + 1)); continue; }
			n=$((n + 1))
			out=$(sed -n 's/^\[\([0-9]*\)\].*/\1/p' <<<"$out")
			events=$((events + $(grep -c . <<<"$out")))
			back=$((back + $(awk 'NR > 1 && $1 < p { b++ } { p = $1 } END { print b + 0 }' <<<"$out")))
		done
	done < <(find "$1" -name metadata)
	echo "$n streams, $events events, $back steps back"
}

kvm_scenario_ok $s
for b in module tracefs; do
	is "$(kvm_file $s ${b}_fast.rc) $(kvm_file $s ${b}_slow.rc)" "0 0" "$b: the program ran twice"
	# the slews in effect: as set, still working off their adjtime offset,
	# and CLOCK_MONOTONIC's measured rate (1000 ppm each way; a second
	# read and the clocks' updates err by a few ppm)
	for r in fast slow; do
		want=$FAST_FREQ sign=1
		[ $r = slow ] && want=$SLOW_FREQ sign=-1
		ok $(( $(slew_fact ${b}_${r}_start freq) == want && $(slew_fact ${b}_${r}_end freq) == want &&
			sign * $(slew_fact ${b}_${r}_end adjust_us) > 0 ? 0 : 1 )) \
			"$b: $r run: adjtimex says $((want / 65536)) ppm at its start and end, and an adjtime slew still left ($(slew_fact ${b}_${r}_end adjust_us) us)"
		ppm=$(slew_ppm ${b}_$r)
		ok $(( sign * ppm >= 900 && sign * ppm <= 1100 ? 0 : 1 )) \
			"$b: $r run: CLOCK_MONOTONIC ran $ppm ppm against CLOCK_MONOTONIC_RAW (want $((sign * 1000)) +- 100)"
	done
	bt=$TEST_TMP/slew_$b
	timeout "$BT_TIMEOUT" babeltrace2 --clock-seconds "$KVM_OUT/$s/$b" >"$bt" 2>"$bt.err"
	is $? 0 "$b: babeltrace2 reads the session's trace"
	[ -s "$bt.err" ] && diag "$(cat "$bt.err")"
	# the two runs' threads, in the order they emitted
	tids=$(sed -n 's/.* ltt_test:seq: .*vtid = \([0-9]*\).*/\1/p' "$bt" | uniq | tr '\n' ' ')
	# shellcheck disable=SC2086
	set -- $tids
	is "$#" 2 "$b: two threads emitted user events, one a run (${tids% })"
	for r in fast slow; do
		tid=${1:-none}
		shift
		is "$(timeline_order "$bt" "$tid")" "U$(printf 'EXU%.0s' $(seq 100))" \
			"$b: $r run: one time line: 101 user events, each getppid's entry and exit between two"
		got=$(grep -E " (ltt_test:seq: .*vtid = ${tid}[,} ]|syscall_(entry|exit)_getppid: .*\{ tid = ${tid} \})" "$bt" |
			within "$(slew_fact ${b}_${r}_start real_ns)" "$(slew_fact ${b}_${r}_end real_ns)")
		is "$got" ok "$b: $r run: its events' realtime lies between the realtime before and after it"
	done
	is "$(within "$(slew_fact ${b}_before real_ns)" "$(slew_fact ${b}_after real_ns)" <"$bt")" ok \
		"$b: every event's realtime lies between the realtime before and after the session"
	got=$(stream_order "$KVM_OUT/$s/$b")
	like "$got" "^[1-9][0-9]* streams, [1-9][0-9]* events, 0 steps back$" \
		"$b: every stream's timestamps in order ($got)"
done
kvm_kernel_clean $s
