#!/bin/bash
# test_lttng_spellings.sh - what LTTng users type is taken as LTTng takes
# it: time values with a unit (--switch-timer 1s, --read-timer 250ms,
# enable-rotation --timer 10s; none is microseconds), log levels by
# LTTng's names (TRACE_WARNING) and its "at least" form (TRACE_ERR..).
# Each value is checked in what the daemon recorded (list, --mi xml);
# what LTTng would refuse too is refused, and changes nothing.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
plan 18
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
lttctl -q create s -o "$TEST_TMP/s"

# Time values: the units us, ms, s, m, h; none is microseconds.
run lttctl enable-channel -u c --switch-timer 1s --read-timer 250ms
is "$RC" 0 "enable-channel --switch-timer 1s --read-timer 250ms"
run lttctl --mi xml list s
like "$OUT" "<switch_timer_interval>1000000</switch_timer_interval>" "1s is 1000000 us"
like "$OUT" "<read_timer_interval>250000</read_timer_interval>" "250ms is 250000 us"
run lttctl enable-channel -u c2 --switch-timer 2m --read-timer 1500us
is "$RC" 0 "enable-channel --switch-timer 2m --read-timer 1500us"
run lttctl --mi xml list s
c2() { mi_xp "//channel[name='c2']//$1" <<<"$OUT"; }
is "$(c2 switch_timer_interval)" 120000000 "2m is 120000000 us"
is "$(c2 read_timer_interval)" 1500 "1500us is 1500 us"
run lttctl enable-rotation -s s --timer 10s
like "$RC.$OUT" "^0.Enabled rotation of session s every 10000000 us" "enable-rotation --timer 10s: every 10000000 us"
before=$(lttctl list s)
run lttctl enable-channel -u c3 --switch-timer 1sec
is "$RC.${ERR%%$'\n'*}" "2.Error: invalid --switch-timer '1sec': use microseconds from 0 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	"an unknown unit (1sec): refused, listing the units"
run lttctl enable-channel -u c3 --read-timer 2h
like "$RC.${ERR%%$'\n'*}" "^2.Error: invalid --read-timer '2h': use microseconds from 0 to 4294967295" \
	"2h, over the 32-bit microseconds a timer holds: refused"
run lttctl enable-rotation -s s --timer 1.5s
is "$RC" 2 "a fraction (1.5s): refused"
is "$(lttctl list s)" "$before" "the refusals changed nothing"

# Log levels: LTTng's names, and its LEVEL.. (LEVEL or more severe).
run lttctl enable-event -u a -c c --loglevel TRACE_WARNING
is "$RC" 0 "--loglevel TRACE_WARNING"
run lttctl enable-event -u b -c c --loglevel TRACE_ERR..
is "$RC" 0 "--loglevel TRACE_ERR.."
run lttctl enable-event -u d -c c --loglevel-only trace_debug_line
is "$RC" 0 "--loglevel-only trace_debug_line (any case)"
run lttctl list s
like "$OUT" "a \\(loglevel: WARNING or more severe\\)" "TRACE_WARNING is WARNING, or more severe"
like "$OUT" "b \\(loglevel: ERR or more severe\\)" "TRACE_ERR.. is ERR, or more severe"
like "$OUT" "d \\(loglevel: DEBUG_LINE only\\)" "trace_debug_line is DEBUG_LINE"
before=$OUT
run lttctl enable-event -u e -c c --loglevel-only TRACE_INFO..
is "$RC.${ERR%%$'\n'*}" "2.Error: --loglevel-only 'TRACE_INFO..': one level only; 'LEVEL..' (LEVEL or more severe) goes with --loglevel" \
	"--loglevel-only LEVEL..: refused, saying why"
done_testing
