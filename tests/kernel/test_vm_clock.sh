#!/bin/bash
# A session's time line while the system clock steps: inside the test
# guest (where stepping the clock disturbs no one), the example program
# runs three times with the realtime clock stepped an hour forward, then
# two back, between the runs (scenario ust_clock_step), once with
# --clock=monotonic and once with the default, auto (which takes
# CLOCK_MONOTONIC in this guest too: QEMU's emulated CPU has no invariant
# TSC; the TSC's realtime offset is taken the same way, once, at the
# session's creation).  Read on the host with babeltrace2, the events are
# in the order they happened, and at the realtime they happened: neither
# step moves them (doc/clock.md, "Limits").  Needs no module.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot ust_clock_step
plan 17

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
