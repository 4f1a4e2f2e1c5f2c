#!/bin/bash
# test_lttng_compat_errors.sh - what ltt-sessiond --lttng-compat refuses
# reaches Debian's /usr/bin/lttng as the code LTTng's daemon gives for it,
# so that lttng prints LTTng's sentence and exits as with LTTng, not
# "Unknown error" with the reason in the daemon's log only: a channel of
# another buffer ownership (BUFFER_TYPE_MISMATCH), a channel or context
# added to a started session, or a channel to one stopped since
# (TRACE_ALREADY_STARTED), a second
# rotation after a stop (ROTATION_MULTIPLE_AFTER_STOP), a state dump of a
# stopped session and its metadata regenerated (SESSION_NOT_STARTED), a
# start whose relay does not
# answer (RELAYD_CONNECT_FAIL); and what LTTng takes is taken (an
# exclusion that excludes nothing, with lttng's warning).  Each leaves the session as it was; lttctl
# says ltt's sentence for the same refusal.  As root in its own mount
# namespace (/var/run/lttng), as test_lttng_compat.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
plan 50

lttng_client

ok_cmd "lttng create s" lttng create s -o "$TEST_TMP/s"
ok_cmd "lttng enable-event -u a" lttng enable-event -u a -s s
# --- one buffer ownership per domain of a session
BEFORE=$(lttng list s)
run lttng enable-channel -u c2 --buffers-pid -s s
like "$RC:$OUT" "^1:Error: Channel c2: Buffer type mismatch for session \(session s\)" \
	"lttng enable-channel of per-PID buffers beside per-UID ones: LTTng's BUFFER_TYPE_MISMATCH" ||
	diag "$OUT"
is "$(lttng list s)" "$BEFORE" "... and the session is as it was"

ok_cmd "lttng start s" lttng start s
BEFORE=$(lttng list s)

# --- a started session takes no new channel, no context (LTTng's cmd.c)
run lttng enable-channel -u c2 -s s
like "$RC:$OUT" "^1:Error: Channel c2: Tracing has already been started once \\(session s\\)" \
	"lttng enable-channel in a started session: LTTng's TRACE_ALREADY_STARTED" || diag "$OUT"
run lttng enable-event -u b -c c2 -s s
is "$RC" 80 "lttng enable-event in a new channel of a started session exits 80 (TRACE_ALREADY_STARTED)" ||
	diag "$OUT"
like "$OUT" "Error: Event b: The command tried to enable an event in a new domain for a session that has already been started once\\. \\(channel c2, session s\\)" \
	"... with lttng's sentence for it"
run lttng add-context -u -t vpid -s s
like "$RC:$OUT" "^[1-9][0-9]*:Error: vpid: Tracing has already been started once" \
	"lttng add-context in a started session: TRACE_ALREADY_STARTED" || diag "$OUT"
is "$(lttng list s)" "$BEFORE" "... and the session is as it was (no channel c2, no context)"
M_STARTED="a channel can't be added to a session that was started once, as in LTTng (the layout of its traces is fixed): add channels before the first 'lttctl start', or create another session"
run lttctl enable-channel -u c2 -s s
is "$RC:$ERR" "1:Error: channel 'c2' of session 's': $M_STARTED" \
	"lttctl enable-channel says ltt's CHANNEL_STARTED"

ok_cmd "lttng stop s" lttng stop s

# --- nor once stopped: started once is enough (LTTng's has_been_started)
BEFORE=$(lttng list s)
run lttng enable-channel -u c2 -s s
is "$RC:$OUT" "1:Error: Channel c2: Tracing has already been started once (session s)" \
	"lttng enable-channel in a stopped session: LTTng's TRACE_ALREADY_STARTED, its exit status and sentence"
run lttng enable-event -u b -c c3 -s s
is "$RC" 80 "lttng enable-event in a new channel of the stopped session exits 80 (TRACE_ALREADY_STARTED)"
run lttng enable-event -p foo -s s
is "$RC:$OUT" "80:Error: Event foo: The command tried to enable an event in a new domain for a session that has already been started once. (channel channel0, session s)" \
	"lttng enable-event -p (its channel is new) in the stopped session: the same, as LTTng"
run lttctl enable-channel -u --buffers-pid c2 -s s
is "$RC:$ERR" "1:Error: channel 'c2' of session 's': $M_STARTED" \
	"lttctl enable-channel in the stopped session says ltt's CHANNEL_STARTED"
run lttctl enable-event -u b -c c3 -s s
is "$RC:$ERR" "1:Error: event rule 'b' in channel 'c3' of session 's': $M_STARTED" \
	"lttctl enable-event in a new channel of it too"
is "$(lttng list s)" "$BEFORE" "... and the session is as it was (no channel c2, c3, lttng_python_channel)"

# --- a state dump needs a started session: LTTng's SESSION_NOT_STARTED (118), not a stop's 81
run lttng regenerate statedump -s s
is "$RC" 118 "lttng regenerate statedump of a stopped session exits 118 (SESSION_NOT_STARTED)" ||
	diag "$OUT"
run lttctl regenerate statedump -s s
like "$RC:$OUT" "^[1-9][0-9]*:.*the session is not started" "lttctl regenerate statedump of it says ltt's SESSION_NOT_STARTED" || diag "$OUT"

# --- metadata is regenerated while recording only: LTTng's SESSION_NOT_STARTED (118) too
BEFORE=$(lttng list s)
run lttng regenerate metadata -s s
is "$RC:$OUT" "118:Error: Session not started" \
	"lttng regenerate metadata of a stopped session: LTTng's SESSION_NOT_STARTED, its exit status and sentence"
run lttctl regenerate metadata -s s
is "$RC:$ERR" "1:Error: session 's': the session is not started" \
	"lttctl regenerate metadata of it says ltt's SESSION_NOT_STARTED"
is "$(lttng list s)" "$BEFORE" "... and the session is as it was"

# --- one rotation after a stop, not two
run lttng rotate s
ok "$RC" "lttng rotate of the stopped session" || diag "$OUT"
is "$(archives "$TEST_TMP/s" | wc -l)" 1 "... one archive"
run lttng rotate s
is "$RC" 1 "a second lttng rotate exits 1" || diag "$OUT"
like "$OUT" "Error: Session was already rotated once since it became inactive" \
	"... with LTTng's ROTATION_MULTIPLE_AFTER_STOP"
is "$(archives "$TEST_TMP/s" | wc -l)" 1 "... still one archive"
run lttctl rotate s
like "$RC:$OUT" "^[1-9][0-9]*:.*the session was already rotated once since it stopped" \
	"lttctl rotate says ltt's ROTATE_AFTER_STOP" || diag "$OUT"

# --- a relay that does not answer: LTTng's RELAYD_CONNECT_FAIL, at the start
# (both daemons take the create; LTTng's says it at the first enable-event:
# doc/lttng-compat.md)
ok_cmd "lttng create n --set-url net://127.0.0.1:1" lttng create n --set-url net://127.0.0.1:1
ok_cmd "lttng enable-event -u a -s n" lttng enable-event -u a -s n
run lttng start n
is "$RC" 104 "lttng start of a session whose relay refuses exits 104 (RELAYD_CONNECT_FAIL)" ||
	diag "$OUT"
like "$OUT" "Error: Unable to connect to lttng-relayd" "... with LTTng's sentence for it"
like "$(lttng list n)" "Recording session n: \\[inactive\\]" "... and the session is not started"
run lttctl start n
like "$RC:$ERR" "^1:Error: session 'n': relay net://127\\.0\\.0\\.1:1[^ ]*: connection refused: nothing listens on the relay's control port" \
	"lttctl start of it names the relay and ltt's RELAY_REFUSED"
like "$(lttng list n)" "Recording session n: \\[inactive\\]" "... and the session is still not started"

# --- what LTTng takes is not refused: an exclusion that excludes nothing
# (LTTng's client warns, its daemon keeps it; ltt refused it, and lttng
# printed "(null)")
run lttng enable-event -u 'ltt_test:s*' -x ltt_test:crit -s n
like "$RC:$(tr '\n' ' ' <<<"$OUT")" "^0:.*ltt_test:crit does not exclude any events" \
	"lttng enable-event with an exclusion the pattern does not match: taken, with lttng's warning" ||
	diag "$OUT"
like "$(lttng list n)" "ltt_test:s\\* \\(type: tracepoint\\) \\[enabled\\] \\[exclusions: ltt_test:crit\\]" \
	"... and listed with it"
# --- a rotation period under 0.1 s: taken, as LTTng takes any above 0 (ltt
# refused it); ltt's scheduler looks every 50 ms, so 1 us rotates once a
# look, as soon as the rotation before is done, as LTTng's does
ok_cmd "lttng create r" lttng create r -o "$TEST_TMP/r"
ok_cmd "lttng enable-event -u ltt_test:seq -s r" lttng enable-event -u ltt_test:seq -s r
run lttng enable-rotation --timer 1us -s r
is "$RC:$OUT" "0:Enabled periodic rotations every 1 us on session r" \
	"lttng enable-rotation --timer 1us: taken, as LTTng"
like "$(lttng list r)" "timer period: 1 us" "... and listed"
ok_cmd "lttctl create r2" lttctl create r2 -o "$TEST_TMP/r2"
run lttctl enable-rotation --timer 1 -s r2
is "$RC:$OUT" "0:Enabled rotation of session r2 every 1 us." "lttctl enable-rotation --timer 1: taken"
like "$(lttng list r2)" "timer period: 1 us" "... and lttng lists it"
ok_cmd "lttng start r" lttng start r
n=0
for _ in $(seq 100); do
	ust_app -n 100 -r rot >/dev/null
	n=$((n + 100))
	[ "$(narchives "$TEST_TMP/r")" -ge 3 ] && break
done
ok_cmd "lttng stop r" lttng stop r
ok "$([ "$(narchives "$TEST_TMP/r")" -ge 3 ]; echo $?)" "it rotated on its schedule ($(narchives "$TEST_TMP/r") archives for $n events)"
is "$(role_count "$TEST_TMP/r" rot)" "$n" "... and babeltrace2 reads each event once across the chunks"

ok_cmd "lttng destroy -a" lttng destroy -a
