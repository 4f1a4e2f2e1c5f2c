#!/bin/bash
# test_rotation_clear.sh - lttctl clear under load (after a clear the trace holds
# only later events, once each, and stays a valid trace), of a stopped
# session (no rotation then until a start, as LTTng), of several sessions
# (-a), with archives kept; and lttctl
# regenerate metadata | statedump.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 35

# count_role FILE ROLE: ltt_test:seq events of ROLE in FILE.
count_role() {
	grep -c "role = \"$2\"" "$1"
}

# dups FILE ROLE: how many (thread, seq) pairs of ROLE appear twice or more.
dups() {
	awk -v role="$2" '/ ltt_test:seq: / {
		if (!match($0, /role = "[^"]*"/) || substr($0, RSTART + 8, RLENGTH - 9) != role) next
		match($0, /thread = -?[0-9]+/); t = substr($0, RSTART, RLENGTH)
		match($0, /seq = [0-9]+/); s = substr($0, RSTART, RLENGTH)
		if (seen[t, s]++) d++
	} END { print d + 0 }' "$1"
}

new_session() {
	lttctl -q create "$1" -o "$TEST_TMP/$1" &&
		lttctl -q enable-event -u ltt_test:seq -s "$1" &&
		lttctl -q start "$1" || { echo "Bail out! session $1"; exit 1; }
}

# --- 1. clear under load ----------------------------------------------
new_session c
ust_app -n 5000 -r before
open_fifo READY "$TEST_TMP/ready" && open_fifo GO "$TEST_TMP/go"
ust_app_bg -t 2 -n 1000000 -r during -w "$TEST_TMP/ready" -s "$TEST_TMP/go"
app=$BG_PID
wait_ready $READY || { echo "Bail out! the program did not register"; exit 1; }
close_fd $GO
clears=0 failed=0
while proc_alive "$READY_PIDS" && [ $clears -lt 20 ]; do
	lttctl -q clear c || failed=$((failed + 1))
	clears=$((clears + 1))
done
wait $app
is $? 0 "clear under load: the program wrote its events while lttctl cleared $clears times"
is $failed 0 "clear under load: every clear succeeded"
ust_app -n 5000 -r after
lttctl -q stop c
bt "$TEST_TMP/c" "$TEST_TMP/c.out"
is $? 0 "clear under load: babeltrace2 reads the trace (its metadata is there)"
is "$(count_role "$TEST_TMP/c.out" before)" 0 "clear under load: no event from before the clears"
is "$(count_role "$TEST_TMP/c.out" after)" 5000 "clear under load: every event after the clears, ..."
is "$(dups "$TEST_TMP/c.out" after)" 0 "... once each"
is "$(dups "$TEST_TMP/c.out" during)" 0 "clear under load: no event of the program written twice"
diag "events of the program kept after the last clear: $(count_role "$TEST_TMP/c.out" during) of 2000000"

# --- 2. clear of a stopped session, then start again --------------------
ok_cmd "clear of a stopped session" lttctl clear c
run lttctl rotate c
like "$RC:$ERR" "^1:Error: .*cleared since it stopped" \
	"a rotation after a clear of the stopped session: refused, as LTTng (its chunk would be empty)"
is "$(ls "$TEST_TMP/c")" "ust" "  nothing archived: the output holds its trace only"
bt "$TEST_TMP/c" "$TEST_TMP/c2.out"
is "$?:$(wc -l <"$TEST_TMP/c2.out")" "0:0" "the cleared trace is valid and empty"
lttctl -q start c
ust_app -n 2000 -r again
lttctl -q stop c
bt "$TEST_TMP/c" "$TEST_TMP/c3.out"
is "$(count_role "$TEST_TMP/c3.out" again):$(wc -l <"$TEST_TMP/c3.out")" "2000:2000" \
	"started again, the trace holds only the new events"
ok_cmd "started since the clear: the stopped session rotates again" lttctl -q rotate c
lttctl -q destroy c

# --- 3. clear -a, and archives stay -----------------------------------
new_session a1
new_session a2
ust_app -n 1000 -r old
arch=$(lttctl -q rotate a1)
ust_app -n 1000 -r mid
run lttctl clear a1 -a
is "$RC" 2 "clear NAME -a is a usage error"
ok_cmd "clear -a" lttctl clear -a
ust_app -n 1000 -r new
lttctl -q stop a1 && lttctl -q stop a2
bt "$TEST_TMP/a2" "$TEST_TMP/a2.out"
is "$(count_role "$TEST_TMP/a2.out" old):$(count_role "$TEST_TMP/a2.out" mid):$(count_role "$TEST_TMP/a2.out" new)" \
	"0:0:1000" "clear -a cleared the second session too"
bt "$arch" "$TEST_TMP/arch.out"
is "$(count_role "$TEST_TMP/arch.out" old)" 1000 "clear keeps the archived chunks"
lttctl -q destroy a1 && lttctl -q destroy a2

# --- 4. refusals -------------------------------------------------------
lttctl -q create idle -o "$TEST_TMP/idle" && lttctl -q enable-event -u ltt_test:seq -s idle
ok_cmd "clear of a session never started: nothing to drop" lttctl clear idle
lttctl -q create nout --no-output
ok_cmd "clear of a session without output: taken, as LTTng (its buffers emptied: test_rotation_snapshot.sh)" \
	lttctl clear nout
run lttctl clear nosuch
is "$RC" 1 "clear of an unknown session exits 1"

# --- 5. regenerate ------------------------------------------------------
new_session m
ust_app -n 1000 -r m1
ok_cmd "regenerate metadata" lttctl regenerate metadata -s m
ust_app -n 1000 -r m2
lttctl -q stop m
bt "$TEST_TMP/m" "$TEST_TMP/m.out"
is "$?:$(count_role "$TEST_TMP/m.out" m1):$(count_role "$TEST_TMP/m.out" m2)" "0:1000:1000" \
	"after regenerate metadata the trace reads whole"
is "$(babeltrace2 --output-format=ctf-metadata "$TEST_TMP/m/ust/uid/$(id -u)/64-bit" | grep -c '^trace {')" 1 \
	"the metadata was written again, not appended: one trace block"
is "$(babeltrace2 --output-format=ctf-metadata "$TEST_TMP/m/ust/uid/$(id -u)/64-bit" | grep -c 'name = "ltt_test:seq"')" 1 \
	"the event's description is there once"
run lttctl regenerate statedump -s m
is "$RC:$ERR" "1:Error: session 'm': the session is not started" \
	"regenerate statedump of a stopped user-space session: refused, not recording (test_ust_statedump.sh: a recording one)"
run lttctl regenerate clocks -s m
is "$RC" 2 "regenerate of something else is a usage error"
run lttctl regenerate metadata -s nout
is "$RC:$ERR" "1:Error: session 'nout': the session is not started" \
	"regenerate metadata of a session never started: refused, as LTTng (SESSION_NOT_STARTED)"
lttctl -q enable-event -u ltt_test:seq -s nout && lttctl -q start nout || { echo "Bail out! session nout"; exit 1; }
run lttctl regenerate metadata -s nout
is "$RC" 0 "regenerate metadata of a session without output: taken, as LTTng (its snapshots hold the new text)"
run lttctl regenerate metadata -s nosuch
is "$RC" 1 "regenerate metadata of an unknown session exits 1"
# per-PID buffers: refused, as LTTng refuses them (its reason); the trace
# goes on whole (a live session's: test_relay_regen.sh)
lttctl -q create mp -o "$TEST_TMP/mp" && lttctl -q enable-channel -u --buffers-pid -s mp cp &&
	lttctl -q enable-event -u ltt_test:seq -s mp -c cp && lttctl -q start mp ||
	{ echo "Bail out! session mp"; exit 1; }
ust_app -n 10 -r p1
run lttctl regenerate metadata -s mp
like "$RC:$ERR" "^1:Error: .*per-PID recording sessions are not supported" \
	"regenerate metadata of a per-PID session: refused, as LTTng"
ust_app -n 10 -r p2
lttctl -q destroy mp
bt "$TEST_TMP/mp" "$TEST_TMP/mp.out"
is "$?:$(count_role "$TEST_TMP/mp.out" p1):$(count_role "$TEST_TMP/mp.out" p2)" "0:10:10" "  its trace reads whole"
lttctl -q destroy m
# a snapshot session: the next snapshots hold the new metadata, whole
lttctl -q create ms --snapshot -o "$TEST_TMP/ms" && lttctl -q enable-event -u ltt_test:seq -s ms &&
	lttctl -q start ms || { echo "Bail out! session ms"; exit 1; }
ust_app -n 300 -r s1
ok_cmd "regenerate metadata of a snapshot session" lttctl regenerate metadata -s ms
ust_app -n 200 -r s2
ok_cmd "snapshot record after it" lttctl -q snapshot record -s ms
snap=$(find "$TEST_TMP/ms" -name metadata -printf '%h\n' | head -1)
bt "$snap" "$TEST_TMP/ms.out"
is "$?:$(count_role "$TEST_TMP/ms.out" s1):$(count_role "$TEST_TMP/ms.out" s2)" "0:300:200" \
	"the snapshot reads whole: every event before and after the regeneration"
is "$(babeltrace2 --output-format=ctf-metadata "$snap" | grep -c '^trace {')" 1 \
	"its metadata is the new text alone: one trace block"
lttctl -q destroy ms
done_testing
