# tests/regression/relayd-lib.sh - helpers for the ltt-relayd tests
# (sourced after lib.sh).
#
# start_relayd runs the relay with -b on loopback port 0: it returns once
# the three ports listen and the port files are written, so the ports are
# read from the files at once, without waiting.  The relay is killed when
# the test exits.  Raw protocol bytes are made with printf.

RELAYD="$LTT_TOP_BUILDDIR/src/relayd/ltt-relayd"
RELAY_CLIENT="$LTT_TOP_BUILDDIR/tests/regression/relay_client"

relayd_init() {
	[ -n "${TEST_TMP:-}" ] || test_init
	[ -x "$RELAYD" ] || { echo "Bail out! $RELAYD not built"; exit 1; }
	[ -x "$RELAY_CLIENT" ] || { echo "Bail out! $RELAY_CLIENT not built"; exit 1; }
	RELAYD_LOG="$TEST_TMP/relayd.log"
	RELAYD_PIDFILE="$TEST_TMP/relayd.pid"
	trap '_relayd_cleanup; _cleanup' EXIT
}

_relayd_cleanup() {
	local f
	for f in "$TEST_TMP"/relayd*.pid; do
		[ -f "$f" ] || continue
		kill -CONT "$(cat "$f")" 2>/dev/null	# a test may have stopped it
		kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}

# start_relayd [ARGS...]: a relay on 127.0.0.1, ports 0, -v log in
# $RELAYD_LOG; sets CPORT, DPORT, LPORT and RELAYD_PID.
start_relayd() {
	timeout "$TEST_TIMEOUT" "$RELAYD" -b -v -p "$RELAYD_PIDFILE" \
		-C tcp://127.0.0.1:0 -D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 "$@" \
		</dev/null >/dev/null 2>>"$RELAYD_LOG" || return 1
	CPORT=$(cat "$LTT_RUNDIR/relayd-control.port") &&
		DPORT=$(cat "$LTT_RUNDIR/relayd-data.port") &&
		LPORT=$(cat "$LTT_RUNDIR/relayd-live.port") &&
		RELAYD_PID=$(cat "$RELAYD_PIDFILE")
}

# stop_relayd [SIGNAL]: signal the relay, wait (bounded) for it to be gone.
stop_relayd() {
	kill -"${1:-TERM}" "$RELAYD_PID" 2>/dev/null || return 1
	wait_pid_exit "$RELAYD_PID"
}

# wait_port_recvq PORT: wait (bounded, without sleeping) until bytes wait
# unread in a connection accepted on the local TCP port PORT (ss's
# Recv-Q): what a consumer sent to a stopped relay's data port.
wait_port_recvq() {
	timeout "$TEST_TIMEOUT" bash -c '
		until ss -Htn state established "( sport = :$0 )" |
			awk "\$1 > 0 { f = 1 } END { exit !f }"; do :; done' "$1"
}

# relay_client ARGS...: the scripted consumer, bounded in time.
relay_client() {
	timeout "$TEST_TIMEOUT" "$RELAY_CLIENT" "$@"
}

# Raw messages are built as hex text, then written in one go by send, so
# that a loaded machine never splits one across the relay's idle time:
#   send $CONN "$(ctrl_hdr 5 8)$(h32 2)$(h32 11)"
h32() { printf '%08x' "$1"; }
h64() { printf '%016x' "$1"; }
zeros() { printf "%0$(($1 * 2))d" 0; }
# ctrl_hdr CMD DATA_SIZE: a control request header.
ctrl_hdr() { h64 0; h64 "$2"; h32 "$1"; h32 0; }
# data_hdr HANDLE SEQ DATA_SIZE PADDING: a data packet header.
data_hdr() { h64 0; h64 "$1"; h64 "$2"; h32 "$3"; h32 "$4"; }
# send FD HEX: the bytes HEX spells, in one write.
send() {
	local hex=$2 esc= i
	for ((i = 0; i < ${#hex}; i += 2)); do
		esc+="\\x${hex:i:2}"
	done
	printf "$esc" >&"$1"
}

# wait_closed FD: wait (bounded) until the relay closes the connection on
# FD; prints the bytes it sent before (hex), "TIMEOUT" if it stays open.
wait_closed() {
	local out
	if out=$(timeout "$TEST_TIMEOUT" cat <&"$1" | xxd -p | tr -d '\n'); then
		printf '%s' "$out"
	else
		printf 'TIMEOUT'
	fi
}

# relayd_alive: the relay still runs and serves a new session.
relayd_alive() {
	proc_alive "$RELAYD_PID" &&
		relay_client --session alive$RANDOM pending "$CPORT" "$DPORT" |
		grep -q '^FULL pending=0 end_pending=0$'
}

# make_local_trace DIR N: a trace of N events of ust_app recorded by a local
# session into DIR (ust-lib.sh's daemon must run); prints its trace dir.
make_local_trace() {
	lttctl create lt -o "$1" >/dev/null &&
		lttctl enable-channel -u channel0 --subbuf-size 16k --num-subbuf 8 >/dev/null &&
		lttctl enable-event -u 'ltt_test:*' >/dev/null &&
		lttctl start >/dev/null &&
		timeout "$TEST_TIMEOUT" "$UST_APP" -n "$2" >/dev/null &&
		lttctl stop lt >/dev/null &&
		lttctl destroy lt >/dev/null &&
		echo "$1/ust/uid/$(id -u)/64-bit"
}

# same_files A B: the two trace directories hold the same files with the
# same bytes; prints the differences.
same_files() {
	local a=$1 b=$2 f
	diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort) || return 1
	for f in $(cd "$a" && find . -type f); do
		cmp "$a/$f" "$b/$f" || return 1
	done
}

# bt_events FILE: babeltrace2's text lines without timestamps, deltas and
# CPUs (two traces of one program need not run on the same CPUs), to
# compare two traces.  babeltrace2 2.0 (Debian 12's) may print an empty
# text field with the value that field had in an earlier event (its
# length read as 0 all the same; fixed in later babeltrace2): an event
# whose text is empty (_stext_length = 0) has its three text fields printed
# empty, so that the comparison is of the traces, not of that bug.
bt_events() {
	sed -E 's/^\[[^]]*\] \([^)]*\) //; s/\{ cpu_id = [0-9]+ \}, //
		/_stext_length = 0,/ { s/str = "[^"]*"/str = ""/; s/atext = "[^"]*"/atext = ""/
			s/stext = "[^"]*"/stext = ""/ }' "$1"
}
