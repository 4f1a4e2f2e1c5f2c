#!/bin/bash
# test_ust_full_speed.sh - programs writing flat out: whatever the machine
# lets the consumer keep up with, the accounting is exact.  Every event
# the program emitted is either in the trace or counted lost: recorded +
# discarded == emitted, lttctl list, lttctl stop's warning and babeltrace2
# agree on the discarded count, and no event is recorded twice or out of
# range.  Whether anything is lost depends on the machine's load; that is
# a figure for bench/lost.sh, not a verdict here (it is printed as a
# diagnostic).
#
# Cases: the default channel (per-UID, 4 x 512 KiB per CPU) with one
# thread, then two threads (both CPUs' buffers); then a channel of 4 x
# 4 KiB that two threads overflow (on most machines), so the writers' drops
# race with the consumer's reads and with the sub-buffer switches; the same
# with the consumer stopped while they write, so it always overflows.  Last, as root, the
# consumer's data threads run in SCHED_FIFO, and would leave it for a
# channel timer under 100 us.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 32

# full_speed NAME THREADS EVENTS [CHANNEL OPTIONS...]: one session NAME,
# one program of THREADS threads writing EVENTS ltt_test:seq events each
# as fast as it can; then the checks (7 assertions).  Sets LOST.  With
# FS_STOPPED=1, the consumer is stopped (SIGSTOP) while the program writes
# and continued before the stop: the buffers overflow whatever the
# machine's speed.
full_speed() {
	local name=$1 t=$2 n=$3 chan=channel0 stop_err recorded cons
	shift 3
	[ $# -gt 0 ] && chan=fs
	seq_session "$name" "$chan" "$@"
	if [ "${FS_STOPPED:-0}" = 1 ]; then
		# registered (the consumer is spawned for its trace), then go
		ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -t "$t" -n "$n" -r "$name"
		wait_ready $ready && cons=$(consumer_pid) && stop_proc "$cons" ||
			{ echo "Bail out! $name: no consumer to stop"; exit 1; }
		echo go >&$go
		wait "$BG_PID"
		is $? 0 "$name: $t thread(s) wrote $((t * n)) events while the consumer was stopped"
		kill -CONT "$cons"
	else
		ust_app -t "$t" -n "$n" -r "$name"
		is $? 0 "$name: $t thread(s) wrote $((t * n)) events flat out"
	fi
	run lttctl stop "$name"
	is "$RC" 0 "$name: stop"
	stop_err=$ERR
	LOST=$(lttctl list "$name" | sed -n 's/^ *discarded events: //p')
	like "$LOST" '^[0-9]+$' "$name: list counts the discarded events"
	if [ "${LOST:-0}" -gt 0 ]; then
		like "$stop_err" "channel '$chan' of session '$name' discarded $LOST events" \
			"$name: stop warns with the same count"
	else
		is "$stop_err" "" "$name: stop warns of nothing: nothing was discarded"
	fi
	bt "$TEST_TMP/$name" "$TEST_TMP/$name.out"
	recorded=$(count_events "$TEST_TMP/$name.out" ltt_test:seq)
	is $((recorded + ${LOST:-0})) $((t * n)) \
		"$name: recorded ($recorded) + discarded ($LOST) == emitted, exactly"
	is "$(discarded "$TEST_TMP/$name.out.err")" "${LOST:-none}" \
		"$name: babeltrace2 reports as many discarded events"
	is "$(awk -v role="$name" -v t="$t" -v n="$n" '
		/ ltt_test:seq: / {
			match($0, /role = "[^"]*"/); r = substr($0, RSTART + 8, RLENGTH - 9)
			match($0, /thread = -?[0-9]+/); th = substr($0, RSTART + 9, RLENGTH - 9) + 0
			match($0, /seq = [0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6) + 0
			if (r != role || th < 0 || th >= t || s >= n || seen[th, s]++) bad++
		}
		END { print bad + 0 }' "$TEST_TMP/$name.out")" 0 \
		"$name: no event recorded twice or out of range"
	diag "$name: $LOST of $((t * n)) events discarded"
	lttctl -q destroy "$name"
}

full_speed default1 1 300000
full_speed default2 2 150000
full_speed small2 2 100000 --subbuf-size 4k --num-subbuf 4
# Whether small2 overflowed depends on the machine (a slow program, under
# a sanitizer say, may not outrun the consumer): the same with the
# consumer stopped meanwhile always does.
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
FS_STOPPED=1 full_speed stopped2 2 20000 --subbuf-size 4k --num-subbuf 4
ok "$([ "${LOST:-0}" -gt 0 ]; echo $?)" \
	"stopped2: the 4 x 4 KiB channel overflowed, so the checks above saw drops ($LOST)"

# The consumer's data threads: SCHED_FIFO priority 1 when the consumer may
# have it (root here); each would leave it for a channel timer under 100 us
# (doc/consumerd.md).  ps -L lists the main (command) thread first.
# policies: "CLASS/RTPRIO" of the command thread, then "FF/1" once for all
# the data threads if each is in SCHED_FIFO at 1 (one a CPU, --data-threads),
# else each one's.
policies() {
	local cpid
	cpid=$(consumer_pid) || return 1
	ps -L -o cls=,rtprio= -p "$cpid" | awk '
		NR == 1 { first = $1 "/" $2; next }
		{ n++; p = $1 "/" $2; all = all " " p; if (p != "FF/1") other = 1 }
		END { print first ((n && !other) ? " FF/1" : all) }'
}
if [ "$(id -u)" = 0 ] && command -v capsh >/dev/null && capsh --has-p=cap_sys_nice >/dev/null 2>&1; then
	# (a consumer runs while a session is started: it exits with the last one)
	lttctl -q create prio -o "$TEST_TMP/prio" && lttctl -q enable-event -u ltt_test:seq &&
		lttctl -q start
	is "$(policies)" "TS/- FF/1" "the consumer's data threads run in SCHED_FIFO at priority 1, its command thread does not"
	# Timers under 100 us are refused (TIMER_MIN, test_sessiond_timer_min.sh), so
	# the data threads' fallback to nice -10 only guards the consumer
	# against a session daemon that would send one anyway.
	lttctl -q create tiny -o "$TEST_TMP/tiny"
	run lttctl enable-channel -u t --switch-timer 50
	is "$RC" 1 "a channel with a 50 us switch timer is refused"
	lttctl -q enable-channel -u t --switch-timer 100 && lttctl -q enable-event -u ltt_test:seq -c t &&
		lttctl -q start && ust_app -n 10 -r tiny
	is "$(policies)" "TS/- FF/1" "with the shortest timer allowed (100 us), the data threads stay in SCHED_FIFO"
	lttctl -q destroy tiny
	lttctl -q destroy prio
else
	skip 3 "not root with CAP_SYS_NICE: the consumer can't have SCHED_FIFO"
fi

done_testing
