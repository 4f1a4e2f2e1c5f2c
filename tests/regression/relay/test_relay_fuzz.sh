#!/bin/bash
# Seeded fuzz of ltt-relayd's three ports over real loopback connections
# (tests/regression/relay_fuzz.c): random bytes, valid headers with their
# bodies cut short, length fields declaring up to 2^64 - 1 bytes, and
# sessions and streams whose names hold "../", "/", NUL bytes or 4 KiB of
# text, aimed at a directory outside the relay's output.  Afterwards the
# same relay process runs, no connection was left hanging, no hostile
# name was accepted, nothing was written outside its output directory,
# its log shows the refusals and no error of its own, and a real session
# streamed from ltt-sessiond still arrives whole.
#
# LTT_RELAY_FUZZ_SEED and LTT_RELAY_FUZZ_CASES (default 25 and 6000)
# choose the cases; a failure is reproduced with the same two.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

RELAY_FUZZ="$LTT_TOP_BUILDDIR/tests/regression/relay_fuzz"
SEED=${LTT_RELAY_FUZZ_SEED:-25}
CASES=${LTT_RELAY_FUZZ_CASES:-6000}
N=500

ust_setup
relayd_init
[ -x "$RELAY_FUZZ" ] || { echo "Bail out! $RELAY_FUZZ not built"; exit 1; }
plan 28

OUT_ROOT="$TEST_TMP/relay"
ESC="$TEST_TMP/esc"
TAG=${TEST_TMP##*.}
mkdir "$ESC"
# Each case's connection is asserted on by its log line: no rate limit
# here (test_relay_ratelimit.sh tests it).
export LTT_RELAYD_LOG_RATELIMIT=0
start_relayd -o "$OUT_ROOT"
is $? 0 "the relay started"
pid0=$RELAYD_PID
before=$(ls -A "$TEST_TMP" | grep -v -e '^relay$' -e '^\.stderr\.' | sort)

# --- the fuzz
t0=$(date +%s%N)
run timeout $((TEST_TIMEOUT * 6)) "$RELAY_FUZZ" -s "$SEED" -n "$CASES" -t "$TAG" -e "$ESC" \
	"$CPORT" "$DPORT" "$LPORT"
ms=$((($(date +%s%N) - t0) / 1000000))
diag "seed $SEED, $CASES cases in $ms ms:" "$STDOUT"
is "$RC" 0 "the fuzz ran to its end (seed $SEED, $CASES cases)"
[ "$RC" = 0 ] || diag "$ERR"
ctrl=$(sed -n 's/^CONTROL //p' <<<"$STDOUT")
data=$(sed -n 's/^DATA //p' <<<"$STDOUT")
live=$(sed -n 's/^LIVE //p' <<<"$STDOUT")
names=$(sed -n 's/^NAMES sent=\([0-9]*\).*/\1/p' <<<"$STDOUT")
is "$((ctrl + data + live + names))" "$CASES" "every case was sent (control $ctrl, data $data, live $live, names $names)"
ok "$([ "$ctrl" -ge 500 ] && [ "$data" -ge 500 ] && [ "$live" -ge 500 ] && [ "$names" -ge 500 ]; echo $?)" \
	"each port got hundreds of cases"
like "$STDOUT" "^HANGS 0$" "the relay closed every connection once its peer had ended (none left open 10 s)"
like "$STDOUT" "^ESCAPE_ACCEPTED 0$" "no name with '..', '/' or a NUL was accepted"
plain=$(sed -n 's/^PLAIN sent=\([0-9]*\) accepted=\([0-9]*\)$/\1 \2/p' <<<"$STDOUT")
ok "$([ "${plain% *}" -ge 50 ] && [ "${plain% *}" = "${plain#* }" ]; echo $?)" \
	"every plain name among them was accepted (${plain% *} sent, ${plain#* } taken): the replies are read right"
like "$STDOUT" "^NAMES sent=[0-9]+ accepted=[0-9]+ refused=[1-9][0-9]* closed=[1-9][0-9]*$" \
	"hostile names were refused (an error code) or their connection closed"

# --- the same relay lives and nothing left its output directory
ok "$(proc_alive "$pid0"; echo $?)" "the relay still runs"
is "$(cat "$RELAYD_PIDFILE")" "$pid0" "the same process (pid $pid0)"
is "$(find "$TEST_TMP" -path "$OUT_ROOT" -prune -o -name "*escaped-$TAG*" -print)" "" \
	"no file named after the hostile names outside the output directory"
is "$(ls -A "$ESC")" "" "the directory the absolute names aim at is empty"
is "$(ls -d /escaped-"$TAG" "${TMPDIR:-/tmp}"/escaped-"$TAG" 2>/dev/null)" "" \
	"nothing in / or the temporary directory either"
is "$(ls -A "$TEST_TMP" | grep -v -e '^relay$' -e '^\.stderr\.' | sort)" "$before" \
	"the test's directory holds what it held before, and the output directory"
is "$(find "$OUT_ROOT" ! -type d ! -type f | head -n 3)" "" \
	"only directories and files in the output directory (no link)"
ok "$(ls "$OUT_ROOT"/fuzzhost/fzdata-*/ust/uid/0/64-bit/chan_0 >/dev/null; echo $?)" \
	"the fuzz's data session is in it, where the relay puts sessions"

# --- the log: refusals, each naming its peer; no error of the relay's own
peer_re='connection from 127\.0\.0\.1:[0-9]+'
ok "$([ "$(grep -cE "(control|data|live).*$peer_re.*closed" "$RELAYD_LOG")" -ge 100 ]; echo $?)" \
	"the relay logged the connections it closed ($(grep -cE "$peer_re" "$RELAYD_LOG") lines name a peer)"
like "$(cat "$RELAYD_LOG")" "CREATE_SESSION|ADD_STREAM" "and the sessions and streams it refused"
is "$(grep -c -e 'Error' -e 'Assert' -e 'Sanitizer' -e 'Segmentation' "$RELAYD_LOG")" 0 \
	"no error of the relay's own, assertion or crash in its log"

# Names the fuzz found the relay trying to create (and logging an error
# of its own): a path component over NAME_MAX, a session name with no
# room left for its date.  Refused as invalid, nothing created.
long=$(printf 'A%.0s' {1..256})
run relay_client --host h --session s --base-path "x/$long" pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "a base path with a 256-byte component: refused"
run relay_client --host h --session "${long:0:240}" pending "$CPORT" "$DPORT"
like "$OUT" "CREATE_SESSION: .*(invalid|value)" "a 240-byte session name (no base path): refused"
run relay_client --host h --session "${long:0:239}" pending "$CPORT" "$DPORT"
like "$OUT" "^FULL pending=0" "a 239-byte one: taken"
is "$(ls "$OUT_ROOT/h" 2>/dev/null | grep -c -v '^A\{239\}-')" 0 "only the 239-byte one made a directory"
is "$(grep -c -e 'Error' "$RELAYD_LOG")" 0 "and no error of the relay's own"

# --- a real session streamed from the session daemon arrives whole
lttctl -q create good -U "net://127.0.0.1:$CPORT:$DPORT" &&
	lttctl -q enable-event -u 'ltt_test:*' -s good &&
	lttctl -q start good &&
	ust_app -n "$N" >/dev/null &&
	lttctl -q stop good
is $? 0 "a session of the test program streamed to the relay after the fuzz"
dir=$(ls -d "$OUT_ROOT"/*/good-* 2>/dev/null)
bt "$dir" "$TEST_TMP/good.txt"
is "$(count_events "$TEST_TMP/good.txt" ltt_test:seq)" "$N" "babeltrace2 reads its $N seq events from the relay's output"
ok "$(proc_alive "$pid0"; echo $?)" "the relay still runs, the same process"
stop_relayd TERM
is $? 0 "the relay stops on SIGTERM"
done_testing
