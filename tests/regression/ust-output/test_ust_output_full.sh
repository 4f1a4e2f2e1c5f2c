#!/bin/bash
# test_ust_output_full.sh - the trace's file system fills up while a session
# records (a 1 MiB tmpfs): 'lttctl list' shows the failure (errno, since
# when, what it made lose), 'lttctl stop' warns with the reason, 'lttctl
# start' refuses while there is no room and changes nothing, and once
# space is freed it starts and the session records again: what the
# buffers held is written, and every event emitted is in the trace or
# counted lost, exactly.  Then the trace's directory is removed while it
# records: list and stop say so and start refuses with the reason.  An
# output directory that can't be created (/proc/nope) is refused by
# create, and by start for a session loaded with it, saying so.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
[ "$(id -u)" = 0 ] || skip_all "needs root to mount a small tmpfs"
FS="$TEST_TMP/fs"
mkdir -p "$FS"
mount -t tmpfs -o size=1m,mode=0755 ltt-test "$FS" 2>/dev/null ||
	skip_all "can't mount a tmpfs here"
# Unmounted whatever happens (lazily: a dying consumer may still hold files).
trap 'umount -l "$FS" 2>/dev/null; _cleanup' EXIT
plan 55

# list_field SESSION LABEL: the value after "LABEL: " in 'lttctl list SESSION'.
list_field() {
	lttctl list "$1" | sed -n "s/^ *$2: //p"
}

# recorded FILE: the ltt_test:seq events of a babeltrace2 text output.
recorded() {
	count_events "$1" ltt_test:seq
}

# Leave about 300 KiB free: the session fills it, then the test frees the rest.
dd if=/dev/zero of="$FS/filler" bs=1k count=700 2>/dev/null
ok_cmd "create a session on the small file system" lttctl create full -o "$FS/out"
ok_cmd "a channel of 4 x 16 KiB sub-buffers" \
	lttctl enable-channel -u c --subbuf-size 16k --num-subbuf 4
ok_cmd "enable ltt_test:seq" lttctl enable-event -u -c c ltt_test:seq
ok_cmd "start" lttctl start

N1=100000
ust_app -n $N1 -r first
is $? 0 "a program emits $N1 events (about 4 MB: more than the file system holds)"

run lttctl list full
like "$STDOUT" "^      output error: No space left on device \\(ENOSPC\\), since [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\$" \
	"list: the channel's output error, its errno and since when"
lost1=$(list_field full discarded\ events)
err1=$(list_field full "lost because of output errors" | sed -n 's/^\([0-9]*\) events.*/\1/p')
ok "$([ "${err1:-0}" -gt 0 ] && [ "$err1" -le "$lost1" ]; echo $?)" \
	"list: the events lost because of it ($err1) are counted in the discarded events ($lost1)"

run lttctl stop
is "$RC" 0 "stop: the session stops (exit 0, as with other losses)"
like "$ERR" "^Warning: channel 'c' of session 'full' can't write its trace under $FS/out since [0-9-]+ [0-9:]+: No space left on device \\(ENOSPC\\); [0-9]+ events and 0 packets were lost because of it\\. .*free space and run 'lttctl start' again\$" \
	"stop: a warning with the reason, the directory and what to do"

# No room: start refuses with the reason and changes nothing.
dd if=/dev/zero of="$FS/filler2" bs=4k 2>/dev/null
run lttctl start full
is "$RC" 1 "start on a full file system fails (exit 1)"
is "$ERR" "Error: session 'full': output directory $FS/out: no space left on the trace's file system (or the owner's disk quota is used up); free space and run 'lttctl start' again" \
	"start: the reason, the directory and what to do"
unlike "$OUT" "Tracing started" "start: no 'Tracing started'"
like "$(lttctl list)" "^ *1\\) full \\($FS/out\\) \\[inactive\\]\$" "the session stays stopped"

# Room again: start writes what the buffers held, and records again.
rm -f "$FS/filler" "$FS/filler2"
run lttctl start full
is "$RC" 0 "start once space is freed"
like "$OUT" "^Tracing started for session full\\.\$" "start: tracing started"
run lttctl list full
unlike "$STDOUT" "output error:" "list: no output error any more"
N2=1000
ust_app -n $N2 -r second
is $? 0 "a second program emits $N2 events"
ok_cmd "stop" lttctl stop
lost=$(list_field full discarded\ events)
packets=$(list_field full lost\ packets)
is "$packets" 0 "no packet lost: the one that failed was kept and written later"
bt "$FS/out" "$TEST_TMP/bt"
is $? 0 "babeltrace2 reads the trace (metadata and packets whole)"
rec=$(recorded "$TEST_TMP/bt")
is "$((rec + lost))" "$((N1 + N2))" \
	"recorded ($rec) + counted lost ($lost) = emitted ($((N1 + N2))), exactly"
is "$(grep -c 'role = "second"' "$TEST_TMP/bt")" "$N2" \
	"every event of the second program is recorded"
first=$(grep -c 'role = "first"' "$TEST_TMP/bt")
ok "$([ "$first" -gt 0 ]; echo $?)" "events of the first program recorded before the disk filled ($first)"
is "$(seq_check "$TEST_TMP/bt" second 1 $N2)" "" "the second program's events are all there, once each"
ok_cmd "destroy" lttctl destroy full

# --- no room from the start: the trace's metadata and files can't be made
# when the program registers; kept, they are written once there is room
rm -rf "$FS/out"
ok_cmd "create a session on the small file system again" lttctl create tight -o "$FS/tight"
ok_cmd "its channel" lttctl enable-channel -u c --subbuf-size 16k --num-subbuf 4
ok_cmd "its event" lttctl enable-event -u -c c ltt_test:seq
# Leave one page: start's probe passes, the trace's files then find no room.
pages=$(df --output=avail -B 4096 "$FS" | tail -1)
dd if=/dev/zero of="$FS/filler" bs=4k count=$((pages - 1)) 2>/dev/null
ok_cmd "start with one page left" lttctl start
N3=5000
ust_app -n $N3 -r tight
is $? 0 "a program emits $N3 events"
like "$(lttctl list tight)" "^      output error: No space left on device \\(ENOSPC\\), since " \
	"list: the output error"
rm -f "$FS/filler"
ok_cmd "stop" lttctl stop
ok_cmd "start again, with room" lttctl start
ok_cmd "stop again" lttctl stop
unlike "$(lttctl list tight)" "output error:" "list: no output error any more"
bt "$FS/tight" "$TEST_TMP/bt-tight"
is $? 0 "babeltrace2 reads the trace: its metadata was written once there was room"
rec=$(recorded "$TEST_TMP/bt-tight")
lost=$(list_field tight discarded\ events)
is "$((rec + lost))" "$N3" "recorded ($rec) + counted lost ($lost) = emitted ($N3), exactly"
ok_cmd "destroy" lttctl destroy tight

# --- the trace's directory removed while the session records
ok_cmd "create a second session" lttctl create gone -o "$TEST_TMP/gone"
ok_cmd "its channel" lttctl enable-channel -u c --subbuf-size 16k --num-subbuf 4
ok_cmd "its event" lttctl enable-event -u -c c ltt_test:seq
ok_cmd "start it" lttctl start
ust_app -n 1000 -r before
is $? 0 "a program records (the trace directory exists now)"
rm -rf "$TEST_TMP/gone"
ust_app -n 20000 -r after
is $? 0 "a program records after the directory was removed"

run lttctl list gone
like "$STDOUT" "^      output error: No such file or directory \\(ENOENT\\), since " \
	"list: the removed directory is an output error"
run lttctl stop
like "$ERR" "^Warning: channel 'c' of session 'gone' can't write its trace under $TEST_TMP/gone since .*No such file or directory \\(ENOENT\\).*destroy the session and create it again\$" \
	"stop: a warning that the directory was removed"
run lttctl start gone
is "$ERR" "Error: session 'gone': output directory $TEST_TMP/gone: the trace's directory or its files were removed (or a path component is not a directory), so this session's trace can't go on; destroy the session and create it again" \
	"start: refused with the reason"
run lttctl destroy gone
is "$RC" 0 "destroy gives up what the buffers still hold, without waiting"
unlike "$(lttctl list)" "[0-9]\\) gone " "the session is gone"

# --- an output directory that can't be created (/proc takes no new
# directory; issue 61: create took it and start said it "was removed")
nope=$(sed -n 's/.*X(OUTPUT_CREATE, [0-9]*, "\(.*\)").*/\1/p' "$LTT_TOP_SRCDIR/include/ltt/ltt-error.h")
run lttctl create pn -o /proc/nope
is "$RC:$ERR" "1:Error: output directory '/proc/nope': $nope (No such file or directory); nothing was created" \
	"create -o /proc/nope: refused, the output can't be created"
# its list line: the test's directory's random name may hold "pn"
unlike "$(lttctl list)" "[0-9]\\) pn " "no session pn"
run lttctl create pf -o /etc/passwd/trace
is "$RC:$ERR" "1:Error: output directory '/etc/passwd/trace': $nope (Not a directory); nothing was created" \
	"create under a file: refused"
# one loaded from a file, which the daemon takes as written: start says
# why, and the session stays stopped
lttctl -q create pn -o "$TEST_TMP/pn" && lttctl -q enable-event -u ltt_test:seq -s pn &&
	lttctl -q save pn && lttctl -q destroy pn
sed "s|$TEST_TMP/pn|/proc/nope|" "$LTT_HOME/.lttng/sessions/pn.lttng" >"$TEST_TMP/pn.lttng"
ok_cmd "a session of output /proc/nope loaded" lttctl load -i "$TEST_TMP/pn.lttng" pn
run lttctl start pn
is "$RC:$ERR" "1:Error: session 'pn': output directory /proc/nope: $nope" \
	"its start: refused, the output can't be created (not 'removed')"
like "$(lttctl list pn)" "\[inactive\]" "it stays stopped"
lttctl -q destroy pn
done_testing
