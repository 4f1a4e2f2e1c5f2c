#!/bin/bash
# test_ust_takeover_retry.sh - a user-space consumer killed, then its
# replacement killed before it took over: the session daemon tries
# another, as the kernel domain does (3 consumers per takeover, one shared
# function, ltt_supervisor_take_over()).  The second death is made
# certain, not left to timing: the consumer program is a wrapper that
# SIGKILLs itself at birth while a "die" token is there, and execs the
# real ltt-consumerd otherwise.  Tracing goes on in the same trace, stop
# succeeds, and committed = recorded + discarded.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
REAL_CONSUMERD=$LTT_CONSUMERD_PATH
WRAP="$TEST_TMP/consumerd-wrap"
TOKENS="$TEST_TMP/tokens"
mkdir -p "$TOKENS"
cat >"$WRAP" <<WRAPEOF
#!/bin/sh
# one token taken, one consumer dies at birth
for t in "$TOKENS"/die.*; do
	[ -e "\$t" ] && rm "\$t" 2>/dev/null && kill -KILL \$\$
done
exec "$REAL_CONSUMERD" "\$@"
WRAPEOF
chmod +x "$WRAP"
export LTT_CONSUMERD_PATH="$WRAP"
ust_setup --log
plan 11

N=20000
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"

lttctl -q create s -o "$TEST_TMP/s"
lttctl -q enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n $N -r first
wait_ready $ready
c1=$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd | head -1)
ok "$([ -n "$c1" ]; echo $?)" "a consumer reads the program's buffers (pid $c1)"

# two births that die: the first replacement and the next one
touch "$TOKENS/die.1" "$TOKENS/die.2"
kill -KILL "$c1"
# woken as the tokens go and as the daemon logs each consumer it starts
wait_fs "$TOKENS" "$SESSIOND_LOG" -- bash -c '
	c=$(pgrep -P "$0" -x ltt-consumerd | head -1) && [ -n "$c" ] && [ "$c" != "$1" ] &&
		! ls "$2"/die.* >/dev/null 2>&1' "$(sessiond_pid)" "$c1" "$TOKENS"
ok $? "after two more deaths in a row, a third consumer runs"
wait_for "$SESSIOND_LOG" "taken over by the new consumer daemon"
ok $? "it took the trace over"
is "$(grep -c "no other could take it over" "$SESSIOND_LOG")" 0 "no trace was given up"
is "$(grep -c "died before it took over; trying another" "$SESSIOND_LOG")" 2 \
	"the daemon said it tried again, twice"
echo go >&$go
wait $BG_PID
is $? 0 "the program records after the deaths"
run lttctl stop s
is "$RC:$(grep -c -i consumer <<<"$ERR")" "0:0" "stop succeeds, no consumer error"
disc=$(lttctl list s | sed -n 's/^ *discarded events: \([0-9]*\)$/\1/p' | head -1)
bt "$TEST_TMP/s" "$TEST_TMP/s.out"
is "$?:$(grep -c -i error "$TEST_TMP/s.out.err")" "0:0" "the trace reads whole in babeltrace2"
rec=$(grep ' ltt_test:seq: ' "$TEST_TMP/s.out" | grep -c 'role = "first"')
is "$((rec + disc))" $N "recorded ($rec) + discarded ($disc) = committed ($N)"
ok "$([ "$rec" -gt 0 ]; echo $?)" "the new consumer recorded the events ($rec)"
lttctl -q destroy s
done_testing
