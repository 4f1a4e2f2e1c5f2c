#!/bin/bash
# conn_rss.sh - what many connections to app.sock make the session daemon
# hold in memory.
#
#   bench/conn_rss.sh [BUILD_DIR] [N]      (default: ., 200 connections)
#
# Needs tests/regression/peer_hold (make check, or
# make tests/regression/peer_hold).  For each case, a fresh daemon; N
# connections of one kind are opened and held; the daemon's VmRSS is read
# before, while they are held, and its VmHWM (peak) after they are closed:
#
#   huge       unregistered, each announcing a 16 MiB REGISTER and sending
#              as much of it as the socket takes at once (up to 1 MiB)
#   partial    unregistered, 8 bytes of a header and nothing more
#   register   REGISTER, then nothing (no event descriptions)
#   idle       registered programs, 100 events each
#
# SESSIOND=PATH measures another ltt-sessiond (an older build, to compare);
# OPTS= adds options to its command line.
# Connections are made as root, which no per-user cap limits (the caps
# are not what this measures).  A figure, not a test.
set -u
. "$(dirname "$0")/bench-lib.sh"
bench_init "${1:-.}"
N=${2:-200}
PEER=$B/tests/regression/peer_hold
[ -x "$PEER" ] || { echo "$0: $PEER missing: make tests/regression/peer_hold in $B" >&2; exit 2; }
SESSIOND=${SESSIOND:-$LTT_SESSIOND_PATH}
# root is not capped per user, but the default build's total is 4096
OPTS=${OPTS-}

status() {
	sed -n "s/^$2:[[:space:]]*\\([0-9]*\\) kB/\\1/p" "/proc/$1/status"
}

one_case() {
	local mode=$1 arg=$2 pid before held peak line in out
	# shellcheck disable=SC2086
	"$SESSIOND" -d --rundir "$LTT_RUNDIR" $OPTS ||
		{ echo "$0: the session daemon did not start" >&2; exit 1; }
	pid=$(cat "$LTT_RUNDIR/sessiond.pid")
	before=$(status "$pid" VmRSS)
	mkfifo "$BENCH_TMP/in.$mode" "$BENCH_TMP/out.$mode"
	"$PEER" "$LTT_RUNDIR/app.sock" "$mode" "$N" "$arg" <"$BENCH_TMP/in.$mode" \
		>"$BENCH_TMP/out.$mode" &
	exec {in}>"$BENCH_TMP/in.$mode" {out}<"$BENCH_TMP/out.$mode"
	# the HELD line: every connection is set up
	read -t 120 -r -u "$out" line
	held=$(status "$pid" VmRSS)
	exec {in}>&- {out}<&-
	wait
	peak=$(status "$pid" VmHWM)
	printf '%-9s %-40s RSS before %6d kB  held %7d kB  peak %7d kB  (+%d kB, %d B per connection)\n' \
		"$mode" "$line" "$before" "$held" "$peak" $((peak - before)) \
		$(((peak - before) * 1024 / N))
	daemon_stop
}

echo "$N connections per case, $SESSIOND"
one_case huge 16777200
one_case partial 0
one_case register 0
one_case idle 100
