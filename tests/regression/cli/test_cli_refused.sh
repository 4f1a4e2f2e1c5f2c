#!/bin/bash
# What this daemon can't do yet is refused when given, with a clear
# message, exit 1 and nothing changed: every kernel-domain command of a
# daemon that serves no kernel domain (KERNEL_DISABLED from a root daemon
# started with --no-kernel, KERNEL_NEEDS_ROOT from a personal one, and the
# reason a root daemon found when it can't load the tracer) and create
# --snapshot with a net:// output where no relay listens.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client

rc_file="$LTT_HOME/.lttrc"
sock="$LTT_RUNDIR/client.sock"
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

if [ "$(id -u)" = 0 ]; then
	m_kernel="kernel tracing is disabled in this session daemon (--no-kernel); restart it without that option"
else
	m_kernel="kernel tracing needs the root session daemon; run lttctl as root or as a member of the tracing group"
fi

# Session s: a user channel c with rule ev, so "nothing changed" has content.
setup_ok=0
for cmd in "create s --no-output" "enable-channel -u c" "enable-event -u ev -c c"; do
	# shellcheck disable=SC2086
	lttctl -q $cmd || setup_ok=1
done
ok $setup_ok "fixture: session s, user channel c, rule ev"

# The daemon's whole state and .lttrc, and what lttctl list shows.
state() {
	"$PROTO_CLIENT" "$sock" dump
	echo "lttrc: $(cat "$rc_file" 2>/dev/null)"
	lttctl list
	lttctl list s
}
BEFORE=$(state)
like "$BEFORE" "- c: \\[enabled\\]" "the state shows channel c"

# refused RC MESSAGE ARGS...: exit RC, MESSAGE alone on stderr, nothing on
# stdout, and the state unchanged.
refused() {
	local want_rc=$1 want_msg=$2
	shift 2
	run lttctl "$@"
	is "$RC" "$want_rc" "lttctl $*: exit $want_rc"
	is "$ERR" "$want_msg" "lttctl $*: message"
	is "$STDOUT" "" "lttctl $*: nothing on stdout"
	is "$(state)" "$BEFORE" "lttctl $*: nothing changed"
}

refused 1 "Error: channel 'kc' of session 's': $m_kernel" enable-channel -k kc
refused 1 "Error: channel 'kc' of session 's': $m_kernel" enable-channel -k kc --subbuf-size 2M
refused 1 "Error: channel 'k1' of session 's': $m_kernel" enable-channel -k k1,k2
refused 1 "Error: event rule 'sched_switch' in channel 'channel0' of session 's': $m_kernel" \
	enable-event -k sched_switch
# A named channel the domain lacks is made by the daemon (as LTTng's), which
# has no kernel tracer to make it with.
refused 1 "Error: event rule 'sched_switch' in channel 'kc' of session 's': $m_kernel" \
	enable-event -k sched_switch -c kc
refused 1 "Error: event rule '*' in channel 'channel0' of session 's': $m_kernel" enable-event -k -a
refused 1 "Error: channel 'kc' of session 's': $m_kernel" disable-channel -k kc
refused 1 "Error: channel 'channel0' of session 's': $m_kernel" disable-event -k sched_switch
refused 1 "Error: channel 'channel0' of session 's': $m_kernel" disable-event -k -a
refused 1 "Error: listing the kernel events: $m_kernel" list -k
refused 1 "Error: listing the kernel events: $m_kernel" list -k --syscall

# Refused at once, in a stopped or a started session alike.
lttctl -q start s
BEFORE=$(state)
like "$BEFORE" "s \\(no output\\) \\[active\\]" "session s is started"
refused 1 "Error: event rule 'sched_switch' in channel 'channel0' of session 's': $m_kernel" \
	enable-event -k sched_switch
lttctl -q stop s
BEFORE=$(state)

# create --snapshot to a relay that is not there is no longer refused: as
# LTTng, the relay is reached at record (test_rotation_snapshot.sh creates one,
# test_relay_snapshot.sh refuses the record).  A bad relay URL still is.
refused 1 "Error: URL 'net://127.0.0.1:99999': invalid URL: use file:///ABS/PATH, net://HOST[:CTRL[:DATA]][/PATH] or net6://[ADDR][:CTRL[:DATA]]" \
	create snap --snapshot -U net://127.0.0.1:99999
run lttctl list snap
is "$RC" 1 "list snap: no such session"

# The user domain still works after all of it.
run lttctl enable-event -u ev2 -c c -s s
is "$RC" 0 "the user domain still takes rules"
like "$(lttctl list s)" "ev2 \\(loglevel: any\\) \\[enabled\\]" "and lists them"

stop_sessiond

# A root daemon told to trace the kernel with the module, on a kernel that
# can't load modules, says so (the kernel tests, in a VM, see the tracer
# load and the other reasons; test_kernel_tracefs.sh the tracefs backend
# that --kernel-backend=auto falls back to).
if [ "$(id -u)" = 0 ] && [ ! -e /proc/modules ]; then
	start_sessiond "$LTT_RUNDIR" --kernel-backend=module ||
		{ echo "Bail out! ltt-sessiond did not start"; exit 1; }
	run lttctl list -k
	is "$RC" 1 "no module support: list -k fails"
	is "$ERR" "Error: listing the kernel events: this kernel can't load modules (built without CONFIG_MODULES), so kernel tracing is not available; trace programs with -u" \
		"no module support: list -k says why"
	run lttctl enable-event -u ev3 -c c -s s
	is "$RC" 1 "a new daemon has no session s"
	stop_sessiond
else
	skip 3 "this kernel can load modules: the refusal reasons are tested in a VM (tests/kernel)"
fi
done_testing
