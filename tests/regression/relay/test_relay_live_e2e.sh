#!/bin/bash
# test_relay_live_e2e.sh - the whole live chain, every piece real: ltt-sessiond
# and its consumer stream a live session (100 ms timer) of the bundled
# example program (examples/hello) to ltt-relayd on loopback, and two
# babeltrace2 lttng-live viewers watch it while it runs.  The program runs
# twice (two bursts): the viewers print the first burst's exact events
# and values before the second is emitted; `lttctl destroy` ends both
# viewers cleanly with everything; the relay's trace on disk reads the
# same as what the viewers printed; `babeltrace2 query ... sessions`
# lists the session while it lives.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/live-lib.sh"

ust_setup --log
relayd_init
HELLO="$LTT_TOP_BUILDDIR/examples/hello/hello"
[ -x "$LTT_TOP_BUILDDIR/examples/hello/.libs/hello" ] &&
	grep -q '^relink_command=""' "$HELLO" 2>/dev/null &&
	HELLO="$LTT_TOP_BUILDDIR/examples/hello/.libs/hello"
[ -x "$HELLO" ] || { echo "Bail out! $HELLO not built"; exit 1; }
VIEWERS=
trap 'for p in $VIEWERS; do kill -KILL "$p"; done 2>/dev/null; _relayd_cleanup; _cleanup' EXIT

start_relayd -o "$TEST_TMP/relay-out" ||
	{ echo "Bail out! ltt-relayd did not start"; cat "$RELAYD_LOG"; exit 1; }
host=$(hostname)
URL="net://127.0.0.1:$LPORT/host/$host/S"

# viewer OUT: babeltrace2 as a user runs it, line-buffered (its stdout is
# a file here) so that each event is in OUT as soon as it is printed.
viewer() {
	timeout "$TEST_TIMEOUT" stdbuf -oL babeltrace2 -i lttng-live "$URL" >"$1" 2>"$1.err"
}

# hello_expect LOOPS: what `hello LOOPS` emits with 'hello_world:*' enabled,
# one line an event: NAME and its values (see examples/hello/hello.c).
hello_expect() {
	local n=$1 i j w words=(hello world tracing is fun) vals
	local colors=(RED GREEN BLUE OTHER OTHER)
	echo "starting loops=$n"
	for ((i = 0; i < n; i++)); do
		w=${words[i % 5]} vals=
		for ((j = 0; j <= i % 8; j++)); do vals+="${vals:+,}$((i * 10 + j))"; done
		echo "my_first_tracepoint iteration=$i small=$((-i)) medium=$((i * 1000)) big=$((i << 40)) text=$w values=$vals color=$((i % 5))(${colors[i % 5]})"
		((i % 2)) && echo "odd_iteration iteration=$i"
	done
	echo "done"
}

# hello_got FILE: the same summary of the hello_world events babeltrace2
# printed in FILE, in the order printed.
hello_got() {
	awk '
	function field(name) {
		if (!match($0, " " name " = [^,} ]*")) return "?"
		return substr($0, RSTART + length(name) + 4, RLENGTH - length(name) - 4)
	}
	function seqv(name,   s) {
		if (!match($0, " " name " = \\[( \\[[0-9]+\\] = [0-9]+,?)* \\]")) return "?"
		s = substr($0, RSTART, RLENGTH)
		sub(/^ [a-z_]+ = \[ /, "", s); sub(/ \]$/, "", s)
		gsub(/\[[0-9]+\] = /, "", s); gsub(/, /, ",", s)
		return s
	}
	function color(   s) {
		if (!match($0, /color = \( "[A-Z]+" : container = [0-9]+ \)/)) return "?"
		s = substr($0, RSTART, RLENGTH)
		gsub(/color = \( "|" : container = | \)/, " ", s)
		split(s, c, " ")
		return c[2] "(" c[1] ")"
	}
	/ hello_world:starting: / { print "starting loops=" field("loops") }
	/ hello_world:my_first_tracepoint: / {
		t = field("text"); gsub(/"/, "", t)
		print "my_first_tracepoint iteration=" field("iteration") " small=" field("small") \
			" medium=" field("medium") " big=" field("big") " text=" t \
			" values=" seqv("values") " color=" color()
	}
	/ hello_world:odd_iteration: / { print "odd_iteration iteration=" field("iteration") }
	/ hello_world:done: / { print "done" }' "$1"
}

ok_cmd "create a live session with the relay's ports" \
	lttctl create S --live=100000 --set-url "net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "enable the example program's events" lttctl enable-event -u 'hello_world:*' -s S
ok_cmd "start" lttctl start S

out=$(query_sessions)
like "$out" "session-name: S" "query sessions lists the session"
like "$out" "target-hostname: $host" "with this host's name"
like "$out" "timer-us: 100000" "and its live timer"
like "$out" "url: $URL" "and the URL to attach to"

viewer "$TEST_TMP/a.out" & VA=$!
viewer "$TEST_TMP/b.out" & VB=$!
VIEWERS="$VA $VB"
wait_for "$RELAYD_LOG" "attached session" 2
ok $? "two babeltrace2 viewers attach to the session while it runs"
like "$(query_sessions)" "client-count: 2" "query sessions counts both viewers"

# Burst 1: one run of the program; both viewers print all of it while the
# session goes on, before burst 2 exists.
ok_cmd "burst 1: hello 5" timeout "$TEST_TIMEOUT" "$HELLO" 5
wait_for "$TEST_TMP/a.out" " hello_world:done: " 1 &&
	wait_for "$TEST_TMP/b.out" " hello_world:done: " 1
ok $? "both viewers print burst 1 while the session runs"
is "$(hello_got "$TEST_TMP/a.out")" "$(hello_expect 5)" "viewer A: burst 1's exact events and values"
is "$(hello_got "$TEST_TMP/b.out")" "$(hello_expect 5)" "viewer B: the same"
proc_alive "$VA" && proc_alive "$VB"
ok $? "both viewers still run (the session is live)"

ok_cmd "burst 2: hello 7" timeout "$TEST_TIMEOUT" "$HELLO" 7
wait_for "$TEST_TMP/a.out" " hello_world:done: " 2 &&
	wait_for "$TEST_TMP/b.out" " hello_world:done: " 2
ok $? "both viewers print burst 2"
want=$(hello_expect 5; hello_expect 7)
is "$(hello_got "$TEST_TMP/a.out")" "$want" "viewer A: both bursts, exactly"
is "$(hello_got "$TEST_TMP/b.out")" "$want" "viewer B: both bursts, exactly"

# The end: destroy waits for the relay; both viewers then end by themselves.
ok_cmd "destroy the session" lttctl destroy S
wait $VA; ra=$?
wait $VB; rb=$?
VIEWERS=
is "$ra:$rb" "0:0" "both viewers end cleanly (exit 0) once the session is destroyed"
is "$(grep -c ' hello_world:' "$TEST_TMP/a.out"):$(grep -c ' hello_world:' "$TEST_TMP/b.out")" "21:21" \
	"each printed the 21 events, no more"
is "$(discarded "$TEST_TMP/a.out.err"):$(discarded "$TEST_TMP/b.out.err")" "0:0" "nothing discarded"
unlike "$(query_sessions)" "session-name: S" "query sessions no longer lists the destroyed session"

dir=
for d in "$TEST_TMP/relay-out/$host/S"-*; do [ -d "$d" ] && dir=$d; done
ok "$([ -n "$dir" ] && [ -f "$dir/ust/uid/$(id -u)/64-bit/metadata" ]; echo $?)" \
	"the relay wrote the trace under OUTDIR/HOST/S-DATE ($dir)"
bt "$dir" "$TEST_TMP/disk.out"
is "$(diff "$TEST_TMP/disk.out" "$TEST_TMP/a.out" | head -n 6)" "" \
	"the relay's trace on disk reads exactly as viewer A printed it (timestamps too)"
is "$(diff "$TEST_TMP/disk.out" "$TEST_TMP/b.out" | head -n 6)" "" "and as viewer B printed it"
is "$(hello_got "$TEST_TMP/disk.out")" "$want" "the trace on disk: both bursts' exact events and values"
done_testing
