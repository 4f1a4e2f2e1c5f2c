#!/bin/bash
# The python domain end to end (issue 22): a Python program that imports
# ltt.agent, the session daemon's python rules (lttctl enable-event -p),
# the agent's rules, lttng_python:event in the user-space channel
# lttng_python_channel, read by babeltrace2.  Exact counts and fields: a
# logger at WARNING among infos and another logger's debugs; a single
# level on every logger; a fork (the child under its own pid); threads;
# a disabled rule; list -p with a running program; MI; save and load;
# refusals that change nothing; python triggers (captures, counts, a
# match not recorded); a rule enabled while the program logs; asctime
# across seconds, backwards and hours on (the agent formats a second
# once); and a program without a daemon, whose handler then lets no
# record reach it; a snapshot session; a program whose daemon is killed
# under it logs on and exits 0.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

python_env || skip_all "configured without the Python package (no python3 with Python.h: python3-dev)"
ust_setup
plan 108

python_agent_pkg "$TEST_TMP/py"
APP="$LTT_TOP_SRCDIR/tests/regression/python_agent_app.py"
pyapp() {
	env "${PYENV[@]}" PYTHONPATH="$TEST_TMP/py" timeout "$TEST_TIMEOUT" "$PYTHON3" -B "$APP" "$@"
}
# pyapp_ready MODE FIFO: the program in MODE, which waits on FIFO (made
# here), in the background (its pid in held); returns once it said
# "ready PID" on the FIFO ready (opened below), non-zero if it did not
pyapp_ready() {
	mkfifo "$2"
	pyapp "$1" "$2" >&$ready 2>/dev/null &
	held=$!
	wait_ready $ready
}
# py_events OUT: the lttng_python:event lines of a babeltrace2 output
py_events() { grep ' lttng_python:event: ' "$1"; }

# --- refusals: nothing made
run lttctl create s -o "$TEST_TMP/t1"
is "$RC" 0 "create s"
run lttctl enable-event -p 'qa app'
like "$RC:$OUT" "^1:.*logger pattern \\(python, JUL, log4j\\) is 1 to 255 characters" "a logger pattern with a space: PYTHON_NAME"
run lttctl enable-event -p qa.app --loglevel LOUD
like "$RC:$OUT" "^1:.*log level 'LOUD'" "-p with an unknown level: LOGLEVEL"
run lttctl enable-event -p qa.app --syscall
is "$RC" 2 "-p --syscall: a usage error"
run lttctl enable-event -p -u qa.app
is "$RC" 2 "-p -u: a usage error"
run lttctl list s
unlike "$OUT" "lttng_python_channel|qa.app" "the refusals made no channel and no rule"
# LTTng ignores -c with an agent domain: so does ltt, with a warning
lttctl -q create cx --no-output
run lttctl enable-event -p qa.other -c channel0 -s cx
is "$RC:$STDOUT" "0:Event rule qa.other enabled in channel lttng_python_channel of session cx (python)." \
	"-p with -c channel0: in lttng_python_channel, as LTTng"
is "$ERR" "Warning: -c channel0 ignored: the python, JUL and log4j domains record in a channel of their own (lttng_python_channel, lttng_jul_channel, lttng_log4j_channel): with -p, -j or -l the rules go there whatever -c says, as LTTng takes it; leave -c out" \
	"-p with -c: AGENT_CHANNEL, a warning"
run lttctl list cx
unlike "$OUT" "- channel0:" "-p -c channel0 made no channel0"
run lttctl disable-event -p qa.other -c testChannel -s cx
is "$RC:$STDOUT" "0:Event rule qa.other disabled in channel lttng_python_channel of session cx (python)." \
	"disable-event -p -c testChannel: -c ignored too"
like "$(lttctl list cx)" "qa.other \(python logger, loglevel: any\) \[disabled\]" "... the rule disabled"
lttctl -q destroy cx && lttctl -q set-session s

# --- a logger at WARNING: the 300 warnings exactly
ok_cmd "enable-event -p qa.app --loglevel WARNING" lttctl enable-event -p qa.app --loglevel WARNING
run lttctl enable-event -u -c lttng_python_channel 'ltt_test:*'
like "$RC:$OUT" "^1:.*record the python, JUL and log4j domains" "-u in lttng_python_channel: PYTHON_CHANNEL"
ok_cmd "add-context vpid to lttng_python_channel" lttctl add-context -u -c lttng_python_channel -t vpid
run lttctl list s
like "$OUT" "qa.app \(python logger, loglevel: WARNING or more severe\) \[enabled\]" \
	"list: the python rule in lttng_python_channel, with Python's level name"
lttctl --mi xml list s >"$TEST_TMP/list.xml" 2>/dev/null
mi_valid "$TEST_TMP/list.xml" >/dev/null
is $? 0 "list --mi xml validates against LTTng's schema"
like "$(tr -d ' \n' <"$TEST_TMP/list.xml")" "<domain><type>PYTHON</type><buffer_type>PER_UID</buffer_type><events><event><name>qa.app</name>.*<loglevel>PYTHON_WARNING</loglevel>" \
	"list --mi xml: the rule in LTTng's PYTHON domain, its level"
ok_cmd "start" lttctl start
pyapp burst >"$TEST_TMP/burst.out" 2>&1
is $? 0 "the program ran"
ok_cmd "stop" lttctl stop
bt "$TEST_TMP/t1" "$TEST_TMP/out1"
is $? 0 "babeltrace2 reads the trace"
py_events "$TEST_TMP/out1" >"$TEST_TMP/ev1"
is "$(wc -l <"$TEST_TMP/ev1")" 300 "300 events: the warnings of qa.app, no info, no other logger"
line=$(grep -n 'app.warning("warning %d of %s"' "$APP" | cut -d: -f1)
is "$(grep -c "logger_name = \"qa.app\", funcName = \"burst\", lineno = $line, int_loglevel = 30, " "$TEST_TMP/ev1")" 300 \
	"each with the logger, function, line and level of its call"
is "$(sed -n 's/.*msg = "warning \([0-9]*\) of qa.app".*/\1/p' "$TEST_TMP/ev1" | sort -n | uniq | wc -l)" 300 \
	"each formatted message once: warning 0 .. 299"
is "$(grep -c 'asctime = "[0-9-]* [0-9:]*,[0-9]*", ' "$TEST_TMP/ev1")" 300 "each with Python's asctime"
is "$(grep -c 'threadName = "MainThread" }' "$TEST_TMP/ev1")" 300 "each with its thread's name"

# --- a single level on every logger, and a second session at once
ok_cmd "create s2" lttctl create s2 -o "$TEST_TMP/t2"
ok_cmd "enable-event -p -a --loglevel-only INFO" lttctl enable-event -p -a --loglevel-only INFO -s s2
ok_cmd "start s" lttctl start s
ok_cmd "start s2" lttctl start s2
pyapp burst >/dev/null 2>&1
is $? 0 "the program ran"
ok_cmd "stop s" lttctl stop s
ok_cmd "stop s2" lttctl stop s2
bt "$TEST_TMP/t2" "$TEST_TMP/out2"
py_events "$TEST_TMP/out2" >"$TEST_TMP/ev2"
is "$(wc -l <"$TEST_TMP/ev2")" 300 "s2: the 300 infos"
is "$(grep -c 'logger_name = "qa.app".*int_loglevel = 20, ' "$TEST_TMP/ev2")" 300 "s2: all of level INFO (20)"
bt "$TEST_TMP/t1" "$TEST_TMP/out1b"
is "$(py_events "$TEST_TMP/out1b" | wc -l)" 600 "s: 300 warnings more, at the same time"

# --- list -p with a running program
open_fifo ready "$TEST_TMP/ready"
pyapp_ready hold "$TEST_TMP/go"
ok $? "the program registered"
run lttctl list -p
like "$OUT" "PID: $READY_PIDS - Name: $PYTHON3\$" "list -p: the program, by its pid and path"
like "$OUT" "    qa.app" "list -p: qa.app"
like "$OUT" "    other" "list -p: other"
lttctl --mi xml list -p >"$TEST_TMP/loggers.xml" 2>/dev/null
mi_valid "$TEST_TMP/loggers.xml" >/dev/null
is $? 0 "list -p --mi xml validates"
echo go >"$TEST_TMP/go"
wait $held
is $? 0 "the program ran on"

# --- fork and threads, with vpid
ok_cmd "destroy s2" lttctl destroy s2
ok_cmd "enable-event -p qa.child" lttctl enable-event -s s -p qa.child
ok_cmd "start s" lttctl start s
pyapp fork
is $? 0 "parent and child ran"
pyapp threads 4
is $? 0 "4 threads ran"
ok_cmd "stop s" lttctl stop s
bt "$TEST_TMP/t1" "$TEST_TMP/out3"
py_events "$TEST_TMP/out3" >"$TEST_TMP/ev3"
parent=$(grep 'msg = "parent ' "$TEST_TMP/ev3" | sed -n 's/.*vpid = \([0-9]*\).*/\1/p' | sort -u)
child=$(grep 'msg = "child ' "$TEST_TMP/ev3" | sed -n 's/.*vpid = \([0-9]*\).*/\1/p' | sort -u)
is "$(grep -c 'msg = "parent ' "$TEST_TMP/ev3"):$(grep -c 'msg = "child ' "$TEST_TMP/ev3")" 100:100 \
	"fork: the parent's 100 and the child's 100"
[ -n "$parent" ] && [ -n "$child" ] && [ "$parent" != "$child" ] &&
	[ "$(echo $parent $child | wc -w)" = 2 ]
ok $? "fork: the child recorded under its own pid ($parent, $child)"
for n in 0 1 2 3; do
	c=$(grep -c "msg = \"thread $n record .*threadName = \"worker-$n\"" "$TEST_TMP/ev3")
	[ "$c" = 100 ] || break
done
is "$c" 100 "threads: 100 records of each of the 4, with its thread's name"

# --- a disabled rule: the agent hands on nothing
ok_cmd "disable-event -p qa.app,qa.child" lttctl disable-event -s s -p qa.app,qa.child
run lttctl list s
like "$OUT" "qa.app \(python logger, .*\) \[disabled\]" "list: the rule is disabled"
ok_cmd "start s" lttctl start s
pyapp burst >/dev/null 2>&1
ok_cmd "stop s" lttctl stop s
bt "$TEST_TMP/t1" "$TEST_TMP/out4"
is "$(py_events "$TEST_TMP/out4" | wc -l)" "$(wc -l <"$TEST_TMP/ev3")" "nothing recorded once disabled"

# --- save and load
ok_cmd "enable-event -p qa.app again" lttctl enable-event -s s -p qa.app --loglevel WARNING
ok_cmd "enable-event -p 'qa.*' --loglevel 25, excluding qa.app" lttctl enable-event -s s -p 'qa.*' --loglevel 25 -x qa.app
ok_cmd "save s" lttctl save s -o "$TEST_TMP/saved.ltt"
f="$TEST_TMP/saved.ltt"
xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$f" 2>/dev/null
is $? 0 "the saved file validates against session.xsd"
lttctl list s | grep -A20 'lttng_python_channel' | grep 'python logger' >"$TEST_TMP/rules.before"
ok_cmd "destroy s" lttctl destroy s
ok_cmd "load it" lttctl load -i "$TEST_TMP/saved.ltt" s
lttctl list s | grep -A20 'lttng_python_channel' | grep 'python logger' >"$TEST_TMP/rules.after"
is "$(cat "$TEST_TMP/rules.after")" "$(cat "$TEST_TMP/rules.before")" "load: the same python rules"

# --- a snapshot session keeps python records like any
ok_cmd "destroy s" lttctl destroy s
ok_cmd "create a snapshot session" lttctl create snap --snapshot -o "$TEST_TMP/snaps"
ok_cmd "enable-event -p qa.app (snapshot)" lttctl enable-event -p qa.app --loglevel WARNING
ok_cmd "start snap" lttctl start
pyapp burst >/dev/null 2>&1
ok_cmd "snapshot record" lttctl snapshot record
bt "$TEST_TMP/snaps" "$TEST_TMP/out5"
is "$(py_events "$TEST_TMP/out5" | wc -l)" 300 "the snapshot holds the 300 warnings"

# --- python triggers (--type=python): the program's agent hands records to
# the notifier, which the tracer evaluates; a match is not recorded
ok_cmd "destroy snap" lttctl destroy snap
ok_cmd "create pt" lttctl create pt -o "$TEST_TMP/pt"
ok_cmd "pt records other's debugs only" lttctl enable-event -p other
ok_cmd "start pt" lttctl start pt
ok_cmd "add a python trigger on qa.app's warnings" lttctl add-trigger --name pyw \
	--condition=event-rule-matches --type=python --name=qa.app --log-level=WARNING \
	--action=notify
ok_cmd "add a python trigger on one record, with captures" lttctl add-trigger --name py7 \
	--condition=event-rule-matches --type=python --name='qa.*' --log-level=INFO.. \
	--filter='msg == "info 7"' --capture=msg --capture=logger_name --capture=int_loglevel \
	--capture='$ctx.vpid' --action=notify
run lttctl list-triggers
like "$OUT" "rule: qa.app \(type: python:logging, log level is WARNING\)" \
	"list-triggers shows the python rule"
open_fifo PW "$TEST_TMP/pw"
lttctl wait-trigger py7 --timeout "$TEST_TIMEOUT" >"$TEST_TMP/pw.out" 2>&"$PW" &
waiter=$!
read_line "$PW" && [[ $LINE == "Waiting for trigger "* ]]
ok $? "wait-trigger py7 is subscribed"
pyapp burst >/dev/null 2>&1
is $? 0 "the program logged its burst"
wait $waiter
is $? 0 "py7 notified"
pid=$(sed -n 's/.*pid \([0-9]*\);.*/\1/p' "$TEST_TMP/pw.out")
like "$(cat "$TEST_TMP/pw.out")" \
	"event lttng_python:event, pid [0-9]+; captures: msg=\"info 7\", logger_name=\"qa.app\", int_loglevel=20, \\\$ctx.vpid=${pid:-none}\$" \
	"py7's captures arrive exactly"
fired=$(trigger_count pyw fired) dropped=$(trigger_count pyw dropped)
is "$((fired + dropped))" 300 "pyw: fired ($fired) + dropped ($dropped) = qa.app's 300 warnings"
ok_cmd "stop pt" lttctl stop pt
bt "$TEST_TMP/pt" "$TEST_TMP/out6"
is "$(py_events "$TEST_TMP/out6" | grep -c 'logger_name = "other"')" 300 "pt holds other's 300 debugs"
is "$(py_events "$TEST_TMP/out6" | grep -c 'qa.app')" 0 "and none of qa.app's records the triggers matched"
ok_cmd "remove pyw" lttctl remove-trigger pyw
ok_cmd "remove py7" lttctl remove-trigger py7
ok_cmd "destroy pt" lttctl destroy pt
is "$(pyapp level)" "$("$PYTHON3" -c 'import sys; print(sys.maxsize)')" \
	"no session, no trigger: the handler lets no record through"

# --- a rule enabled while the program runs: the handler keeps the rule of
# the last record's logger, and forgets it when the rules change
ok_cmd "create rl" lttctl create rl -o "$TEST_TMP/trl"
ok_cmd "enable-event -p other (rl)" lttctl enable-event -p other -s rl
ok_cmd "start rl" lttctl start rl
pyapp_ready relearn "$TEST_TMP/go3"
ok $? "the program logged on qa.app, which no rule named, last"
ok_cmd "enable-event -p qa.app (rl)" lttctl enable-event -p qa.app -s rl
echo go >"$TEST_TMP/go3"
wait $held
is $? 0 "the program saw the rule on qa.app and logged on"
ok_cmd "stop rl" lttctl stop rl
bt "$TEST_TMP/trl" "$TEST_TMP/outrl"
py_events "$TEST_TMP/outrl" >"$TEST_TMP/evrl"
is "$(grep -c 'msg = "other ' "$TEST_TMP/evrl"):$(grep -c 'msg = "before ' "$TEST_TMP/evrl"):$(grep -c 'msg = "after ' "$TEST_TMP/evrl")" \
	"100:0:100" "rl: other's 100, none of qa.app's before its rule, its 100 after"
ok_cmd "destroy rl" lttctl destroy rl

# --- asctime: the agent formats a second's date and time once, yet each
# record's asctime is what Python's Formatter prints for its own time:
# within a second, across seconds, backwards, an hour and a day on
ok_cmd "create ck" lttctl create ck -o "$TEST_TMP/tck"
ok_cmd "enable-event -p qa.app (ck)" lttctl enable-event -p qa.app -s ck
ok_cmd "start ck" lttctl start ck
pyapp clock >/dev/null 2>&1
is $? 0 "the clock program ran"
ok_cmd "stop ck" lttctl stop ck
bt "$TEST_TMP/tck" "$TEST_TMP/outck"
py_events "$TEST_TMP/outck" >"$TEST_TMP/evck"
is "$(wc -l <"$TEST_TMP/evck")" 10 "ck: the 10 records"
is "$(sed -n 's/.*asctime = "\([^"]*\)", msg = "at [0-9]*: \([^"]*\)".*/\1|\2/p' "$TEST_TMP/evck" |
	awk -F'|' '$1 == $2' | wc -l)" 10 "ck: each asctime is the Formatter's for its record's time"
ok_cmd "destroy ck" lttctl destroy ck

# --- the daemon dies under a registered program: it goes on and exits 0
pyapp_ready hold "$TEST_TMP/go2"
ok $? "the program registered"
kill -KILL "$(sessiond_pid)"
echo go >"$TEST_TMP/go2"
wait $held
is $? 0 "the daemon killed: the program logged on and exited 0"

# --- no daemon: the handler lets no record through
is "$(LTT_RUNDIR="$TEST_TMP/none" pyapp level)" "$("$PYTHON3" -c 'import sys; print(sys.maxsize)')" \
	"without a daemon the agent's handler level is above every record's"
