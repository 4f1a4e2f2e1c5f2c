#!/bin/bash
# test_rotation.sh - trace chunks of a local session: rotation under load
# (every archive a trace of its own; across all of them each event once,
# none lost beyond what the buffers counted), rotation with tracefile
# size/count limits, timer and size schedules, and the refusals that
# change nothing.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 55

# --- 1. rotation under load -------------------------------------------
T=2 N=1000000
lttctl -q create load -o "$TEST_TMP/load" &&
	lttctl -q enable-event -u ltt_test:seq -s load &&
	lttctl -q start load || { echo "Bail out! session load"; exit 1; }
rotate_under_load load 40 $T $N
rotations=$ROTATIONS out=$ROT_OUT
is $APP_RC 0 "load: the program wrote $((T * N)) events while lttctl rotated $rotations times"
is $FAILED_ROT 0 "load: every rotation succeeded"
like "$out" "^Trace chunk archive for session load is now readable at $TEST_TMP/load/archives/[0-9]{8}T[0-9]{6}[-+][0-9]{4}-[0-9]{8}T[0-9]{6}[-+][0-9]{4}-[0-9]+\$" \
	"load: rotate prints the archive's path, named BEGIN-END-N"
lttctl -q stop load
LOST=$(lttctl list load | sed -n 's/^ *discarded events: //p')
list_chunk=$(lttctl list load | sed -n 's/^Trace chunk: \([0-9]*\);.*/\1/p')
is "$list_chunk" "$rotations" "load: list shows the current chunk's number"
lttctl -q destroy load
is "$(archives "$TEST_TMP/load" | wc -l)" $((rotations + 1)) \
	"load: destroy archived the last chunk: one archive per chunk"
read -r bad full <<<"$(read_chunks -m "$TEST_TMP/load.out" $(archives "$TEST_TMP/load"))"
is "$bad" 0 "load: babeltrace2 reads every archive alone, each with its metadata"
ok "$([ "$full" -ge 2 ] && echo 0 || echo 1)" \
	"load: events are in $full archives: rotations fell while the program wrote"
read -r dup range distinct <<<"$(dups_and_range "$TEST_TMP/load.out" load $T $N)"
is "$dup" 0 "load: no event is in two chunks"
is "$range" 0 "load: no event out of range"
is $((distinct + ${LOST:-0})) $((T * N)) \
	"load: recorded ($distinct) + discarded (${LOST:-0}) == emitted, across the chunks"
[ $rotations -gt 0 ] && last=$(archives "$TEST_TMP/load" | head -1)
is "$(ls "$last/ust/uid/$(id -u)/64-bit" | grep -c '^channel0_[0-9]*$')" \
	"$(ls "$(archives "$TEST_TMP/load" | tail -1)/ust/uid/$(id -u)/64-bit" | grep -c '^channel0_[0-9]*$')" \
	"load: every chunk has a file per stream"

# --- 2. rotation with tracefile size and count limits ------------------
lttctl -q create tf -o "$TEST_TMP/tf" &&
	lttctl -q enable-channel -u tfc --subbuf-size 4096 --num-subbuf 8 \
		--tracefile-size 16384 --tracefile-count 3 -s tf &&
	lttctl -q enable-event -u ltt_test:seq -c tfc -s tf &&
	lttctl -q start tf || { echo "Bail out! session tf"; exit 1; }
ust_app -n 3000 -r a
tf_arch=$(lttctl -q rotate tf)
ust_app -n 3000 -r b
lttctl -q stop tf
lttctl -q destroy tf
tdir="ust/uid/$(id -u)/64-bit"
n0=$(ls "$tf_arch/$tdir" | grep -c '^tfc_0_[0-9]*$')
ok "$([ "$n0" -ge 1 ] && [ "$n0" -le 3 ] && echo 0 || echo 1)" \
	"tracefile limits in a chunk: CPU 0 kept $n0 files (at most 3)"
like "$(ls "$tf_arch/$tdir" | grep '^tfc_0_' | head -1)" '^tfc_0_[0-9]+$' \
	"tracefile limits: files are named CHANNEL_CPU_N in the archive"
second=$(archives "$TEST_TMP/tf" | tail -1)
ok "$(ls "$second/$tdir" | grep -q '^tfc_[0-9]*_0$' && echo 0 || echo 1)" \
	"tracefile limits: the next chunk starts again at file 0"
bt "$tf_arch" "$TEST_TMP/tf1.out"
is $? 0 "tracefile limits: the first archive reads alone"
is "$(grep -c 'role = "b"' "$TEST_TMP/tf1.out")" 0 \
	"tracefile limits: the first archive has no event written after the rotation"
bt "$second" "$TEST_TMP/tf2.out"
read -r dup range distinct <<<"$(dups_and_range "$TEST_TMP/tf2.out" b 1 3000)"
is "$dup $range" "0 0" "tracefile limits: the second archive has b's events once each"

# --- 3. timer rotation -------------------------------------------------
# far: the longest period taken (UINT64_MAX / 1000 us, some 584 000 years),
# which the daemon's monotonic clock plus the period wrapped past 2^64 ns:
# it rotated at every look of the scheduler (50 ms)
lttctl -q create far -o "$TEST_TMP/far" &&
	lttctl -q enable-event -u ltt_test:seq -s far &&
	lttctl -q enable-rotation -s far --timer 18446744073709551 &&
	lttctl -q start far || { echo "Bail out! session far"; exit 1; }
lttctl -q create tm -o "$TEST_TMP/tm" &&
	lttctl -q enable-event -u ltt_test:seq -s tm &&
	lttctl -q start tm || { echo "Bail out! session tm"; exit 1; }
ust_app -n 1000 -r t
ok_cmd "enable-rotation --timer" lttctl enable-rotation -s tm --timer 200000
like "$(lttctl list tm)" "Automatic rotation schedule: every 200000 us" "list shows the timer schedule"
wait_archives "$TEST_TMP/tm" 2
is $? 0 "the timer rotated the session twice"
is "$(narchives "$TEST_TMP/far")" 0 "meanwhile a period of UINT64_MAX / 1000 us never fell"
lttctl -q destroy far
ok_cmd "disable-rotation --timer" lttctl disable-rotation -s tm --timer
unlike "$(lttctl list tm)" "Automatic rotation" "list shows no schedule any more"
lttctl -q stop tm
lttctl -q destroy tm
read -r bad full <<<"$(read_chunks -m "$TEST_TMP/tm.out" $(archives "$TEST_TMP/tm"))"
is "$bad" 0 "timer: each archive reads alone"
read -r dup range distinct <<<"$(dups_and_range "$TEST_TMP/tm.out" t 1 1000)"
is "$dup $range $distinct" "0 0 1000" "timer: the events are in the archives once each"

# --- 4. size rotation --------------------------------------------------
lttctl -q create sz -o "$TEST_TMP/sz" &&
	lttctl -q enable-event -u ltt_test:seq -s sz &&
	lttctl -q start sz || { echo "Bail out! session sz"; exit 1; }
ok_cmd "enable-rotation --size 1M" lttctl enable-rotation -s sz --size 1M
like "$(lttctl list sz)" "each time 1 MiB are written" "list shows the size schedule"
ust_app -n 200000 -r s
wait_fs "$TEST_TMP/sz/archives" -- test -d "$TEST_TMP/sz/archives"
is $? 0 "writing more than 1 MiB rotated the session"
lttctl -q stop sz
lttctl -q destroy sz
read -r bad full <<<"$(read_chunks -m "$TEST_TMP/sz.out" $(archives "$TEST_TMP/sz"))"
is "$bad" 0 "size: each archive reads alone"

# --- 5. rotation of a stopped session ----------------------------------
lttctl -q create st -o "$TEST_TMP/st" &&
	lttctl -q enable-event -u ltt_test:seq -s st &&
	lttctl -q start st || { echo "Bail out! session st"; exit 1; }
ust_app -n 1000 -r one
lttctl -q stop st
st_arch=$(lttctl -q rotate st)
is $? 0 "a stopped session rotates"
lttctl -q start st
ust_app -n 1000 -r two
lttctl -q stop st
lttctl -q destroy st
bt "$st_arch" "$TEST_TMP/st1.out"
bt "$(archives "$TEST_TMP/st" | grep -v -F "$st_arch")" "$TEST_TMP/st2.out"
is "$(grep -c 'role = "one"' "$TEST_TMP/st1.out"):$(grep -c 'role = "two"' "$TEST_TMP/st2.out"):$(grep -c 'role = "one"' "$TEST_TMP/st2.out")" \
	"1000:1000:0" "started again, the session records into the new chunk"

# rotate, stop, rotate, destroy (lttng-tools' rotation/test_ust): two
# chunks, as LTTng's; the rotation of the stopped session ended the chunk
# (a second one is refused, as LTTng's) and destroy archives nothing more
lttctl -q create rs -o "$TEST_TMP/rs" &&
	lttctl -q enable-event -u ltt_test:seq -s rs &&
	lttctl -q start rs || { echo "Bail out! session rs"; exit 1; }
ust_app -n 10 -r first
lttctl -q rotate rs
ust_app -n 20 -r second
lttctl -q stop rs
ok_cmd "rotate the stopped session" lttctl rotate rs
run lttctl rotate rs
like "$RC:$ERR" "^1:Error: .*already rotated once since it stopped" "a second rotation before a start: refused, as LTTng"
lttctl -q destroy rs
is "$(narchives "$TEST_TMP/rs")" 2 "rotate, stop, rotate, destroy: two archives, as LTTng"
is "$(ls "$TEST_TMP/rs")" "archives" "  and no other chunk left in the output"
read -r bad full <<<"$(read_chunks "$TEST_TMP/rs.out" $(archives "$TEST_TMP/rs"))"
is "$bad:$full:$(grep -c 'role = "first"' "$TEST_TMP/rs.out"):$(grep -c 'role = "second"' "$TEST_TMP/rs.out")" \
	"0:2:10:20" "  each reads alone, the first holds the 10 events before the rotation, the second the 20 after"

# a session that records nothing has its ust/ from its start on, as LTTng's
lttctl -q create em -o "$TEST_TMP/em" && lttctl -q enable-event -u ltt_test:seq -s em
ok $([ ! -e "$TEST_TMP/em" ]; echo $?) "nothing written before start"
lttctl -q start em
ok $([ -d "$TEST_TMP/em/ust" ]; echo $?) "started, no program: OUTPUT/ust exists"
lttctl -q stop em && lttctl -q destroy em
is "$(find "$TEST_TMP/em" -mindepth 1)" "$TEST_TMP/em/ust" "  destroyed: ust/ stays, nothing else"

# --- 6. refusals that change nothing ----------------------------------
lttctl -q create idle -o "$TEST_TMP/idle" && lttctl -q enable-event -u ltt_test:seq -s idle
before=$(lttctl list idle)
run lttctl rotate idle
is "$RC" 1 "rotate of a session never started exits 1"
like "$ERR" "never started" "... and says why"
run lttctl enable-rotation -s idle
is "$RC" 2 "enable-rotation without --timer or --size is a usage error"
run lttctl enable-rotation -s idle --timer 10
is "$RC:$(lttctl list idle | grep -c 'every 10 us')" 0:1 \
	"a timer of 10 us is taken, as LTTng takes any period above 0 (test_lttng_compat_errors.sh: what it rotates)"
lttctl -q disable-rotation -s idle --timer
run lttctl enable-rotation -s idle --timer 18446744073709552
like "$RC:$ERR" "^2:.*--timer takes a period above 0 and at most 18446744073709551 us" \
	"a period past 2^64 ns is refused, the message says the bound it passed"
run lttctl enable-rotation -s idle --size 1k
is "$RC:$(lttctl list idle | grep -c 'each time 1 KiB are written')" 0:1 \
	"a size of 1 KiB is taken, as LTTng takes any size above 0"
run lttctl enable-rotation -s idle --size 0
is "$RC" 2 "a size of 0 is a usage error"
lttctl -q disable-rotation -s idle --size
run lttctl disable-rotation -s idle --size
like "$RC:$ERR" "^1:.*no such rotation schedule" "disable-rotation of a schedule not set is refused"
run lttctl enable-rotation -s nosuch --timer 1000000
is "$RC" 1 "enable-rotation of an unknown session exits 1"
# a live session rotates neither by hand nor on a schedule, as LTTng's (the
# relay is reached at start: none needed to be refused)
lttctl -q create lv --live=1000000 --set-url net://127.0.0.1:1:2 && lttctl -q enable-event -u ltt_test:seq -s lv
lv_before=$(lttctl list lv)
run lttctl rotate lv
like "$RC:$ERR" "^1:Error: .*rotation is not available for live sessions" "rotate of a live session: refused, as LTTng"
run lttctl enable-rotation -s lv --timer 500ms
like "$RC:$ERR" "^1:Error: .*rotation is not available for live sessions" "enable-rotation --timer 500ms of a live session: refused"
run lttctl enable-rotation -s lv --size 1M
like "$RC:$ERR" "^1:Error: .*rotation is not available for live sessions" "enable-rotation --size of a live session: refused"
is "$(lttctl list lv)" "$lv_before" "  no schedule set"
lttctl -q destroy lv
lttctl -q create nout --no-output
run lttctl enable-rotation -s nout --timer 1000000
like "$RC:$ERR" "^1:.*no output to rotate" "a session without output can't rotate"
is "$(lttctl list idle)" "$before" "after the refusals, list shows the session unchanged"
ok "$([ ! -e "$TEST_TMP/idle/archives" ] && echo 0 || echo 1)" "... and no archive was made"
done_testing
