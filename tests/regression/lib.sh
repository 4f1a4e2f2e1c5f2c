# tests/regression/lib.sh - shared by the regression tests (sourced, bash).
#
# Each test gets its own temporary home and run directory, starts its own
# daemons there and kills them on exit, so tests can run in parallel.
# Nothing waits with sleep: daemons are started with --daemonize, which
# returns once the socket accepts connections, and stopping waits on the
# process itself with a bounded timeout.  A wait for a file, a directory
# or a log line does not spin either: it is wait_fs (or wait_for), which
# sleeps in inotify until something changes there and tests again (what
# no file tells, a process's state or a socket's queue, is still read in
# a loop bounded by timeout).
#
# TAP helpers: plan N, ok COND DESC, is GOT WANT DESC, like TEXT REGEX DESC,
# diag MSG, skip_all REASON, done_testing.

set -u

: "${LTT_TOP_BUILDDIR:?run through make check, or set LTT_TOP_BUILDDIR}"
: "${LTT_TOP_SRCDIR:=$LTT_TOP_BUILDDIR}"

SESSIOND="$LTT_TOP_BUILDDIR/src/sessiond/ltt-sessiond"
LTTCTL_BIN="$LTT_TOP_BUILDDIR/src/ctl/lttctl"
# In the build tree lttctl is libtool's wrapper script, which costs ~45 ms
# a run; tests run lttctl hundreds of times, so run the program it wraps
# directly, with the library path the wrapper would set.
if [ -x "$LTT_TOP_BUILDDIR/src/ctl/.libs/lttctl" ] &&
	[ -d "$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs" ] &&
	grep -q '^relink_command=""' "$LTTCTL_BIN" 2>/dev/null; then
	LTTCTL_BIN="$LTT_TOP_BUILDDIR/src/ctl/.libs/lttctl"
	LD_LIBRARY_PATH="$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
# save and load: the build tree's XML module, not one installed
# (libltt-ctl dlopen()s it, src/lib/ltt-ctl/config/config-module.h)
LTT_CONFIG_XML_PATH="$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs/config-xml.so"
export LTT_CONFIG_XML_PATH
# lttctl's TLS commands: the build tree's TLS module (lttctl dlopen()s
# it, src/common/net/net-module.h)
LTT_NET_TLS_PATH="$LTT_TOP_BUILDDIR/src/common/.libs/net-tls.so"
export LTT_NET_TLS_PATH
TEST_TIMEOUT=${TEST_TIMEOUT:-20}
# babeltrace2 reading a trace from files: it ends on its own, but a
# million events take tens of seconds of wall time on a loaded machine
BT_TIMEOUT=${BT_TIMEOUT:-$((TEST_TIMEOUT * 15))}

_tap_n=0
_tap_failed=0
_tap_planned=""

plan() {
	_tap_planned=$1
	echo "1..$1"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# ok COND DESC...: TAP's "ok N - DESC" when COND is 0, else "not ok".  ok,
# is, like and unlike return 1 when the check failed, so that
# `is ... || diag ...` adds what helps read a failure.
ok() {
	local cond=$1
	shift
	_tap_n=$((_tap_n + 1))
	if [ "$cond" = 0 ]; then
		echo "ok $_tap_n - $*"
	else
		echo "not ok $_tap_n - $*"
		# a known gap, "# TODO REASON" in the description: reported, not failed
		[[ "$*" == *"# TODO"* ]] || _tap_failed=$((_tap_failed + 1))
		return 1
	fi
}

# ok_cmd DESC CMD...: pass when CMD exits 0; show its output otherwise.
ok_cmd() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	ok $rc "$desc"
	[ $rc = 0 ] || diag "command: $*" "exit $rc, output:" "$out"
	return $rc
}

is() {
	local got=$1 want=$2
	shift 2
	if [ "$got" = "$want" ]; then
		ok 0 "$*"
	else
		ok 1 "$*"
		diag "got:  '$got'" "want: '$want'"
		return 1
	fi
}

# re_match TEXT RE: does TEXT match extended regular expression RE?  Line by line as grep's
# -E; a pattern of several lines matches those lines in a row (grep alone
# would take each of its lines as an alternative): PCRE over the whole
# text, '^' and '$' at each line.
re_match() {
	case $2 in
	*$'\n'*) printf '%s' "$1" | grep -Pzq -- "(?m)${2//$'\n'/\\n}" ;;
	*) printf '%s' "$1" | grep -Eq -- "$2" ;;
	esac
}

like() {
	local text=$1 re=$2
	shift 2
	if re_match "$text" "$re"; then
		ok 0 "$*"
	else
		ok 1 "$*"
		diag "text: '$text'" "does not match: '$re'"
		return 1
	fi
}

unlike() {
	local text=$1 re=$2
	shift 2
	if re_match "$text" "$re"; then
		ok 1 "$*"
		diag "text: '$text'" "matches: '$re'"
		return 1
	else
		ok 0 "$*"
	fi
}

done_testing() {
	[ -n "$_tap_planned" ] || echo "1..$_tap_n"
	[ "$_tap_failed" = 0 ]
}

# Run lttctl with the test's environment; stdout and stderr as given.
lttctl() {
	timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" "$@"
}

# run CMD...: sets OUT (stdout+stderr), STDOUT, ERR (stderr only) and RC.
run() {
	local errf="$TEST_TMP/.stderr.$BASHPID"
	OUT=$("$@" 2>"$errf")
	RC=$?
	ERR=$(<"$errf")
	STDOUT=$OUT
	OUT="$OUT${OUT:+${ERR:+$'\n'}}$ERR"
}

# run_noclock CMD...: run, then take the "User-space clock:" line (lttctl
# list SESSION, status) out of STDOUT: it says what this machine's kernel
# keeps time with (test_ust_clock.sh checks it).
run_noclock() {
	run "$@"
	STDOUT=$(grep -v '^User-space clock: ' <<<"$STDOUT")
}

# listed_channel NAME [STATE SUBBUF COUNT MODE SWITCH READ TF_SIZE TF_COUNT]:
# what lttctl list SESSION prints of a user-space channel, from its "- NAME:"
# line to "Event rules:", its rule lines to follow in the expectation; the
# defaults are enable-channel's (enabled, 512 KiB, 4, discard, off, off,
# unlimited, unlimited).  The one copy of that layout the list tests expect.
listed_channel() {
	printf -- '- %s: [%s]\n\n    Attributes:\n' "$1" "${2:-enabled}"
	printf '      sub-buffer size: %s\n      sub-buffer count: %s\n' "${3:-512 KiB}" "${4:-4}"
	printf '      overwrite mode: %s\n' "${5:-discard}"
	printf '      switch timer: %s\n      read timer: %s\n' "${6:-off}" "${7:-off}"
	printf '      tracefile size: %s\n      tracefile count: %s\n' "${8:-unlimited}" "${9:-unlimited}"
	printf '      buffer preallocation: on-demand (a CPU%ss pages as it writes)\n' "'"
	printf '      buffer allocation: per-cpu\n'
	printf '      discarded events: 0\n      lost packets: 0\n\n    Event rules:\n'
}

_cleanup() {
	local pidf pid
	for pidf in "$TEST_TMP"/*/sessiond.pid "$TEST_TMP"/*/.ltt/sessiond.pid; do
		[ -f "$pidf" ] || continue
		pid=$(cat "$pidf" 2>/dev/null) || continue
		kill -KILL "$pid" 2>/dev/null
	done
	# switch_watch_start's instance, when the test ended before its stop
	[ -z "${_sw_inst:-}" ] || rmdir "$_sw_inst" 2>/dev/null
	# a directory the test had to make outside TEST_TMP, while it exists
	# (test_lttng_tools_kernel.sh's tree at /, for its guest)
	[ -z "${_outside_dir:-}" ] || rm -rf "$_outside_dir"
	# LTT_TEST_KEEP=1 keeps the directory (traces, daemon logs) to look at
	if [ -n "${LTT_TEST_KEEP:-}" ]; then
		echo "# kept $TEST_TMP" >&2
	else
		rm -rf "$TEST_TMP"
	fi
}

# test_init: a private home and run directory; daemons die with the test.
# Once per test: a second call (ust_setup after the test's own, which
# made files there first) keeps the first's directory, which the EXIT
# trap removes (a second directory left the first behind for good).
test_init() {
	[ -z "${_test_init_done:-}" ] || return 0
	_test_init_done=1
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ltt-test.XXXXXX")
	chmod 755 "$TEST_TMP"
	trap _cleanup EXIT
	# bash runs no EXIT trap when a signal ends it: tests/wall-limit.sh's
	# SIGTERM must still take the test's daemons down
	trap 'exit 143' TERM
	export HOME="$TEST_TMP/home" LTT_HOME="$TEST_TMP/home"
	export LTT_RUNDIR="$TEST_TMP/run"
	# the home LTTng's agents take (LTTNG_HOME) to find the test's daemon
	# (one not in LTTng's place writes its port there, doc/agents.md)
	LTT_AGENTS_HOME="$LTT_RUNDIR/lttng-agents"
	export LTT_SESSIOND_PATH="$SESSIOND"
	# the daemons' journals in the test's run directory, not a state
	# directory of the caller's that the tests running beside share
	unset LTT_STATEDIR
	mkdir -p "$HOME"
	[ -x "$SESSIOND" ] || { echo "Bail out! $SESSIOND not built"; exit 1; }
	[ -x "$LTTCTL_BIN" ] || { echo "Bail out! $LTTCTL_BIN not built"; exit 1; }
}

# kernel_lock: for the tests that count the system calls of the whole
# machine (their kload's: make check runs tests side by side, and a
# kernel-wide rule records every program's calls).  Waits (bounded) for
# the other such tests to end; the lock is held until this one's
# processes are gone (its daemons inherit it).  The wait is bounded by
# the time such a whole test may take (KERNEL_LOCK_WAIT, 600 s).
# lttng_tools_src_or_skip: $src, lttng-tools 2.13.9's source for
# tests/lttng-tools/run.sh (LTT_LTTNG_TOOLS_SRC, or fetched into the build
# directory); the test is skipped without it, without root (run.sh's
# namespaces) or in a sanitizer build.
lttng_tools_src_or_skip() {
	[ "$(id -u)" = 0 ] || skip_all "needs root: run.sh runs each LTTng test in its own namespaces"
	if grep -q '^CFLAGS = .*-fsanitize' "$LTT_TOP_BUILDDIR/Makefile"; then
		skip_all "a sanitizer build: LTTng's test programs would load ltt's sanitized libraries without the sanitizer's runtime"
	fi
	src=${LTT_LTTNG_TOOLS_SRC:-$LTT_TOP_BUILDDIR/lttng-tools-2.13.9}
	local why
	why=$(sh "$LTT_TOP_SRCDIR/tests/lttng-tools/fetch-src.sh" "$src" 2>&1 >/dev/null) ||
		skip_all "no lttng-tools 2.13.9 source in $src: $why"
}

# tracefs_or_skip: $tfs, where tracefs is mounted (its usual place when
# nowhere); the test is skipped unless it runs as root with tracefs there.
tracefs_or_skip() {
	tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
	tfs=${tfs:-/sys/kernel/tracing}
	if [ "$(id -u)" != 0 ] || [ ! -d "$tfs/events" ]; then
		skip_all "needs root and tracefs"
	fi
}

# bpf_source_or_skip: tracefs_or_skip, and the test is skipped unless the
# BPF system call source records here (doc/kernel-bpf.md): ltt built with
# it, the kernel loading its program and refusing event probes (the
# source is used only then).
bpf_source_or_skip() {
	tracefs_or_skip
	kernel_lock	# its probe loads the BPF source: not beside another test's trace
	[ -x "$LTT_TOP_BUILDDIR/tests/regression/bpf_sc" ] ||
		skip_all "built without the BPF source (configure: libbpf-dev, clang, bpftool)"
	"$LTT_TOP_BUILDDIR/tests/regression/bpf_sc" strings 1 /x >/dev/null 2>&1
	[ $? = 77 ] && skip_all "BPF can't be loaded here"
	if ! [ -e "$tfs/dynamic_events" ] || grep -q '^e:' "$tfs/dynamic_events" 2>/dev/null; then
		skip_all "can't tell whether this kernel refuses event probes"
	fi
}

# switch_gaps TRACE TID...: the records of those tasks in kernel trace
# TRACE (its events with the tid context, read by babeltrace 1) that follow no recorded switch
# to them on their CPU.  lttng-analyses know a CPU's task by its
# sched_switch records only, and the kernel does not record every switch:
# this development machine's (Linux 6.18 under Firecracker) leaves out
# each switch away from one of its own threads on CPU 1 (tokio-rt-worker:
# its ftrace alone shows it, with no event dropped), and a task the
# kernel's stopper moves runs with none into it.  A test asserting
# lttng-analyses' per-task figures records again when this is not 0, and
# proves the gap the kernel's with switch_compare (below).
switch_gaps() {
	local trace=$1
	shift
	timeout "$BT_TIMEOUT" babeltrace "$trace" 2>/dev/null | awk -v tids=" $* " '
		{
			match($0, /cpu_id = [0-9]+/); cpu = substr($0, RSTART + 9, RLENGTH - 9)
			# the context, the second { }: "{ cpu_id = C }, { ..., tid = T }, { ... }"
			split($0, part, /[}], [{]/)
			tid = match(part[2], /(^| )tid = [0-9]+/) ? substr(part[2], RSTART, RLENGTH) : ""
			sub(/.*tid = /, "", tid)
		}
		/ sched_switch: / {
			match($0, /next_tid = [0-9]+/); cur[cpu] = substr($0, RSTART + 11, RLENGTH - 11)
			next
		}
		index(tids, " " tid " ") && cur[cpu] != tid { gaps++ }
		END { print gaps + 0 }'
}

# switch_watch_start: a raw ftrace instance of this test's own
# (instances/ltt-test-PID-swN: sched_switch alone, trace_clock mono, as
# ltt's) records every switch from now on; call it before the session
# starts.  switch_watch_stop FILE, after the session stops: the instance
# stops, its switches go to FILE ("CPU PREV NEXT" a line, each CPU's in
# order) and it is removed (_cleanup removes one a test left).  It fails
# when the instance lost a switch (its buffer overran): then FILE proves
# nothing.
switch_watch_start() {
	local t
	t=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
	_sw_n=$((${_sw_n:-0} + 1))
	_sw_inst=${t:-/sys/kernel/tracing}/instances/ltt-test-$$-sw$_sw_n
	mkdir "$_sw_inst" &&
		echo mono >"$_sw_inst/trace_clock" &&
		echo 2048 >"$_sw_inst/buffer_size_kb" &&
		echo 1 >"$_sw_inst/events/sched/sched_switch/enable" &&
		echo 1 >"$_sw_inst/tracing_on" ||
		{ echo "can't make $_sw_inst record sched_switch" >&2; return 1; }
}
switch_watch_stop() {
	local c lost=0 n
	echo 0 >"$_sw_inst/tracing_on" || { echo "can't stop $_sw_inst" >&2; return 1; }
	: >"$1"
	for c in "$_sw_inst"/per_cpu/cpu*; do
		n=$(awk '$1 == "overrun:" || $1 == "dropped" { s += $NF } END { print s + 0 }' "$c/stats")
		lost=$((lost + n))
		# "COMM-PID [CPU] ... sched_switch: prev_comm=... prev_pid=P ... ==> next_comm=... next_pid=N ..."
		awk -v cpu="${c##*cpu}" '/ sched_switch: / {
			p = $0; sub(/.* prev_pid=/, "", p); sub(/ .*/, "", p)
			n = $0; sub(/.* next_pid=/, "", n); sub(/ .*/, "", n)
			print cpu, p, n }' "$c/trace" >>"$1"
	done
	# another program reading the instances (a daemon reaping its own,
	# beside) holds it a moment: rmdir says EBUSY then
	local end=$((SECONDS + TEST_TIMEOUT))
	until rmdir "$_sw_inst" 2>/dev/null; do
		[ "$SECONDS" -lt "$end" ] || { rmdir "$_sw_inst"; return 1; }
	done
	_sw_inst=
	[ "$lost" = 0 ] || { echo "the raw instance lost $lost switches" >&2; return 1; }
}

# ltt_switches TRACE: kernel trace TRACE's sched_switch records (read by
# babeltrace 1), "CPU PREV NEXT" a line, each CPU's in order.
ltt_switches() {
	timeout "$BT_TIMEOUT" babeltrace "$1" 2>/dev/null | awk '/ sched_switch: / {
		match($0, /cpu_id = [0-9]+/); c = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /, prev_tid = [0-9]+/); p = substr($0, RSTART + 13, RLENGTH - 13)
		match($0, /, next_tid = [0-9]+/); n = substr($0, RSTART + 13, RLENGTH - 13)
		print c, p, n }'
}

# switch_compare LTT RAW: whether each CPU's switches in LTT (ltt's
# trace, ltt_switches) are the kernel's in RAW (switch_watch_stop's) over
# the same window: RAW began before the session and ended after it, so
# LTT's sequence must be RAW's from some switch on, one for one, none
# left out, none added (aligned by the sequence: two instances' times
# differ).  Prints what differs, one line a CPU, and fails then; fails
# too when LTT holds no switch.
switch_compare() {
	awk 'FILENAME == ARGV[1] { l[$1, ++ln[$1]] = $2 ":" $3; lc[$1]; nl++; next }
		{ r[$1, ++rn[$1]] = $2 ":" $3 }
		END {
			for (c in lc) {
				n = ln[c]; best = 0; at = 0
				for (s = 1; s + n - 1 <= rn[c]; s++) {
					for (k = 0; k < n && r[c, s + k] == l[c, k + 1]; k++)
						;
					if (k > best) { best = k; at = s }
					if (k == n) break
				}
				if (best == n) continue
				bad = 1
				if (!at)
					printf "CPU %s: ltt'"'"'s first switch %s is not among the kernel'"'"'s %d\n", c, l[c, 1], rn[c]
				else
					printf "CPU %s: ltt'"'"'s %d switches follow the kernel'"'"'s for %d, then ltt has %s where the kernel has %s\n",
						c, n, best, (best < n ? l[c, best + 1] : "none"), r[c, at + best]
			}
			if (!nl) { print "no sched_switch in ltt'"'"'s trace"; bad = 1 }
			exit bad
		}' "$1" "$2"
}

# switch_check TRACE RAW: switch_compare of kernel trace TRACE's switches
# and RAW's; what differs, and a failure then.
switch_check() {
	switch_compare <(ltt_switches "$1") "$2"
}

# switch_watch_begin; switch_watch_end TRACE TRY: for a test that records
# again (switch_gaps), around its recording TRY of kernel trace TRACE:
# switch_watch_start, then switch_watch_stop to $TEST_TMP/rawTRY and
# switch_check; the test bails out when the raw instance fails, and what
# differs is added to SW_DROPPED ("recording TRY: ...;" a line), which
# the test asserts empty.
SW_DROPPED=
switch_watch_begin() {
	switch_watch_start || { echo "Bail out! no raw ftrace instance of sched_switch"; exit 1; }
}
switch_watch_end() {
	local d
	switch_watch_stop "$TEST_TMP/raw$2" ||
		{ echo "Bail out! the raw ftrace instance of sched_switch failed"; exit 1; }
	d=$(switch_check "$1" "$TEST_TMP/raw$2" | sed "s/^/recording $2: /; s/\$/;/")
	SW_DROPPED+=${d:+$d$'\n'}
}

# tracefs_sessiond LOG [OPTION...]: a root daemon of this test's run
# directory with --kernel-backend=tracefs, -vv and OPTIONs, its log in LOG.
tracefs_sessiond() {
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv \
		--kernel-backend=tracefs "${@:2}" </dev/null >/dev/null 2>"$1"
}

kernel_lock() {
	local f="${TMPDIR:-/tmp}/ltt-tests-kernel.lock" w=${KERNEL_LOCK_WAIT:-600}
	[ -z "${_kernel_lock:-}" ] || return 0	# held already (a second open would wait on it)
	exec {_kernel_lock}>>"$f"
	flock -w "$w" "$_kernel_lock" ||
		{ echo "Bail out! another kernel test held $f for ${w}s"; exit 1; }
}

# uprobe_setup N: skip unless root with tracefs' uprobe_events; plan N;
# kernel_lock; tfs, tracefs' mount, and PROG, uprobe_prog's absolute path.
uprobe_setup() {
	tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
	if [ "$(id -u)" != 0 ] || [ ! -w "${tfs:-/sys/kernel/tracing}/uprobe_events" ]; then
		skip_all "needs root and a kernel with uprobe_events"
	fi
	plan "$1"
	kernel_lock
	PROG="$LTT_TOP_BUILDDIR/tests/regression/uprobe_prog"
	[ -x "$PROG" ] || { echo "Bail out! $PROG not built"; exit 1; }
	PROG=$(readlink -f "$PROG")
}

# uprobe_trigger_listing NAME EVENT FUNCTION: list-triggers' text of a
# uprobe trigger on PROG's FUNCTION notifying, owned by root, as LTTng 2.13
# lists it (lttctl's and LTTng's client through --lttng-compat alike).
uprobe_trigger_listing() {
	printf '%s\n' "- name: $1" "  owner uid: 0" "  condition: event rule matches" \
		"    rule: $2 (type: kernel:uprobe, location type: ELF, location: $PROG:$3)" \
		"    errors: none" "  actions:" "    notify" "      errors: none" "  errors: none"
}

# asan_runtime_env: how a program not built with AddressSanitizer loads
# this build's libraries.  In an ASan build (scripts/sanitize.sh)
# SAN_PRELOAD is the runtime, which must come first in LD_PRELOAD, and
# SAN_ENV turns the leak check off (the program's own allocations live to
# its exit); both empty otherwise.
asan_runtime_env() {
	local cflags cc
	SAN_PRELOAD= SAN_ENV=()
	cflags=$(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile")
	[[ $cflags == *-fsanitize=address* ]] || return 0
	cc=$(sed -n 's/^CC = //p' "$LTT_TOP_BUILDDIR/Makefile")
	SAN_PRELOAD=$($cc -print-file-name=libclang_rt.asan-x86_64.so)
	[ -f "$SAN_PRELOAD" ] || { echo "Bail out! no ASan runtime ($SAN_PRELOAD)"; exit 1; }
	SAN_ENV=(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
}

# python_env: PYTHON3, the python3 the build made the package ltt for,
# and PYENV, what it runs with (env "${PYENV[@]}" "$PYTHON3" ...): in an
# ASan build, Debian's python3 is not one (asan_runtime_env).  Fails
# where the build has no Python package (configure found no Python.h).
python_env() {
	PYTHON3=$(sed -n 's/^PYTHON3 = //p' "$LTT_TOP_BUILDDIR/Makefile")
	PYENV=()
	[ -n "$PYTHON3" ] || return 1
	asan_runtime_env
	# (LTT_CHILD_ASAN_OPTIONS: the test's, for the programs the Python
	# side starts, ASan programs that link their own runtime)
	[ -z "$SAN_PRELOAD" ] ||
		PYENV=(LD_PRELOAD="$SAN_PRELOAD" "${SAN_ENV[@]}" LTT_CHILD_ASAN_OPTIONS="${ASAN_OPTIONS:-}")
}

# python_agent_pkg DIR: DIR/ltt, this tree's package ltt with its agent
# (the modules from the source, the extensions from the build), for
# PYTHONPATH=DIR; bails out where the agent's extension is not built.
python_agent_pkg() {
	local f
	[ -f "$LTT_TOP_BUILDDIR/src/python/.libs/_agent.so" ] ||
		{ echo "Bail out! src/python/_agent.la not built"; exit 1; }
	mkdir -p "$1/ltt"
	for f in __init__.py agent.py; do
		ln -s "$LTT_TOP_SRCDIR/src/python/ltt/$f" "$1/ltt/$f"
	done
	for f in _ltt _agent; do
		ln -s "$LTT_TOP_BUILDDIR/src/python/.libs/$f.so" "$1/ltt/$f.so"
	done
}

# stop_proc PID: SIGSTOP, then wait (bounded, without sleeping) until every
# thread of PID is stopped.  kill returns before that: a thread stops when
# it next runs, which on a busy machine can be milliseconds later.
stop_proc() {
	kill -STOP "$1" &&
		timeout "$TEST_TIMEOUT" bash -c '
			for t in /proc/$0/task/*/stat; do
				until [ "$(cut -d" " -f3 "$t")" = T ]; do :; done
			done' "$1"
}

# start_sessiond [RUNDIR] [ARGS...]: returns once it accepts connections.
# bad_modules FILE: two files in the place of a private module FILE
# (src/common/base/module.h), to set its variable to: one that is not
# there, and a library that is not ltt's module.
bad_modules() { # NAME REAL: and, as root, REAL's copy that others may write
	echo "$TEST_TMP/none/$1" "$LTT_TOP_BUILDDIR/src/lib/ltt-ctl/.libs/libltt-ctl.so"
	if [ "$(id -u)" = 0 ] && mkdir -p "$TEST_TMP/.ww" && cp "$2" "$TEST_TMP/.ww/$1" &&
		chmod 666 "$TEST_TMP/.ww/$1"; then
		echo "$TEST_TMP/.ww/$1"
	fi
}

# bad_module_why BAD WHAT SYMBOL: the regex of why the loader refuses
# BAD (one of bad_modules) as ltt's WHAT module, which exports SYMBOL
bad_module_why() {
	case $1 in
	*/none/*) echo 'cannot open shared object file: No such file or directory' ;;
	*/.ww/*) echo "not root's, or writable by group or others, which a process running as root does not load \\(named by [A-Z_]*\\)" ;;
	*) echo "not ltt's $2 module \\(no $3\\)" ;;
	esac
}

# loaded_objects CMD...: the objects CMD's dynamic loader opened (its
# own list, LD_DEBUG=files, dlopen() included), one a line
loaded_objects() {
	LD_DEBUG=files LD_DEBUG_OUTPUT="$TEST_TMP/ld" "$@" >/dev/null 2>&1
	sed -n 's/.*file=\([^ ]*\) .*\[0\];.*generating link map.*/\1/p' "$TEST_TMP"/ld.* | sort -u
	rm -f "$TEST_TMP"/ld.*
}

start_sessiond() {
	local dir=${1:-$LTT_RUNDIR}
	[ $# -gt 0 ] && shift
	timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$dir" "$@"
}

# sessiond_or_bail [DIR [ARGS...]]: start_sessiond, or the test bails out
sessiond_or_bail() {
	start_sessiond "$@" || { echo "Bail out! the session daemon did not start"; exit 1; }
}

sessiond_pid() {
	cat "${1:-$LTT_RUNDIR}/sessiond.pid" 2>/dev/null
}

# wait_pid_exit PID: wait (bounded) for a process that is not our child.
wait_pid_exit() {
	timeout "$TEST_TIMEOUT" tail --pid="$1" -f /dev/null
}

# wait_for FILE REGEX [N]: until FILE holds N lines (default 1) matching
# REGEX.  tail -F follows the file as it grows; grep's output must be a
# pipe, not /dev/null, for the pipeline to end as soon as it has them.
wait_for() {
	local n=${3:-1}
	timeout "$TEST_TIMEOUT" bash -c \
		'tail -n +1 -F "$1" 2>/dev/null | grep -E -m "$3" -- "$2" | wc -l' \
		_ "$1" "$2" "$n" | grep -qx "$n"
}

# wait_fs PATH... -- COMMAND [ARG...]: until COMMAND succeeds, bounded by
# $WAIT_TIMEOUT seconds ($TEST_TIMEOUT unless set); 1 on the timeout, and
# fswait says on stderr what it waited for.  COMMAND runs again each time
# something changes under a PATH (a file written, a directory's entries;
# a PATH not there yet is waited for), never otherwise, so every change
# that can make it true must happen there: a test's log, its output
# directory.  A condition of shell words: bash -c 'SCRIPT' _ ARGS...
# (tests/regression/fswait.c).
FSWAIT="$LTT_TOP_BUILDDIR/tests/regression/fswait"
wait_fs() {
	"$FSWAIT" "${WAIT_TIMEOUT:-$TEST_TIMEOUT}" "$@"
}

# torn_streams DIR: the stream files under DIR whose index does not end exactly
# at their end (a packet, or part of one, the index does not hold).
torn_streams() {
	python3 - "$1" <<'PY'
import os, struct, sys
n = 0
for root, dirs, files in os.walk(sys.argv[1]):
    if os.path.basename(root) != "index":
        continue
    for f in files:
        if not f.endswith(".idx"):
            continue
        data = os.path.join(os.path.dirname(root), f[:-4])
        with open(os.path.join(root, f), "rb") as fh:
            idx = fh.read()
        end = 0
        k = (len(idx) - 16) // 72
        if k > 0:
            off, bits = struct.unpack(">QQ", idx[16 + (k - 1) * 72:16 + (k - 1) * 72 + 16])
            end = off + bits // 8
        if os.path.getsize(data) != end or (len(idx) - 16) % 72:
            n += 1
print(n)
PY
}

# stop_sessiond [RUNDIR]: SIGTERM, then wait for the process to be gone.
stop_sessiond() {
	local pid
	pid=$(sessiond_pid "${1:-$LTT_RUNDIR}") || return 1
	kill -TERM "$pid" 2>/dev/null || return 1
	wait_pid_exit "$pid"
}

# proc_alive PID: PID is a live process; a zombie waiting to be reaped is not.
proc_alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	case ${stat%% *} in
	Z | X | x | "") return 1 ;;
	esac
	return 0
}

# wait_unlocked [RUNDIR]: wait (bounded) until no daemon holds the run
# directory's lock.  A stopping daemon releases it last, once its socket
# and pid file are gone, so this waits for a complete shutdown.
wait_unlocked() {
	flock -w "$TEST_TIMEOUT" "${1:-$LTT_RUNDIR}/sessiond.lock" true
}

# The scripted protocol client (tests/regression/proto_client.c).
PROTO_CLIENT="$LTT_TOP_BUILDDIR/tests/regression/proto_client"

# need_proto_client: bail out when the helper is not built.
need_proto_client() {
	[ -x "$PROTO_CLIENT" ] ||
		{ echo "Bail out! $PROTO_CLIENT not built (make check builds it)"; exit 1; }
}

# skip N REASON: N tests that could not run here, reported as skipped.
skip() {
	local i n=$1
	shift
	for ((i = 0; i < n; i++)); do
		_tap_n=$((_tap_n + 1))
		echo "ok $_tap_n # SKIP $*"
	done
}

# can_switch_user: root with setpriv and a 'nobody' user, so a test can run
# programs as another user.
can_switch_user() {
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
		getent passwd nobody >/dev/null && getent group nogroup >/dev/null
}

# group_homes RUNDIR UID...: for users without a passwd entry that a root
# daemon in RUNDIR admits by their primary group (--group nogroup), a
# home each; as_gid_user UID CMD... then runs CMD as one of them, with
# that home and run directory (bounded).
group_homes() {
	local u
	GROUP_RUNDIR=$1
	shift
	for u in "$@"; do
		mkdir -p "$TEST_TMP/home$u" && chown "$u":nogroup "$TEST_TMP/home$u" || return 1
	done
}
as_gid_user() {
	local u=$1
	shift
	timeout "$TEST_TIMEOUT" setpriv --reuid="$u" --regid=nogroup --clear-groups \
		env HOME="$TEST_TMP/home$u" LTT_HOME="$TEST_TMP/home$u" LTT_RUNDIR="$GROUP_RUNDIR" "$@"
}

# coproc_hold NAME IN OUT: the pipes of coprocess NAME, just started, held
# by the test: the variable IN gets a copy of its output's (to read), OUT
# of its input's (to write; closing it gives the coprocess EOF), and
# bash's own are closed.  Bash closes and unsets NAME once it reaps the
# coprocess, which under load came before the test read its last line
# ("NAME[0]: unbound variable").
coproc_hold() {
	local -n _cp=$1
	local _in _out
	exec {_in}<&"${_cp[0]}" {_out}>&"${_cp[1]}"
	eval "exec ${_cp[0]}<&- ${_cp[1]}>&-"
	printf -v "$2" %s "$_in"
	printf -v "$3" %s "$_out"
}

# as_nobody CMD...: CMD as nobody:nogroup without supplementary groups.
as_nobody() {
	timeout "$TEST_TIMEOUT" setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# nobody_dir PATH: an empty directory that nobody owns (for a home or a
# personal daemon's run directory).
nobody_dir() {
	mkdir -p "$1" && chown nobody:nogroup "$1" && chmod 700 "$1"
}

# term_sessiond [RUNDIR]: SIGTERM, then wait until the daemon has shut
# down (socket and pid file removed, lock released).  Faster than
# stop_sessiond, which also waits for the process to be reaped.
term_sessiond() {
	local dir=${1:-$LTT_RUNDIR} pid
	pid=$(sessiond_pid "$dir") || return 1
	kill -TERM "$pid" 2>/dev/null || return 1
	wait_unlocked "$dir"
}

# matches TEXT ERE DESC...: like, but the regular expression applies to the
# whole text at once (bash =~), so it may span lines: ^ and $ are the start
# and end of TEXT, and a newline in ERE matches a newline.  (like runs grep,
# which takes a newline in its pattern as "or".)
matches() {
	local text=$1 re=$2
	shift 2
	if [[ "$text" =~ $re ]]; then
		ok 0 "$*"
	else
		ok 1 "$*"
		diag "text: '$text'" "does not match: '$re'"
		return 1
	fi
}

# seq_session NAME CHAN [CHANNEL-OPTION...]: a started session NAME
# recording ltt_test:seq, with its trace in $TEST_TMP/NAME: in the default
# channel, or with options in a channel CHAN of its own.  Bails out when
# lttctl refuses.
seq_session() {
	local name=$1 chan=$2
	shift 2
	{
		lttctl -q create "$name" -o "$TEST_TMP/$name" &&
		if [ $# -gt 0 ]; then
			lttctl -q enable-channel -u "$chan" "$@" &&
			lttctl -q enable-event -u ltt_test:seq -c "$chan"
		else
			lttctl -q enable-event -u ltt_test:seq
		fi &&
		lttctl -q start
	} || { echo "Bail out! $name: the session could not be set up"; exit 1; }
}

# timeline_order FILE [TID]: in babeltrace2's text FILE of a session
# recording ust_app -G's ltt_test:seq events (with vtid) and the kernel's
# getppid calls (with tid), the order of that program's thread's events
# (thread TID's, default the first to emit ltt_test:seq): U a user event,
# E a getppid entry, X its exit ("UEXUEXU..." when both domains lie on one
# time line).
timeline_order() {
	local tid=${2:-}
	[ -n "$tid" ] ||
		tid=$(grep -m1 -o " ltt_test:seq: .*vtid = [0-9]*" "$1" | sed 's/.*vtid = //')
	grep -E " (ltt_test:seq: .*vtid = ${tid:-x}[,} ]|syscall_(entry|exit)_getppid: .*\{ tid = ${tid:-x} \})" \
		"$1" | sed -E 's/.* ltt_test:seq: .*/U/; s/.* syscall_entry_getppid: .*/E/;
		s/.* syscall_exit_getppid: .*/X/' | tr -d '\n'
}

# mi_valid FILE: validate an lttctl --mi xml document against its
# schemas: ltt's own, xml/mi.xsd (which imports xml/lttng-mi.xsd for
# LTTng's namespace: what `make install` puts in $(datadir)/ltt/xml),
# for every document; and for one in LTTng's namespace LTTng's too, the
# reference: LTTng 2.13's mi-lttng-4.1.xsd (tests/regression/lttng-mi,
# LTTng's own file), or LTTng 2.15's mi-lttng-4.2.xsd for one that says
# schemaVersion="4.2" (list --mem-usage).  Prints xmllint's verdict
# ("FILE validates", or the first schema's errors); returns its status.
mi_valid() {
	local v out
	if grep -q 'xmlns="https://lttng.org/xml/ns/lttng-mi"' "$1"; then
		v=$(sed -n 's/.* schemaVersion="\([0-9.]*\)".*/\1/p' "$1" | head -1)
		out=$(xmllint --noout --schema \
			"$LTT_TOP_SRCDIR/tests/regression/lttng-mi/mi-lttng-${v:-4.1}.xsd" "$1" 2>&1) ||
			{ printf '%s\n' "$out"; return 1; }
	fi
	xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/mi.xsd" "$1" 2>&1
}

# mi_xp XPATH [FILE]: the string value of XPATH in an --mi xml document
# (FILE, default stdin), its namespace set aside so XPATH names elements
# plainly (/command/output/sessions/session/name).
mi_xp() {
	sed 's| xmlns="[^"]*"||' "${2:-/dev/stdin}" | xmllint --xpath "string($1)" - 2>/dev/null
}

# trigger_count NAME WHAT: a counter of trigger NAME as `lttctl
# list-triggers --counters` prints it (LTTng's MI has no place for most of them):
# fired, dropped (notifications), or runs / failures (one line per
# action, in order); nothing when NAME is not listed.
trigger_count() {
	lttctl list-triggers --counters 2>/dev/null | awk -v name="$1" -v what="$2" '
		/^- name: / { mine = ($3 == name); next }
		!mine { next }
		what == "fired" && /^  fired: / { sub(/,$/, "", $2); print $2 }
		what == "dropped" && /^  fired: / { print $NF }
		what == "runs" && /^      runs: / { sub(/,$/, "", $2); print $2 }
		what == "failures" && /^      runs: / { sub(/,$/, "", $4); print $4 }'
}
