#!/bin/bash
# test_ust_consumer_idle.sh - a user's consumer daemon outlives the
# owner's last session by --consumerd-idle-ms: the next session finds it
# running and records through it (no spawn at its start); after the grace
# it exits and is reaped, and the next session starts a new one, which
# records.  The daemon's exit ends an idle consumer too.  A bad grace,
# as an option or in LTT_SESSIOND_CONSUMERD_IDLE_MS, is refused with its
# range and starts nothing.  (The groups of a kept consumer's user:
# test_ust_owner_groups.sh.)
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
plan 15
N=200

# sequence NAME ROLE: create, enable-event, start, N events of a program
# with ROLE, stop; then the count of ROLE's events in NAME's trace
sequence() {
	lttctl -q create "$1" -o "$TEST_TMP/$1" && lttctl -q enable-event -u ltt_test:seq &&
		lttctl -q start || return 1
	ust_app -n $N -r "$2" >/dev/null
	lttctl -q stop
	bt "$TEST_TMP/$1" "$TEST_TMP/$1.out"
	grep ' ltt_test:seq: ' "$TEST_TMP/$1.out" | grep -c "role = \"$2\""
}

# --- a grace longer than the test: the consumer is kept, then reused
sessiond_or_bail "$LTT_RUNDIR" --consumerd-idle-ms 3600000
is "$(sequence a one)" $N "a session records all $N events"
c1=$(consumer_pid)
ok_cmd "its owner's last session is destroyed" lttctl destroy a
ok "$(proc_alive "$c1"; echo $?)" "its consumer (pid $c1) is kept idle"
is "$(sequence b two)" $N "the next session records all $N events"
is "$(consumer_pid)" "$c1" "through the same consumer"
lttctl -q destroy b
stop_sessiond
wait_pid_exit "$c1"
ok $? "the idle consumer exits with the session daemon"

# --- a short grace: the idle consumer exits after it, a new one comes
sessiond_or_bail "$LTT_RUNDIR" --consumerd-idle-ms 100
is "$(sequence c three)" $N "a session records all $N events"
c2=$(consumer_pid)
lttctl -q destroy c
wait_pid_exit "$c2"
ok $? "its consumer (pid $c2) exits after its grace"
is "$(consumer_pid)" "" "and none runs"
is "$(sequence d four)" $N "the next session records all $N events"
c3=$(consumer_pid)
ok "$([ -n "$c3" ] && [ "$c3" != "$c2" ]; echo $?)" "through a new consumer (pid $c3)"
lttctl -q destroy d
stop_sessiond

# --- bad values: refused with their range, no daemon started
run "$SESSIOND" --daemonize --rundir "$TEST_TMP/bad1" --consumerd-idle-ms 10s
like "$RC:$ERR" "^1:.*--consumerd-idle-ms=10s: give a number from 0 to 3600000" \
	"--consumerd-idle-ms 10s is refused with its range"
ok "$([ ! -e "$TEST_TMP/bad1/sessiond.pid" ]; echo $?)" "and no daemon started"
run env LTT_SESSIOND_CONSUMERD_IDLE_MS=3600001 "$SESSIOND" --daemonize --rundir "$TEST_TMP/bad2"
like "$RC:$ERR" "^1:.*LTT_SESSIOND_CONSUMERD_IDLE_MS=3600001: give a number from 0 to 3600000" \
	"LTT_SESSIOND_CONSUMERD_IDLE_MS=3600001 is refused with its range"
ok "$([ ! -e "$TEST_TMP/bad2/sessiond.pid" ]; echo $?)" "and no daemon started"
done_testing
