#!/bin/bash
# LTTng's command lines that ltt lacks a feature for: each refused in the
# sentence of src/common/lttng-gap.c (the one load uses), exit 1, never a
# bare "unknown option", nothing changed (the session's listing is the
# same before and after); --monitor-timer and --blocking-timeout=0 taken;
# list SESSION --channel=C; metadata regenerate; a rule without -c while
# the domain has another channel than channel0 (NEED_CHANNEL_NAME, as
# LTTng).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

lttctl -q create s -o "$TEST_TMP/s" && lttctl -q enable-event -u ev1
ok $? "fixture: session s, rule ev1 in channel0"
state() { lttctl list s; lttctl list; }
before=$(state)

# refused CMD... : exit 1, the sentence on stderr, nothing on stdout, nothing changed.
refused() {
	local msg=$1
	shift
	run lttctl "$@"
	is "$RC" 1 "$*: exit 1"
	is "$ERR" "Error: $msg" "$*: what ltt lacks and what to do"
	is "$STDOUT" "" "$*: nothing on stdout"
	is "$(state)" "$before" "$*: nothing changed"
}
refused "a shared memory path (lttng create --shm-path) is not supported by ltt: leave out --shm-path; ltt places its buffers itself" \
	create x --shm-path="$TEST_TMP/shm"
refused "a blocking timeout (lttng enable-channel --blocking-timeout) is not supported by ltt: give --blocking-timeout=0 or leave it out; its applications never wait for room in a buffer (a full buffer drops the event and counts it)" \
	enable-channel -u c --blocking-timeout=100
refused "a blocking timeout (lttng enable-channel --blocking-timeout) is not supported by ltt: give --blocking-timeout=0 or leave it out; its applications never wait for room in a buffer (a full buffer drops the event and counts it)" \
	enable-channel -u c --blocking-timeout inf
refused "a buffer usage sampling period under 50 ms (lttng enable-channel --monitor-timer) is not supported by ltt: give --monitor-timer=50ms or more, or leave it out; ltt samples the buffer usage of every channel every 50 ms, which meets any longer period" \
	enable-channel -u c --monitor-timer=10ms
run lttctl enable-channel -u c --monitor-timer=bogus
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: invalid --monitor-timer 'bogus': use microseconds, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	"--monitor-timer: a bad period is a usage error"

# --- taken: --monitor-timer from 50 ms (ltt samples every 50 ms) or 0, --blocking-timeout=0
run lttctl enable-channel -u c --monitor-timer=500ms --blocking-timeout=0
is "$RC:$OUT" "0:Channel c enabled for session s." "--monitor-timer and --blocking-timeout=0 are taken"
like "$(lttctl list s)" "- c: \\[enabled\\]" "the channel exists"

# --- no -c while the domain has a channel other than channel0
need="the domain has a channel other than channel0, so a rule's channel must be named: give -c CHANNEL (-c channel0 for the default one)"
before=$(state)
refused "session 's', user domain (it has channel 'c'): $need" enable-event -u ev2
refused "session 's', user domain (it has channel 'c'): $need" disable-event -u ev1
run lttctl enable-event -u ev2 -c channel0
is "$RC:$OUT" "0:Event rule ev2 enabled in channel channel0 of session s (user)." "-c channel0 names the default channel"
lttctl -q create p -o "$TEST_TMP/p" && lttctl -q enable-event -p py.logger
run lttctl enable-event -u ev1
is "$RC:$OUT" "0:Event rule ev1 enabled in channel channel0 of session p (user)." \
	"lttng_python_channel leaves no doubt: no -c is channel0"

# --- list SESSION --channel=C
lttctl -q set-session s
run lttctl list s --channel=c
is "$RC" 0 "list s --channel=c: exit 0"
like "$STDOUT" "- c: \\[enabled\\]" "list s --channel=c: the channel c"
unlike "$STDOUT" "channel0" "list s --channel=c: no other channel"
run lttctl list s -c channel0
like "$STDOUT" "^- channel0: \\[enabled\\]" "list s -c channel0: the channel"
is "$(grep -c '^      ev[12] ' <<<"$STDOUT")" 2 "list s -c channel0: its two rules"
unlike "$STDOUT" "- c:" "list s -c channel0: not channel c"
run lttctl list s -c nope
is "$RC:$STDOUT" "1:" "list s -c nope: exit 1, nothing printed"
is "$ERR" "Error: channel 'nope' of session 's': no channel by that name in this domain; 'lttctl list SESSION' shows the channels" \
	"list s -c nope: the channel named"
run lttctl list -c c
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: --channel lists one channel of a session: give the session's NAME" \
	"list -c without a session: a usage error"

# --- metadata regenerate: regenerate metadata, with a warning
lttctl -q start s
run lttctl metadata regenerate -s s
is "$RC:$STDOUT" "0:Metadata regenerated for session s." "metadata regenerate: done"
is "$ERR" "Warning: 'metadata regenerate' is 'regenerate metadata': LTTng's older spelling, done as the newer one: write the newer one in new scripts" \
	"metadata regenerate: the newer spelling named"
run lttctl metadata
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: 'metadata' takes one action, regenerate: 'lttctl regenerate metadata' is its newer spelling" \
	"metadata without its action: a usage error"
like "$(lttctl --list-commands)" "metadata" "--list-commands lists metadata, as LTTng's"

done_testing
