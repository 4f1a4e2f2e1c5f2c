#!/bin/bash
# test_ust_output_removed.sh - a running trace's files lose their names while
# a program records (issue 51): the trace's directory removed, or only the
# stream files.  The writes into an unlinked file would succeed, so the
# consumer checks the files' link count around each packet: once they are
# gone, every packet is read, dropped and counted lost (nothing waits in
# the buffers for a 'start' that cannot come), and stop and list say how
# many and why.  Committed = recorded + counted, exactly: each session
# records a first round whole (stop writes it out), then its files go,
# then a second round is all counted lost.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 16

N1=1000 N2=5000

# list_field SESSION LABEL: the value after "LABEL: " in 'lttctl list SESSION'.
list_field() {
	lttctl list "$1" | sed -n "s/^ *$2: //p"
}

# recorded DIR: the ltt_test:seq events of the trace under DIR.
recorded() {
	timeout "$BT_TIMEOUT" babeltrace2 "$1" 2>/dev/null | grep -c 'ltt_test:seq'
}

# session NAME REMOVE: NAME records round 1 whole, then REMOVE (a shell
# command) takes its files' names, then round 2 (of the one program that
# lives through both); STOP_ERR is stop's message.
session() {
	local name=$1 remove=$2 out="$TEST_TMP/$1" app

	open_fifo ready "$TEST_TMP/$name.ready"
	open_fifo done "$TEST_TMP/$name.done"
	open_fifo rounds "$TEST_TMP/$name.rounds"
	lttctl -q create "$name" -o "$out" && lttctl -q enable-event -u ltt_test:seq &&
		lttctl -q start
	ok $? "$name: session started"
	(
		close_fifos
		exec timeout $((TEST_TIMEOUT * 4)) "$UST_APP" -n $N1 -r r -e 5 \
			-w "$TEST_TMP/$name.ready" -k "$TEST_TMP/$name.done" -p "$TEST_TMP/$name.rounds"
	) &
	app=$!
	wait_ready $ready || { echo "Bail out! the program did not register"; exit 1; }
	echo go >&$rounds
	wait_done $done
	lttctl -q stop "$name"
	is "$(recorded "$out")" $N1 "$name: round 1's $N1 events are in the trace"
	lttctl -q start "$name"
	eval "$remove"
	# round 2: as many again, N2 / N1 times
	local i
	for ((i = 0; i < N2 / N1; i++)); do
		echo go >&$rounds
		wait_done $done
	done
	run lttctl stop "$name"
	STOP_ERR=$ERR
	close_fd $rounds	# EOF: the program ends
	wait $app
}

gone="the trace's directory or its files were removed (or a path component is not a directory), so this session's trace can't go on; destroy the session and create it again"

# --- the trace's directory removed
session dir 'rm -rf "$TEST_TMP/dir"'
like "$STOP_ERR" "^Warning: channel 'channel0' of session 'dir' can't write its trace under $TEST_TMP/dir since .*: No such file or directory \\(ENOENT\\); $N2 events and [1-9][0-9]* packets were lost because of it, and all it records from now on is lost too: " \
	"stop: the $N2 events of round 2 are lost, counted"
like "$STOP_ERR" "$(sed 's/[()]/\\&/g' <<<"$gone")\$" "... and why: the directory was removed"
is "$(list_field dir 'lost because of output errors' | sed 's/,.*//')" "$N2 events" \
	"list: $N2 events lost because of the output error"
is "$(list_field dir 'output error' | sed 's/, since.*//')" "No such file or directory (ENOENT)" \
	"list: the output error"
is "$((N1 + $(list_field dir 'lost because of output errors' | sed 's/ events.*//')))" $((N1 + N2)) \
	"committed ($((N1 + N2))) = recorded ($N1) + counted lost"
run lttctl start dir
is "$ERR" "Error: session 'dir': output directory $TEST_TMP/dir: $gone" "start: refused with the reason"
ok_cmd "destroy" lttctl destroy dir

# --- only the stream files removed: the directory is still there, the
# files' writes would still succeed
session files 'rm -f "$TEST_TMP"/files/ust/uid/*/64-bit/channel0_*'
like "$STOP_ERR" "^Warning: channel 'channel0' of session 'files' can't write its trace under $TEST_TMP/files since .*: No such file or directory \\(ENOENT\\); $N2 events and [1-9][0-9]* packets were lost because of it, and all it records from now on is lost too: " \
	"files removed: stop says the $N2 events of round 2 are lost"
is "$(list_field files 'lost because of output errors' | sed 's/,.*//')" "$N2 events" \
	"list: $N2 events lost"
ls "$TEST_TMP"/files/ust/uid/*/64-bit/ >"$TEST_TMP/ls-files"
unlike "$(cat "$TEST_TMP/ls-files")" "channel0_" "no stream file came back (nothing was created after the removal)"
ok_cmd "destroy" lttctl destroy files
like "$(cat "$SESSIOND_LOG")" "its files were removed \\(the trace's directory, or they\\): every packet from now on is dropped, counted lost" \
	"the consumer's log says so"
done_testing
