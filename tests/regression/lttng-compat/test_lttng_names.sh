#!/bin/bash
# test_lttng_names.sh - ltt's daemons run by LTTng's names, as the
# ltt-lttng-compat package installs them (/usr/bin/lttng-sessiond and
# /usr/bin/lttng-relayd: links to ltt-sessiond and ltt-relayd):
# - ltt-sessiond run as lttng-sessiond serves LTTng's clients without
#   --lttng-compat (Debian's lttng creates a session lttctl lists;
#   python3-lttng finds the daemon alive), writes lttng-sessiond.pid with
#   its pid beside LTTng's socket, and its process is named
#   lttng-sessiond (/proc/PID/comm, which ros2_tracing checks), also when
#   only argv[0] says so (exec -a, systemd's ExecStart=@); both are gone
#   once it stopped; lttctl create spawns it so from LTTNG_SESSIOND_PATH,
#   and, run as lttng (a link), the lttng-sessiond beside that link;
# - lttctl run as lttng says LTTng's version as Debian's lttng does
#   ("lttng (LTTng Trace Control) 2.13.9 - ltt VERSION"; lttng version,
#   its MI: 2.13), by its own name lttctl's;
# - run as ltt-sessiond, it is ltt-sessiond and serves no LTTng socket;
# - ltt-relayd run as lttng-relayd writes under LTTng's lttng-traces by
#   default, and takes LTTng's -p and -s (output grouped
#   by host, by session); as ltt-relayd, -p is its pid file.
# As root, in a mount namespace with its own /run (/var/run/lttng).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

compat_private_run "$0" "$@"
test_init
plan 25

SOCK=/var/run/lttng/client-lttng-sessiond
PIDF=/var/run/lttng/lttng-sessiond.pid
export LTTNG_HOME="$TEST_TMP/lttng-home"
mkdir -p "$LTTNG_HOME" "$TEST_TMP/bin"
ln -s "$SESSIOND" "$TEST_TMP/bin/lttng-sessiond"
ln -s "$RELAYD" "$TEST_TMP/bin/lttng-relayd"
lttng() { timeout "$TEST_TIMEOUT" /usr/bin/lttng "$@"; }
comm() { cat "/proc/$1/comm" 2>/dev/null; }

# --- the package's /usr/bin/lttng-sessiond: a link to ltt-sessiond
timeout "$TEST_TIMEOUT" "$TEST_TMP/bin/lttng-sessiond" --background --rundir "$LTT_RUNDIR" \
	</dev/null >/dev/null 2>"$TEST_TMP/sessiond.log" ||
	{ echo "Bail out! lttng-sessiond (ltt-sessiond) did not start"; cat "$TEST_TMP/sessiond.log"; exit 1; }
pid=$(sessiond_pid)
ok "$([ -S "$SOCK" ]; echo $?)" "run as lttng-sessiond, without --lttng-compat, it listens on $SOCK"
is "$(cat "$PIDF" 2>/dev/null)" "$pid" "$PIDF holds its pid"
is "$(comm "$pid")" lttng-sessiond "/proc/PID/comm of that pid: lttng-sessiond"
run lttng create named -o "$TEST_TMP/named-trace"
ok $RC "Debian's lttng creates a session on it" || diag "$OUT"
run lttctl list
like "$STDOUT" "named \\($TEST_TMP/named-trace\\)" "lttctl lists it: the same daemon"
if /usr/bin/python3 -c "import lttng" 2>/dev/null; then
	is "$(/usr/bin/python3 -c 'import lttng; print(lttng.session_daemon_alive())')" 1 \
		"python3-lttng: session_daemon_alive() is 1"
else
	skip 1 "python3-lttng is not installed"
fi
stop_sessiond
ok "$([ ! -e "$SOCK" ] && [ ! -e "${SOCK%/*}/sessiond-notification" ] && [ ! -e "$PIDF" ]; echo $?)" \
	"stopped: its LTTng socket, the notification channel's and the pid file are gone"

# --- argv[0] alone (exec -a; systemd's ExecStart=@FILE lttng-sessiond)
(exec -a lttng-sessiond "$SESSIOND" --background --rundir "$LTT_RUNDIR" </dev/null >/dev/null 2>&1) ||
	{ echo "Bail out! exec -a lttng-sessiond did not start"; exit 1; }
pid=$(sessiond_pid)
is "$(comm "$pid")/$(cat "$PIDF" 2>/dev/null)" "lttng-sessiond/$pid" \
	"exec -a lttng-sessiond: named lttng-sessiond too, its pid in $PIDF"
stop_sessiond

# --- spawned by lttctl from LTTNG_SESSIOND_PATH (lttng create does so)
run env -u LTT_SESSIOND_PATH LTTNG_SESSIOND_PATH="$TEST_TMP/bin/lttng-sessiond" "$LTTCTL_BIN" create spawned -o "$TEST_TMP/spawned"
pid=$(sessiond_pid)
is "$RC/$(comm "$pid")" 0/lttng-sessiond "lttctl create spawns LTTNG_SESSIOND_PATH's lttng-sessiond, by that name" ||
	diag "$OUT"
run lttng list
like "$STDOUT" "spawned \\[inactive\\]" "... which serves Debian's lttng its session"
stop_sessiond

# --- lttctl run as lttng (the package's /usr/bin/lttng) spawns the
# lttng-sessiond beside it
ln -s "$LTTCTL_BIN" "$TEST_TMP/bin/lttng"
run env -u LTT_SESSIOND_PATH "$TEST_TMP/bin/lttng" create bylttng -o "$TEST_TMP/bylttng"
pid=$(sessiond_pid)
is "$RC/$(comm "$pid")" 0/lttng-sessiond "lttctl run as lttng: create spawns the lttng-sessiond beside it" ||
	diag "$OUT"
run lttng list
like "$STDOUT" "bylttng \\[inactive\\]" "... which serves Debian's lttng its session"
stop_sessiond

# --- run as lttng, lttctl says LTTng's version as LTTng's lttng does:
# what parses `lttng --version` (or its MI) finds 2.13
vre='s/^.* (LTTng Trace Control) \([0-9]*\.[0-9]*\)\.[0-9]* - .*/\1/p'
run "$TEST_TMP/bin/lttng" --version
is "$RC:$(sed -n "$vre" <<<"$STDOUT"):$(/usr/bin/lttng --version | sed -n "$vre")" "0:2.13:2.13" \
	"lttng --version: LTTng's line, 2.13 to a parser, as Debian's lttng's" || diag "$OUT"
like "$STDOUT" "^$TEST_TMP/bin/lttng \\(LTTng Trace Control\\) 2\\.13\\.9 - ltt [0-9]" \
	"... the name it was run by first, as LTTng's, and ltt's version where LTTng names its release"
run "$TEST_TMP/bin/lttng" version
like "$STDOUT" "^lttng version 2\\.13\\.9 - ltt [0-9]" "lttng version: LTTng's first line"
"$TEST_TMP/bin/lttng" --mi xml version >"$TEST_TMP/version.xml"
is "$(mi_xp /command/output/version/major "$TEST_TMP/version.xml").$(mi_xp /command/output/version/minor "$TEST_TMP/version.xml"):$(mi_valid "$TEST_TMP/version.xml")" \
	"2.13:$TEST_TMP/version.xml validates" "lttng --mi xml version: major 2, minor 13, a valid document"
like "$(lttctl --version)" "^lttctl [0-9]" "lttctl --version, by its own name: lttctl's version"

# --- as ltt-sessiond: ltt's daemon, LTTng's socket left alone
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
pid=$(sessiond_pid)
is "$(comm "$pid")" ltt-sessiond "run as ltt-sessiond, it is named ltt-sessiond"
ok "$([ ! -e "$SOCK" ] && [ ! -e "$PIDF" ]; echo $?)" "... and serves no LTTng socket without --lttng-compat"
stop_sessiond

# --- lttng-relayd: LTTng's -p and -s
run timeout "$TEST_TIMEOUT" "$TEST_TMP/bin/lttng-relayd" -p -s
is "$RC" 1 "lttng-relayd -p -s is refused"
like "$ERR" "choose one of --group-output-by-host and --group-output-by-session" \
	"... as two groupings: -p is --group-output-by-host, -s --group-output-by-session"
timeout "$TEST_TIMEOUT" "$TEST_TMP/bin/lttng-relayd" -b -s -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
	-L tcp://127.0.0.1:0 -o "$TEST_TMP/relay-out" --pidfile "$TEST_TMP/relayd.pid" \
	</dev/null >/dev/null 2>"$TEST_TMP/relayd.log"
rpid=$(cat "$TEST_TMP/relayd.pid" 2>/dev/null)
is "$(comm "$rpid")" lttng-relayd "lttng-relayd -b -s starts (named lttng-relayd), its pid file by --pidfile"
[ -n "$rpid" ] && kill -TERM "$rpid" && wait_pid_exit "$rpid"
# no -o: LTTng's default output, the home's lttng-traces (made at start)
mkdir -p "$TEST_TMP/rh"
timeout "$TEST_TIMEOUT" env -u LTT_HOME -u LTTNG_HOME HOME="$TEST_TMP/rh" \
	"$TEST_TMP/bin/lttng-relayd" -b -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
	-L tcp://127.0.0.1:0 --pidfile "$TEST_TMP/relayd2.pid" </dev/null >/dev/null 2>&1
rpid=$(cat "$TEST_TMP/relayd2.pid" 2>/dev/null)
is "$(ls "$TEST_TMP/rh")" lttng-traces "lttng-relayd with no -o: its output \$HOME/lttng-traces, as LTTng's"
[ -n "$rpid" ] && kill -TERM "$rpid" && wait_pid_exit "$rpid"
run timeout "$TEST_TIMEOUT" "$RELAYD" -s
is "$RC" 1 "ltt-relayd -s: no such option of ltt-relayd's own"
run timeout "$TEST_TIMEOUT" "$RELAYD" -p
like "$ERR" "-p: missing argument" "ltt-relayd -p: its pid file, which wants a FILE"
done_testing
