#!/bin/bash
# ltt-relayd's life and options: -b returns once listening, port 0 and
# the port files, the pid file, -d, the default and -o output directories,
# bad options and URLs refused with a clear message and nothing created,
# a port in use named, SIGTERM/SIGINT/SIGHUP, systemd's READY=1, IPv6.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

relayd_init
plan 60

version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$LTT_TOP_BUILDDIR/config.h")

# --- --help, --version, bad options: nothing starts, nothing is created.
run "$RELAYD" --help
is "$RC" 0 "--help: exit 0"
like "$OUT" "--control-port=URL" "--help lists -C/--control-port"
like "$OUT" "--live-port=URL" "--help lists -L/--live-port"
run "$RELAYD" --version
is "$OUT" "ltt-relayd $version" "--version prints the version"

refused() {
	local desc=$1 want=$2
	shift 2
	run timeout "$TEST_TIMEOUT" "$RELAYD" "$@"
	is "$RC" 1 "$desc: exit 1"
	is "$OUT" "$want" "$desc: says what is wrong"
}
refused "unknown option" $'ltt-relayd: Error: --bogus: unknown option\nTry \'ltt-relayd --help\'.' --bogus
refused "-C http://" $'ltt-relayd: Error: -C http://127.0.0.1:1: not a valid URL\nTry \'ltt-relayd --help\'.' \
	-C http://127.0.0.1:1
refused "-D net://" $'ltt-relayd: Error: -D net://127.0.0.1: give tcp://HOST[:PORT] or tcp6://[ADDR][:PORT]\nTry \'ltt-relayd --help\'.' \
	-D net://127.0.0.1
refused "-L with a path" $'ltt-relayd: Error: -L tcp://127.0.0.1:5000/x: a listening address takes no path\nTry \'ltt-relayd --help\'.' \
	-L tcp://127.0.0.1:5000/x
refused "-C port 70000" $'ltt-relayd: Error: -C tcp://127.0.0.1:70000: not a valid URL\nTry \'ltt-relayd --help\'.' \
	-C tcp://127.0.0.1:70000
refused "same port twice" "ltt-relayd: Error: the control port (127.0.0.1:6000) and the data port (0.0.0.0:6000) must differ" \
	-C tcp://127.0.0.1:6000 -D tcp://0.0.0.0:6000
refused "-b and -d" $'ltt-relayd: Error: choose one of --daemonize and --background\nTry \'ltt-relayd --help\'.' -b -d
refused "an argument" $'ltt-relayd: Error: unexpected argument \'x\'\nTry \'ltt-relayd --help\'.' x
ok "$([ ! -e "$HOME/ltt-traces" ] && [ ! -e "$LTT_RUNDIR" ]; echo $?)" \
	"refused starts create neither the output nor the run directory"

# --- -b: returns once listening; the port files; the pid file.
start_relayd
is "$?" 0 "-b: exit 0 once ready"
like "$CPORT" '^[0-9]+$' "relayd-control.port holds a port ($CPORT)"
like "$DPORT" '^[0-9]+$' "relayd-data.port holds a port ($DPORT)"
like "$LPORT" '^[0-9]+$' "relayd-live.port holds a port ($LPORT)"
ok "$([ "$CPORT" != 0 ] && [ "$CPORT" != "$DPORT" ] && [ "$DPORT" != "$LPORT" ]; echo $?)" \
	"three different ports, none 0"
is "$(od -An -c "$LTT_RUNDIR/relayd-control.port" | tr -s ' ')" \
	" $(echo "$CPORT" | sed 's/./& /g')\\n" "a port file is the port and a newline"
is "$(ls "$LTT_RUNDIR" | grep -c tmp)" 0 "no temporary file left in the run directory"
is "$(cat "$RELAYD_PIDFILE")" "$RELAYD_PID" "the pid file holds the pid"
is "$(basename "$(readlink "/proc/$RELAYD_PID/exe")")" "ltt-relayd" "that process is ltt-relayd"
ok "$([ "$(ps -o sid= -p "$RELAYD_PID" | tr -d ' ')" != "$(ps -o sid= -p $$ | tr -d ' ')" ]; echo $?)" \
	"-b detached from our session"
for p in "$CPORT" "$DPORT" "$LPORT"; do
	ok "$(grep -qi ":$(printf '%04X' "$p") 00000000:0000 0A" /proc/net/tcp; echo $?)" \
		"port $p listens on 127.0.0.1"
done
# No wait: the very first session is served.
run relay_client --session first pending "$CPORT" "$DPORT"
like "$OUT" "FULL pending=0 end_pending=0" "served at once when -b returns"
like "$OUT" "^OUTPUT $HOME/ltt-traces/testhost/first-[0-9]{8}-[0-9]{6}$" \
	"default output: \$LTT_HOME/ltt-traces/HOST/SESSION-DATE"

# --- a second relay on the same ports: refused, naming the address.
run timeout "$TEST_TIMEOUT" "$RELAYD" -C "tcp://127.0.0.1:$CPORT" -D tcp://127.0.0.1:0 \
	-L tcp://127.0.0.1:0
is "$RC" 1 "port in use: exit 1"
is "$OUT" "ltt-relayd: Error: can't listen on 127.0.0.1:$CPORT (the control port, -C): Address already in use (another relay daemon? choose another port)" \
	"port in use: the message names the address and the option"
ok "$(proc_alive "$RELAYD_PID"; echo $?)" "the first relay still runs"

# --- SIGHUP is ignored; SIGTERM ends it cleanly.
kill -HUP "$RELAYD_PID"
run relay_client --session afterhup pending "$CPORT" "$DPORT"
like "$OUT" "FULL pending=0" "SIGHUP: still serving"
stop_relayd TERM
is $? 0 "SIGTERM: the relay exits"
ok "$([ ! -e "$LTT_RUNDIR/relayd-control.port" ] && [ ! -e "$LTT_RUNDIR/relayd-data.port" ] &&
	[ ! -e "$LTT_RUNDIR/relayd-live.port" ]; echo $?)" "SIGTERM: the port files are removed"
ok "$([ ! -e "$RELAYD_PIDFILE" ]; echo $?)" "SIGTERM: the pid file is removed"
like "$(cat "$RELAYD_LOG")" "signal 15 received: shutting down" "SIGTERM: logged"

# --- -d: stdio to /dev/null, working directory /, -o relative made absolute.
mkdir -p "$TEST_TMP/cwd"
(cd "$TEST_TMP/cwd" && timeout "$TEST_TIMEOUT" "$RELAYD" -d -p "$RELAYD_PIDFILE" -o out \
	-C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0)
is $? 0 "-d: exit 0 once ready"
RELAYD_PID=$(cat "$RELAYD_PIDFILE")
CPORT=$(cat "$LTT_RUNDIR/relayd-control.port")
DPORT=$(cat "$LTT_RUNDIR/relayd-data.port")
is "$(readlink "/proc/$RELAYD_PID/fd/2")" "/dev/null" "-d: stderr is /dev/null"
is "$(readlink "/proc/$RELAYD_PID/cwd")" "/" "-d: working directory /"
run relay_client --session rel --base-path given/path pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $TEST_TMP/cwd/out/testhost/given/path$" \
	"-o out: relative to where it started; a base path replaces SESSION-DATE"
ok "$([ -d "$TEST_TMP/cwd/out/testhost/given/path/ust/uid/0/64-bit/index" ]; echo $?)" \
	"the trace directory and its index/ exist"
stop_relayd INT
is $? 0 "SIGINT: the relay exits"

# --- foreground: READY=1 to systemd's socket once listening, then SIGTERM.
notify_out=$(NOTIFY_SOCKET="$TEST_TMP/notify.sock" timeout "$TEST_TIMEOUT" perl -e '
	use IO::Socket::UNIX; use Socket;
	my $s = IO::Socket::UNIX->new(Type => SOCK_DGRAM, Local => $ENV{NOTIFY_SOCKET}) or die "$!";
	my $pid = fork();
	if (!$pid) { exec @ARGV or exit 127; }
	my $msg = "";
	my $rin = ""; vec($rin, fileno($s), 1) = 1;
	if (select($rin, undef, undef, 15)) { $s->recv($msg, 100); }
	print "GOT $msg\n";
	print -e "$ENV{LTT_RUNDIR}/relayd-control.port" ? "PORTFILE\n" : "NOPORTFILE\n";
	kill "TERM", $pid; waitpid($pid, 0); print "EXIT ", $? >> 8, "\n";' \
	"$RELAYD" -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 2>/dev/null)
is "$notify_out" $'GOT READY=1\nPORTFILE\nEXIT 0' \
	"foreground: READY=1 once the port files exist; SIGTERM: exit 0"

# --- IPv6 loopback.
if grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null; then
	timeout "$TEST_TIMEOUT" "$RELAYD" -b -p "$RELAYD_PIDFILE" -C 'tcp6://[::1]:0' \
		-D 'tcp6://[::1]:0' -L 'tcp6://[::1]:0' </dev/null >/dev/null 2>>"$RELAYD_LOG"
	is "$?" 0 "tcp6://[::1]:0: starts"
	RELAYD_PID=$(cat "$RELAYD_PIDFILE")
	p=$(cat "$LTT_RUNDIR/relayd-control.port")
	ok "$(grep -qi ":$(printf '%04X' "$p") 00000000000000000000000000000000:0000 0A" /proc/net/tcp6; echo $?)" \
		"it listens on [::1]:$p"
	stop_relayd TERM
	is $? 0 "and stops"
else
	skip 3 "no IPv6 loopback"
fi

# --- an output directory that can't be made: -b returns 1 with the reason.
touch "$TEST_TMP/afile"
run timeout "$TEST_TIMEOUT" "$RELAYD" -b -o "$TEST_TMP/afile/traces" -C tcp://127.0.0.1:0 \
	-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0
is "$RC" 1 "-o under a file: -b returns 1"
is "$OUT" "ltt-relayd: Error: can't use the output directory $TEST_TMP/afile/traces: Not a directory" \
	"-o under a file: says why"

# --- a bad idle timeout is refused.
run env LTT_RELAYD_IDLE_TIMEOUT_MS=abc timeout "$TEST_TIMEOUT" "$RELAYD" \
	-C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0
is "$RC" 1 "LTT_RELAYD_IDLE_TIMEOUT_MS=abc: exit 1"
is "$OUT" "ltt-relayd: Error: LTT_RELAYD_IDLE_TIMEOUT_MS=abc: give milliseconds, 1 to 3600000" \
	"LTT_RELAYD_IDLE_TIMEOUT_MS=abc: says what to give"

# --- LTTng 2.16's tests start it in the foreground with --pid-file (LTTng's
# spelling of -p) and --sig-parent: SIGUSR1 once it listens.
run timeout "$TEST_TIMEOUT" bash -c '
	got=0
	trap got=1 USR1
	"$1" --pid-file "$2" --sig-parent -C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 \
		-L tcp://127.0.0.1:0 >>"$2.log" 2>&1 &
	pid=$!
	while [ $got = 0 ] && kill -0 $pid 2>/dev/null; do wait $pid; done
	echo "signalled $got, pid file $(cat "$2") of $pid, control port $(cat "$3")"' \
	sh "$RELAYD" "$TEST_TMP/relayd-sigp.pid" "$LTT_RUNDIR/relayd-control.port"
pid=$(sed -n 's/.* of \([0-9]*\),.*/\1/p' <<<"$OUT")
like "$OUT" "^signalled 1, pid file $pid of $pid, control port [1-9][0-9]*\$" \
	"--sig-parent --pid-file: SIGUSR1 came once it listened, the pid file written by then"
RELAYD_PID=$(cat "$TEST_TMP/relayd-sigp.pid")
stop_relayd
ok $? "that relay stops on SIGTERM"

done_testing
