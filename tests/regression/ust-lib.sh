# tests/regression/ust-lib.sh - helpers for the end-to-end tests of
# user-space tracing (sourced after lib.sh).
#
# ust_setup starts a session daemon (which spawns the consumer from the
# build tree) in the test's private run directory.  Traces are read back
# with babeltrace2; the helpers below count and check what it printed.
#
# Tests and programs meet on FIFOs, never on sleep: open_fifo, then
# ust_app_bg -w READY -s GO ... ; wait_ready (the program is registered
# and waiting); act (start, enable, kill a daemon...); echo go >&GO, or
# close_fd GO to release every waiting program at once; wait $BG_PID.

UST_APP="$LTT_TOP_BUILDDIR/tests/regression/app/ust_app"
# As for lttctl (lib.sh): run the program libtool's wrapper would run.
if [ -x "$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_app" ] &&
	[ -d "$LTT_TOP_BUILDDIR/src/ust/.libs" ] &&
	grep -q '^relink_command=""' "$UST_APP" 2>/dev/null; then
	UST_APP="$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_app"
	LD_LIBRARY_PATH="$LTT_TOP_BUILDDIR/src/ust/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"
# The daemon is ready before any program starts: registration is quick.
export LTT_UST_REGISTER_TIMEOUT=${LTT_UST_REGISTER_TIMEOUT:-5000}

# ust_setup [--log] [ARGS...]: the daemon with ARGS; --log keeps its messages (-vvv, and the
# consumer's) in $SESSIOND_LOG, to assert on them or to debug.
ust_setup() {
	test_init
	command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
	[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
	SESSIOND_LOG="$TEST_TMP/sessiond.log"
	if [ "${1:-}" = --log ]; then
		shift
		logged_sessiond "$@"
	else
		start_sessiond "$LTT_RUNDIR" "$@"
	fi || { echo "Bail out! the session daemon did not start"; exit 1; }
}

# logged_sessiond [ARGS...]: the daemon with ARGS, its messages (-vvv, and
# its consumers') in $SESSIOND_LOG.
logged_sessiond() {
	SESSIOND_LOG="$TEST_TMP/sessiond.log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vvv "$@" \
		</dev/null >/dev/null 2>"$SESSIOND_LOG"
}

# bt DIR OUT: babeltrace2's text output of the trace(s) under DIR into OUT
# (stderr, with its discarded-event warnings, into OUT.err).
bt() {
	timeout "$BT_TIMEOUT" babeltrace2 "$1" >"$2" 2>"$2.err"
}

# archives DIR: the archive directories of the session written in DIR
# (DIR/archives/*), sorted, one a line.
archives() {
	find "$1/archives" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort
}

# narchives DIR: how many archives the session written in DIR has.
narchives() {
	archives "$1" | wc -l
}

# wait_archives DIR N: until the session written in DIR has at least N
# archives (wait_fs: bounded, woken as DIR/archives or its entries appear).
wait_archives() {
	wait_fs "$1/archives" -- bash -c \
		'[ "$(find "$0/archives" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)" -ge "$1" ]' \
		"$1" "$2"
}

# read_chunks [-e] [-m] OUT DIR...: each trace chunk DIR (an archive, or
# a chunk still in place) read alone by babeltrace2, their events appended
# to OUT (emptied first); prints "FAILED WITH_EVENTS": how many could not
# be read, how many held events.  -e: a DIR that holds no file (a chunk
# in which no trace was open: empty, or only its domain's empty ust/, as
# LTTng's chunks too) is passed over; -m: each DIR must also hold the
# per-UID trace's metadata.  What went wrong goes to stderr, not into the
# answer.
read_chunks() {
	local skip_empty=false need_meta=false d failed=0 full=0 out
	while [ $# -gt 0 ]; do
		case $1 in
		-e) skip_empty=true ;;
		-m) need_meta=true ;;
		*) break ;;
		esac
		shift
	done
	out=$1
	shift
	: >"$out"
	for d in "$@"; do
		$skip_empty && [ -z "$(find "$d" -type f -print -quit)" ] && continue
		if ! bt "$d" "$out.one" ||
		   { $need_meta && [ ! -s "$d/ust/uid/$(id -u)/64-bit/metadata" ]; }; then
			failed=$((failed + 1))
			diag "chunk $d: $(find "$d" -maxdepth 4 | head -12 | tr '\n' ' ') $(head -3 "$out.one.err")" >&2
			continue
		fi
		[ -s "$out.one" ] && full=$((full + 1))
		cat "$out.one" >>"$out"
	done
	echo "$failed $full"
}

# SEQ_AWK: an awk function for babeltrace2's text of ltt_test:seq events:
# seq_event(ROLE) is 1 on a line of one of ROLE's, its thread then in T,
# its seq in S.
SEQ_AWK='
function seq_event(role,    r) {
	if ($0 !~ / ltt_test:seq: / || !match($0, /role = "[^"]*"/)) return 0
	r = substr($0, RSTART + 8, RLENGTH - 9)
	if (r != role) return 0
	match($0, /thread = -?[0-9]+/); T = substr($0, RSTART + 9, RLENGTH - 9) + 0
	match($0, /seq = [0-9]+/); S = substr($0, RSTART + 6, RLENGTH - 6) + 0
	return 1
}'

# dups_and_range FILE ROLE THREADS N: "DUPLICATES OUT_OF_RANGE DISTINCT"
# of the (thread, seq) pairs of ROLE's ltt_test:seq events.
dups_and_range() {
	awk -v role="$2" -v threads="$3" -v n="$4" "$SEQ_AWK"'
	seq_event(role) {
		t = T; s = S
		if (t < 0 || t >= threads || s >= n) { bad++; next }
		if (seen[t, s]++) dup++; else distinct++
	}
	END { printf "%d %d %d\n", dup, bad, distinct }' "$1"
}

# count_events FILE NAME: how many NAME events FILE holds.
count_events() {
	grep -c " $2: " "$1"
}

# seq_check FILE ROLE THREADS N: every (ROLE, thread) pair has exactly the
# ltt_test:seq events 0..N-1, once each.  Prints what is wrong, if any.
seq_check() {
	awk -v role="$2" -v threads="$3" -v n="$4" "$SEQ_AWK"'
	seq_event(role) {
		t = T; s = S
		if (t < 0 || t >= threads || s >= n) { bad++; next }
		seen[t, s]++
	}
	END {
		for (t = 0; t < threads; t++)
			for (s = 0; s < n; s++)
				if (seen[t, s] != 1) {
					if (errs++ < 5) printf "thread %d seq %d seen %d times\n", t, s, seen[t, s]
				}
		if (bad) printf "%d events out of range\n", bad
	}' "$1"
}

# trace_dir SESSION: the session's output directory, from lttctl list.
trace_dir() {
	lttctl list | sed -n "s/^ *[0-9]*) $1 (\(.*\)) \[.*/\1/p"
}

# discarded FILE.err: the number of events babeltrace2 says were discarded
# ("discarded 1 event between ...", "discarded N events between ...").
discarded() {
	sed -n 's/.*discarded \([0-9]*\) events\{0,1\} between .*/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'
}

# list_lost_events SESSION: the events `lttctl list` counts lost in
# SESSION, the sum of its channels' "discarded events" lines.
list_lost_events() {
	lttctl list "$1" | sed -n 's/^ *discarded events: \([0-9]*\)$/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}

# ust_guard ARGS...: the bound a program with ARGS runs under: its own
# bounded wait (-e SECONDS, until its event is enabled) and then
# TEST_TIMEOUT for the rest.  A guard no longer than the wait it encloses
# ended a program that had just been enabled after a long takeover: killed
# at its first events, one was torn (the consumer then rightly counted it
# lost and the trace lacked it).
ust_guard() {
	local guard=$TEST_TIMEOUT
	while [ $# -gt 0 ]; do
		if [ "$1" = -e ] && [ $# -gt 1 ]; then
			guard=$((guard + $2))
			shift
		fi
		shift
	done
	echo "$guard"
}

# ust_burst NAME THREADS N: a program's burst of THREADS x N ltt_test:seq
# events (BURST_RC its exit status), registered first and held at a gate,
# then emitted with the consumer stopped (SIGSTOP), so that the tiny
# buffers surely fill (under a sanitizer the program did not outrun the
# consumer: nothing discarded, CI); the consumer goes on once the program
# is done.
ust_burst() {
	local rdy go cons
	open_fifo rdy "$TEST_TMP/$1.ready" && open_fifo go "$TEST_TMP/$1.go" ||
		{ echo "Bail out! fifos"; exit 1; }
	ust_app_bg -e "$TEST_TIMEOUT" -t "$2" -n "$3" -w "$TEST_TMP/$1.ready" -s "$TEST_TMP/$1.go"
	wait_ready "$rdy" || { echo "Bail out! the program did not register"; exit 1; }
	cons=$(consumer_pid)
	[ -n "$cons" ] && stop_proc "$cons" || { echo "Bail out! no consumer to stop"; exit 1; }
	close_fd "$go"
	wait "$BG_PID"
	BURST_RC=$?
	kill -CONT "$cons"
	close_fd "$rdy"
}

# ust_app ARGS...: the test program, bounded (ust_guard), without the
# test's FIFO fds (a program holding the start FIFO open would never see
# its EOF).
ust_app() {
	(
		close_fifos
		exec timeout "$(ust_guard "$@")" "$UST_APP" "$@"
	)
}

# ust_app_bg ARGS...: the same in the background (not "ust_app &": that
# subshell would keep the FIFOs open).  BG_PID is the pid of timeout, to
# wait for: its exit status is the program's; the program's own pid comes
# with "ready PID" (-w).
ust_app_bg() {
	(
		close_fifos
		exec timeout "$(ust_guard "$@")" "$UST_APP" "$@"
	) &
	BG_PID=$!
}

# open_fifo VAR PATH: make the FIFO PATH and open it read-write on a new
# fd, whose number goes into VAR.  Opened read-write, it never blocks the
# test: a program's "ready"/"done" lines wait in it, a "go" line written
# before the program opens it is still there, and closing it (close_fd)
# gives EOF to every program waiting on it with -s.
open_fifo() {
	mkfifo "$2" && eval "exec {$1}<>\"\$2\"" && UST_FIFO_FDS="$UST_FIFO_FDS ${!1}"
}
UST_FIFO_FDS=

close_fd() {
	eval "exec $1>&-"
}

# close_fifos: in a subshell about to run a program that outlives the
# moment the test closes a FIFO (ust_app, a daemon), close them all.
close_fifos() {
	local fd
	for fd in $UST_FIFO_FDS; do
		eval "exec $fd>&-"
	done
}

# read_line FD: one line from FD into LINE, waiting at most TEST_TIMEOUT s.
read_line() {
	LINE=
	read -r -t "$TEST_TIMEOUT" -u "$1" LINE
}

# wait_for_waiter FD: a wait-trigger started with its stderr on FIFO FD said it is subscribed
wait_for_waiter() {
	read_line "$1" && [[ $LINE == "Waiting for trigger "* ]]
}

# start_waiter NAME TRIGGER [LTTCTL-OPTION...]: `lttctl [OPTION...]
# wait-trigger TRIGGER` in the background (bounded by TEST_TIMEOUT), its
# output in $TEST_TMP/NAME.out, its pid in WAITER; returns once it said it
# is subscribed, non-zero if it did not in time.
start_waiter() {
	local fd
	open_fifo fd "$TEST_TMP/$1.fifo" || return 1
	lttctl "${@:3}" wait-trigger "$2" --timeout "$TEST_TIMEOUT" >"$TEST_TMP/$1.out" 2>&"$fd" &
	WAITER=$!
	wait_for_waiter "$fd"
}

# usage_at_most_ok SESSION FILE MAX DESC: a buffer usage notification in
# FILE (wait-trigger's output) gave the fullest stream's bytes, at most MAX
usage_at_most_ok() {
	local bytes
	bytes=$(sed -n "s/.*session $1, \([0-9]*\) bytes in the channel's fullest buffer.*/\1/p" "$2")
	ok "$([ -n "$bytes" ] && [ "$bytes" -le "$3" ]; echo $?)" "$4 (${bytes:-none})"
}

# wait_ready FD [N]: N (default 1) programs said "ready PID" on FD (ust_app
# -w, once registered); their pids are in READY_PIDS.  Fails on a timeout.
wait_ready() {
	local i
	READY_PIDS=
	for ((i = 0; i < ${2:-1}; i++)); do
		read_line "$1" || return 1
		case $LINE in
		"ready "*) READY_PIDS="$READY_PIDS ${LINE#ready }" ;;
		*) return 1 ;;
		esac
	done
	READY_PIDS=${READY_PIDS# }
}

# wait_done FD [N]: N programs wrote "done" on FD (ust_app -k).
wait_done() {
	local i
	for ((i = 0; i < ${2:-1}; i++)); do
		read_line "$1" && [ "$LINE" = done ] || return 1
	done
}

# event_line FILE EVENT REGEX: the payload ({ ... } after the event name
# and its context) of the first EVENT line matching REGEX.
event_line() {
	grep " $2: " "$1" | grep -E -m1 -- "$3" | sed 's/.*}, { \(.*\) }$/\1/'
}

# consumer_pid: the consumer daemon our session daemon spawned, if any
# (it does on first need: when a session starts with a program registered,
# or a program registers with a session active).
consumer_pid() {
	local spid
	spid=$(sessiond_pid) || return 1
	pgrep -P "$spid" -x ltt-consumerd | head -1
}

# consumer_gone_unreplaced SIG LOG_RE N: a program records N events
# (role "before") through the consumer it started, which is then sent SIG
# and must not be replaced at once: its exit, the daemon's log line LOG_RE
# (its @PID@ the consumer's pid; the daemon writes it once it decided: a
# takeover would spawn a consumer before its next line), no consumer in
# its place; a program
# then records N more (role "after") into buffers nobody reads.  7 checks;
# the ended consumer's pid in GONE_PID.
consumer_gone_unreplaced() {
	local sig=$1 re=$2 n=$3
	ust_app -n "$n" -r before
	is $? 0 "a program recorded $n events"
	GONE_PID=$(consumer_pid)
	ok "$([[ $GONE_PID =~ ^[0-9]+$ ]]; echo $?)" "one consumer runs (pid $GONE_PID)"
	kill -"$sig" "$GONE_PID"
	wait_pid_exit "$GONE_PID"
	ok $? "SIG$sig ends the consumer"
	wait_for "$SESSIOND_LOG" "${re//@PID@/$GONE_PID}"
	ok $? "the daemon's log says it is not replaced now" ||
		diag "$(grep -i consumer "$SESSIOND_LOG" | tail -5)"
	is "$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)" "" "no consumer was started in its place"
	ust_app -n "$n" -r after
	is $? 0 "a program after the consumer's end recorded $n events"
	is "$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)" "" "... still none: the buffers need no consumer"
}

# root_sessiond [OPTIONS...]: for the tests that act as other users (as
# root): a root daemon admitting the group nogroup, without the kernel
# domain, its messages (-vvv) in $SESSIOND_LOG, and OPTIONS; its pid in
# spid.  The tests whose member's session records root's programs (one
# user's stalled consumer must not hold another's) give it
# --member-reach=all.
root_sessiond() {
	SESSIOND_LOG="$TEST_TMP/sessiond.log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" --group nogroup \
		--no-kernel -vvv "$@" </dev/null >/dev/null 2>"$SESSIOND_LOG" ||
		{ echo "Bail out! the root daemon did not start"; exit 1; }
	spid=$(sessiond_pid)
}

# nobody_home: nhome, a home directory of nobody's, for b_ctl.
nobody_home() {
	nhome="$TEST_TMP/nhome"
	nobody_dir "$nhome"
}

# b_ctl ARGS...: lttctl as nobody, at home in $nhome (nobody_home).
b_ctl() {
	as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$LTT_RUNDIR" "$LTTCTL_BIN" "$@"
}

# new_consumer OLD: wait (wait_fs, bounded) until the session daemon runs
# a consumer other than OLD; print its pid.  What wakes it is the line the
# daemon writes in $SESSIOND_LOG once it started one: the daemon must log
# (ust_setup --log, logged_sessiond, root_sessiond).
new_consumer() {
	wait_fs "$SESSIOND_LOG" -- bash -c '
		c=$(pgrep -P "$0" -x ltt-consumerd | grep -vx "$1" | head -1) && [ -n "$c" ] &&
			echo "$c"' "$(sessiond_pid)" "$1"
}

# cmd_sock_ino PID: the inode of consumer PID's command socket (the fd
# named by its --cmd-fd), for sock_recvq.
cmd_sock_ino() {
	local fd
	fd=$(tr '\0' '\n' <"/proc/$1/cmdline" | sed -n '/^--cmd-fd$/{n;p}')
	readlink "/proc/$1/fd/$fd" | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p'
}

# sock_recvq INO: the bytes queued unread on the Unix socket INO.
sock_recvq() {
	ss -xaH | awk -v ino="$1" '$6 == ino { print $3; exit }'
}

# wait_recvq INO N: wait (bounded, without sleeping) until more than N
# bytes are queued on the Unix socket INO: a command sent to a stopped
# consumer is there.
wait_recvq() {
	timeout "$TEST_TIMEOUT" bash -c 'until [ "$(ss -xaH | awk -v ino="$1" '"'"'$6 == ino { print $3; exit }'"'"')" -gt "$2" ]; do :; done' \
		bash "$1" "${2:-0}"
}

# read_archives DIR OUT: every archive of DIR read alone, appended to OUT;
# prints how many could not be read
read_archives() {
	local d bad=0
	: >"$2"
	for d in $(find "$1/archives" -mindepth 1 -maxdepth 1 -type d | sort); do
		# an archive of a chunk nothing was written in is empty
		[ -z "$(ls -A "$d")" ] && continue
		if ! bt "$d" "$2.one"; then
			bad=$((bad + 1))
			diag "archive $d: $(head -3 "$2.one.err")"
			continue
		fi
		cat "$2.one" >>"$2"
	done
	echo $bad
}

# rotate_fault_setup N: for the tests of a consumer stopped on its
# ROTATE_TRACE (ltt-consumerd(8), LTT_FAULT): a daemon (logged_sessiond)
# whose consumers stop on it once "$TEST_TMP/fault" exists; session s, started,
# writing in $out; N events of a program (role p1) recorded; its
# consumer's pid in c.  Two assertions.
rotate_fault_setup() {
	export LTT_FAULT="stop ROTATE_TRACE $TEST_TMP/fault"
	logged_sessiond
	out="$TEST_TMP/s"
	lttctl -q create s -o "$out" && lttctl -q enable-channel -u chan -s s &&
		lttctl -q enable-event -u ltt_test:seq -c chan -s s
	ok_cmd "the session starts" lttctl start s
	ust_app -n "$1" -r p1 >/dev/null
	ok $? "a program recorded $1 events"
	c=$(consumer_pid)
}

# rotate_until_stopped: arm the fault, rotate s in the background (its
# status in $TEST_TMP/rot.rc, its output in rot.out; its pid in ROT) and
# wait (bounded) until the consumer $c stopped on the ROTATE_TRACE.
rotate_until_stopped() {
	: >"$TEST_TMP/fault"
	( timeout 120 "$LTTCTL_BIN" --timeout 90 rotate s >"$TEST_TMP/rot.out" 2>&1
	  echo $? >"$TEST_TMP/rot.rc" ) &
	ROT=$!
	timeout "$TEST_TIMEOUT" bash -c 'until [ "$(cut -d" " -f3 /proc/$0/stat)" = T ]; do :; done' "$c"
}

# rotate_under_load SESSION MAX T N: a program writes T x N events of
# ltt_test:seq, in two rounds of N/2 per thread, while `lttctl rotate
# SESSION` runs in a loop (at most MAX times a round), and once more
# after each round: the rounds are in two chunks at least, however
# loaded the machine (a round may end before the loop's first rotate
# does).  Sets ROTATIONS, FAILED_ROT (rotations that failed: their
# message goes to the test's log), ROT_OUT (the last rotate's standard
# output) and APP_RC (the program's status).  Bails out when the program
# does not register or a round does not end.
rotate_under_load() {
	local session=$1 max=$2 t=$3 n=$4 app round i
	open_fifo READY "$TEST_TMP/ready" && open_fifo DONE "$TEST_TMP/done" &&
		open_fifo ROUNDS "$TEST_TMP/rounds" || { echo "Bail out! fifos"; exit 1; }
	ust_app_bg -t "$t" -n $((n / 2)) -r "$session" -w "$TEST_TMP/ready" \
		-k "$TEST_TMP/done" -p "$TEST_TMP/rounds"
	app=$BG_PID
	wait_ready "$READY" || { echo "Bail out! the program did not register"; exit 1; }
	ROTATIONS=0 FAILED_ROT=0
	for round in 1 2; do
		echo go >&"$ROUNDS"
		i=0
		while ! read -r -t 0 -u "$DONE" && [ "$i" -lt "$max" ]; do
			rotate_once "$session"
			i=$((i + 1))
		done
		wait_done "$DONE" || { echo "Bail out! round $round did not end"; exit 1; }
		rotate_once "$session"
	done
	close_fd "$ROUNDS"
	wait "$app"
	APP_RC=$?
}

# rotate_once SESSION: one `lttctl rotate SESSION` of rotate_under_load's.
rotate_once() {
	ROT_OUT=$(lttctl rotate "$1") ||
		{ FAILED_ROT=$((FAILED_ROT + 1)); diag "rotate failed (its message above): $ROT_OUT"; }
	ROTATIONS=$((ROTATIONS + 1))
}

# stalled_b_daemon [ARGS...]: for the tests of a stalled owner (below),
# the whole test skipped without babeltrace2, or without root, setpriv
# and the user nobody; else the root daemon, whose B's sessions record
# root's programs too (root_sessiond --member-reach=all ARGS), and
# nobody's home (nobody_home).  Before the plan.
stalled_b_daemon() {
	command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
	can_switch_user || skip_all "needs root, setpriv and the user nobody"
	root_sessiond --member-reach=all "$@"
	nobody_home
}

# The stalled owner of test_ust_list_stalled, test_trigger_owner_stalled
# and test_sessiond_stall_other_users: root's session a, started, then
# stalled_b_start N.  Four checks of its own.
stalled_b_setup() {
	lttctl -q create a -o "$TEST_TMP/a" && lttctl -q enable-channel -u chan -s a &&
		lttctl -q enable-event -u ltt_test:seq -c chan -s a
	ok_cmd "root starts a session" lttctl start a
	stalled_b_start "$1"
}

# stalled_b_start N: B's (nobody's) per-PID session b, started, then B's
# consumer stopped and a program (N events, role p1) registering, so
# B's owner thread holds b's lock in an ADD_TRACE that B's consumer does
# not answer.  Two checks of its own (b starts, B has a consumer), one
# more once the ADD_TRACE waits on the consumer's socket.  Sets CB (B's
# consumer), APP (the program), fds $ready and $go.
stalled_b_start() {
	local n=$1 ino q0
	b_ctl create b -o "$nhome/b" >/dev/null &&
		b_ctl enable-channel -u --buffers-pid bchan >/dev/null &&
		b_ctl enable-event -u ltt_test:seq -c bchan >/dev/null
	ok_cmd "B starts a per-PID session" b_ctl start b
	CB=$(pgrep -P "$spid" -u nobody -x ltt-consumerd | head -1)
	ok "$([ -n "$CB" ]; echo $?)" "B has a consumer of its own (pid $CB)"
	ino=$(cmd_sock_ino "$CB")
	stop_proc "$CB"
	q0=$(sock_recvq "$ino")
	open_fifo ready "$TEST_TMP/ready"
	open_fifo go "$TEST_TMP/go"
	ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n "$n" -r p1
	APP=$BG_PID
	wait_recvq "$ino" "${q0:-0}"
	ok $? "the program's trace in b waits for B's stopped consumer (queued: $(sock_recvq "$ino") bytes)"
}

# role_count DIR ROLE: ltt_test:seq events of ROLE in the trace(s) under DIR
role_count() {
	bt "$1" "$TEST_TMP/bt.out"
	grep ' ltt_test:seq: ' "$TEST_TMP/bt.out" | grep -c "role = \"$2\""
}

# lost_sum CMD...: the discarded events CMD's list output says, summed
lost_sum() {
	"$@" | sed -n 's/.*discarded events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

# add_trace_gave_up: how often the daemon gave up waiting for an ADD_TRACE
add_trace_gave_up() {
	grep -c 'did not answer ADD_TRACE' "$SESSIOND_LOG"
}

# stalled_b_resume: the end of stalled_b_setup's stall, four checks: the
# program registers, the daemon gives up waiting for b's ADD_TRACE, B's
# consumer was stopped all along; then B's consumer runs again and the
# program ends (its exit status checked).
stalled_b_resume() {
	local stat
	wait_ready $ready
	ok $? "the program registered"
	wait_for "$SESSIOND_LOG" "did not answer ADD_TRACE"
	ok $? "the daemon gave up waiting for ADD_TRACE (the program's trace in b has no consumer yet)"
	stat=$(ps -o stat= -p "$CB")
	is "${stat:0:1}" T "B's consumer was stopped all along"
	kill -CONT "$CB"
	echo go >&$go
	wait $APP
	is $? 0 "the program ran"
}

# memfd_bytes PID: the bytes each ring buffer memfd of process PID holds
# (st_blocks * 512: what the kernel counts), one a line, sorted.
memfd_bytes() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		case $(readlink "$fd") in
		*memfd:ltt-ust-stream*) echo $(($(stat -L -c %b "$fd") * 512)) ;;
		esac
	done | sort -n
}

# stuckfs_start BACKING MOUNT: stuckfs (tests/regression/stuckfs.c), a
# FUSE file system passing BACKING through, on MOUNT, which stops
# answering on SIGUSR1 to FS_PID (SIGHUP: reads the operations and holds
# them unanswered; SIGUSR2 answers again); unmounted at the test's exit; its
# state in FS_STATE, which fs_wait STATE waits for.  The whole test is
# skipped where no FUSE mount is possible.
stuckfs_start() {
	local bin="$LTT_TOP_BUILDDIR/tests/regression/stuckfs"
	[ -x "$bin" ] || { echo "Bail out! $bin not built"; exit 1; }
	FS_MNT=$2
	FS_STATE="$TEST_TMP/fs.state"
	mkdir -p "$1" "$2"
	(
		close_fifos
		exec "$bin" "$1" "$2" "$FS_STATE"
	) 2>"$TEST_TMP/stuckfs.err" &
	FS_PID=$!
	trap stuckfs_cleanup EXIT
	if ! fs_wait running; then
		wait "$FS_PID"
		[ $? = 77 ] && skip_all "no FUSE mount possible here ($(cat "$TEST_TMP/stuckfs.err"))"
		echo "Bail out! stuckfs did not mount: $(cat "$TEST_TMP/stuckfs.err")"
		exit 1
	fi
}

# unmount before the temporary directory goes (rm would wait on the mount)
stuckfs_cleanup() {
	kill -CONT "$FS_PID" 2>/dev/null
	kill -TERM "$FS_PID" 2>/dev/null && wait "$FS_PID" 2>/dev/null
	umount -l "$FS_MNT" 2>/dev/null
	_cleanup
}

# fs_wait STATE: stuckfs said STATE (bounded; it exits 77 without FUSE)
fs_wait() {
	timeout "$TEST_TIMEOUT" bash -c \
		'until [ "$(cat "$1" 2>/dev/null)" = "$2" ]; do kill -0 "$0" 2>/dev/null || exit 3; done' \
		"$FS_PID" "$FS_STATE" "$1"
}
