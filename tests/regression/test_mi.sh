#!/bin/bash
# lttctl --mi xml: every command, in success, failure and usage errors,
# writes one document on stdout that validates against xml/mi.xsd, holds
# what the command did (names, attributes, counts, error codes), and exits
# with the status of text mode.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

test_init
relayd_init
command -v xmllint >/dev/null || skip_all "xmllint is not installed (libxml2-utils; scripts/deps.sh)"
XSD="$LTT_TOP_SRCDIR/xml/mi.xsd"
DOC="$TEST_TMP/doc.xml"
N_DOCS=0

# mi WANT_RC DESC ARGS...: run lttctl --mi xml ARGS; the document is in
# $DOC.  Asserts the exit status, that stdout validates, and that its
# <exitStatus> and <success> say the same as the exit status.
mi() {
	local want=$1 desc=$2 valid
	shift 2
	run lttctl --mi xml "$@"
	printf '%s\n' "$STDOUT" >"$DOC"
	N_DOCS=$((N_DOCS + 1))
	is "$RC" "$want" "$desc: exit $want"
	valid=$(xmllint --noout --schema "$XSD" "$DOC" 2>&1)
	ok $? "$desc: the document validates"
	[ "$valid" = "$DOC validates" ] || diag "$valid" "$STDOUT"
	is "$(xp /command/exitStatus)/$(xp /command/success)" \
		"$want/$([ "$want" = 0 ] && echo true || echo false)" "$desc: exitStatus and success"
}

# xp XPATH: the string value of XPATH in $DOC.
xp() {
	xmllint --xpath "string($1)" "$DOC" 2>/dev/null
}

# text_rc ARGS...: the exit status of lttctl ARGS in text mode.
text_rc() {
	lttctl "$@" >/dev/null 2>&1
	echo $?
}

# --- no session daemon running
mi 0 "version, no daemon" version
is "$(xp /command/name)" version "version: the command's name"
is "$(xp /command/output/version/sessiondRunning)" false "version: no daemon running"
is "$(xp /command/output/version/rundir)" "$LTT_RUNDIR" "version: the run directory"
mi 1 "list, no daemon" list
is "$(xp /command/errors/error/name)" SESSIOND_NOT_RUNNING "list, no daemon: the error's name"
is "$(xp /command/errors/error/code)" 4 "list, no daemon: the error's code"
like "$(xp /command/errors/error/message)" "^session daemon \\(run directory $LTT_RUNDIR\\): no session daemon" \
	"list, no daemon: the message names the run directory"
like "$ERR" "^Error: session daemon" "list, no daemon: the error also on stderr"
mi 1 "create -n, no daemon" -n create x
is "$(xp /command/errors/error/name)" SESSIOND_NOT_RUNNING "create -n: the error's name"
is "$(xp 'count(/command/output/*)')" 0 "create -n: no result object"
mi 1 "start, no daemon" start nosuch
mi 1 "status, no daemon" status

start_sessiond || { echo "Bail out! the session daemon did not start"; exit 1; }

# --- create
mi 0 "create" create s1 -o "$TEST_TMP/t1"
is "$(xp /command/output/session/name)" s1 "create: the session's name"
is "$(xp /command/output/session/outputType)" local "create: a local output"
is "$(xp /command/output/session/output)" "$TEST_TMP/t1" "create: its directory"
is "$(xp /command/output/session/active)" false "create: not active"
is "$(xp /command/messages/message[1])" "Session s1 created." "create: the message of text mode"
is "$(cat "$LTT_HOME/.lttrc")" "session=s1" "create: s1 is current"
mi 1 "create an existing name" create s1
is "$(xp /command/errors/error/name)" SESSION_EXISTS "create s1 again: SESSION_EXISTS"
is "$(xp /command/errors/error/code)" 12 "create s1 again: code 12"
mi 2 "create -o and --no-output" create s2 -o "$TEST_TMP/t2" --no-output
is "$(xp /command/errors/error/name)" USAGE "usage error: USAGE"
like "$(xp /command/errors/error/usage)" "^Usage: lttctl create " "usage error: the command's usage"
mi 1 "create an invalid name" create .bad
is "$(xp /command/errors/error/name)" SESSION_NAME "invalid name: SESSION_NAME"
mi 0 "create a session without output" create s3 --no-output
is "$(xp /command/output/session/outputType)/$(xp /command/output/session/snapshot)" none/false \
	"create --no-output: outputType none, not a snapshot session"
is "$(xp 'count(/command/output/session/output)')" 0 "create --no-output: no output element"
mi 0 "set-session" set-session s1
is "$(xp /command/output/session/name)" s1 "set-session: the session"
mi 1 "set-session, no such session" set-session nosuch
is "$(xp /command/errors/error/name)" SESSION_NOT_FOUND "set-session nosuch: SESSION_NOT_FOUND"
mi 2 "set-session without a name" set-session

# --- names with markup characters and control characters stay well-formed
mi 0 "create a name with markup characters" create 'a<b>&"c' -o "$TEST_TMP/t4"
is "$(xp /command/output/session/name)" 'a<b>&"c' "markup characters come back as they were"
mi 0 "create with a control character in the path" create esc -o "$TEST_TMP/e"$'\e'"[31m"
is "$(xp /command/output/session/output)" "$TEST_TMP/e\\x1b[31m" "a control character is escaped, as in text"
mi 0 "create with a byte that is not UTF-8 in the path" create bin -o "$TEST_TMP/b"$'\xff'
is "$(xp /command/output/session/output)" "$TEST_TMP/b\\xff" "a byte that is not UTF-8 is escaped"
mi 0 "destroy it" destroy bin
mi 0 "destroy both" destroy 'a<b>&"c'
mi 0 "destroy esc" destroy esc
lttctl -q set-session s1

# --- channels
mi 0 "enable-channel" enable-channel -u ch --subbuf-size 64k --num-subbuf 4 --overwrite \
	--switch-timer 200000
is "$(xp 'count(/command/output/channels/channel)')" 1 "enable-channel: one channel"
is "$(xp /command/output/channels/channel/name)" ch "enable-channel: its name"
is "$(xp /command/output/channels/channel/subbufSize)" 65536 "enable-channel: the sub-buffer size"
is "$(xp /command/output/channels/channel/subbufCount)" 4 "enable-channel: the sub-buffer count"
is "$(xp /command/output/channels/channel/overwrite)" true "enable-channel: overwrite mode"
is "$(xp /command/output/channels/channel/switchTimerUs)" 200000 "enable-channel: the switch timer"
is "$(xp /command/output/channels/channel/domain)/$(xp /command/output/channels/channel/session)" user/s1 \
	"enable-channel: domain and session"
mi 0 "enable-channel, two at once" enable-channel -u c2,c3
is "$(xp 'count(/command/output/channels/channel)')" 2 "enable-channel a,b: two channels"
mi 1 "enable-channel, enabled already" enable-channel -u ch
is "$(xp /command/errors/error/name)" CHANNEL_ENABLED "enable-channel again: CHANNEL_ENABLED"
mi 2 "enable-channel, bad size" enable-channel -u cx --subbuf-size 12q
is "$(xp /command/errors/error/code)" 160 "a bad size: code 160"
mi 1 "enable-channel, invalid size" enable-channel -u cx --subbuf-size 3000
is "$(xp /command/errors/error/name)" SUBBUF_SIZE "not a power of two: SUBBUF_SIZE"
mi 2 "enable-channel without a domain" enable-channel cx
mi 1 "enable-channel, no such session" enable-channel -u cx -s nosuch
is "$(xp /command/errors/error/name)" SESSION_NOT_FOUND "enable-channel -s nosuch: SESSION_NOT_FOUND"

# --- event rules
mi 0 "enable-event" enable-event -u 'foo:*' -c ch --loglevel WARNING
is "$(xp /command/output/eventRules/eventRule/pattern)" 'foo:*' "enable-event: the pattern"
is "$(xp /command/output/eventRules/eventRule/channel)" ch "enable-event: the channel"
is "$(xp /command/output/eventRules/eventRule/loglevelType)/$(xp /command/output/eventRules/eventRule/loglevel)" \
	range/WARNING "enable-event: the log level condition"
mi 0 "enable-event, three patterns" enable-event -u a,b,c -c c2
is "$(xp 'count(/command/output/eventRules/eventRule)')" 3 "enable-event a,b,c: three rules"
mi 1 "enable-event, enabled already" enable-event -u 'foo:*' -c ch --loglevel WARNING
is "$(xp /command/errors/error/name)" EVENT_EXISTS "enable-event again: EVENT_EXISTS"
mi 1 "enable-event, no such channel" enable-event -u x -c nosuch
is "$(xp /command/errors/error/name)" CHANNEL_NOT_FOUND "enable-event -c nosuch: CHANNEL_NOT_FOUND"
mi 2 "enable-event, pattern and -a" enable-event -u x -a
mi 1 "enable-event, bad log level" enable-event -u x --loglevel LOUD
is "$(xp /command/errors/error/name)" LOGLEVEL "enable-event --loglevel LOUD: LOGLEVEL"
mi 0 "enable-event, a filter and exclusions" enable-event -u 'f:*' -c c3 \
	--filter 'x < 3 && s == "a*"' -x 'f:z,f:a*'
is "$(xp /command/output/eventRules/eventRule/filter)|$(xp /command/output/eventRules/eventRule/exclusions)" \
	'x < 3 && s == "a*"|f:a*,f:z' "enable-event: its filter and exclusions (sorted)"
mi 1 "enable-event, a filter syntax error" enable-event -u 'f:*' -c c3 --filter 'x <'
is "$(xp /command/errors/error/name)" FILTER "enable-event --filter 'x <': FILTER"
like "$(xp /command/errors/error/usage)" "x <" "enable-event --filter 'x <': the expression and its caret"
mi 1 "enable-event, a bad exclusion" enable-event -u 'f:*' -c c3 -x 'g:a'
is "$(xp /command/errors/error/name)" EXCLUSION "enable-event -x g:a: EXCLUSION"
mi 0 "list s1, a rule with a filter" list s1
is "$(xp "/command/output/session/channels/channel[name='c3']/eventRules/eventRule/filter")" \
	'x < 3 && s == "a*"' "list s1: c3's rule's filter"

# --- contexts
mi 0 "add-context" add-context -u -c ch -t vpid -t procname
is "$(xp 'count(/command/output/contexts/context)')" 2 "add-context: two contexts"
is "$(xp '/command/output/contexts/context[2]/type')/$(xp '/command/output/contexts/context[2]/channel')" \
	procname/ch "add-context: the type and channel"
mi 1 "add-context, twice" add-context -u -c ch -t vpid
is "$(xp /command/errors/error/name)" CONTEXT_EXISTS "add-context again: CONTEXT_EXISTS"
mi 2 "add-context, unknown type" add-context -u -t nosuch
is "$(xp /command/errors/error/name)" CONTEXT_TYPE "add-context -t nosuch: CONTEXT_TYPE"
mi 0 "add-context --list" add-context --list
ok "$([ "$(xp 'count(/command/output/contextTypes/type)')" -gt 20 ]; echo $?)" \
	"add-context --list: the types"

# --- list and status
mi 0 "list" list
is "$(xp 'count(/command/output/sessions/session)')" 2 "list: two sessions"
is "$(xp '/command/output/sessions/session[1]/name')" s1 "list: s1 first"
is "$(xp '/command/output/sessions/session[2]/outputType')" none "list: s3 has no output"
mi 0 "list s1" list s1
is "$(xp 'count(/command/output/session/channels/channel)')" 3 "list s1: three channels"
is "$(xp "/command/output/session/channels/channel[name='ch']/subbufSize")" 65536 \
	"list s1: ch's sub-buffer size"
is "$(xp "/command/output/session/channels/channel[name='ch']/contexts/context[2]/type")" procname \
	"list s1: ch's contexts"
is "$(xp "/command/output/session/channels/channel[name='ch']/discardedEvents")" 0 \
	"list s1: ch discarded nothing"
is "$(xp "count(/command/output/session/channels/channel[name='c2']/eventRules/eventRule)")" 3 \
	"list s1: c2's three rules"
is "$(xp "/command/output/session/channels/channel[name='ch']/eventRules/eventRule/loglevel")" WARNING \
	"list s1: ch's rule and its log level"
is "$(xp 'count(/command/output/session/consumerStalls)')" 0 \
	"list s1: no stalled consumer (<consumerStalls>: test_ust_list_consumer_stall.sh)"
mi 0 "list -u s1" list -u s1
is "$(xp 'count(/command/output/session/channels/channel)')" 3 "list -u s1: the user channels"
mi 1 "list, no such session" list nosuch
is "$(xp /command/errors/error/name)" SESSION_NOT_FOUND "list nosuch: SESSION_NOT_FOUND"
mi 2 "list, two names" list a b
mi 0 "status" status
is "$(xp /command/output/session/name)" s1 "status: the current session"

# --- available events of a registered program (its name holds control characters)
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
evil="$TEST_TMP/e"$'\e'"[7m"
cp "$UST_APP" "$evil"
(
	close_fifos
	exec timeout "$TEST_TIMEOUT" "$evil" -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 1
) &
app=$!
wait_ready $ready
ok $? "a program registered"
mi 0 "list -u -f" list -u -f
n_text=$(lttctl list -u | grep -c '^    [^ ]')
is "$(xp "count(/command/output/events/event[pid=$READY_PIDS])")" "$n_text" \
	"list -u: as many events as text mode lists ($n_text)"
ok "$([ "$n_text" -gt 0 ]; echo $?)" "list -u: the program has events"
is "$(xp '/command/output/events/event[1]/procname')" 'e\x1b[7m' "list -u: the program's name, escaped"
is "$(xp '/command/output/events/event[1]/domain')" user "list -u: user space events"
ok "$([ "$(xp 'count(/command/output/events/event/fields/field)')" -gt 0 ]; echo $?)" \
	"list -u -f: the fields"
echo go >&$go
wait $app

# --- start, stop
mi 0 "start" start
is "$(xp /command/output/session/name)" s1 "start: the session"
is "$(xp /command/messages/message)" "Tracing started for session s1." "start: the message"
mi 0 "list s1, started" list s1
is "$(xp /command/output/session/active)" true "list s1: active"
mi 1 "start, started already" start
is "$(xp /command/errors/error/name)" SESSION_STARTED "start again: SESSION_STARTED"
mi 0 "stop" stop
is "$(xp /command/output/session/name)" s1 "stop: the session"
mi 1 "stop, stopped already" stop
is "$(xp /command/errors/error/name)" SESSION_NOT_STARTED "stop again: SESSION_NOT_STARTED"
mi 2 "stop, bad option" stop --bogus
is "$(xp /command/errors/error/name)" USAGE "stop --bogus: USAGE"

# --- disable
mi 0 "disable-event" disable-event -u a,b -c c2
is "$(xp 'count(/command/output/eventRules/eventRule)')" 2 "disable-event a,b: two rules"
is "$(xp '/command/output/eventRules/eventRule[2]/pattern')/$(xp '/command/output/eventRules/eventRule[2]/enabled')" \
	b/false "disable-event: b disabled"
mi 1 "disable-event, not enabled" disable-event -u a -c c2
is "$(xp /command/errors/error/name)" EVENT_NOT_FOUND "disable-event again: EVENT_NOT_FOUND"
mi 0 "disable-event -a" disable-event -u -a -c ch
is "$(xp '/command/output/eventRules/eventRule/pattern')" 'foo:*' "disable-event -a: the channel's rule"
mi 2 "disable-event without a domain" disable-event x
mi 0 "disable-channel" disable-channel -u ch
is "$(xp /command/output/channels/channel/name)/$(xp /command/output/channels/channel/enabled)" ch/false \
	"disable-channel: ch disabled"
is "$(xp /command/output/channels/channel/subbufSize)" 65536 "disable-channel: its attributes"
mi 1 "disable-channel, disabled already" disable-channel -u ch
is "$(xp /command/errors/error/name)" CHANNEL_DISABLED "disable-channel again: CHANNEL_DISABLED"
mi 1 "disable-channel, no such channel" disable-channel -u nosuch
is "$(xp /command/errors/error/name)" CHANNEL_NOT_FOUND "disable-channel nosuch: CHANNEL_NOT_FOUND"

# --- view: refused, nothing run
mi 1 "view" view -e /bin/echo
is "$(xp /command/errors/error/name)" MI_UNSUPPORTED "view: MI_UNSUPPORTED"
is "$(xp 'count(/command/output/*)')" 0 "view: no output from a reader"

# --- help and versions
mi 0 "help" help
n_cmds=$(lttctl help | grep -c '^  [a-z]')
is "$(xp 'count(/command/output/help/commands/entry)')" "$n_cmds" "help: every command ($n_cmds)"
is "$(xp "/command/output/help/commands/entry[name='create']/summary")" \
	"Create a tracing session and make it the current one" "help: create's summary"
mi 0 "help create" help create
like "$(xp /command/output/help/usage)" "^Usage: lttctl create " "help create: the usage"
is "$(xp "/command/output/help/options/option[long='output']/short")" o "help create: -o, --output"
mi 0 "create --help" create --help
is "$(xp "/command/output/help/options/option[long='output']/argument")" DIR "create --help: --output DIR"
mi 2 "help of an unknown command" help nosuch
mi 0 "--help" --help
ok "$([ "$(xp 'count(/command/output/help/options/option)')" -gt 3 ]; echo $?)" "--help: the global options"
mi 0 "--version" --version
like "$(xp /command/output/version/lttctl)" '^[0-9]+\.[0-9]+' "--version: lttctl's version"
mi 0 "version" version
is "$(xp /command/output/version/sessiondRunning)" true "version: a daemon runs"
like "$(xp /command/output/version/sessiond)" '^[0-9]+\.[0-9]+' "version: its version"

# --- lttctl's own usage errors, in the document
mi 2 "no command" -q
is "$(xp 'count(/command/name)')" 0 "no command: no name"
mi 2 "an unknown command" nosuch
is "$(xp /command/errors/error/name)" USAGE "an unknown command: USAGE"
mi 2 "an unknown global option" --bogus list
is "$(xp /command/errors/error/name)" USAGE "--bogus: USAGE"
mi 2 "a bad timeout" --timeout x list
run lttctl --mi json list
is "$RC/$STDOUT" "2/" "--mi json: exit 2, nothing on stdout"
is "$ERR" "Error: --mi 'json': unknown machine interface format: lttctl --mi accepts xml only
Usage: lttctl [OPTION...] COMMAND [ARG...]" "--mi json: refused, in text"
run lttctl -q --mi xml list
printf '%s\n' "$STDOUT" >"$DOC"
is "$(xp 'count(/command/output/sessions/session)')" 2 "-q then --mi: XML"
mi 0 "-q: no messages" -q create s9 --no-output
is "$(xp 'count(/command/messages)')" 0 "-q: no informational message"
is "$(xp /command/output/session/name)" s9 "-q: the result object all the same"

# --- process trackers: track's result, list's <trackers>
mi 0 "track" track -u -s s1 --vpid 12,5
is "$(xp 'count(/command/output/trackers/tracker)')" 1 "track: the one tracker changed"
is "$(xp /command/output/trackers/tracker/domain)/$(xp /command/output/trackers/tracker/type)/$(xp /command/output/trackers/tracker/policy)" \
	user/vpid/set "track: user domain, vpid, a set"
is "$(xp '/command/output/trackers/tracker/ids/id[1]'),$(xp '/command/output/trackers/tracker/ids/id[2]')" 5,12 \
	"track: its ids, in increasing order"
mi 0 "track a tracked pid" track -u -s s1 --vpid 5
is "$(xp /command/warnings/warning/name)" TRACKER_UNCHANGED "track again: a TRACKER_UNCHANGED warning"
mi 0 "untrack --all" untrack -u -s s1 --vgid --all
is "$(xp /command/output/trackers/tracker/type)/$(xp /command/output/trackers/tracker/policy)" vgid/none \
	"untrack --vgid --all: vgid none"
is "$(xp 'count(/command/output/trackers/tracker/ids)')" 0 "... and no ids element"
mi 0 "list with trackers" list s1
is "$(xp "count(/command/output/session/trackers/tracker[domain='user'])")" 3 \
	"list: the session's three user-space trackers"
is "$(xp "/command/output/session/trackers/tracker[domain='user'][type='vpid']/policy")/$(xp "/command/output/session/trackers/tracker[domain='user'][type='vuid']/policy")/$(xp "/command/output/session/trackers/tracker[domain='user'][type='vgid']/policy")" \
	set/all/none "list: vpid set, vuid all, vgid none"
mi 1 "track, not a pid" track -u -s s1 --vpid x
is "$(xp /command/errors/error/name)" TRACKER_VALUE "track --vpid x: TRACKER_VALUE"
mi 1 "untrack from all" untrack -u -s s1 --vuid 0
is "$(xp /command/errors/error/name)" TRACKER_POLICY "untrack from 'all': TRACKER_POLICY"
mi 1 "track, kernel domain" track -k -s s1 --vpid 1
like "$(xp /command/errors/error/name)" "^KERNEL_" "track -k without a kernel domain: the daemon's KERNEL_* reason"
mi 1 "track -u --pid" track -u -s s1 --pid 1
is "$(xp /command/errors/error/name)" TRACKER_DOMAIN "track -u --pid: TRACKER_DOMAIN"
mi 2 "track without a tracker" track -u -s s1
mi 0 "track --all again" track -u -s s1 --all --vpid --vgid
is "$(xp 'count(/command/output/trackers/tracker[policy='"'all'"'])')" 2 "track --all --vpid --vgid: both all"

# --- destroy
mi 1 "destroy, no such session" destroy nosuch
is "$(xp /command/errors/error/name)" SESSION_NOT_FOUND "destroy nosuch: SESSION_NOT_FOUND"
mi 2 "destroy NAME and -a" destroy s1 -a
mi 0 "destroy s9" destroy s9
is "$(xp /command/output/sessions/session/name)" s9 "destroy s9: the session"
mi 0 "destroy -a" destroy -a
is "$(xp 'count(/command/output/sessions/session)')" 2 "destroy -a: two sessions destroyed"
is "$(xp '/command/output/sessions/session[1]/name')/$(xp '/command/output/sessions/session[2]/name')" s1/s3 \
	"destroy -a: s1 and s3"
mi 0 "destroy -a, none left" destroy -a
is "$(xp /command/messages/message)" "No sessions." "destroy -a, none: the message"
mi 1 "status, no current session" status
is "$(xp /command/errors/error/name)" NO_SESSION "status, none current: NO_SESSION"

# --- a streamed session: its relay and connections
start_relayd || { echo "Bail out! the relay daemon did not start"; exit 1; }
mi 0 "create a streamed session" create r1 -U "net://127.0.0.1:$CPORT:$DPORT"
is "$(xp /command/output/session/outputType)" net "create -U net://: outputType net"
mi 0 "enable-event in the streamed session" enable-event -u -a
mi 0 "start the streamed session" start
mi 0 "list the streamed session" list r1
is "$(xp /command/output/session/relay/controlUrl)" "tcp://127.0.0.1:$CPORT" "list r1: the relay's control port"
is "$(xp /command/output/session/relay/dataUrl)" "tcp://127.0.0.1:$DPORT" "list r1: the relay's data port"
mi 0 "stop the streamed session" stop r1
mi 0 "destroy the streamed session" destroy r1

# --- the exit statuses are those of text mode
for args in "list nosuch" "create .bad" "enable-channel cx" "start" "list a b" "view" \
	"destroy nosuch" "help nosuch" "version" "list" "nosuch"; do
	# shellcheck disable=SC2086
	want=$(text_rc $args)
	# shellcheck disable=SC2086
	lttctl --mi xml $args >/dev/null 2>&1
	got=$?
	is "$got" "$want" "exit status of '$args' as in text mode"
done
diag "$N_DOCS documents validated"

term_sessiond
mi 1 "list, the daemon gone" list
is "$(xp /command/errors/error/name)" SESSIOND_NOT_RUNNING "list after the daemon left: SESSIOND_NOT_RUNNING"

done_testing
