#!/bin/bash
# systemd's notify protocol (Type=notify) from both daemons, with a test
# helper in systemd's place (notify_listen.py binds NOTIFY_SOCKET): the
# daemon in the foreground sends READY=1 once it serves (the session
# daemon: its saved "auto" sessions loaded; the relay: its ports open),
# and STOPPING=1 when SIGTERM starts its shutdown, before it exits; both
# from the main process, nothing else, exit 0.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

relayd_init
command -v python3 >/dev/null || skip_all "no python3 to play systemd's part"
plan 13
LISTEN=(timeout $((TEST_TIMEOUT * 3)) python3 "$LTT_TOP_SRCDIR/tests/regression/notify_listen.py")

# --- ltt-sessiond: a session saved in the autoload directory exists at READY=1.
# shellcheck disable=SC2119
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
if ! { lttctl -q create keepme -o "$TEST_TMP/keep" &&
	lttctl -q enable-event -u 'hello_world:*' &&
	lttctl -q save keepme -o "$LTT_HOME/.lttng/sessions/auto"; }; then
	echo "Bail out! can't save a session to autoload"
	exit 1
fi
# shellcheck disable=SC2119
stop_sessiond || { echo "Bail out! ltt-sessiond did not stop"; exit 1; }

run "${LISTEN[@]}" "$TEST_TMP/sessiond-notify.sock" "$TEST_TIMEOUT" -- \
	"$SESSIOND" --rundir "$LTT_RUNDIR" --at-ready "$LTTCTL_BIN" list
mapfile -t L <<<"$STDOUT"
is "${L[0]:-}" "READY READY=1 from=main" "ltt-sessiond: READY=1, from the main process"
like "${L[1]:-}" '^CHECK rc=0 ' "at READY=1 the client socket answers at once (lttctl list: exit 0)"
like "${L[1]:-}" 'keepme' "at READY=1 the autoloaded session exists"
is "${L[2]:-}" "STOPPING STOPPING=1 from=main" "SIGTERM: STOPPING=1, sent before the daemon exited"
is "${L[3]:-}" "MORE 0" "nothing else sent"
is "${L[4]:-}" "EXIT 0" "ltt-sessiond exits 0"
ok "$([ ! -e "$LTT_RUNDIR/client.sock" ]; echo $?)" "its socket is gone"

# --- ltt-relayd: READY=1 once the ports listen; STOPPING=1 on SIGTERM.
# shellcheck disable=SC2016
run "${LISTEN[@]}" "$TEST_TMP/relayd-notify.sock" "$TEST_TIMEOUT" -- \
	"$RELAYD" -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 \
	-o "$TEST_TMP/relay-out" --at-ready \
	bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$(cat "$LTT_RUNDIR/relayd-control.port")" && echo connected'
mapfile -t L <<<"$STDOUT"
is "${L[0]:-}" "READY READY=1 from=main" "ltt-relayd: READY=1, from the main process"
is "${L[1]:-}" "CHECK rc=0 connected" "at READY=1 its control port accepts a connection"
is "${L[2]:-}" "STOPPING STOPPING=1 from=main" "SIGTERM: STOPPING=1, sent before the relay exited"
is "${L[3]:-}" "MORE 0" "nothing else sent"
is "${L[4]:-}" "EXIT 0" "ltt-relayd exits 0"
ok "$([ ! -e "$LTT_RUNDIR/relayd-control.port" ]; echo $?)" "its port files are gone"

done_testing
