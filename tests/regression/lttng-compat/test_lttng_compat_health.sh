#!/bin/bash
# test_lttng_compat_health.sh - ltt-sessiond --lttng-compat answers
# LTTng 2.13's session daemon health checks on LTTng's health socket
# (/var/run/lttng/sessiond-health), asked by a client built against
# Debian's liblttng-ctl (lttng_health_query()): an idle daemon, and one
# that served lttctl's commands, has its 12 thread slots in good health;
# once LTTng's client thread is stuck in a callback (LTT_FAULT "hang
# lttng-client-accept": the first connection of Debian's lttng) for
# longer than the delta (LTT_SESSIOND_HEALTH_DELTA_MS, 300 ms here), the
# slot of LTTng's command thread, and only it, is in bad health, while
# ltt's own client thread serves lttctl on; a request other than CHECK
# gets no reply; past 64 connections that wait for their request, one
# more closes the oldest and is answered, and checks are answered once
# they go.  As root in its own mount namespace (/var/run/lttng),
# as test_lttng_compat.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
LTT_FAULT="hang lttng-client-accept" LTT_SESSIOND_HEALTH_DELTA_MS=300 \
	ust_setup --log --lttng-compat
plan 12

HSOCK=/var/run/lttng/sessiond-health

ok "$([ -S $HSOCK ] && echo 0 || echo 1)" "the daemon listens on LTTng's health socket, $HSOCK"
health_client_build

is "$(health once)" "query 0 state 0 threads 12 bad none" \
	"an idle daemon: the 12 slots of LTTng's session daemon in good health"
run lttctl create h -o "$TEST_TMP/trace"
ok $RC "lttctl create (ltt's client thread and a command worker)" || diag "$OUT"
is "$(health once)" "query 0 state 0 threads 12 bad none" \
	"... after they served it: all in good health"

# the first connection of Debian's lttng: LTTng's client thread hangs in its callback
mkdir -p "$TEST_TMP/lttng-home"
LTTNG_HOME="$TEST_TMP/lttng-home" timeout "$TEST_TIMEOUT" /usr/bin/lttng list \
	>"$TEST_TMP/hung-list.out" 2>&1 &
HUNG=$!
wait_for "$SESSIOND_LOG" "LTT_FAULT: this thread hangs at lttng-client-accept"
ok $? "LTTng's client thread hangs at lttng's connection (the log says so)"
is "$(health until-bad 5000)" \
	"query 0 state -1 threads 12 bad 0:Session daemon command" \
	"past the delta: LTTng's command thread's slot in bad health, and only it"
run lttctl list
like "$STDOUT" "h \\($TEST_TMP/trace\\)" \
	"ltt's own client thread serves lttctl on, its session listed"
is "$(health once)" "query 0 state -1 threads 12 bad 0:Session daemon command" \
	"asked again: still in bad health"
# a command other than CHECK (1): the connection closed without a reply
is "$(timeout "$TEST_TIMEOUT" python3 -c '
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(struct.pack("=I", 1))
print(len(s.recv(64)))' "$HSOCK" 2>&1)" "0" \
	"a command other than CHECK: the connection closed with no reply"
# 64 connections that send nothing: a 65th, a check, closes the oldest
# and is answered
is "$(timeout "$TEST_TIMEOUT" python3 -c '
import socket, struct, sys
idle = []
for i in range(64):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    idle.append(s)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(struct.pack("=I", 0))
print(len(s.recv(64)), len(idle[0].recv(64)))' "$HSOCK" 2>&1)" "8 0" \
	"past 64 connections waiting for their request: a check is answered, the oldest closed"
is "$(health once)" "query 0 state -1 threads 12 bad 0:Session daemon command" \
	"... and once they are gone, checks are answered again"
kill "$HUNG" 2>/dev/null
wait "$HUNG" 2>/dev/null
done_testing
