#!/bin/bash
# test_lttng_compat_triggers.sh - LTTng 2.13's triggers on ltt-sessiond
# --lttng-compat, translated onto ltt's own (one engine): Debian's
# /usr/bin/lttng adds, lists (text and --mi xml) and removes triggers,
# lttctl lists what lttng added and lttng what lttctl added; a duplicate
# name gets LTTng's error; what ltt's triggers lack is refused with
# LTTng's NOT_SUPPORTED and a sentence in the daemon's log; the error
# queries list-triggers runs answer with ltt's counters; and a C program
# linked to Debian's liblttng-ctl registers a trigger with a notify
# action, subscribes on LTTng's notification channel
# (sessiond-notification) and receives the notification, its
# evaluation's values included.  As root in its own mount namespace
# (/var/run/lttng), as test_lttng_compat.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
plan 90

lttng_client

lttctl create s1 -o "$TEST_TMP/s1" >/dev/null
lttctl enable-channel -u c1 -s s1 >/dev/null

# --- lttng adds, lttctl lists ---
run lttng add-trigger --name t1 --condition event-rule-matches --type=user \
	--name='compat:ev*' --filter 'i > 3' --log-level=TRACE_INFO.. \
	--capture i --capture '$ctx.vpid' --action notify \
	--action start-session s1 --rate-policy=once-after:3
ok $RC "lttng add-trigger (a user rule with a filter, a log level, captures; two actions)" ||
	diag "$OUT"
like "$STDOUT" "Added trigger \`t1\`" "... and lttng says so"
run lttctl list-triggers
like "$STDOUT" "t1" "lttctl list-triggers shows the trigger lttng added"
like "$STDOUT" "compat:ev\\*" "... with its rule's pattern" || diag "$OUT"
like "$STDOUT" "i > 3" "... its filter"
like "$STDOUT" "ctx.vpid" "... its captures"
like "$STDOUT" "start session \`s1\`, rate policy: once after 3 occurrences" "... and the start-session action's rate policy"
run lttng add-trigger --name t1 --condition event-rule-matches --type=user --name=x \
	--action notify
ok "$([ $RC != 0 ] && echo 0 || echo 1)" "a second trigger named t1 is refused (status $RC)"
like "$OUT" "Trigger already registered" "... with LTTng's TRIGGER_EXISTS"
run lttng add-trigger --condition event-rule-matches --type=user --name=compat:auto \
	--action notify
like "$STDOUT" "Added trigger \`trigger[0-9]*\`" "a trigger lttng does not name gets a daemon's name" ||
	diag "$OUT"
# a name is any text, spaces included, as LTTng's
run lttng add-trigger --name 'some name that is hopefully unique' --condition event-rule-matches \
	--type=user --name=compat:spaced --action notify
like "$RC:$STDOUT" "^0:Added trigger \`some name that is hopefully unique\`" \
	"lttng add-trigger of a name with spaces" || diag "$OUT"
like "$(lttctl list-triggers)" "some name that is hopefully unique" "... lttctl lists it by that name"
run lttng remove-trigger 'some name that is hopefully unique'
like "$RC:$STDOUT" "^0:Removed trigger \`some name that is hopefully unique\`" "... lttng removes it" ||
	diag "$OUT"

# --- lttctl adds, lttng lists ---
lttctl add-trigger --name u1 --condition=channel-buffer-usage-ge --session=s1 -u \
	--channel=c1 --threshold-ratio=0.75 --action=notify >/dev/null
# stop-session: Debian's lttng 2.13.9 aborts writing a rotate-session
# action's MI (it asks a notify action's rate policy of it), whatever the daemon
lttctl add-trigger --name c1 --condition=session-consumed-size-ge --session=s1 \
	--threshold-size=1M --action=stop-session s1 --rate-policy=every:2 >/dev/null
lttctl add-trigger --name r1 --condition=session-rotation-finishes --session=s1 \
	--action=notify --action=snapshot-session s1 >/dev/null
run lttng list-triggers
ok $RC "lttng list-triggers" || diag "$OUT"
like "$STDOUT" "rule: compat:ev\\* \\(type: user tracepoint, filter: i > 3, log level at least INFO\\)" \
	"... shows t1's rule as LTTng writes it"
like "$STDOUT" "start session \`s1\`, rate policy: once after 3 occurrences" "... its second action"
like "$STDOUT" "condition: buffer usage high" "... lttctl's buffer usage trigger"
like "$STDOUT" "threshold \\(ratio\\): 0.75" "... with its ratio" || diag "$OUT"
like "$STDOUT" "condition: session consumed size" "... lttctl's consumed size trigger"
like "$STDOUT" "stop session \`s1\`, rate policy: every 2 occurrences" "... its action and rate policy"
like "$STDOUT" "condition: session rotation completed" "... lttctl's rotation trigger"
like "$STDOUT" "snapshot session \`s1\`" "... and its snapshot action"
unlike "$OUT" "Failed to query errors" "the error queries list-triggers runs are answered"
run lttng --mi xml list-triggers
ok $RC "lttng --mi xml list-triggers" || diag "$OUT"
is "$(grep -o '<trigger><name>[^<]*</name>' <<<"$STDOUT" | sed 's/<[^>]*>//g' | sort | tr '\n' ' ')" \
	"c1 r1 t1 trigger0 u1 " "... lists the five triggers, by name"
like "$STDOUT" "<capture_descriptors><event_expr><event_expr_payload_field><name>i</name>" \
	"... t1's captures"
like "$STDOUT" "<name>total execution failures</name>.*<value>0</value>" \
	"... and the actions' failures ltt counts (none)"
# a user rule's exclusions, each {u32 len} name as LTTng writes them
run lttng add-trigger --name x1 --condition event-rule-matches --type=user --name='compat:ex*' \
	--exclude-name=compat:ex1 --exclude-name=compat:ex2 --action notify
ok $RC "lttng add-trigger of a user rule with two exclusions" || diag "$OUT"
like "$(lttng list-triggers)" "rule: compat:ex\\* \\(type: user tracepoint, exclusions: compat:ex1,compat:ex2\\)" \
	"... lttng list-triggers reads both back"
lttng remove-trigger x1 >/dev/null

# --- what ltt's triggers lack ---
# a user-space probe rule: its binary's descriptor read past, the file opened
# with the client's rights; placed where the daemon traces the kernel
# (test_kernel_tracefs_probe_trigger.sh fires one), else refused saying why
run lttng add-trigger --condition event-rule-matches --type=kernel:uprobe \
	--location="elf:$LTTNG:main" --event-name=up --action notify
if [ "$RC" = 0 ]; then
	like "$(lttctl list-triggers)" "rule: up \\(type: kernel:uprobe, location type: ELF, location: $(readlink -f "$LTTNG"):main\\)" \
		"a kernel:uprobe rule (its binary's descriptor passed) is added, lttctl lists it"
	like "$(lttng list-triggers)" "rule: up \\(type: kernel:uprobe, location type: ELF, location: [^ ]*:main\\)" \
		"... and lttng lists it as LTTng does"
	lttctl remove-trigger "$(lttctl list-triggers | awk '/^- name:/ { n = $3 } /rule: up / { print n }')" >/dev/null
	unlike "$(lttctl list-triggers)" "rule: up " "... and it is removed"
else
	like "$OUT" "^Error: .*" "a kernel:uprobe rule refused where the daemon traces no kernel" || diag "$OUT"
	unlike "$(lttctl list-triggers)" "rule: up " "... not added"
	like "$(cat "$SESSIOND_LOG")" "REGISTER_TRIGGER" "... the daemon's log says why" ||
		diag "$(tail -3 "$SESSIOND_LOG")"
fi

# --- JUL and log4j rules: taken, listed as LTTng lists them (fired below) ---
run lttng add-trigger --name j1 --condition event-rule-matches --type=jul --name=qa.app \
	--log-level=INFO --action notify
ok $RC "lttng add-trigger of a jul:logging rule" || diag "$OUT"
run lttng add-trigger --name l1 --condition event-rule-matches --type=log4j --name='qa.*' \
	--log-level=INFO --action notify
ok $RC "lttng add-trigger of a log4j:logging rule" || diag "$OUT"
run lttng list-triggers
like "$STDOUT" "rule: qa.app \\(type: jul:logging, log level is INFO\\)" \
	"lttng list-triggers shows the JUL rule as LTTng does" || diag "$OUT"
like "$STDOUT" "rule: qa.\\* \\(type: log4j:logging, log level is INFO\\)" "... and the log4j rule"

# --- python rules: taken, listed as LTTng lists them ---
run lttng add-trigger --name py1 --condition event-rule-matches --type=python --name=qa.app \
	--log-level=WARNING --capture msg --action notify
ok $RC "lttng add-trigger of a python:logging rule" || diag "$OUT"
like "$(lttctl list-triggers)" "rule: qa.app \\(type: python:logging, log level is WARNING\\)" \
	"lttctl lists it"
run lttng list-triggers
like "$STDOUT" "name: py1
  owner uid: 0
  condition: event rule matches
    rule: qa.app \\(type: python:logging, log level is WARNING\\)" \
	"lttng list-triggers shows it as LTTng does" || diag "$OUT"

# --- lttng removes ---
run lttng remove-trigger t1
ok $RC "lttng remove-trigger t1" || diag "$OUT"
run lttctl list-triggers
unlike "$STDOUT" "t1" "lttctl list-triggers no longer shows it"
run lttng remove-trigger u1
ok $RC "lttng removes a trigger lttctl added" || diag "$OUT"
run lttng remove-trigger nosuch
ok "$([ $RC != 0 ] && echo 0 || echo 1)" "removing a trigger that does not exist fails (status $RC)"
like "$OUT" "Couldn't find trigger with name \`nosuch\`" "... as lttng says it" || diag "$OUT"

# --- the notification channel, from a program linked to liblttng-ctl ---
SOCKDIR=/var/run/lttng
ok "$([ -S $SOCKDIR/sessiond-notification ] && echo 0 || echo 1)" \
	"the daemon listens on LTTng's notification channel, $SOCKDIR/sessiond-notification"
CLIENT="$TEST_TMP/lttng_notif_client"
cc -o "$CLIENT" "$LTT_TOP_SRCDIR/tests/regression/lttng-compat/lttng_notif_client.c" \
	-llttng-ctl 2>"$TEST_TMP/client-cc.err"
ok $? "the notification client builds against Debian's liblttng-ctl" ||
	diag "$(cat "$TEST_TMP/client-cc.err")"
# an unnamed trigger (lttng_register_trigger()), as LTTng's daemon takes it:
# listed without a name, an identical one refused, removed by what it is
is "$(timeout "$TEST_TIMEOUT" "$CLIENT" anon 'compat:anon*' 2>&1)" \
	"register 0 again 126 unnamed 1 unregister 0 left 0" \
	"an unnamed trigger: registered, again TRIGGER_EXISTS, listed unnamed, unregistered"
unlike "$(lttctl list-triggers)" "compat:anon" "... and ltt keeps none of it"
compat_build
# notif_wait NAME ARGS...: the client in the background, subscribed once
# it wrote "ready" into the fifo; its output in $TEST_TMP/NAME.out
notif_wait() {
	local name=$1 line=
	shift
	mkfifo "$TEST_TMP/$name.ready"
	timeout "$TEST_TIMEOUT" "$CLIENT" "$1" "$TEST_TMP/$name.ready" "${@:2}" \
		>"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" &
	CLIENT_PID=$!
	read -r -t "$TEST_TIMEOUT" line <"$TEST_TMP/$name.ready"
	[ "$line" = ready ]
}
notif_wait ev event n1 'compat:basic' i text nosuch
ok $? "the client registered a trigger with a notify action and subscribed to its condition (a second subscription: ALREADY_SUBSCRIBED)" ||
	diag "$(cat "$TEST_TMP/ev.err")"
N1_PID=$CLIENT_PID
# more than 16 captures (LTT_TRIGGER_CAPTURES_LIMIT: 64), on the same events
caps20=()
for k in 1 2 3 4 5 6; do caps20+=(i text nosuch); done
caps20+=(i text)
notif_wait ev20 event n20 'compat:basic' "${caps20[@]}"
ok $? "a second client registered a trigger of 20 captures and subscribed to its condition" ||
	diag "$(cat "$TEST_TMP/ev20.err")"
run lttctl list-triggers
like "$STDOUT" "n1" "lttctl list-triggers shows the program's trigger"
is "$(sed -n '/^- name: n20$/,/^- name:/p' <<<"$STDOUT" | grep -c '^      - ')" 20 \
	"... and the other's 20 captures"
compat_run 5
wait $N1_PID
ok $? "the client received a notification" || diag "$(cat "$TEST_TMP/ev.err")"
is "$(cat "$TEST_TMP/ev.out")" "trigger n1 captures 3 'été' unavailable" \
	"... of its trigger, with the captures of the one event i == 3 (a missing field: unavailable)"
wait $CLIENT_PID
ok $? "the client of 20 captures received a notification" || diag "$(cat "$TEST_TMP/ev20.err")"
is "$(cat "$TEST_TMP/ev20.out")" \
	"trigger n20 captures$(for k in 1 2 3 4 5 6; do printf " 3 'été' unavailable"; done) 3 'été'" \
	"... with its 20 values, those after the 16th exact"
run lttctl list-triggers
unlike "$STDOUT" "n1" "... and it unregistered its trigger"

# a python rule fires for Debian's own agent (python3-lttngust): the
# daemon tells the agent the rule (its ENABLE), the agent hands the
# logger's records to the tracer, the program's notifier takes them
if python_env && "$PYTHON3" -c 'import lttngust.cmd' 2>/dev/null; then
	notif_wait py python py2 qa.app msg logger_name int_loglevel
	ok $? "a client registered a python:logging trigger and subscribed to its condition" ||
		diag "$(cat "$TEST_TMP/py.err")"
	# (the agent reads the daemon's port in LTTNG_HOME)
	LTTNG_HOME=$HOME compat_run -p "$PYTHON3" -B \
		"$LTT_TOP_SRCDIR/tests/regression/lttng_agent_record.py" 1
	ok $? "a python program logs through Debian's agent under ltt-run" ||
		diag "$(cat "$TEST_TMP/app.err")"
	wait $CLIENT_PID
	ok $? "the client received a notification" || diag "$(cat "$TEST_TMP/py.err")"
	is "$(cat "$TEST_TMP/py.out")" "trigger py2 captures 'skip 0 at 30' 'qa.app' 30" \
		"... of qa.app's first warning, with its captures"
	fired=$(trigger_count py1 fired) dropped=$(trigger_count py1 dropped)
	is "$((fired + dropped))" 2 \
		"py1 (lttng add-trigger): fired ($fired) + dropped ($dropped) = qa.app's 2 records of level WARNING"
else
	skip 5 "Debian's python3-lttngust is not installed (scripts/deps.sh)"
fi
run lttng remove-trigger py1
ok $RC "lttng remove-trigger py1" || diag "$OUT"

# the JUL and log4j rules j1 and l1, and a client's, fired by Debian's
# Java agents (liblttng-ust-agent-java) under ltt-run, told the rules by
# the triggers alone
JARS=/usr/share/java JNI=/usr/lib/x86_64-linux-gnu/jni
CP="$JARS/lttng-ust-agent-common.jar:$JARS/lttng-ust-agent-jul.jar:$JARS/lttng-ust-agent-log4j.jar:$JARS/log4j-1.2.jar"
java_ok=$(command -v javac >/dev/null && echo yes)
for j in ${CP//:/ } $JNI/liblttng-ust-jul-jni.so $JNI/liblttng-ust-log4j-jni.so; do
	[ -f "$j" ] || java_ok=
done
if [ -n "$java_ok" ] && javac -d "$TEST_TMP/classes" -cp "$CP" \
	"$LTT_TOP_SRCDIR/tests/regression/java/LttngJavaApp.java" 2>"$TEST_TMP/javac.err"; then
	for fw in jul log4j; do
		notif_wait $fw $fw ${fw}2 qa.app msg logger_name
		# the agent waits for the rule (the trigger's ENABLE), logs 3 INFO records on qa.app
		printf 'enabled qa.app yes\nlog qa.app 3\nexit\n' |
			LTTNG_HOME=$HOME compat_run -p java -cp "$TEST_TMP/classes:$CP" \
				-Djava.library.path="$JNI" LttngJavaApp $fw >"$TEST_TMP/$fw.app"
		like "$?:$(grep -v '^rule ' "$TEST_TMP/$fw.app" | tr '\n' ' ')" \
			"^0:ready enabled qa.app yes count 3 \$" \
			"$fw: Debian's agent is told the trigger's rule and hands on 3 records" ||
			diag "$(cat "$TEST_TMP/$fw.app" "$TEST_TMP/app.err")"
		wait $CLIENT_PID
		ok $? "$fw: the client received a notification" || diag "$(cat "$TEST_TMP/$fw.err")"
		is "$(cat "$TEST_TMP/$fw.out")" "trigger ${fw}2 captures 'hello' 'qa.app'" \
			"... of its trigger, with the record's message and logger"
		t=$([ $fw = jul ] && echo j1 || echo l1)
		fired=$(trigger_count $t fired) dropped=$(trigger_count $t dropped)
		is "$((fired + dropped))" 3 "$t: fired ($fired) + dropped ($dropped) = the 3 records"
	done
else
	skip 8 "no Java compiler or Debian's Java agents (scripts/deps.sh)"
fi
run lttng remove-trigger j1
run lttng remove-trigger l1

lttng create s2 -o "$TEST_TMP/s2" >/dev/null
lttng enable-event -u compat:basic -s s2 >/dev/null
lttng start s2 >/dev/null
notif_wait rot rotation r2 s2
ok $? "a client subscribed to session s2's rotations" || diag "$(cat "$TEST_TMP/rot.err")"
compat_run 5
run lttng rotate s2
ok $RC "lttng rotate s2" || diag "$OUT"
archive=$(sed -n 's/.* is now readable at \(.*\)$/\1/p' <<<"$STDOUT")
wait $CLIENT_PID
ok $? "the client received the rotation's notification" || diag "$(cat "$TEST_TMP/rot.err")"
is "$(cat "$TEST_TMP/rot.out")" "trigger r2 rotation 1 archive $archive" \
	"... with the rotation's id and the archive lttng rotate printed"

# buffer usage: the bytes used and the channel's capacity (4 sub-buffers of 4 KiB)
lttng create s3 -o "$TEST_TMP/s3" >/dev/null
lttng enable-channel -u c3 -s s3 --subbuf-size 4096 --num-subbuf 4 >/dev/null
lttng enable-event -u compat:basic -s s3 -c c3 >/dev/null
lttng start s3 >/dev/null
notif_wait use usage u3 s3 c3
ok $? "a client subscribed to buffer usage high of s3's channel c3 (1 byte)" ||
	diag "$(cat "$TEST_TMP/use.err")"
compat_run 5
wait $CLIENT_PID
ok $? "the client received the buffer usage notification" || diag "$(cat "$TEST_TMP/use.err")"
like "$(cat "$TEST_TMP/use.out")" "^trigger u3 usage [1-9][0-9]* of 16384\$" \
	"... with the bytes used and the channel's capacity, 16384 bytes"
lttng destroy s3 >/dev/null

# an action that fails is counted, and the error query lttng list-triggers runs says so
run lttng add-trigger --name e1 --condition event-rule-matches --type=user --name=compat:basic \
	--filter 'i == 3' --action start-session s2 --action notify
ok $RC "lttng add-trigger e1: start s2, which is active (it fails), then notify" || diag "$OUT"
# as LTTng: an action on a session that does not exist yet is added, and
# fails when it runs; captures of a context ltt lacks and of an app context
# are taken, their values unavailable
run lttng add-trigger --name e2 --condition event-rule-matches --type=user --name=compat:basic \
	--filter 'i == 3' --capture '$ctx.foo[2]' --capture '$app.prov:type' \
	--action stop-session later --action notify
ok $RC "lttng add-trigger e2: stop a session that does not exist yet; \$ctx.foo[2], \$app.prov:type" ||
	diag "$OUT"
open_fifo W "$TEST_TMP/w"
lttctl wait-trigger e1 --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w.out" 2>&"$W" &
WAITER=$!
read_line "$W" && [[ $LINE == "Waiting for trigger "* ]]
ok $? "lttctl wait-trigger waits for the trigger lttng added"
open_fifo W2 "$TEST_TMP/w2"
lttctl wait-trigger e2 --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w2.out" 2>&"$W2" &
WAITER2=$!
read_line "$W2" && [[ $LINE == "Waiting for trigger "* ]]
compat_run 5
wait $WAITER
ok $? "... and gets its notification, after its start-session action ran"
wait $WAITER2
ok $? "e2 notifies too, after its stop-session ran"
like "$(cat "$TEST_TMP/w2.out")" 'captures: \$ctx\.foo\[2\]=unavailable, \$app\.prov:type=unavailable' \
	"... its two captures unavailable" || diag "$(cat "$TEST_TMP/w2.out")"
run lttng list-triggers
like "$STDOUT" "start session \`s2\`
      errors:
        total execution failures: 1" "lttng list-triggers: the failed start-session is counted (EXECUTE_ERROR_QUERY)" ||
	diag "$OUT"
like "$STDOUT" "stop session \`later\`
      errors:
        total execution failures: 1" "... and e2's stop-session of the session that does not exist" ||
	diag "$OUT"
like "$STDOUT" "captures.*
.*\\\$ctx.foo\\[2\\]
.*\\\$app.prov:type" "... e2's captures, as lttng writes them" || diag "$OUT"

# another major version of the notification protocol is refused
is "$(/usr/bin/python3 - "$SOCKDIR/sessiond-notification" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(struct.pack("=bII", 0, 2, 0) + bytes([2, 0]))
data = b""
while len(data) < 21:
    chunk = s.recv(64)
    if not chunk:
        break
    data += chunk
hs = struct.unpack("=bIIBB", data[:11])
rep = struct.unpack("=bIIb", data[11:21])
print(hs[3], hs[4], rep[0], rep[3], s.recv(1) == b"")
PY
)" "1 1 3 -6 True" \
	"a client of notification protocol 2.0 gets 1.1's handshake, UNSUPPORTED_VERSION, and the connection closed"
like "$(cat "$SESSIOND_LOG")" "speaks the notification protocol 2.0, ltt-sessiond --lttng-compat LTTng 2.13's 1.1: refused" \
	"... and the daemon's log says so"
