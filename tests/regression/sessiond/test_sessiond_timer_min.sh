#!/bin/bash
# Timers below a sane minimum are refused, with what the minimum is and
# what to do, by lttctl and by the session daemon itself (a libltt-ctl
# user or any client that skips lttctl's checks): the switch and read
# timers of channels of both domains (0 or at least 100 us) and the live
# timer of a session (at least 1000 us).  A refusal changes nothing.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
sock="$LTT_RUNDIR/client.sock"
state() { "$PROTO_CLIENT" "$sock" dump; }
m_timer="switch and read timers are 0 (off) or at least 100 us: a shorter period keeps the consumer daemon busy without data; use a longer period"

lttctl -q create t --no-output
STATE=$(state)
# --- lttctl: each timer option, each domain
for dom in -u -k; do
	for opt in "--switch-timer 1" "--switch-timer 99" "--read-timer 1" "--read-timer 99"; do
		# shellcheck disable=SC2086
		run lttctl enable-channel $dom c $opt
		is "$RC/$ERR" "1/Error: channel 'c' of session 't': $m_timer" \
			"lttctl enable-channel $dom $opt: refused, naming the minimum"
	done
done
run lttctl enable-channel -u c1,c2 --switch-timer 100000 --read-timer 50
is "$RC/$ERR" "1/Error: channel 'c1' of session 't': $m_timer" \
	"a list of channels with a read timer of 50 us: refused before any is added"
run lttctl create l --live=999 -U net://127.0.0.1:1:2
is "$RC" 2 "lttctl create --live=999: usage error"
is "$(head -n 1 <<<"$ERR")" "Error: invalid live timer period '999': use microseconds from 1000 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	"lttctl create --live=999: says the live minimum"
is "$(state)" "$STATE" "the refusals changed nothing"

# --- the daemon, for clients that bypass lttctl
channel() { echo "str:$1 u32:$2 str:$3 u64:$4 u64:$5 u8:$6 u32:$7 u32:$8 u64:$9 u64:${10} u32:${11}"; }
minor=$(sed -n 's/^#define LTT_CLIENT_MINOR[[:space:]]*\([0-9]*\).*/\1/p' "$LTT_TOP_SRCDIR/src/common/proto/client-proto.h")
hello_ok="HELLO OK len=18 major=1 minor=$minor version=$("$LTTCTL_BIN" --version | sed 's/^lttctl //')"
for args in "1 0" "99 0" "0 1" "0 99" "1000 5"; do
	set -- $args
	run "$PROTO_CLIENT" "$sock" hello "req ENABLE_CHANNEL $(channel t 2 c 8192 4 0 "$1" "$2" 0 0 1)"
	is "$OUT" "$hello_ok
ENABLE_CHANNEL TIMER_MIN len=0" "the daemon refuses a user channel with switch $1 us, read $2 us: TIMER_MIN"
done
run "$PROTO_CLIENT" "$sock" hello "req CREATE_SESSION str:l u32:2 str:net://127.0.0.1:1:2 u8:0 u32:1"
is "$OUT" "$hello_ok
CREATE_SESSION LIVE_TIMER len=0" "the daemon refuses a live timer of 1 us: LIVE_TIMER"
is "$(state)" "$STATE" "the daemon's refusals changed nothing"

# --- the minimum itself is accepted
ok_cmd "a user channel with 100 us timers is accepted" \
	lttctl -q enable-channel -u c --switch-timer 100 --read-timer 100
run lttctl list t
like "$OUT" "switch timer: 100 us" "the channel has its 100 us switch timer"
like "$OUT" "read timer: 100 us" "and its 100 us read timer"

term_sessiond
done_testing
