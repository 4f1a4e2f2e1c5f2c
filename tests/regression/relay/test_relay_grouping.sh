#!/bin/bash
# ltt-relayd's LTTng options for where it runs and writes: -w /
# --working-directory (and LTTng's --working-dir spelling,
# $LTT_RELAYD_WORKING_DIRECTORY, LTTng's $LTTNG_RELAYD_WORKING_DIRECTORY;
# the option wins; a relative -o is taken from it; -b and -d without it
# run in /; a missing one refused at start), --group-output-by-host (the
# default: HOST/SESSION-DATE, HOST/BASE, HOST/NAME when the name holds
# its date) and --group-output-by-session (SESSION/HOST-DATE[/BASE]),
# both refused together; and a session daemon's streamed, live and
# snapshot sessions written where LTTng's relay writes them in each
# layout (snapshots in the session's directory: SESSION-DATE/NAME-DATE-N;
# snapshot record's empty URL, which LTTng's tests pass, is none).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"
relayd_init
DATE='[0-9]{8}-[0-9]{6}'
host=$(hostname)
UID_PATH="ust/uid/$(id -u)/64-bit"
N=100

# cwd_of: the running relay's working directory.
cwd_of() { readlink "/proc/$RELAYD_PID/cwd"; }

# --- -w and its variables
mkdir -p "$TEST_TMP/wd" "$TEST_TMP/wd-env" "$TEST_TMP/wd-lttng" "$TEST_TMP/start"
(cd "$TEST_TMP/start" && start_relayd -w "$TEST_TMP/wd" -o out) &&
	RELAYD_PID=$(cat "$RELAYD_PIDFILE") CPORT=$(cat "$LTT_RUNDIR/relayd-control.port") \
	DPORT=$(cat "$LTT_RUNDIR/relayd-data.port")
is "$?" 0 "-b -w DIR: starts"
is "$(cwd_of)" "$TEST_TMP/wd" "-w DIR: the relay runs in DIR"
run relay_client --session w pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $TEST_TMP/wd/out/testhost/w-$DATE\$" \
	"a relative -o is taken from the working directory"
stop_relayd

start_relayd
is "$(cwd_of)" "/" "-b without -w: the relay runs in / (as LTTng's)"
stop_relayd

LTT_RELAYD_WORKING_DIRECTORY="$TEST_TMP/wd-env" start_relayd
is "$(cwd_of)" "$TEST_TMP/wd-env" "LTT_RELAYD_WORKING_DIRECTORY: the relay runs there"
stop_relayd
LTTNG_RELAYD_WORKING_DIRECTORY="$TEST_TMP/wd-lttng" start_relayd
is "$(cwd_of)" "$TEST_TMP/wd-lttng" "LTTng's LTTNG_RELAYD_WORKING_DIRECTORY: the relay runs there"
stop_relayd
LTTNG_RELAYD_WORKING_DIRECTORY="$TEST_TMP/wd-lttng" start_relayd --working-dir "$TEST_TMP/wd"
is "$(cwd_of)" "$TEST_TMP/wd" "--working-dir (LTTng's tests' spelling) wins over the variable"
stop_relayd

run timeout "$TEST_TIMEOUT" "$RELAYD" -b -w "$TEST_TMP/nowhere" -C tcp://127.0.0.1:0 \
	-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0
is "$RC" 1 "-w of a missing directory: -b returns 1"
is "$OUT" "ltt-relayd: Error: Failed to change working directory to \"$TEST_TMP/nowhere\" (--working-directory): No such file or directory: give an existing directory" \
	"  it says why, in LTTng's words"
ok "$([ ! -e "$LTT_RUNDIR/relayd-control.port" ]; echo $?)" "  nothing listens (no port file)"
run "$RELAYD" -w ""
is "$OUT" $'ltt-relayd: Error: --working-directory: give a directory\nTry \'ltt-relayd --help\'.' \
	"-w '': refused"

# --- the two layouts, with a scripted consumer
run "$RELAYD" --group-output-by-host --group-output-by-session
is "$RC" 1 "both --group-output-by-*: exit 1"
is "$OUT" $'ltt-relayd: Error: choose one of --group-output-by-host and --group-output-by-session\nTry \'ltt-relayd --help\'.' \
	"  says to choose one"

OUTH="$TEST_TMP/by-host"
start_relayd -o "$OUTH" --group-output-by-host
run relay_client --session plain pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $OUTH/testhost/plain-$DATE\$" "by host: HOST/SESSION-DATE"
run relay_client --session based --base-path x/y pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $OUTH/testhost/x/y\$" "by host, a base path: HOST/BASE"
run relay_client --session auto-20200102-030405 --name-has-date pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $OUTH/testhost/auto-20200102-030405\$" \
	"by host, a name that holds its date: HOST/NAME, no second date"
stop_relayd

OUTS="$TEST_TMP/by-session"
start_relayd -o "$OUTS" --group-output-by-session
like "$(cat "$RELAYD_LOG")" "output $OUTS \(grouped by session\)" "the log says how it groups"
run relay_client --session plain pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $OUTS/plain/testhost-$DATE\$" "by session: SESSION/HOST-DATE"
run relay_client --session based --base-path x/y pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $OUTS/based/testhost-$DATE/x/y\$" "by session, a base path: SESSION/HOST-DATE/BASE"
run relay_client --session auto-20200102-030405 --name-has-date pending "$CPORT" "$DPORT"
like "$OUT" "^OUTPUT $OUTS/auto-20200102-030405/testhost-$DATE\$" \
	"by session, a name that holds its date: SESSION/HOST-DATE"
ok "$([ -d "$OUTS/plain/testhost-"*/ust/uid/0/64-bit/index ]; echo $?)" \
	"the trace is below it"

# --- a session daemon's sessions, grouped by session
URL="net://127.0.0.1:$CPORT:$DPORT"
# record NAME CREATE-ARGS...: N events of the test program, then destroy.
record() {
	local name=$1
	shift
	lttctl -q create "$name" "$@" &&
		lttctl -q enable-event -u ltt_test:seq -s "$name" &&
		lttctl -q start "$name" &&
		ust_app -n "$N" -r "$name" >/dev/null &&
		lttctl -q destroy "$name"
}
# one_dir GLOB: the one directory GLOB names, else nothing.
one_dir() {
	local d=($1)
	[ ${#d[@]} = 1 ] && [ -d "${d[0]}" ] && echo "${d[0]}"
}
# events DIR: the seq events babeltrace2 reads under DIR.
events() {
	bt "$1" "$TEST_TMP/ev.txt" && count_events "$TEST_TMP/ev.txt" ltt_test:seq
}

ok_cmd "a streamed session" record str -U "$URL"
d=$(one_dir "$OUTS/str/$host-*")
like "$d" "^$OUTS/str/$host-$DATE\$" "written in SESSION/HOST-DATE"
is "$(events "$d/$UID_PATH")" "$N" "  its $N events in ust/uid/UID/64-bit"
ok_cmd "a live session" record liv --live=100000 -U "$URL"
is "$(events "$(one_dir "$OUTS/liv/$host-*")")" "$N" "live: SESSION/HOST-DATE, $N events"
ok_cmd "a streamed session with a path" record cus -U "$URL/my_custom"
is "$(events "$(one_dir "$OUTS/cus/$host-*/my_custom")")" "$N" \
	"net://.../my_custom: SESSION/HOST-DATE/my_custom, $N events"

ok_cmd "a snapshot session" lttctl -q create sn --snapshot -U "$URL"
lttctl -q enable-event -u ltt_test:seq -s sn && lttctl -q start sn &&
	ust_app -n "$N" -r sn >/dev/null
run lttctl snapshot record -s sn
is "$RC" 0 "snapshot record"
d=$(tail -n 1 <<<"$STDOUT")
like "$d" "^$OUTS/sn/$host-$DATE/snapshot-1-$DATE-0\$" \
	"the snapshot: SESSION/HOST-DATE/snapshot-1-DATE-0, as lttctl prints"
is "$(events "$d")" "$N" "  its $N events"
lttctl -q snapshot del-output -s sn snapshot-1
ok_cmd "an output with a path and a name" \
	lttctl snapshot add-output -s sn -n mine "$URL/this/is/my/path"
run lttctl snapshot record -s sn
d=$(tail -n 1 <<<"$STDOUT")
like "$d" "^$OUTS/sn/$host-$DATE/this/is/my/path/mine-$DATE-1\$" \
	"  SESSION/HOST-DATE/PATH/NAME-DATE-1"
is "$(events "$d")" "$N" "  its $N events"
lttctl -q destroy sn
stop_relayd

# --- by host, the same snapshot session: the session's own directory
start_relayd -o "$OUTH"
URL="net://127.0.0.1:$CPORT:$DPORT"
ok_cmd "a snapshot session, by host" lttctl -q create sh --snapshot -U "$URL"
lttctl -q enable-event -u ltt_test:seq -s sh && lttctl -q start sh &&
	ust_app -n "$N" -r sh >/dev/null
run lttctl snapshot record -s sh
d=$(tail -n 1 <<<"$STDOUT")
like "$d" "^$OUTH/$host/sh-$DATE/snapshot-1-$DATE-0\$" "by host: HOST/SESSION-DATE/snapshot-1-DATE-0"
is "$(events "$d")" "$N" "  its $N events"
run lttctl snapshot record -s sh ""
is "$RC" 0 "record with an empty URL (LTTng's tests pass one): the session's output"
like "$(tail -n 1 <<<"$STDOUT")" "^$OUTH/$host/sh-$DATE/snapshot-1-$DATE-1\$" \
	"  HOST/SESSION-DATE/snapshot-1-DATE-1"
lttctl -q destroy sh
ok_cmd "a streamed session, by host" record sth -U "$URL"
is "$(events "$(one_dir "$OUTH/$host/sth-*")")" "$N" "HOST/SESSION-DATE, $N events"
stop_relayd
done_testing
