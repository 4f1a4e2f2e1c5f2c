#!/bin/bash
# LTTng's Java agents (Debian's liblttng-ust-agent-java: JUL and log4j
# 1.2), unchanged, driven by ltt with LTTng's syntax (issue 43): a real
# Java program (java/LttngJavaApp.java) registers with ltt's daemon;
# `lttctl list -j/-l` shows its loggers (text and MI); enable-event -j/-l
# with --loglevel/--loglevel-only/--filter reach the agent as LTTng sends
# them (printed by LTTng's own agent client, LttngTcpSessiondClient, as
# it parses them); the agent passes on exactly the records of the
# enabled loggers; disable, stop and destroy take the rules back; `list`
# shows the rules under lttng_jul_channel; add-context -j; save and
# load, and an .lttng file with JUL and LOG4J domains.  (The records
# reach ltt's buffers only through ltt's liblttng-ust compat libraries:
# not asserted here.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

JARS=/usr/share/java
CP="$JARS/lttng-ust-agent-common.jar:$JARS/lttng-ust-agent-jul.jar:$JARS/lttng-ust-agent-log4j.jar:$JARS/log4j-1.2.jar"
command -v javac >/dev/null || skip_all "no Java compiler (default-jdk-headless)"
for j in ${CP//:/ }; do
	[ -f "$j" ] || skip_all "$j is missing: scripts/deps.sh installs liblttng-ust-agent-java and liblog4j1.2-java"
done
ust_setup --log
plan 58

export LTTNG_HOME="$LTT_AGENTS_HOME"	# where the Java agents find the daemon's port
export LTTNG_UST_REGISTER_TIMEOUT=0	# LTTng's own tracer, under the JNI library: no daemon of LTTng's
mkdir -p "$TEST_TMP/classes"
javac -d "$TEST_TMP/classes" -cp "$CP" "$LTT_TOP_SRCDIR/tests/regression/java/LttngJavaApp.java" ||
	{ echo "Bail out! LttngJavaApp.java does not compile"; exit 1; }

# app_start jul|log4j: the program, as a coprocess; its first line is "ready"
app_start() {
	SPY="$TEST_TMP/spy.$1"
	: >"$SPY"
	coproc APP { timeout "$TEST_TIMEOUT" java -cp "$TEST_TMP/classes:$CP" \
		-Djava.library.path=/usr/lib/x86_64-linux-gnu/jni LttngJavaApp "$1" 2>>"$TEST_TMP/java.err" |
		tee -a "$SPY"; }
	coproc_hold APP app_out app_in
	read -r -t 45 LINE <&"$app_out"
	while [[ "$LINE" == rule\ * ]]; do read -r -t 45 LINE <&"$app_out"; done
}
# ask LINE: send a command, print the answer (rule lines, the spy's, skipped)
ask() {
	echo "$1" >&"$app_in"
	read -r -t 45 LINE <&"$app_out"
	while [[ "$LINE" == rule\ * ]]; do read -r -t 45 LINE <&"$app_out"; done
	echo "$LINE"
}
# spy_saw REGEX: the spy printed a matching rule line (waits 10 s at most)
spy_saw() {
	timeout 10 tail -n +1 -f "$SPY" | grep -m1 -E "$1"
}

# --- JUL
ok_cmd "create s" lttctl create s -o "$TEST_TMP/t"
ok_cmd "enable-event -j qa.app --loglevel INFO" lttctl enable-event -j qa.app --loglevel INFO
run lttctl enable-event -j 'qa.*' --loglevel-only JUL_SEVERE --filter 'msg == "x*"'
is "$RC:$OUT" "0:Event rule qa.* enabled in channel lttng_jul_channel of session s (jul)." \
	"enable-event -j --loglevel-only JUL_SEVERE --filter: in lttng_jul_channel"
# add-context -j: the channel of the JUL domain (as LTTng)
ok_cmd "add-context -j -t vpid" lttctl add-context -j -t vpid
like "$(lttctl list s -c lttng_jul_channel)" "vpid" "the context is lttng_jul_channel's"
ok_cmd "start" lttctl start

app_start jul
is "$LINE" "ready" "a java.util.logging program with LTTng's LttngLogHandler starts"
like "$(spy_saw '^rule enable qa.app ')" "^rule enable qa.app 800 LTTNG_EVENT_LOGLEVEL_RANGE \\(logger_name == \"qa.app\"\\) && \\(int_loglevel >= 800\\)$" \
	"--loglevel INFO: ENABLE qa.app, level 800, RANGE, LTTng's filter (as the agent code parses it)"
like "$(spy_saw '^rule enable qa\.\* ')" "^rule enable qa.\\* 1000 LTTNG_EVENT_LOGLEVEL_SINGLE \\(\\(msg == \"x\\*\"\\) && \\(logger_name == \"qa.\\*\"\\)\\) && \\(int_loglevel == 1000\\)$" \
	"--loglevel-only JUL_SEVERE --filter: SINGLE 1000, the user's filter first"
is "$(ask 'enabled qa.app yes')" "enabled qa.app yes" "the agent has qa.app enabled"
is "$(ask 'log qa.app 7')" "count 7" "7 records on qa.app: the handler passes all 7 on"
like "$(cat "$SESSIOND_LOG")" "LTTng JUL agent of pid [0-9]+ \(java\) registered \(protocol 2.0\)" \
	"the daemon logged the registration"

run lttctl list -j
like "$OUT" "^JUL loggers:" "list -j: its title"
like "$OUT" "Name: java" "list -j: the Java program"
like "$OUT" "    qa.app" "list -j: its logger qa.app (the agent's LIST reply)"
like "$OUT" "    qa.other" "list -j: its logger qa.other"
run lttctl --mi xml list -j
printf '%s\n' "$OUT" >"$TEST_TMP/list-j.xml"
is "$(mi_xp 'count(//domain[type="JUL"]/pids/pid/events/event[name="qa.app"])' "$TEST_TMP/list-j.xml")" 1 \
	"list -j --mi xml: the logger, in LTTng's JUL domain"
is "$(mi_valid "$TEST_TMP/list-j.xml")" "$TEST_TMP/list-j.xml validates" "list -j --mi xml: valid against LTTng's schema"
lttctl --mi xml list s >"$TEST_TMP/list-s.xml"
is "$(mi_xp 'concat(//domain[type="JUL"]/events/event/name, ":", //domain[type="JUL"]/events/event/loglevel_type, ":", //domain[type="JUL"]/events/event/loglevel)' "$TEST_TMP/list-s.xml")" \
	"qa.app:RANGE:JUL_INFO" "list s --mi xml: the rule in LTTng's JUL domain, its level as LTTng's MI names it"
is "$(mi_valid "$TEST_TMP/list-s.xml")" "$TEST_TMP/list-s.xml validates" "list s --mi xml: valid against LTTng's schema"
run lttctl list s
like "$OUT" "- lttng_jul_channel: \\[enabled\\]" "list s: the JUL rules' channel"
like "$OUT" "      qa.app \\(jul logger, loglevel: INFO or more severe\\)" "list s: the rule, with JUL's level name"

ok_cmd "disable-event -j qa.app" lttctl disable-event -j qa.app
like "$(spy_saw '^rule disable qa.app$')" "rule disable qa.app" "disable-event -j: DISABLE qa.app"
ok_cmd "disable-event -j qa.*" lttctl disable-event -j 'qa.*'
is "$(ask 'enabled qa.app no')" "enabled qa.app no" "no rule left: the agent has qa.app disabled"
is "$(ask 'log qa.app 5')" "count 7" "5 more records: none passed on"
ok_cmd "enable-event -j -a" lttctl enable-event -j -a
like "$(spy_saw '^rule enable \* ')" "^rule enable \* -2147483648 LTTNG_EVENT_LOGLEVEL_ALL $" \
	"-j -a: ENABLE *, JUL's ALL (INT32_MIN, type ALL), no filter, as LTTng sends it"
is "$(ask 'enabled qa.other yes')" "enabled qa.other yes" "-a: every logger enabled"
is "$(ask 'log qa.other 3')" "count 10" "3 records on qa.other passed on"
ok_cmd "stop" lttctl stop
is "$(ask 'enabled qa.other yes')" "enabled qa.other yes" \
	"stopped: the agent keeps its rules, as LTTng's agents keep every session's (no DISABLE)"

run lttctl add-context -j -c channel0 -t vpid
like "$RC:$OUT" "^1:.*record the python, JUL and log4j domains" "add-context -j -c another channel: refused"

# save and load: the JUL rules come back in lttng_jul_channel
ok_cmd "save s" lttctl save s -o "$TEST_TMP/save"
before=$(lttctl list s)
ok_cmd "destroy s" lttctl destroy s
ok_cmd "load s" lttctl load s -i "$TEST_TMP/save"
is "$(lttctl list s)" "$before" "load gives back the same session, JUL rules included"
echo exit >&"$app_in"
exec {app_in}>&- {app_out}<&-
wait "$APP_PID" 2>/dev/null

# an .lttng file of LTTng's with JUL, LOG4J and PYTHON domains
ok_cmd "load an .lttng file with JUL and LOG4J domains" \
	lttctl load agents -i "$LTT_TOP_SRCDIR/tests/regression/saveload-lttng/agents.lttng"
run lttctl list agents
like "$OUT" "      qa.app \\(jul logger, loglevel: INFO or more severe\\) \\[enabled\\]" "loaded: the JUL rule qa.app at INFO"
like "$OUT" "      qa.\\* \\(jul logger, loglevel: SEVERE only\\) \\[disabled\\] \\[filter: msg == \"x\\*\"\\]" \
	"loaded: the disabled JUL rule qa.* at SEVERE only"
like "$OUT" "- lttng_log4j_channel: \\[enabled\\]" "loaded: the log4j channel"
like "$OUT" "      \\* \\(log4j logger, loglevel: any" "loaded: its rule * at any level"
# its log4j rule * would reach the log4j program below: LTTng's agents
# hold every session's rules, this one's too, not started as it is
lttctl -q destroy agents && lttctl -q set-session s

# refusals: nothing changed
before=$(lttctl list s)
run lttctl enable-event -j qa.app --loglevel TRACE
like "$RC:$OUT" "^1:Error: log level 'TRACE'" "-j --loglevel TRACE (log4j's): refused"
run lttctl enable-event -j -l qa.app
like "$RC:$OUT" "^2:.*choose one domain" "-j and -l: refused"
is "$(lttctl list s)" "$before" "nothing changed"
# LTTng's tests' 'enable-event ev1 -c testChannel -j': -c ignored, as LTTng
run lttctl enable-event -j qa.cx -c testChannel -s s
is "$RC:$STDOUT" "0:Event rule qa.cx enabled in channel lttng_jul_channel of session s (jul)." \
	"-j -c testChannel: in lttng_jul_channel, -c ignored as LTTng ignores it"
like "$ERR" "^Warning: -c testChannel ignored: " "  with a warning (AGENT_CHANNEL)"
unlike "$(lttctl list s)" "testChannel" "  no channel testChannel made"

# --- log4j 1.2
ok_cmd "create l" lttctl create l -o "$TEST_TMP/l"
ok_cmd "enable-event -l qa.app --loglevel WARN" lttctl enable-event -l qa.app --loglevel WARN
ok_cmd "start" lttctl start
app_start log4j
is "$LINE" "ready" "a log4j 1.2 program with LTTng's LttngLogAppender starts"
like "$(spy_saw '^rule enable qa.app ')" "^rule enable qa.app 30000 LTTNG_EVENT_LOGLEVEL_RANGE \\(logger_name == \"qa.app\"\\) && \\(int_loglevel >= 30000\\)$" \
	"--loglevel WARN: ENABLE qa.app, level 30000, RANGE"
is "$(ask 'enabled qa.app yes')" "enabled qa.app yes" "the log4j agent has qa.app enabled"
is "$(ask 'log qa.other 4')" "count 0" "records on qa.other: none passed on"
run lttctl list -l
like "$OUT" "    qa.app" "list -l: the log4j logger qa.app"
lttctl --mi xml list l >"$TEST_TMP/list-l.xml"
is "$(mi_xp 'concat(//domain[type="LOG4J"]/events/event/name, ":", //domain[type="LOG4J"]/events/event/loglevel)' "$TEST_TMP/list-l.xml"):$(mi_valid "$TEST_TMP/list-l.xml")" \
	"qa.app:LOG4J_WARN:$TEST_TMP/list-l.xml validates" "list l --mi xml: the rule in LTTng's LOG4J domain, LOG4J_WARN, valid"
echo exit >&"$app_in"
exec {app_in}>&- {app_out}<&-
wait "$APP_PID" 2>/dev/null
