#!/bin/bash
# Terminal and log injection: session, channel and event names, paths and
# program names reach lttctl's output and the daemons' logs with their
# control characters escaped (\xHH, one function: src/common/base/escape.c):
# no escape sequence reaches the terminal, no log line is forged.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
ESC=$'\e'
# raw TEXT: does TEXT hold a control character other than newline and tab?
raw() { LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$1"; }

# --- lttctl's errors about bad names
run lttctl create "${ESC}[31mred"
is "$ERR" 'Error: session '"'"'\x1b[31mred'"'"': invalid session name: use 1 to 255 printable characters, no '"'"'/'"'"' and no leading '"'"'.'"'"' or '"'"'-'"'"'' \
	"an invalid session name is printed escaped"
lttctl -q create s -o "$TEST_TMP/out"
run lttctl enable-channel -u "c${ESC}]0;title"$'\a'
like "$ERR" "^Error: channel 'c\\\\x1b\\]0;title\\\\x07'" "an invalid channel name is printed escaped"
run lttctl enable-event -u $'ev\r\e[2K'
like "$ERR" "^Error: event rule 'ev\\\\x0d\\\\x1b\\[2K'|^Error: .*ev\\\\x0d\\\\x1b\\[2K" "an invalid event name is printed escaped"
run lttctl list "bad${ESC}name"
ok "$(raw "$OUT"; echo $((!$?)))" "list of an invalid name prints no control character"

# --- paths: lttctl prints them, the daemon logs them
dir="$TEST_TMP/x${ESC}]0;pwn"$'\a\n'"Info: forged"
run lttctl create p -o "$dir"
is "$RC" 0 "a session whose output path holds control characters and a newline"
is "$(sed -n 2p <<<"$OUT")" "Traces will be written in $TEST_TMP/x\\x1b]0;pwn\\x07\\x0aInfo: forged" \
	"create prints the path escaped, on one line"
run lttctl list
ok "$(raw "$OUT"; echo $((!$?)))" "list prints no control character"
like "$OUT" "^  2\\) p \\($TEST_TMP/x\\\\x1b\\]0;pwn\\\\x07\\\\x0aInfo: forged\\)" "list shows the path escaped"
run lttctl list p
like "$OUT" "^Session p \\($TEST_TMP/x\\\\x1b" "list NAME shows it escaped"
ok "$(raw "$(cat "$SESSIOND_LOG")"; echo $((!$?)))" "the daemon's log holds no control character"
is "$(grep -c "session 'p' created by uid $(id -u), output '$TEST_TMP/x\\\\x1b\\]0;pwn\\\\x07\\\\x0aInfo: forged'\$" "$SESSIOND_LOG")" 1 \
	"the daemon logs the path escaped, on the session's own line"
is "$(grep -c '^Info: forged' "$SESSIOND_LOG")" 0 "no forged line starts in the log"

# --- program names (a program's path and comm, which any user chooses)
evil="$TEST_TMP/e${ESC}[7m"$'\a'
cp "$UST_APP" "$evil"
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
(
	close_fifos
	exec timeout "$TEST_TIMEOUT" "$evil" -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 1
) &
app=$!
wait_ready $ready
ok $? "a program named e ESC [7m BEL registered"
run lttctl list -u
ok "$(raw "$OUT"; echo $((!$?)))" "list -u prints no control character"
like "$OUT" "^PID: $READY_PIDS - Name: $TEST_TMP/e\\\\x1b\\[7m\\\\x07\$" "list -u shows the program's path escaped"
echo go >&$go
wait $app
ok "$(raw "$(cat "$SESSIOND_LOG")"; echo $((!$?)))" "the daemon's log holds no control character after it"
like "$(cat "$SESSIOND_LOG")" "e\\\\x1b\\[7m\\\\x07 \\(pid $READY_PIDS, uid $(id -u)\\) registered" \
	"the daemon logs the program's name escaped"

done_testing
