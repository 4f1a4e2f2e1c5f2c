#!/bin/bash
# test_lttng_compat.sh - ltt-sessiond --lttng-compat serves LTTng 2.13's
# clients, unchanged, on LTTng's client socket (/var/run/lttng, as root:
# the test runs in its own mount namespace with its own /run):
# Debian's /usr/bin/lttng creates a session, enables an event, starts,
# stops and destroys it, and exactly the events of a program built with
# Debian's LTTng-UST headers are recorded (babeltrace2); lttctl lists
# the session lttng created and lttng the one lttctl created;
# python3-lttng (Debian's) does ros2_tracing's sequence and its events are
# recorded with its contexts; a command ltt does not serve gets LTTng's
# error and the daemon's log names the lttctl command; malformed
# requests get an error or a closed connection and the daemon serves on;
# and a socket a live lttng-sessiond serves is refused, never taken over.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
lttng_can_run ||
	skip_all "as root LTTng's clients use /var/run/lttng: the test needs root and a mount namespace (unshare -m)"
# the whole test in a mount namespace with its own /run (/var/run/lttng)
if [ -z "${LTT_COMPAT_NS:-}" ]; then
	exec env LTT_COMPAT_NS=1 unshare -m bash "$0" "$@"
fi
mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-compat-test /run ||
	{ echo "Bail out! no private /run in the mount namespace"; exit 1; }
ust_setup --log --lttng-compat
plan 66

SOCK=/var/run/lttng/client-lttng-sessiond
HERE="$LTT_TOP_SRCDIR/tests/regression/lttng-compat"
N=25
export LTTNG_HOME="$TEST_TMP/lttng-home"
mkdir -p "$LTTNG_HOME"
compat_build
# LTTng's tools, never ltt's: Debian's binaries by their paths
LTTNG=/usr/bin/lttng
lttng() { timeout "$TEST_TIMEOUT" "$LTTNG" "$@"; }

ok "$([ -S "$SOCK" ] && echo 0 || echo 1)" "the daemon listens on $SOCK"
is "$(cat /var/run/lttng/lttng-sessiond.pid 2>/dev/null)" "$(sessiond_pid)" \
	"... and lttng-sessiond.pid beside it holds its pid"

# --- Debian's lttng drives a whole recording ---
run lttng create s -o "$TEST_TMP/lttng-trace"
ok $RC "lttng create" || diag "$OUT"
like "$OUT" "Traces will be output to $TEST_TMP/lttng-trace" "... told where its traces go"
run lttng enable-event -u compat:basic -s s
ok $RC "lttng enable-event -u compat:basic" || diag "$OUT"
run lttctl list
like "$STDOUT" "s \\($TEST_TMP/lttng-trace\\)" "lttctl list shows the session lttng created"
run lttctl list s
like "$STDOUT" "compat:basic" "... with the rule lttng enabled"
# a streamed session's path, as LTTng's list gives it (no relay needed to list it)
lttctl -q create nr -U net://127.0.0.1:15342:15343 >/dev/null
run lttng list
like "$STDOUT" "Trace output: tcp4://127\\.0\\.0\\.1:15342/ \\[data: 15343\\]" \
	"lttng list: a streamed session's path, in LTTng's form" || diag "$OUT"
lttctl -q destroy nr >/dev/null
run lttng start s
ok $RC "lttng start" || diag "$OUT"
compat_run $N
is $? 0 "the program built with LTTng-UST's headers runs under ltt-run"
run lttng stop s
ok $RC "lttng stop (waits on DATA_PENDING)" || diag "$OUT"
run lttng list s
like "$STDOUT" "compat:basic \\(type: tracepoint\\) \\[enabled\\]" "lttng list s shows its event rule" ||
	diag "$OUT"
run lttng destroy s
ok $RC "lttng destroy" || diag "$OUT"
bt "$TEST_TMP/lttng-trace" "$TEST_TMP/lttng.txt"
is "$(count_events "$TEST_TMP/lttng.txt" compat:basic)" $N "exactly the $N compat:basic events were recorded"
is "$(grep -c '^\[' "$TEST_TMP/lttng.txt")" $N "... and no other event (the program emits 11 kinds)"
run lttctl list
unlike "$STDOUT" "s \\(" "lttctl list: the session lttng destroyed is gone"

# --- the other way round ---
lttctl create fromltt -o "$TEST_TMP/ltt-trace" >/dev/null
run lttng list
like "$STDOUT" "fromltt \\[inactive\\]" "lttng list shows the session lttctl created"
run lttng enable-event -u 'compat:*' -x compat:basic -s fromltt
ok $RC "lttng enable-event with an exclusion on it" || diag "$OUT"
run lttng enable-event -u compat:basic --filter 'i < 5' -s fromltt
ok $RC "lttng enable-event with a filter on it" || diag "$OUT"
run lttng enable-channel -u blk -s fromltt --blocking-timeout=inf
ok $RC "lttng enable-channel --blocking-timeout=inf" || diag "$OUT"
run lttng enable-channel -u blk2 -s fromltt --blocking-timeout=2000
ok $RC "lttng enable-channel --blocking-timeout=2000" || diag "$OUT"
run lttctl list fromltt
like "$STDOUT" "blocking timeout: inf" "lttctl list: the blocking timeout lttng set, inf"
like "$STDOUT" "blocking timeout: 2000 us" "... and 2000 us"
run lttng list fromltt
is "$(awk '/^- /{c=$2} /Blocking timeout/{sub(/^ */, ""); print c, $0}' <<<"$STDOUT" | grep "^blk")" \
	"blk: Blocking timeout: infinite
blk2: Blocking timeout: 2000 us" "lttng list shows both back, as from LTTng's daemon"
run lttctl list fromltt
like "$STDOUT" "compat:basic .*filter: i < 5" "lttctl list shows the filter lttng set" || diag "$STDOUT"
lttctl start fromltt >/dev/null && compat_run $N && lttctl stop fromltt >/dev/null
bt "$TEST_TMP/ltt-trace" "$TEST_TMP/ltt.txt"
is "$(count_events "$TEST_TMP/ltt.txt" compat:basic)" 5 \
	"lttng's exclusion of compat:basic from compat:*, its filter i < 5 on compat:basic: 5 recorded"
is "$(count_events "$TEST_TMP/ltt.txt" compat:ints)" $N "... and the $N compat:ints of compat:*"
lttctl destroy fromltt >/dev/null

# --- python3-lttng, as ros2_tracing drives it ---
run /usr/bin/python3 "$HERE/ros2_sequence.py" start ros "$TEST_TMP/ros-trace"
ok $RC "python3-lttng: alive, create, handle, enable_channel, enable_event, add_context x3, start" ||
	diag "$OUT"
run lttctl list ros
like "$STDOUT" "- ros2: \\[enabled\\]" "... its channel ros2 is ltt's" || diag "$STDOUT"
compat_run $N
run /usr/bin/python3 "$HERE/ros2_sequence.py" stop ros
ok $RC "python3-lttng: stop, destroy" || diag "$OUT"
bt "$TEST_TMP/ros-trace" "$TEST_TMP/ros.txt"
is "$(count_events "$TEST_TMP/ros.txt" compat:basic)" $N "... and the $N compat:basic events were recorded"
is "$(grep -c "compat:basic: { cpu_id = [0-9]* }, { vpid = [0-9]*, vtid = [0-9]*, procname = \"compat_app\" }" \
	"$TEST_TMP/ros.txt")" $N "... each with the contexts vpid, vtid and procname" ||
	diag "$(grep -m1 compat:basic "$TEST_TMP/ros.txt")"

# --- disabling, and the tracepoints of the programs running ---
lttctl create other >/dev/null
lttng enable-event -u compat:basic -s other >/dev/null
run lttng disable-event -u compat:basic -s other
ok $RC "lttng disable-event" || diag "$OUT"
run lttng disable-channel -u channel0 -s other
ok $RC "lttng disable-channel" || diag "$OUT"
run lttctl list other
like "$STDOUT" "- channel0: \\[disabled\\]" "lttctl list shows the channel lttng disabled"
like "$STDOUT" "compat:basic .*\\[disabled\\]" "... and its rule, disabled" || diag "$STDOUT"
run lttng track -u --vpid 42,43 -s other
ok $RC "lttng track -u --vpid 42,43" || diag "$OUT"
lttng untrack -u --vpid 43 -s other >/dev/null
run lttctl list other
like "$STDOUT" "process ids \\(vpid\\) +42
" "lttctl list: the vpid tracker lttng set, 43 untracked" || diag "$STDOUT"
run lttng list other
like "$STDOUT" "Virtual process IDs: +42
" "lttng list shows it too"
lttng untrack -u --vgid --all -s other >/dev/null
run lttctl list other
like "$STDOUT" "group ids \\(vgid\\) +none" "lttng untrack --vgid --all: lttctl list says none"
open_fifo READY "$TEST_TMP/ready"
open_fifo GO "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 1
wait_ready $READY
run lttng list -u
like "$STDOUT" "PID: $READY_PIDS - Name: " "lttng list -u: the registered program, by its pid" || diag "$OUT"
like "$STDOUT" "ltt_test:seq \\(loglevel: .*\\) \\(type: tracepoint\\)" "... with its tracepoints"
run lttng list -u -f
like "$STDOUT" "ltt_test:seq \\(loglevel: .*\\) \\(type: tracepoint\\)
 *field: role \\(string\\)
 *field: thread \\(integer\\)" "lttng list -u -f: and their fields, with their types" || diag "$OUT"
echo go >&$GO
wait $BG_PID

# --- snapshots ---
run lttng create snap --snapshot -o "$TEST_TMP/snap"
ok $RC "lttng create --snapshot" || diag "$OUT"
run lttng snapshot list-output -s snap
like "$STDOUT" "\\[1\\] snapshot-1: $TEST_TMP/snap" "lttng snapshot list-output: the session's output" ||
	diag "$OUT"
lttng enable-event -u compat:basic -s snap >/dev/null && lttng start snap >/dev/null && compat_run $N
run lttng snapshot record -s snap
ok $RC "lttng snapshot record" || diag "$OUT"
bt "$TEST_TMP/snap" "$TEST_TMP/snap.txt"
is "$(count_events "$TEST_TMP/snap.txt" compat:basic)" $N "... holds the $N compat:basic events"
lttng destroy snap >/dev/null

# --- rotations ---
lttng create rot -o "$TEST_TMP/rot" >/dev/null && lttng enable-event -u compat:basic -s rot >/dev/null &&
	lttng start rot >/dev/null && compat_run $N
run lttng rotate rot
like "$STDOUT" "Trace chunk archive for session rot is now readable at $TEST_TMP/rot/archives/" \
	"lttng rotate: waits for ROTATION_GET_INFO's completed archive and says where" || diag "$OUT"
bt "$(sed -n 's/.* is now readable at //p' <<<"$STDOUT")" "$TEST_TMP/rot.txt"
is "$(count_events "$TEST_TMP/rot.txt" compat:basic)" $N "... which holds the $N compat:basic events"
run lttng enable-rotation -s rot --timer 10s
ok $RC "lttng enable-rotation --timer 10s" || diag "$OUT"
run lttng list rot
like "$STDOUT" "timer period: 10000000 us" "lttng list: the schedule, read back from ltt"
lttng destroy rot >/dev/null

# --- what ltt does not serve, and what no LTTng client sends ---
run lttng save other -o "$TEST_TMP/saved"
ok "$([ $RC != 0 ] && echo 0 || echo 1)" "lttng save: refused (status $RC)"
like "$OUT" "Operation not supported" "... with LTTng's sentence for NOT_SUPPORTED"
like "$(cat "$SESSIOND_LOG")" "SAVE_SESSION: ltt-sessiond --lttng-compat does not serve this command; use lttctl save" \
	"... and the daemon's log names the lttctl command"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" short)" closed \
	"half a request, then the client's end shut: closed without a reply"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" unknown)" 12 \
	"command 99, which LTTng 2.13 lacks: LTTNG_ERR_UND"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" huge)" 152 \
	"ENABLE_CHANNEL announcing a 16 MiB variable part: LTTNG_ERR_INVALID_PROTOCOL"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" badname)" 152 \
	"a session name without its NUL: LTTNG_ERR_INVALID_PROTOCOL"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" bigname)" 152 \
	"a session descriptor whose name runs past its bytes: LTTNG_ERR_INVALID_PROTOCOL"
run lttng list
like "$STDOUT" "other \\[inactive\\]" "the daemon serves on, its sessions as they were"

# --- a user's daemon: LTTng's socket in $LTTNG_HOME/.lttng ---
if can_switch_user; then
	U="$TEST_TMP/user"
	nobody_dir "$U"
	as_nobody env HOME="$U" LTTNG_HOME="$U" LTT_HOME="$U" "$SESSIOND" --daemonize \
		--rundir "$U/run" --lttng-compat --no-kernel
	is "$(stat -c '%U %a' "$U/.lttng/client-lttng-sessiond" 2>&1)" "nobody 600" \
		"a user's daemon: its socket in \$LTTNG_HOME/.lttng, the user's alone"
	as_nobody env HOME="$U" LTTNG_HOME="$U" "$LTTNG" create mine -o "$U/tr" >/dev/null 2>&1
	run as_nobody env LTT_RUNDIR="$U/run" "$LTTCTL_BIN" list
	like "$STDOUT" "mine \\($U/tr\\)" "... where the user's lttng creates a session lttctl lists" ||
		diag "$OUT"
	UPID=$(cat "$U/run/sessiond.pid")
	kill "$UPID" && wait_pid_exit "$UPID"
else
	skip 2 "no setpriv or no user nobody: a user's daemon is not tested"
fi

# --- a socket a live lttng-sessiond serves is never taken over ---
stop_sessiond
timeout "$TEST_TIMEOUT" /usr/bin/lttng-sessiond --daemonize --no-kernel \
	--pidfile="$TEST_TMP/lttng-sessiond.pid" ||
	{ echo "Bail out! Debian's lttng-sessiond did not start"; exit 1; }
LTTNG_PID=$(cat "$TEST_TMP/lttng-sessiond.pid")
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run2" --lttng-compat
is $RC 1 "ltt-sessiond --lttng-compat beside a live lttng-sessiond: refused, status 1"
like "$ERR" "--lttng-compat: a live session daemon \\(lttng-sessiond, or another ltt-sessiond --lttng-compat\\) serves $SOCK already; ltt-sessiond never takes it over" \
	"... in one sentence"
run lttng create still -o "$TEST_TMP/still"
like "$OUT" "Session still created" "LTTng's daemon still serves its socket" || diag "$OUT"
kill "$LTTNG_PID"
wait_pid_exit "$LTTNG_PID"

done_testing
