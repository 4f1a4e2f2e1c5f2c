#!/bin/bash
# ltt-sessiond's life: --daemonize returns once ready, the pid file and the
# lock, a second daemon refused, another run directory at the same time,
# SIGTERM/SIGINT/SIGHUP, restart after SIGTERM and after SIGKILL, -b,
# --help/--version/bad options, and lttctl create starting a daemon.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
plan 131

version=$("$LTTCTL_BIN" --version | sed 's/^lttctl //')
sock="$LTT_RUNDIR/client.sock"
m_running() {
	echo "ltt-sessiond: Error: another ltt-sessiond (pid $1) is already running with run directory $2; stop it first or use another --rundir"
}
m_not_running() {
	echo "Error: session daemon (run directory $1): no session daemon is running; start one with 'ltt-sessiond -d' or let 'lttctl create' start it"
}

# --- --daemonize: returns once the socket accepts connections.
run start_sessiond
is "$RC" 0 "--daemonize: exit 0"
is "$OUT" "" "--daemonize: prints nothing"
# No retry, no wait: the very first connection must be served.
run "$PROTO_CLIENT" "$sock" "hello"
is "$OUT" "HELLO OK len=18 major=1 minor=$(sed -n "s/^#define LTT_CLIENT_MINOR[[:space:]]*\([0-9]*\).*/\1/p" "$LTT_TOP_SRCDIR/src/common/proto/client-proto.h") version=$version" \
	"the socket serves at once when --daemonize returns"
pid=$(sessiond_pid)
like "$pid" '^[0-9]+$' "pid file holds a pid ($pid)"
is "$(wc -c <"$LTT_RUNDIR/sessiond.pid")" "$((${#pid} + 1))" "pid file: the pid and a newline only"
ok "$(proc_alive "$pid"; echo $?)" "that process runs"
is "$(basename "$(readlink "/proc/$pid/exe")")" "ltt-sessiond" "that process is ltt-sessiond"
is "$(tr '\0' ' ' <"/proc/$pid/cmdline")" "$SESSIOND --daemonize --rundir $LTT_RUNDIR " \
	"that process is the daemon of this run directory"
ok "$([ "$(ps -o sid= -p "$pid" | tr -d ' ')" != "$(ps -o sid= -p $$ | tr -d ' ')" ]; echo $?)" \
	"it left our session (detached)"
is "$(readlink "/proc/$pid/fd/2")" "/dev/null" "--daemonize: stderr is /dev/null"
is "$(readlink "/proc/$pid/cwd")" "/" "--daemonize: working directory is /"
ok "$([ -S "$sock" ]; echo $?)" "client.sock is a socket"
ok "$([ -f "$LTT_RUNDIR/sessiond.lock" ]; echo $?)" "sessiond.lock exists"
is "$(stat -c %a "$LTT_RUNDIR")" 755 "root daemon: run directory 0755"
# The default group may or may not exist on this machine: 0660 with it.
if getent group tracing >/dev/null; then
	is "$(stat -c %a:%G "$sock")" 660:tracing "the tracing group exists: socket 0660 root:tracing"
else
	is "$(stat -c %a "$sock")" 600 "no tracing group: socket 0600"
fi

# --- a second daemon on the same run directory
lttctl -q create keep
for mode in --daemonize --background ""; do
	run timeout "$TEST_TIMEOUT" "$SESSIOND" $mode --rundir "$LTT_RUNDIR"
	is "$RC" 1 "second daemon ${mode:-(foreground)}: exit 1"
	is "$ERR" "$(m_running "$pid" "$LTT_RUNDIR")" \
		"second daemon ${mode:-(foreground)}: names the first one's pid and the run directory"
done
is "$(sessiond_pid)" "$pid" "the pid file still names the first daemon"
run lttctl list
like "$OUT" "^  1\\) keep \\(.*\\) \\[inactive\\]\$" "the first daemon still serves, its session intact"

# --- another run directory at the same time
run2="$TEST_TMP/run2"
run start_sessiond "$run2"
is "$RC" 0 "a daemon on another run directory starts"
pid2=$(sessiond_pid "$run2")
ok "$([ -n "$pid2" ] && [ "$pid2" != "$pid" ] && proc_alive "$pid2"; echo $?)" "it is another process"
lttctl -q --rundir "$run2" create other --no-output
run lttctl --rundir "$run2" list
is "$OUT" "  1) other (no output) [inactive]" "each daemon has its own sessions (run2)"
run lttctl list
like "$OUT" "^  1\\) keep " "each daemon has its own sessions (run)"
is "$(grep -c ')' <<<"$OUT")" 1 "run has one session"

# --- SIGTERM: socket and pid file removed, lock file kept
kill -TERM "$pid"
ok "$(wait_unlocked; echo $?)" "SIGTERM: the daemon releases its lock"
ok "$([ ! -e "$sock" ]; echo $?)" "SIGTERM: socket removed"
ok "$([ ! -e "$LTT_RUNDIR/sessiond.pid" ]; echo $?)" "SIGTERM: pid file removed"
ok "$([ -f "$LTT_RUNDIR/sessiond.lock" ]; echo $?)" "SIGTERM: lock file kept"
is "$(ls -A "$LTT_RUNDIR")" "sessiond.lock" "SIGTERM: nothing else is left in the run directory"
ok "$(wait_pid_exit "$pid"; echo $?)" "SIGTERM: the process exits"
run lttctl list
is "$RC" 1 "no daemon: list fails"
is "$OUT" "$(m_not_running "$LTT_RUNDIR")" "no daemon: SESSIOND_NOT_RUNNING"
ok "$(proc_alive "$pid2"; echo $?)" "the other daemon is untouched"

# --- restart after SIGTERM: empty
run start_sessiond
is "$RC" 0 "restart after SIGTERM: exit 0"
pid3=$(sessiond_pid)
ok "$([ "$pid3" != "$pid" ] && proc_alive "$pid3"; echo $?)" "restart: a new process"
run lttctl list
is "$OUT" "No sessions." "restart: starts empty (sessions are not persisted)"
lttctl -q create doomed --no-output

# --- SIGKILL: stale socket and pid file; lttctl create starts a new daemon
kill -KILL "$pid3"
ok "$(wait_unlocked; echo $?)" "SIGKILL: the lock goes with the process"
ok "$([ -S "$sock" ] && [ -f "$LTT_RUNDIR/sessiond.pid" ]; echo $?)" \
	"SIGKILL: stale socket and pid file left"
run lttctl list
is "$OUT" "$(m_not_running "$LTT_RUNDIR")" "stale socket: SESSIOND_NOT_RUNNING"
run lttctl create fresh --no-output
is "$RC" 0 "create after SIGKILL: exit 0"
is "$STDOUT" "Spawned a session daemon (run directory $LTT_RUNDIR)
Session fresh created.
No output: the traces stay in the tracing buffers." "create after SIGKILL: spawns a daemon over the stale files"
pid4=$(sessiond_pid)
ok "$([ "$pid4" != "$pid3" ] && proc_alive "$pid4"; echo $?)" "the pid file names the new daemon"
run lttctl list
is "$OUT" "  1) fresh (no output) [inactive]" "the new daemon has only the new session"

# A stale pid file naming a live process does not stop a new daemon: the
# lock decides.
term_sessiond
echo $$ >"$LTT_RUNDIR/sessiond.pid"
run start_sessiond
is "$RC" 0 "a stale pid file naming a live process: the daemon starts"
ok "$([ "$(sessiond_pid)" != $$ ]; echo $?)" "and rewrites the pid file"

# --- SIGINT stops like SIGTERM; SIGHUP is ignored
pid5=$(sessiond_pid)
kill -INT "$pid5"
ok "$(wait_unlocked; echo $?)" "SIGINT: clean shutdown"
ok "$([ ! -e "$sock" ] && [ ! -e "$LTT_RUNDIR/sessiond.pid" ]; echo $?)" "SIGINT: socket and pid file removed"

# --- -b: keeps stderr, returns once ready
log="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" -b -v --rundir "$LTT_RUNDIR" >"$log" 2>&1
is "$?" 0 "-b -v: exit 0"
run "$PROTO_CLIENT" "$sock" "hello"
like "$OUT" "^HELLO OK " "-b: the socket serves at once"
pid6=$(sessiond_pid)
is "$(grep 'ready' "$log")" "ltt-sessiond: Info: ready: run directory $LTT_RUNDIR, pid $pid6" \
	"-b -v: the ready message, on the caller's stderr, with the pid of the pid file"
is "$(readlink "/proc/$pid6/fd/2")" "$log" "-b: the daemon keeps the caller's stderr"
lttctl -q create logged --no-output
like "$(cat "$log")" "Info: session 'logged' created by uid 0, output ''" \
	"-b -v: later messages still reach stderr"
kill -HUP "$pid6"
run lttctl list
is "$OUT" "  1) logged (no output) [inactive]" "SIGHUP: the daemon still serves, state kept"
kill -TERM "$pid6"
wait_unlocked
like "$(cat "$log")" "Info: SIGHUP ignored" "SIGHUP: logged as ignored"
like "$(cat "$log")" "Info: signal 15 received: shutting down" "SIGTERM: logged"

# A daemon that can't start says why on the caller's stderr, with -b and -d.
touch "$TEST_TMP/afile"
for mode in -b -d; do
	run timeout "$TEST_TIMEOUT" "$SESSIOND" $mode --rundir "$TEST_TMP/afile"
	is "$RC" 1 "$mode on a run directory that is a file: exit 1"
	like "$ERR" "^ltt-sessiond: Error: .*$TEST_TMP/afile" "$mode: the error reaches the caller"
done

# A relative --rundir: the daemon must keep using the same directory after
# it detaches (and chdirs to /), down to removing its files at shutdown.
mkdir -p "$TEST_TMP/cwd"
(cd "$TEST_TMP/cwd" && timeout "$TEST_TIMEOUT" "$SESSIOND" -d --rundir relrun)
is "$?" 0 "relative --rundir: exit 0"
rel="$TEST_TMP/cwd/relrun"
relpid=$(sessiond_pid "$rel")
run lttctl --rundir "$rel" list
is "$OUT" "No sessions." "relative --rundir: serves in the directory relative to where it started"
kill -TERM "$relpid"
wait_unlocked "$rel"
ok "$([ ! -e "$rel/client.sock" ] && [ ! -e "$rel/sessiond.pid" ]; echo $?)" \
	"relative --rundir: socket and pid file removed at shutdown"

# A run directory too long for a socket address: the daemon says so and
# exits 1; lttctl says something true too (not that a connection was lost).
deep="$TEST_TMP/$(printf 'd%.0s' $(seq 110))"
run timeout "$TEST_TIMEOUT" "$SESSIOND" -d --rundir "$deep"
is "$RC" 1 "run directory too long for a socket: exit 1"
like "$ERR" "^ltt-sessiond: Error: can't listen on $deep/[a-z]+\.sock: File name too long\$" \
	"run directory too long for a socket: says so"
run lttctl --rundir "$deep" list
is "$RC" 1 "lttctl on that run directory: exit 1"
unlike "$ERR" "lost the connection" "lttctl on that run directory: does not claim a lost connection"

# --- --help, --version, bad options: exit status, and no run directory made
never="$TEST_TMP/never"
run "$SESSIOND" --help --rundir "$never"
is "$RC" 0 "--help: exit 0"
like "$STDOUT" "^Usage: ltt-sessiond \\[OPTION\\.\\.\\.\\]" "--help: usage on stdout"
like "$STDOUT" "--daemonize" "--help: lists --daemonize"
like "$STDOUT" "--rundir=DIR" "--help: lists --rundir"
# each bound's default, written from the value the daemon takes
help=$(tr -s ' \n' ' ' <<<"$STDOUT")
like "$help" "--max-bytes-per-uid=SIZE [^-]*\\(default: 32 MiB\\) .*--app-max-events=N [^-]*\\(default: 65536\\) .*--client-idle-timeout=SECONDS [^-]*\\(default: 30; 0: never\\)" \
	"--help: the bounds' defaults, a size's with its unit, what 0 means"
like "$help" "--consumerd-reply-ms=MS [^-]*\\(default: 5000\\)" "--help: --consumerd-reply-ms, 5 s by default"
run "$SESSIOND" --consumerd-reply-ms 99 --rundir "$never"
like "$RC:$ERR" "^1:ltt-sessiond: Error: --consumerd-reply-ms=99: give a number from 100 to 600000" \
	"--consumerd-reply-ms 99: refused, with its range"
run env LTT_SESSIOND_CONSUMERD_REPLY_MS=600001 "$SESSIOND" --rundir "$never"
like "$RC:$ERR" "^1:ltt-sessiond: Error: LTT_SESSIOND_CONSUMERD_REPLY_MS=600001: give a number from 100 to 600000" \
	"LTT_SESSIOND_CONSUMERD_REPLY_MS=600001: refused, with its range"
run "$SESSIOND" -V
is "$OUT" "ltt-sessiond $version" "-V: the same version as lttctl"
is "$RC" 0 "-V: exit 0"
run "$SESSIOND" --bogus --rundir "$never"
is "$RC" 1 "bad option: exit 1"
is "$ERR" "ltt-sessiond: Error: --bogus: unknown option
Try 'ltt-sessiond --help'." "bad option: says which, and where to look"
run "$SESSIOND" extra --rundir "$never"
is "$RC" 1 "extra argument: exit 1"
is "$ERR" "ltt-sessiond: Error: unexpected argument 'extra'
Try 'ltt-sessiond --help'." "extra argument: says which"
run "$SESSIOND" -d -b --rundir "$never"
is "$RC" 1 "-d with -b: exit 1"
is "$ERR" "ltt-sessiond: Error: choose one of --daemonize and --background" "-d with -b: says so"
for probes in "" "sched,,irq" ",sched" "sched," "Sched" "sched irq" "../x"; do
	run "$SESSIOND" -d --kmod-probes="$probes" --rundir "$never"
	is "$RC" 1 "--kmod-probes='$probes': exit 1"
	is "$ERR" "ltt-sessiond: Error: --kmod-probes=$probes: give probe group names ([a-z0-9_]) separated by commas, e.g. sched,syscalls" \
		"--kmod-probes='$probes': says what a list looks like"
done
# a consumer daemon the user named that can't be run: refused at start,
# not at the first session that records (the stop said only "failed")
touch "$TEST_TMP/notexec"
mkdir -p "$TEST_TMP/adir"
for c in "$TEST_TMP/none/ltt-consumerd:No such file or directory" "$TEST_TMP/adir:Is a directory" \
	"$TEST_TMP/notexec:Permission denied" "ltt-consumerd:No such file or directory"; do
	run "$SESSIOND" -d --consumerd-path="${c%%:*}" --rundir "$never"
	like "$RC:$ERR" "^1:ltt-sessiond: Error: --consumerd-path=${c%%:*}: can't run it as the consumer daemon \\(${c#*:}\\): give the path of ltt-consumerd" \
		"--consumerd-path=${c%%:*}: refused, with why (${c#*:})"
done
run env LTT_CONSUMERD_PATH="$TEST_TMP/none/c" "$SESSIOND" -d --rundir "$never"
like "$RC:$ERR" "^1:ltt-sessiond: Error: LTT_CONSUMERD_PATH=$TEST_TMP/none/c: can't run it" \
	"LTT_CONSUMERD_PATH that can't be run: refused alike"
ok "$([ ! -e "$never" ]; echo $?)" "none of them made the run directory"

# --- lttctl and daemons it may start
spawn="$TEST_TMP/spawn"
run lttctl --rundir "$spawn" create --help
is "$RC" 0 "create --help: exit 0"
like "$STDOUT" "^Usage: lttctl create \\[NAME\\]" "create --help: the usage of create"
run lttctl --rundir "$spawn" help enable-event
like "$STDOUT" "^Usage: lttctl enable-event " "help enable-event: its usage"
run lttctl --rundir "$spawn" --help
matches "$STDOUT" $'\n''  enable-channel +Create channels' "lttctl --help: lists the commands"
ok "$([ ! -e "$spawn" ]; echo $?)" "help started no daemon and created nothing"
run lttctl -n --rundir "$spawn" create s
is "$RC" 1 "-n create, no daemon: exit 1"
is "$OUT" "Error: session daemon (run directory $spawn): none is running, and -n forbids starting one" \
	"-n create: says -n forbids starting one"
run lttctl --rundir "$spawn" list
is "$RC" 1 "list never starts a daemon: exit 1"
ok "$([ ! -e "$spawn" ]; echo $?)" "-n create and list started nothing"
run lttctl --rundir "$spawn" version
is "$OUT" "lttctl $version
No session daemon is running (run directory $spawn)." "version without a daemon: says so"
is "$RC" 0 "version without a daemon: exit 0"
run env LTT_SESSIOND_PATH="$TEST_TMP/no-such-program" "$LTTCTL_BIN" --rundir "$spawn" create s
is "$RC" 1 "LTT_SESSIOND_PATH to a missing program: exit 1"
is "$OUT" "Error: session daemon (run directory $spawn): could not start a session daemon; run 'ltt-sessiond -vvv' by hand to see why" \
	"missing program: SESSIOND_SPAWN"
run env LTT_SESSIOND_PATH=/bin/false "$LTTCTL_BIN" --rundir "$spawn" create s
is "$OUT" "Error: session daemon (run directory $spawn): could not start a session daemon; run 'ltt-sessiond -vvv' by hand to see why" \
	"a program that fails: SESSIOND_SPAWN"
# LTTng's LTTNG_SESSIOND_PATH: its tests' /bin/true starts no daemon
run env -u LTT_SESSIOND_PATH LTTNG_SESSIOND_PATH=/bin/true "$LTTCTL_BIN" --rundir "$spawn" create s
is "$RC:$STDOUT" "1:" "LTTNG_SESSIOND_PATH=/bin/true create: exit 1, nothing created"
like "$ERR" "^Error: session daemon \(run directory $spawn\): no session daemon is running" \
	"LTTNG_SESSIOND_PATH=/bin/true: no session daemon, as LTTng says"
ok "$([ ! -S "$spawn/client.sock" ] && [ -z "$(sessiond_pid "$spawn")" ]; echo $?)" \
	"LTTNG_SESSIOND_PATH=/bin/true: no daemon started"
run env LTT_SESSIOND_PATH=/bin/false LTTNG_SESSIOND_PATH=/bin/true "$LTTCTL_BIN" --rundir "$spawn" create s
like "$RC:$ERR" "^1:Error: session daemon \(run directory $spawn\): could not start a session daemon" \
	"LTT_SESSIOND_PATH comes first: /bin/false ran, and failed"
run lttctl --rundir "$spawn" create s --no-output
is "$STDOUT" "Spawned a session daemon (run directory $spawn)
Session s created.
No output: the traces stay in the tracing buffers." "create spawns a daemon and says so"
spid=$(sessiond_pid "$spawn")
ok "$(proc_alive "$spid"; echo $?)" "the spawned daemon runs"
is "$(tr '\0' ' ' <"/proc/$spid/cmdline")" "ltt-sessiond --daemonize --rundir $spawn " \
	"it runs with --daemonize on that run directory"
run lttctl --rundir "$spawn" version
is "$OUT" "lttctl $version
ltt-sessiond $version (run directory $spawn)" "version with a daemon: both versions"

term_sessiond "$spawn"
term_sessiond "$run2"

# --- --sig-parent (-S, LTTng's): SIGUSR1 to the process that started the
# daemon, once it serves (LTTng 2.16's tests start it so, in the
# foreground, and wait for the signal); with -b, to the starter still.
sigp=$TEST_TMP/sigp
for mode in "" --background; do
	run timeout "$TEST_TIMEOUT" bash -c '
		got=0
		trap got=1 USR1
		"$1" --sig-parent $4 --rundir "$2" >>"$2.log" 2>&1 &
		pid=$!
		# wait returns when the signal comes, or when the daemon ends
		while [ $got = 0 ] && kill -0 $pid 2>/dev/null; do wait $pid; done
		echo "signalled $got"
		"$3" "$2/client.sock" hello' sh "$SESSIOND" "$sigp" "$PROTO_CLIENT" "$mode"
	like "$OUT" "^signalled 1
HELLO OK " "--sig-parent ${mode:-(foreground)}: SIGUSR1 came, and the socket serves by then"
	term_sessiond "$sigp"
done
run timeout "$TEST_TIMEOUT" "$SESSIOND" -S --rundir "$sigp" --no-such
is "$RC" 1 "-S with a bad option: exit 1, no signal to wait for"
done_testing
