#!/bin/bash
# test_kernel_tracefs_switches.sh - the check that tells a switch the
# kernel did not record from one ltt dropped (lib.sh, switch_watch_start,
# switch_watch_stop, switch_compare; doc/kernel-tracefs.md, "A switch the
# kernel did not record").  A raw ftrace instance of the test's own
# records sched_switch from before a session starts to after it stops;
# the session records sched_switch while kload's two threads hand a byte
# back and forth 200 times on CPU 0.  Each CPU's switches in ltt's trace
# are the raw instance's over that time, one for one; the instance is
# removed at the end and lost nothing.  The check is not blind: a copy
# of ltt's switches without one of the ping-pong's fails, naming the
# CPU and where the sequences part, and one with a switch twice fails.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
command -v babeltrace >/dev/null || skip_all "babeltrace (1) is not installed"
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 11

switch_watch_start
ok $? "a raw ftrace instance of this test's own records sched_switch ($(basename "$_sw_inst"))"
inst=$_sw_inst
lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-event -k sched_switch -s s &&
	lttctl -q start s
ok $? "a session recording sched_switch started"
pp=$("$KLOAD" pingpong 200)
ok $? "kload pingpong 200 ran: $pp"
read -r ping pong <<<"${pp#tids }"
lttctl -q stop s && lttctl -q destroy s
switch_watch_stop "$TEST_TMP/raw"
ok $? "the raw instance stopped after the session, no switch lost (overrun and dropped 0)"
ok "$([ -e "$inst" ]; echo $((!$?)))" "... and was removed"

ltt_switches "$TEST_TMP/s/kernel" >"$TEST_TMP/ltt"
is "$(awk -v a="$ping" -v b="$pong" '$1 == 0 && ($2 == a || $2 == b) { n++ } END { print (n >= 400) }' "$TEST_TMP/ltt")" 1 \
	"ltt's trace holds the ping-pong's switches away from its threads on CPU 0 (400 at least)" ||
	diag "$(wc -l <"$TEST_TMP/ltt") switches"
out=$(switch_compare "$TEST_TMP/ltt" "$TEST_TMP/raw")
is "$?:$out" "0:" "each CPU's switches in ltt's trace are the raw instance's, one for one ($(wc -l <"$TEST_TMP/ltt") in ltt's, $(wc -l <"$TEST_TMP/raw") in the raw's)"
is "$(switch_check "$TEST_TMP/s/kernel" "$TEST_TMP/raw"; echo $?)" 0 "... switch_check, from the trace, says the same"

# a ping-pong switch in the middle of ltt's: line N of the file
n=$(awk -v a="$ping" '$1 == 0 && $2 == a { l[++k] = NR } END { print l[int(k / 2)] }' "$TEST_TMP/ltt")
gone=$(sed -n "${n}p" "$TEST_TMP/ltt")
sed "${n}d" "$TEST_TMP/ltt" >"$TEST_TMP/ltt-1"
out=$(switch_compare "$TEST_TMP/ltt-1" "$TEST_TMP/raw")
like "$?:$out" "^1:CPU 0: ltt's [0-9]+ switches follow the kernel's for [0-9]+, then ltt has [0-9]+:[0-9]+ where the kernel has [0-9]+:[0-9]+$" \
	"a copy of ltt's without one switch ($gone, line $n) fails: CPU 0, where the sequences part" || diag "$out"
sed "${n}p" "$TEST_TMP/ltt" >"$TEST_TMP/ltt+1"
out=$(switch_compare "$TEST_TMP/ltt+1" "$TEST_TMP/raw")
like "$?:$out" "^1:CPU 0: " "a copy with that switch twice fails" || diag "$out"
stop_sessiond
done_testing
