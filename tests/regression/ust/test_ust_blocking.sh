#!/bin/bash
# test_ust_blocking.sh - blocking channels (enable-channel --blocking-timeout,
# LTTng's): a program that allows it (LTTNG_UST_ALLOW_BLOCKING, or ltt's
# LTT_UST_ALLOW_BLOCKING) waits for room in a full discard-mode channel,
# on a futex the consumer wakes, instead of dropping the event.
#
# Each case writes N events flat out, from one thread pinned to one CPU,
# into a channel of 2 x 4 KiB per CPU (about 200 events) whose consumer is
# stopped (SIGSTOP) before the program starts writing:
# - inf: the program blocks (seen waiting on the region's futex: a shared
#   FUTEX_WAIT_BITSET, which no lock of glibc uses) and finishes once the
#   consumer is continued: all N recorded, 0 lost;
# - 2 ms: the program finishes while the consumer is still stopped, each
#   event it dropped having waited its 2 ms first (the program ran at least
#   lost x 2 ms), and recorded + lost == N exactly;
# - the variable not set, or LTT_UST_ALLOW_BLOCKING=0 over LTTng's: the
#   program never waits (it finishes while the consumer is stopped, with an
#   inf channel), recorded + lost == N;
# - LTT_UST_ALLOW_BLOCKING=1 (ltt's own variable) waits as LTTng's does,
#   and so does a program in a per-process channel;
# - inf, and the channel disabled while the program waits: it stops
#   waiting (that event counted lost) and finishes.
# And the option's rules (LTTng's): user space only, not with --overwrite
# (but a snapshot session's implicit overwrite mode takes it), at most
# 2^31 - 1 ms; lttctl list and --mi xml show it, save and load keep it.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

unset LTT_UST_ALLOW_BLOCKING LTTNG_UST_ALLOW_BLOCKING
ust_setup
case $(uname -m) in
x86_64) SYS_FUTEX=202 ;;
aarch64) SYS_FUTEX=98 ;;
*) SYS_FUTEX= ;;
esac
plan 50

open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

# futex_waiting PID: a thread of PID sleeps in a shared FUTEX_WAIT_BITSET
# (the ring buffer's wait for room); waits for it, bounded.  Elsewhere
# than x86_64 and arm64: the program's sleeping at all.
futex_waiting() {
	timeout "$TEST_TIMEOUT" bash -c '
		while :; do
			for t in /proc/$1/task/*; do
				if [ -n "$2" ]; then
					read -r nr a1 op rest <"$t/syscall" 2>/dev/null || continue
					[ "$nr" = "$2" ] && [ "$op" = 0x9 ] && exit 0
				elif [ "$(cut -d" " -f3 "$t/stat" 2>/dev/null)" = S ]; then
					exit 0
				fi
			done
		done' futex "$1" "$SYS_FUTEX"
}

# blocked_run NAME N TIMEOUT [VAR=VALUE...]: session NAME, channel b of
# 2 x 4 KiB with --blocking-timeout=TIMEOUT; the program (with the VARs in
# its environment) registered, the consumer stopped, then the program
# writes N events.  Sets APP (its pid), CONS, T0 (ms, when it was let go).
blocked_run() {
	local name=$1 n=$2 timeout=$3
	shift 3
	seq_session "$name" b --subbuf-size 4k --num-subbuf 2 --blocking-timeout="$timeout" \
		${BLOCK_OPTS:-}
	export "$@"
	ust_app_bg -C -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n "$n" -r "$name"
	unset "${@%%=*}"
	wait_ready $ready && CONS=$(consumer_pid) && stop_proc "$CONS" ||
		{ echo "Bail out! $name: no program or no consumer to stop"; exit 1; }
	APP=$READY_PIDS
	T0=$(($(date +%s%N) / 1000000))
	echo go >&$go
}

# app_exit: wait for the program (bounded by its guard), its exit status;
# its elapsed ms since T0 in ELAPSED.
app_exit() {
	wait "$BG_PID"
	local rc=$?
	ELAPSED=$(($(date +%s%N) / 1000000 - T0))
	return $rc
}

# accounted NAME: stop NAME; the events recorded in rec, lost in lost
# (lttctl list's discarded events), babeltrace2's discarded count in BT_LOST.
accounted() {
	lttctl -q stop "$1"
	bt "$TEST_TMP/$1" "$TEST_TMP/$1.out"
	BT_LOST=$(discarded "$TEST_TMP/$1.out.err")
	rec=$(count_events "$TEST_TMP/$1.out" ltt_test:seq)
	lost=$(list_lost_events "$1")
}

# --- the option's rules
lttctl -q create rules -o "$TEST_TMP/rules"
run lttctl enable-channel -k k --blocking-timeout=1000
is "$RC" 1 "a kernel channel: refused (LTTng's rule) ..."
like "$ERR" "^Error: --blocking-timeout takes .* and only on a user-space channel: the kernel's writers can't wait" \
	"... in a sentence"
run lttctl enable-channel -u o --overwrite --blocking-timeout=1000
is "$RC" 1 "--overwrite with a timeout: refused (LTTng's rule) ..."
like "$ERR" "^Error: --blocking-timeout makes a program wait for room in a full channel, and an overwrite-mode channel is never full" \
	"... in a sentence"
run lttctl enable-channel -u o --overwrite --blocking-timeout=0
is "$RC" 0 "--overwrite with --blocking-timeout=0: taken"
run lttctl enable-channel -u big --blocking-timeout=2147483648000
is "$RC" 2 "a timeout past 2^31 - 1 ms: a usage error ..."
like "$ERR" "invalid --blocking-timeout '2147483648000': use microseconds up to 2147483647999" \
	"... that says the limit"
run lttctl enable-channel -u t1 --blocking-timeout=1500ms
is "$RC" 0 "a timeout with a unit (1500ms) is taken"
lttctl -q create pid -o "$TEST_TMP/pid"
run lttctl enable-channel -u t2 --blocking-timeout=inf --buffers-pid
is "$RC" 0 "inf, per process: taken"
is "$(lttctl list rules | grep -c '^ *blocking timeout: 1500000 us ')$(lttctl list pid | grep -c '^ *blocking timeout: inf ')" \
	11 "list shows both"
is "$(lttctl --mi xml list pid | mi_xp '//channel[name="t2"]/attributes/blocking_timeout')" \
	-1 "--mi xml: inf is -1, as LTTng writes it"
lttctl -q save -o "$TEST_TMP/saved" pid
is "$(grep -ho '<blocking_timeout>[^<]*</blocking_timeout>' "$TEST_TMP"/saved/*)" \
	"<blocking_timeout>-1</blocking_timeout>" "save writes inf as LTTng does (-1)"
lttctl -q destroy pid
run lttctl load -i "$TEST_TMP/saved" pid
is "$RC:$(lttctl list pid | grep -c '^ *blocking timeout: inf ')" 0:1 "load brings it back"
lttctl -q create snap --snapshot -o "$TEST_TMP/snap"
run lttctl enable-channel -u s --blocking-timeout=1000
is "$RC" 0 "a snapshot session's channel (overwrite mode by default) takes it, as LTTng's"
lttctl -q destroy -a

# --- inf: the program waits for the consumer, nothing is lost
N=3000
blocked_run inf $N inf LTTNG_UST_ALLOW_BLOCKING=1
futex_waiting "$APP"
ok $? "inf: the program waits on the ring buffer's futex while the consumer is stopped"
ok "$(proc_alive "$APP"; echo $?)" "inf: and has not finished"
is "$(lttctl list inf | sed -n 's/^ *discarded events: //p')" 0 "inf: nothing discarded meanwhile"
kill -CONT "$CONS"
app_exit
is $? 0 "inf: the program finishes once the consumer runs again"
accounted inf
is "$rec" $N "inf: every one of the $N events recorded"
is "$lost" 0 "inf: 0 lost"
is "$(seq_check "$TEST_TMP/inf.out" inf 1 $N)" "" "inf: each once, none out of range"
is "$BT_LOST" 0 "inf: babeltrace2 reports no discarded event"

# --- a small timeout: each dropped event waited first, the accounting is exact
N=600
blocked_run small $N 2ms LTTNG_UST_ALLOW_BLOCKING=1
app_exit
is $? 0 "2 ms: the program finishes while the consumer is stopped"
ok "$(proc_alive "$CONS" && [ "$(cut -d' ' -f3 /proc/$CONS/stat)" = T ]; echo $?)" \
	"2 ms: (the consumer was stopped all along)"
kill -CONT "$CONS"
accounted small
ok "$([ "$lost" -gt 0 ]; echo $?)" "2 ms: the full channel dropped events ($lost)"
is $((rec + lost)) $N "2 ms: recorded ($rec) + lost ($lost) == committed ($N), exactly"
is "$BT_LOST" "$lost" "2 ms: babeltrace2 reports as many discarded"
ok "$([ "$ELAPSED" -ge $((lost * 2)) ]; echo $?)" \
	"2 ms: each dropped event waited 2 ms first ($ELAPSED ms >= $lost x 2 ms)"
is "$(seq_check "$TEST_TMP/small.out" small 1 $N | grep -c 'seen [^0] times')" 0 \
	"2 ms: no event recorded twice"

# --- not allowed: the program never waits
never() {
	local name=$1
	shift
	blocked_run "$name" $N inf "$@"
	app_exit
	is $? 0 "$name: the program finishes while the consumer is stopped (inf channel)"
	ok "$([ "$(cut -d' ' -f3 /proc/$CONS/stat)" = T ]; echo $?)" "$name: (the consumer was stopped all along)"
	kill -CONT "$CONS"
	accounted "$name"
	ok "$([ "$lost" -gt 0 ]; echo $?)" "$name: the full channel dropped events ($lost)"
	is $((rec + lost)) $N "$name: recorded ($rec) + lost ($lost) == $N"
	is "$BT_LOST" "$lost" "$name: babeltrace2 agrees"
}
N=3000
never unset LTT_BLOCKING_TEST_UNUSED=1
never ltt0 LTTNG_UST_ALLOW_BLOCKING=1 LTT_UST_ALLOW_BLOCKING=0

# --- ltt's own variable, and a session stopped while a program waits
N=1000
blocked_run own $N inf LTT_UST_ALLOW_BLOCKING=1
futex_waiting "$APP"
ok $? "LTT_UST_ALLOW_BLOCKING=1: the program waits too"
kill -CONT "$CONS"
app_exit
is $? 0 "LTT_UST_ALLOW_BLOCKING=1: and finishes"
accounted own
is "$rec:$lost" "$N:0" "LTT_UST_ALLOW_BLOCKING=1: all $N recorded, 0 lost"

# --- per-process buffers: the same
N=1000
BLOCK_OPTS=--buffers-pid blocked_run perpid $N inf LTTNG_UST_ALLOW_BLOCKING=1
futex_waiting "$APP"
ok $? "per process: the program waits"
kill -CONT "$CONS"
app_exit
is $? 0 "per process: and finishes"
accounted perpid
is "$rec:$lost" "$N:0" "per process: all $N recorded, 0 lost"

# --- the channel disabled while a program waits forever: it gives up
N=1000
blocked_run off $N inf LTTNG_UST_ALLOW_BLOCKING=1
futex_waiting "$APP"
ok $? "disabled: the program waits"
run lttctl disable-channel -u b -s off
is "$RC" 0 "disabled: disable-channel returns while the program waits"
app_exit
is $? 0 "disabled: the program stops waiting and finishes, the consumer still stopped"
kill -CONT "$CONS"
accounted off
is "$lost" 1 "disabled: the event that waited is counted lost, the later ones not recorded (the channel is off)"
ok "$([ "$rec" -gt 0 ] && [ "$rec" -lt $N ]; echo $?)" "disabled: those before it are in the trace ($rec)"
done_testing
