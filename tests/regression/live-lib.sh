# tests/regression/live-lib.sh - helpers for the tests of ltt-relayd's
# live port (sourced after lib.sh and relayd-lib.sh).
#
# Scripted helpers run as line-driven processes on FIFOs: relay_feed (a
# consumer sending a synthetic trace step by step) and live_probe (a
# viewer sending one request a line).  Every wait is on a process, a FIFO
# or a growing file, bounded by $TEST_TIMEOUT; nothing sleeps.

FEED_BIN="$LTT_TOP_BUILDDIR/tests/regression/relay_feed"
PROBE_BIN="$LTT_TOP_BUILDDIR/tests/regression/live_probe"

live_init() {
	relayd_init
	local b
	for b in "$FEED_BIN" "$PROBE_BIN"; do
		[ -x "$b" ] || { echo "Bail out! $b not built"; exit 1; }
	done
}

# spawn NAME CMD...: run a line-driven helper with its stdin and stdout on
# FIFOs; IN_NAME and OUT_NAME hold the test's ends.
spawn() {
	local name=$1 fin fout
	shift
	mkfifo "$TEST_TMP/$name.in" "$TEST_TMP/$name.out"
	"$@" <"$TEST_TMP/$name.in" >"$TEST_TMP/$name.out" &
	exec {fin}>"$TEST_TMP/$name.in" {fout}<"$TEST_TMP/$name.out"
	printf -v "IN_$name" %s "$fin"
	printf -v "OUT_$name" %s "$fout"
}

# ask NAME LINE [N]: send LINE, read N answer lines (default 1) into R,
# joined by '|'.
ask() {
	local in="IN_$1" out="OUT_$1" n=${3:-1} line i
	R=""
	echo "$2" >&"${!in}"
	for ((i = 0; i < n; i++)); do
		line=""
		read -r -t "$TEST_TIMEOUT" line <&"${!out}"
		R="$R${R:+|}$line"
	done
}

# feed NAME LINE: a relay_feed step that must succeed ("ok..." in R).
feed() {
	ask "$1" "$2"
	[[ $R == ok* ]] || { diag "feed $1 '$2': '$R'"; return 1; }
}

# query_sessions: babeltrace2's list of the relay's live sessions.
query_sessions() {
	timeout "$TEST_TIMEOUT" babeltrace2 query src.ctf.lttng-live sessions \
		-p "url=\"net://127.0.0.1:$LPORT\"" 2>&1
}

# events FILE [NAME]: "seq:val" for each NAME (feed:seq) event babeltrace2
# printed.
events() {
	sed -n "s/.*${2:-feed:seq}: .*{ seq = \([0-9]*\), val = \([0-9]*\) }.*/\1:\2/p" "$1"
}
