#!/bin/bash
# test_lttng_compat_health_daemons.sh - LTTng 2.13's health checks of the
# consumer and relay daemons, asked by a client built against Debian's
# liblttng-ctl (lttng_health_create_consumerd(), _relayd()):
# - the user-space consumer of ltt-sessiond --lttng-compat answers on
#   /var/run/lttng/ustconsumerd64/health: its 5 slots in good health while
#   it records; once its command thread is stuck (LTT_FAULT "hang
#   ROTATE_TRACE", armed by a file, then lttctl rotate) for longer than the
#   delta (LTT_SESSIOND_HEALTH_DELTA_MS, 300 ms here), the slots of LTTng's
#   channel, metadata and session daemon command threads are in bad
#   health and its data threads' (data, metadata timer) still good; no
#   kernel or 32-bit consumer answers (none runs); in a second daemon,
#   a data thread stuck (LTT_FAULT "hang data-timer": its channel's
#   switch timer) makes the data and metadata timer slots bad, the
#   command thread's good;
# - ltt-relayd run as lttng-relayd answers on
#   /var/run/lttng/relayd/health-PID: its 6 slots in good health; once its
#   one thread is stuck (LTT_FAULT "hang relay-accept": a connection to
#   its control port) past the delta (LTT_RELAYD_HEALTH_DELTA_MS), all 6
#   in bad health; ltt-relayd --lttng-compat answers on
#   $LTTNG_RELAYD_HEALTH and removes it when it stops, refuses to start
#   on a path a live daemon answers on, or in a directory another user
#   owns or may write (sticky excepted); a relative path is the
#   directory's it starts in; without the option it answers on none;
# - ltt-sessiond --lttng-compat refuses a /var/run/lttng of another user,
#   by the same check.
# As root in its own mount namespace (/var/run/lttng), as
# test_lttng_compat_health.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
# /run is the namespace's own tmpfs: the file that arms the consumer's fault
STALL=/run/ltt-health-stall
LTT_FAULT="hang ROTATE_TRACE $STALL" LTT_SESSIOND_HEALTH_DELTA_MS=300 \
	ust_setup --log --lttng-compat
plan 35

health_client_build

# --- the consumer
CSOCK=/var/run/lttng/ustconsumerd64/health
like "$(health consumerd-ust64 once)" "^query -1 " \
	"no session yet: no consumer, none answers on $CSOCK"
lttctl -q create s -o "$TEST_TMP/s" && lttctl -q enable-channel -u chan -s s &&
	lttctl -q enable-event -u ltt_test:seq -c chan -s s
ok_cmd "a session with a user-space channel starts" lttctl start s
ust_app -n 50 -r p1 >/dev/null
ok $? "a program recorded 50 events"
ok "$([ -S $CSOCK ] && echo 0 || echo 1)" \
	"the daemon's user-space consumer listens on LTTng's $CSOCK"
is "$(health consumerd-ust64 once)" "query 0 state 0 threads 5 bad none" \
	"while it records: the 5 slots of LTTng's consumer daemon in good health"
like "$(health consumerd-kernel once)" "^query -1 " \
	"no kernel consumer runs: none answers as LTTng's kernel consumer"
like "$(health consumerd-ust32 once)" "^query -1 " \
	"ltt has no 32-bit consumer of its own: none answers as LTTng's"
is "$(health once)" "query 0 state 0 threads 12 bad none" \
	"the session daemon's own 12 slots in good health"

# its command thread stuck on the next ROTATE_TRACE
: >"$STALL"
timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" rotate s >"$TEST_TMP/rot.out" 2>&1 &
ROT=$!
wait_for "$SESSIOND_LOG" "LTT_FAULT: this thread hangs at ROTATE_TRACE"
ok $? "the consumer's command thread hangs at ROTATE_TRACE (the log says so)"
is "$(health consumerd-ust64 until-bad 5000)" \
	"query 0 state -1 threads 5 bad 0:Consumer daemon channel,1:Consumer daemon metadata,3:Consumer daemon session daemon command manager" \
	"past the delta: the command thread's slots in bad health, the data threads' good"
is "$(health consumerd-ust64 once)" \
	"query 0 state -1 threads 5 bad 0:Consumer daemon channel,1:Consumer daemon metadata,3:Consumer daemon session daemon command manager" \
	"asked again: the same"
kill "$ROT" 2>/dev/null
wait "$ROT" 2>/dev/null

# --- a consumer's data thread stuck: a second daemon, whose consumers hang
# at their first channel timer (LTT_FAULT "hang data-timer")
C1=$(consumer_pid)
S1=$(sessiond_pid)
kill -KILL "$S1" $C1
wait_pid_exit "$S1"
[ -z "$C1" ] || wait_pid_exit "$C1"
LTT_FAULT="hang data-timer" LTT_SESSIOND_HEALTH_DELTA_MS=300 \
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vvv --lttng-compat \
	</dev/null >/dev/null 2>"$TEST_TMP/sessiond2.log"
ok $? "a second daemon starts, on the first one's sockets"
lttctl -q create s2 -o "$TEST_TMP/s2" &&
	lttctl -q enable-channel -u chan2 --switch-timer 500000 -s s2 &&
	lttctl -q enable-event -u ltt_test:seq -c chan2 -s s2 && lttctl -q start s2
ust_app -n 10 -r p1 >/dev/null
wait_for "$TEST_TMP/sessiond2.log" "LTT_FAULT: this thread hangs at data-timer"
ok $? "a data thread hangs at its channel's switch timer (the log says so)"
is "$(health consumerd-ust64 until-bad 5000)" \
	"query 0 state -1 threads 5 bad 2:Consumer daemon data,4:Consumer daemon metadata timer" \
	"past the delta: the data threads' slots in bad health, the command thread's good"
# its data thread never returns: the consumer could not end, even with its daemon gone
C2=$(consumer_pid)

# --- the relay daemon, run as lttng-relayd: LTTng's default path
mkdir -p "$TEST_TMP/bin" "$TEST_TMP/relay-out"
ln -s "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" "$TEST_TMP/bin/lttng-relayd"
# relay_start PIDFILE [ARGS...]: a relay on loopback ports 0, in the background
relay_start() {
	local pidfile=$1
	shift
	timeout "$TEST_TIMEOUT" "$@" -b -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
		-L tcp://127.0.0.1:0 -o "$TEST_TMP/relay-out" --pidfile "$pidfile" \
		</dev/null >/dev/null 2>>"$TEST_TMP/relayd.log"
}
LTT_FAULT="hang relay-accept" LTT_RELAYD_HEALTH_DELTA_MS=300 \
	relay_start "$TEST_TMP/relayd1.pid" "$TEST_TMP/bin/lttng-relayd"
ok $? "lttng-relayd (ltt-relayd) starts"
R1=$(cat "$TEST_TMP/relayd1.pid")
RSOCK=/var/run/lttng/relayd/health-$R1
ok "$([ -S "$RSOCK" ] && echo 0 || echo 1)" \
	"run as lttng-relayd it listens on LTTng's relayd/health-PID"
is "$(health "relayd=$RSOCK" once)" "query 0 state 0 threads 6 bad none" \
	"the 6 slots of LTTng's relay daemon in good health"
# a connection to its control port: its one thread hangs in the accept
exec 7<>"/dev/tcp/127.0.0.1/$(cat "$LTT_RUNDIR/relayd-control.port")"
wait_for "$TEST_TMP/relayd.log" "LTT_FAULT: this thread hangs at relay-accept"
ok $? "the relay's thread hangs at a connection (the log says so)"
is "$(health "relayd=$RSOCK" until-bad 5000)" \
	"query 0 state -1 threads 6 bad 0:Relay daemon dispatcher,1:Relay daemon worker,2:Relay daemon listener,3:Relay daemon live dispatcher,4:Relay daemon live worker,5:Relay daemon live listener" \
	"past the delta: ltt-relayd's one thread stands for all 6 slots, in bad health"
exec 7>&-
kill -KILL "$R1"

# --- ltt-relayd --lttng-compat: $LTTNG_RELAYD_HEALTH; removed at its stop
LTTNG_RELAYD_HEALTH="$TEST_TMP/relay-health" \
	relay_start "$TEST_TMP/relayd2.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat
R2=$(cat "$TEST_TMP/relayd2.pid")
is "$(health "relayd=$TEST_TMP/relay-health" once)" "query 0 state 0 threads 6 bad none" \
	"ltt-relayd --lttng-compat answers on \$LTTNG_RELAYD_HEALTH, in good health"
kill "$R2"
wait_pid_exit "$R2"
ok "$([ -e "$TEST_TMP/relay-health" ] && echo 1 || echo 0)" \
	"... and removes the socket when it stops"

# --- a path a live daemon answers on (the session daemon's): refused
LTTNG_RELAYD_HEALTH=/var/run/lttng/sessiond-health \
	relay_start "$TEST_TMP/relayd4.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat
is "$?" 1 "ltt-relayd --lttng-compat on a path a live daemon answers on: refused"
like "$(cat "$TEST_TMP/relayd.log")" \
	"answers LTTng's health checks on /var/run/lttng/sessiond-health already; it is never taken over" \
	"... saying so"
like "$(health once)" "^query 0 state [-0-9]* threads 12 " \
	"... and the session daemon still answers there"

# --- a directory another user may change: refused (a socket is chmod()ed
# and chown()ed by its name after its bind(): its owner could swap it)
mkdir -m 0755 "$TEST_TMP/theirs" "$TEST_TMP/open" "$TEST_TMP/sticky"
chown 65534 "$TEST_TMP/theirs"
chmod 0777 "$TEST_TMP/open"
chmod 1777 "$TEST_TMP/sticky"
LTTNG_RELAYD_HEALTH="$TEST_TMP/theirs/health" \
	relay_start "$TEST_TMP/relayd5.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat
is "$?" 1 "ltt-relayd --lttng-compat (root) in a directory of uid 65534: refused"
like "$(cat "$TEST_TMP/relayd.log")" \
	"$TEST_TMP/theirs belongs to uid 65534, mode 0755: LTTng's sockets go only in a directory of this user's or root's that no other user may write" \
	"... saying which directory and why"
ok "$([ -e "$TEST_TMP/theirs/health" ] && echo 1 || echo 0)" "... and puts nothing in it"
LTTNG_RELAYD_HEALTH="$TEST_TMP/open/health" \
	relay_start "$TEST_TMP/relayd6.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat
is "$?:$([ -e "$TEST_TMP/open/health" ] && echo made)" 1: \
	"in root's directory that every user may write (0777): refused, nothing made"
LTTNG_RELAYD_HEALTH="$TEST_TMP/sticky/health" \
	relay_start "$TEST_TMP/relayd7.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat
R7=$(cat "$TEST_TMP/relayd7.pid")
is "$(health "relayd=$TEST_TMP/sticky/health" once)" "query 0 state 0 threads 6 bad none" \
	"in a sticky one (1777, as /tmp): none may replace its socket, it answers there"
kill "$R7"
wait_pid_exit "$R7"

# --- a relative $LTTNG_RELAYD_HEALTH with no directory in it: in the
# directory the relay starts in, though -b takes it to / after
mkdir "$TEST_TMP/rel"
(cd "$TEST_TMP/rel" && LTTNG_RELAYD_HEALTH=relhealth \
	relay_start "$TEST_TMP/relayd8.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd" --lttng-compat)
R8=$(cat "$TEST_TMP/relayd8.pid")
is "$(health "relayd=$TEST_TMP/rel/relhealth" once)" "query 0 state 0 threads 6 bad none" \
	"a relative \$LTTNG_RELAYD_HEALTH: made where the relay starts, it answers there"
kill "$R8"
wait_pid_exit "$R8"
is "$(ls -A "$TEST_TMP/rel")" "" "... and removed at its stop, from / where -b took it"

# --- ltt-relayd without it: no LTTng health socket
relay_start "$TEST_TMP/relayd3.pid" "$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd"
R3=$(cat "$TEST_TMP/relayd3.pid")
ok "$([ -e "/var/run/lttng/relayd/health-$R3" ] && echo 1 || echo 0)" \
	"ltt-relayd without --lttng-compat makes no LTTng health socket"
kill "$R3"
wait_pid_exit "$R3"
[ -z "$C2" ] || kill -KILL $C2

# --- the session daemon's own run directory: the same check
# (ltt_lttng_make_dir()), LTTng's /var/run/lttng made another user's
chown 65534 /var/run/lttng
mkdir "$TEST_TMP/rd3"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$TEST_TMP/rd3" --lttng-compat \
	</dev/null >/dev/null 2>"$TEST_TMP/sessiond3.log"
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" \
	"ltt-sessiond --lttng-compat with /var/run/lttng of uid 65534: refused"
like "$(cat "$TEST_TMP/sessiond3.log")" \
	"/var/run/lttng belongs to uid 65534, mode 0755: LTTng's sockets go only in a directory" \
	"... saying which directory and why"
chown 0 /var/run/lttng
done_testing
