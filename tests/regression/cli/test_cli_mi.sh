#!/bin/bash
# lttctl --mi xml speaks LTTng's machine interface: every command LTTng
# has, in success, failure and usage errors of its options, writes one
# document on stdout that validates against LTTng 2.13's mi-lttng-4.1.xsd
# (tests/regression/lttng-mi), with LTTng's names and what the command
# did; help and wait-trigger write ltt's own (xml/mi.xsd); an unknown
# command, a bad global option, view and export-maps write none.  A CTF 2
# session's <trace_format> makes its document LTTng 2.15's schema 4.2.  The exit
# status is that of text mode.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

test_init
relayd_init
command -v xmllint >/dev/null || skip_all "xmllint is not installed (libxml2-utils; scripts/deps.sh)"
DOC="$TEST_TMP/doc.xml"
N_DOCS=0

# mi WANT_RC DESC ARGS...: run lttctl --mi xml ARGS; the document is in
# $DOC.  Asserts the exit status, that stdout validates against its
# schema, and that <success> says the same as the exit status.
mi() {
	local want=$1 desc=$2 valid
	shift 2
	run lttctl --mi xml "$@"
	printf '%s\n' "$STDOUT" >"$DOC"
	N_DOCS=$((N_DOCS + 1))
	is "$RC" "$want" "$desc: exit $want"
	valid=$(mi_valid "$DOC")
	ok $? "$desc: the document validates"
	[ "$valid" = "$DOC validates" ] || diag "$valid" "$STDOUT"
	is "$(xp /command/success)" "$([ "$want" = 0 ] && echo true || echo false)" \
		"$desc: success"
}

# mi_none WANT_RC DESC ARGS...: lttctl --mi xml ARGS writes no document
# (LTTng's MI has none for it), exits WANT_RC and says why on stderr.
mi_none() {
	local want=$1 desc=$2
	shift 2
	run lttctl --mi xml "$@"
	is "$RC:$STDOUT" "$want:" "$desc: exit $want, nothing on stdout"
	like "$ERR" "Error: " "$desc: the error on stderr"
}

# xp XPATH: the string value of XPATH in $DOC.
xp() {
	mi_xp "$1" "$DOC"
}

# text_rc ARGS...: the exit status of lttctl ARGS in text mode.
text_rc() {
	lttctl "$@" >/dev/null 2>&1
	echo $?
}

L=https://lttng.org/xml/ns/lttng-mi
S=/command/output/sessions/session
U="$S/domains/domain[type='UST']"

# --- no session daemon running
mi 0 "version, no daemon" version
is "$(xp /command/name)/$(xp /command/output/version/string)" "version/$(lttctl --version | cut -d' ' -f2)" \
	"version: LTTng's version element, lttctl's version"
grep -q "<command xmlns=\"$L\"" "$DOC"
ok $? "version: the root is LTTng's command, in LTTng's namespace"
is "$(xmllint --xpath 'string(/*/@schemaVersion)' "$DOC")" 4.1 "version: schemaVersion 4.1"
# LTTng takes the type in any case (its save-load tests say --mi XML)
for type in XML Xml; do
	run lttctl --mi "$type" version
	is "$RC:$STDOUT" "0:$(lttctl --mi xml version)" "--mi $type: the document of --mi xml"
done
run lttctl --mi=XML version
is "$RC:$(grep -c '<command ' <<<"$STDOUT")" "0:1" "--mi=XML: one document"
run lttctl --mi json version
is "$RC:$STDOUT" "2:" "--mi json: a usage error, no document"
like "$ERR" "^Error: --mi 'json': unknown machine interface format: lttctl --mi accepts xml only" \
	"--mi json: what is accepted"
mi 1 "list, no daemon" list
like "$ERR" "^Error: session daemon \\(run directory $LTT_RUNDIR\\): no session daemon" \
	"list, no daemon: the error on stderr names the run directory"
mi 1 "create -n, no daemon" -n create x
is "$(xp 'count(/command/output/*)')" 0 "create -n: no result object"
mi 1 "start, no daemon" start nosuch
mi 1 "status, no daemon" status
is "$(xp /command/name)" list "status: LTTng's name for it, list"

sessiond_or_bail

# --- create
mi 0 "create" create s1 -o "$TEST_TMP/t1"
is "$(xp /command/output/session/name)" s1 "create: the session's name"
is "$(xp /command/output/session/path)" "$TEST_TMP/t1" "create: its directory"
is "$(xp /command/output/session/enabled)/$(xp /command/output/session/snapshot_mode)" false/0 \
	"create: not enabled, no snapshot mode"
is "$(cat "$LTT_HOME/.lttrc")" "session=s1" "create: s1 is current"
mi 1 "create an existing name" create s1
like "$ERR" "already exists" "create s1 again: why, on stderr"
mi 2 "create -o and --no-output" create s2 -o "$TEST_TMP/t2" --no-output
is "$(xp /command/name)" create "a usage error of a command's options: its document, success false"
mi 1 "create an invalid name" create .bad
mi 0 "create a session without output" create s3 --no-output
is "$(xp /command/output/session/path)" "" "create --no-output: an empty path"
mi 0 "create a snapshot session" create sn --snapshot -o "$TEST_TMP/sn"
is "$(xp /command/output/session/snapshot_mode)" 1 "create --snapshot: snapshot_mode 1"
# a CTF 2 session: LTTng 2.15's <trace_format>, in schema 4.2 (4.1 has none)
mi 0 "create a CTF 2 session" create c2s -F ctf-2 -o "$TEST_TMP/c2s"
is "$(xmllint --xpath 'string(/*/@schemaVersion)' "$DOC")/$(xp /command/output/session/trace_format)" \
	4.2/CTF_2 "create -F ctf-2: schemaVersion 4.2, trace_format CTF_2"
mi 0 "list, with a CTF 2 session" list
is "$(xmllint --xpath 'string(/*/@schemaVersion)' "$DOC")/$(xp "/command/output/sessions/session[name='c2s']/trace_format")/$(xp "count(//trace_format)")" \
	4.2/CTF_2/1 "list: 4.2, the CTF 2 session's format said, CTF 1.8 going without saying"
mi 0 "list c2s" list c2s
is "$(xmllint --xpath 'string(/*/@schemaVersion)' "$DOC")/$(xp /command/output/sessions/session/trace_format)" \
	4.2/CTF_2 "list c2s: 4.2, trace_format CTF_2"
mi 0 "destroy c2s" destroy c2s
mi 0 "list, CTF 1.8 sessions alone" list
is "$(xmllint --xpath 'string(/*/@schemaVersion)' "$DOC")/$(xp "count(//trace_format)")" 4.1/0 \
	"list without a CTF 2 session: 4.1, no trace_format"
mi 0 "set-session" set-session s1
is "$(xp /command/output/session/name)" s1 "set-session: the session"
mi 1 "set-session, no such session" set-session nosuch
mi 2 "set-session without a name" set-session

# --- names with markup characters and control characters stay well-formed
mi 0 "create a name with markup characters" create 'a<b>&"c' -o "$TEST_TMP/t4"
is "$(xp /command/output/session/name)" 'a<b>&"c' "markup characters come back as they were"
mi 0 "create with a control character in the path" create esc -o "$TEST_TMP/e"$'\e'"[31m"
is "$(xp /command/output/session/path)" "$TEST_TMP/e\\x1b[31m" "a control character is escaped, as in text"
mi 0 "create with a byte that is not UTF-8 in the path" create bin -o "$TEST_TMP/b"$'\xff'
is "$(xp /command/output/session/path)" "$TEST_TMP/b\\xff" "a byte that is not UTF-8 is escaped"
mi 0 "destroy it" destroy bin
mi 0 "destroy both" destroy 'a<b>&"c'
mi 0 "destroy esc" destroy esc
lttctl -q set-session s1

# --- channels
mi 0 "enable-channel" enable-channel -u ch --subbuf-size 64k --num-subbuf 4 --overwrite \
	--switch-timer 200000
C=/command/output/channels/channel
is "$(xp "count($C)")/$(xp $C/name)/$(xp $C/enabled)/$(xp $C/success)" 1/ch/true/true \
	"enable-channel: one channel, ch, enabled, success"
is "$(xp $C/attributes/subbuffer_size)/$(xp $C/attributes/subbuffer_count)" 65536/4 \
	"enable-channel: the sub-buffer size and count"
is "$(xp $C/attributes/overwrite_mode)/$(xp $C/attributes/switch_timer_interval)/$(xp $C/attributes/output_type)" \
	OVERWRITE/200000/MMAP "enable-channel: overwrite mode, switch timer, output type"
is "$(xp $C/attributes/live_timer_interval)/$(xp $C/attributes/monitor_timer_interval)/$(xp $C/attributes/blocking_timeout)" \
	0/50000/0 "enable-channel: no live timer (not a live session), the daemon's 50 ms sampling, no blocking"
lttctl -q create lv --live=250000 -U net://127.0.0.1 &&
	lttctl -q enable-channel -u lc -s lv
ok $? "a live session (its relay is reached at start only) and its channel"
mi 0 "list of a live session" list lv
is "$(xp "//channel[name='lc']/attributes/live_timer_interval")/$(xp //session/live_timer_interval)" \
	250000/250000 "list lv: the channel's live timer is the session's"
lttctl -q destroy lv
lttctl -q set-session s1
mi 0 "enable-channel, two at once" enable-channel -u c2,c3
is "$(xp "count($C)")" 2 "enable-channel a,b: two channels"
mi 1 "enable-channel, enabled already" enable-channel -u ch
mi 2 "enable-channel, bad size" enable-channel -u cx --subbuf-size 12q
mi 1 "enable-channel, invalid size" enable-channel -u cx --subbuf-size 3000
mi 2 "enable-channel without a domain" enable-channel cx
mi 1 "enable-channel, no such session" enable-channel -u cx -s nosuch

# --- event rules
E=/command/output/events/event
mi 0 "enable-event" enable-event -u 'foo:*' -c ch --loglevel WARNING
is "$(xp $E/name)/$(xp $E/type)/$(xp $E/enabled)/$(xp $E/success)" 'foo:*/TRACEPOINT/true/true' \
	"enable-event: the rule, a tracepoint rule, enabled"
is "$(xp $E/loglevel_type)/$(xp $E/loglevel)" RANGE/TRACE_WARNING "enable-event: the log level condition"
mi 0 "enable-event --loglevel-only" enable-event -u bar -c ch --loglevel-only TRACE_INFO
is "$(xp $E/loglevel_type)/$(xp $E/loglevel)" SINGLE/TRACE_INFO "enable-event --loglevel-only: SINGLE"
mi 0 "enable-event, three patterns" enable-event -u a,b,c -c c2
is "$(xp "count($E)")" 3 "enable-event a,b,c: three rules"
mi 1 "enable-event, enabled already" enable-event -u 'foo:*' -c ch --loglevel WARNING
mi 1 "enable-event of a list, one enabled already" enable-event -u d,bar,e -c ch --loglevel-only TRACE_INFO
is "$(xp "count($E[success='true'])")/$(xp "$E[success='false']/name")" 2/bar \
	"enable-event d,bar,e: d and e enabled, bar (enabled already) not, as LTTng's"
mi 1 "enable-event, a bad channel name (a missing one is made, as LTTng's)" enable-event -u x -c 'bad/name'
mi 2 "enable-event, pattern and -a" enable-event -u x -a
mi 1 "enable-event, bad log level" enable-event -u x --loglevel LOUD
mi 0 "enable-event, a filter and exclusions" enable-event -u 'f:*' -c c3 \
	--filter 'x < 3 && s == "a*"' -x 'f:z,f:a*'
is "$(xp $E/filter_expression)|$(xp "$E/exclusions/exclusion[1]")|$(xp "$E/exclusions/exclusion[2]")" \
	'x < 3 && s == "a*"|f:a*|f:z' "enable-event: its filter and exclusions (sorted)"
mi 1 "enable-event, a filter syntax error" enable-event -u 'f:*' -c c3 --filter 'x <'
mi 1 "enable-event, a bad exclusion" enable-event -u 'f:*' -c c3 -x 'f*'

# --- contexts
mi 0 "add-context" add-context -u -c ch -t vpid -t procname
is "$(xp /command/output/contexts/context[1]/type)/$(xp /command/output/contexts/context[2]/symbol)" \
	VPID/procname "add-context: LTTng's types, ltt's names as symbols"
mi 1 "add-context, twice" add-context -u -c ch -t vpid
mi 2 "add-context, unknown type" add-context -u -t nosuch
mi 0 "add-context --list" add-context --list
ok "$([ "$(xp 'count(/command/output/contexts/context)')" -gt 20 ]; echo $?)" \
	"add-context --list: the types LTTng's MI names"

# --- list and status
mi 0 "list" list
is "$(xp "count(/command/output/sessions/session)")" 3 "list: three sessions"
is "$(xp "/command/output/sessions/session[name='sn']/snapshot_mode")" 1 "list: sn in snapshot mode"
mi 0 "list s1" list s1
is "$(xp "$S/name")/$(xp "count($S/domains/domain)")/$(xp "$U/buffer_type")" s1/1/PER_UID \
	"list s1: one domain, user space, per-user buffers"
is "$(xp "count($U/channels/channel)")" 3 "list s1: three channels"
is "$(xp "$U/channels/channel[name='ch']/attributes/discarded_events")" 0 "list s1: ch discarded nothing"
is "$(xp "count($U/channels/channel[name='c2']/events/event)")" 3 "list s1: c2's three rules"
is "$(xp "$U/channels/channel[name='ch']/events/event[name='foo:*']/loglevel")" TRACE_WARNING \
	"list s1: ch's rule and its log level"
is "$(xp "$U/channels/channel[name='c3']/events/event/filter_expression")" 'x < 3 && s == "a*"' \
	"list s1: the rule's filter"
mi 0 "list s1 -c c2" list s1 -c c2
is "$(xp "count($U/channels/channel)")/$(xp "$U/channels/channel/name")" 1/c2 "list -c c2: that channel alone"
mi 0 "list -u s1" list -u s1
is "$(xp "count($U/channels/channel)")" 3 "list -u s1: the user channels"
mi 1 "list, no such session" list nosuch
mi 2 "list, two names" list a b
mi 0 "status" status
is "$(xp /command/name)/$(xp $S/name)" list/s1 "status: LTTng's list of the current session"

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
P="/command/output/domains/domain[type='UST']/pids/pid"
like "$(xp "$P/id")" "^[1-9][0-9]*$" "list -u: the program's pid"
is "$(xp "$P/name")" "$TEST_TMP/e\\x1b[7m" "list -u: its name, the path it was started by, escaped"
ok "$([ "$(xp "count($P/events/event/event_fields/event_field)")" -gt 0 ]; echo $?)" \
	"list -u -f: its events' fields"
echo go >&$go
wait $app

# --- start, stop, rotation, regenerate
mi 0 "start" start
is "$(xp "count(/command/output/sessions/session)"):$(xp /command/output/sessions/session/name):$(xp /command/output/sessions/session/enabled)" \
	1:s1:true "start: LTTng's sessions/session, its name, enabled true"
mi 0 "list s1, started" list s1
is "$(xp $S/enabled)" true "list s1: enabled once started"
mi 1 "start, started already" start
mi 0 "enable-rotation" enable-rotation --timer 10s --size 1M
R=/command/output/rotation_schedule_results
is "$(xp $R/session_name)/$(xp $R/rotation_schedule_result/rotation_schedule/periodic/time_us)/$(xp $R/rotation_schedule_result/rotation_schedule/size_threshold/bytes)" \
	s1/10000000/1048576 "enable-rotation: the session, its periodic and size schedules"
mi 0 "list s1, a rotation schedule" list s1
is "$(xp $S/rotation_schedules/periodic/time_us)" 10000000 "list s1: its rotation schedule"
mi 0 "disable-rotation" disable-rotation --timer --size
mi 0 "rotate" rotate
is "$(xp /command/output/rotation/session_name)/$(xp /command/output/rotation/state)" s1/COMPLETED \
	"rotate: the session, completed"
ok "$([ -d "$(xp /command/output/rotation/location/local/absolute_path)" ]; echo $?)" \
	"rotate: the archive's directory"
mi 0 "regenerate metadata" regenerate metadata
is "$(xp /command/output/regenerate_action/name)" metadata "regenerate metadata: its action"
mi 0 "metadata regenerate" metadata regenerate
is "$(xp /command/name)/$(xp /command/output/metadata_action/name)" metadata/regenerate \
	"metadata regenerate: LTTng's older command, its own document"
mi 0 "stop" stop
is "$(xp "count(/command/output/sessions/session)"):$(xp /command/output/sessions/session/name):$(xp /command/output/sessions/session/enabled)" \
	1:s1:false "stop: LTTng's sessions/session, its name, enabled false"
mi 1 "stop, stopped already" stop
is "$(xp "count(/command/output/sessions/session)")" 0 "stop, stopped already: no session in the document"
mi 2 "stop, bad option" stop --bogus

# --- snapshots
mi 0 "snapshot del-output" snapshot del-output -s sn 1
A=/command/output/snapshot_action
is "$(xp $A/name)/$(xp $A/output/snapshot/id)" del-output/1 "snapshot del-output: its action, the output"
mi 0 "snapshot add-output" snapshot add-output -s sn "file://$TEST_TMP/sn2" -n two
is "$(xp $A/name)/$(xp $A/output/snapshot/name)/$(xp $A/output/snapshot/ctrl_url)" \
	"add-output/two/$TEST_TMP/sn2" "snapshot add-output: the action and the output"
mi 0 "snapshot list-output" snapshot list-output -s sn
is "$(xp "count($A/output/session/snapshots/snapshot)")/$(xp $A/output/session/snapshots/snapshot/name)" 1/two \
	"snapshot list-output: the output"

# --- save and load
mi 0 "save" save s1 -o "$TEST_TMP/saved"
is "$(xp /command/output/save/session/name)" s1 "save: the session"
ok "$([ -f "$(xp /command/output/save/path)" ]; echo $?)" "save: the file written"
mi 0 "load" load s1 -i "$TEST_TMP/saved" -f --override-name s1b
is "$(xp /command/output/load/session/name)/$(xp /command/output/load/overrides/name)" s1b/s1b \
	"load: the session loaded, the name override"
mi 0 "destroy s1b" destroy s1b
lttctl -q set-session s1

# --- disable
mi 0 "disable-event" disable-event -u a,b -c c2
is "$(xp /command/output/channel/name)/$(xp "count(/command/output/channel/events/event)")" c2/2 \
	"disable-event: the channel and the two rules"
is "$(xp /command/output/channel/events/event[1]/enabled)" false "disable-event: disabled"
mi 0 "disable-event, disabled already: succeeds, as LTTng" disable-event -u a -c c2
is "$(xp /command/output/channel/events/event[1]/name)/$(xp /command/output/channel/events/event[1]/enabled)" a/false \
	"disable-event, disabled already: the rule, disabled"
mi 1 "disable-event, no such rule" disable-event -u nosuch -c c2
is "$(xp /command/output/channel/events/event/name):$(xp /command/output/channel/events/event/success)" "nosuch:false" \
	"disable-event, no such rule: its event, success false, as LTTng"
lttctl -q enable-event -u a -c c2
mi 1 "disable-event a,nosuch,b: a and b disabled, nosuch not" disable-event -u a,nosuch,b -c c2
is "$(xp "count(/command/output/channel/events/event[success='true'])"):$(xp "/command/output/channel/events/event[success='false']/name")" \
	"2:nosuch" "  two events with success true (a enabled, b disabled already), nosuch's false, as LTTng"
mi 0 "disable-event -a" disable-event -u -a -c ch
mi 2 "disable-event without a domain" disable-event x
mi 0 "disable-channel" disable-channel -u ch
is "$(xp $C/name)/$(xp $C/enabled)" ch/false "disable-channel: ch, disabled"
mi 1 "disable-channel, disabled already" disable-channel -u ch
mi 1 "disable-channel, no such channel" disable-channel -u nosuch
mi 0 "clear" clear s1
is "$(xp "count(/command/output/sessions/session)")/$(xp /command/output/sessions/session/name)" 1/s1 \
	"clear: the session in <sessions>, as LTTng's"
mi 0 "clear -a" clear -a
is "$(xp "count(/command/output/sessions/session)")" "$(lttctl list | grep -c ') ')" "clear -a: every session, in <sessions>"

# --- view, export-maps, unknown commands, bad global options: no document
# (LTTng has neither command; the others, as LTTng)
mi_none 1 "view" view -e /bin/echo
mi_none 1 "export-maps (an SQL script)" export-maps -s s1
mi_none 2 "an unknown command" nosuch
mi_none 2 "a bad global option" --bogus list

# --- help: ltt's own document (LTTng's MI has none)
mi 0 "help" help
is "$(xp /command/exitStatus)" 0 "help: ltt's document, with its exit status"
mi 0 "help create" help create
like "$(xp /command/output/help/usage)" "^Usage: lttctl create " "help create: the usage"
mi 0 "create --help" create --help
mi 2 "help of an unknown command" help nosuch
mi 0 "--version" --version
is "$(xp /command/name)" version "--version: LTTng's version document"

# --- -q changes nothing in a document
mi 0 "-q" -q create s9 --no-output
is "$(xp /command/output/session/name)" s9 "-q: the session"

# --- process trackers: track's result, list's process_attr_trackers
T=/command/output/process_attr_trackers
mi 0 "track" track -u -s s1 --vpid 12,5
is "$(xp "$T/vpid_process_attr_tracker/process_attr_values/vpid[1]/type/id")+$(xp "$T/vpid_process_attr_tracker/process_attr_values/vpid[2]/type/id")" \
	12+5 "track: the values given, as LTTng's"
mi 0 "untrack --all" untrack -u -s s1 --vgid --all
is "$(xp "count($T/vgid_process_attr_tracker/process_attr_values/*)")/$(xp "$T/vgid_process_attr_tracker/process_attr_values/vgid/type/all")/$(xp "$T/vgid_process_attr_tracker/process_attr_values/vgid/success")" \
	1/true/true "untrack --all: one value, all, its success, as LTTng's"
mi 0 "track in a session without channels" track -u -s s3 --vpid 4
mi 0 "list it" list s3
is "$(xp "$U/process_attr_trackers/vpid_process_attr_tracker/process_attr_values/vpid/type/id")" 4 \
	"list of a session without channels: its user-space domain and tracker, as LTTng's"
mi 0 "list with trackers" list s1
is "$(xp "count($U/process_attr_trackers/vpid_process_attr_tracker/process_attr_values/vpid)")/$(xp "$U/process_attr_trackers/vuid_process_attr_tracker/process_attr_values/vuid/type/all")" \
	2/true "list s1: the domain's trackers (vpid 2 values, vuid all)"
mi 1 "track, not a pid" track -u -s s1 --vpid x
mi 2 "track without a tracker" track -u -s s1
mi 0 "track --all again" track -u -s s1 --all --vpid --vgid

# --- destroy
mi 1 "destroy, no such session" destroy nosuch
mi 2 "destroy NAME and -a" destroy s1 -a
mi 0 "destroy s9" destroy s9
is "$(xp /command/output/sessions/session/name)" s9 "destroy: the session destroyed"
mi 0 "destroy -a" destroy -a
is "$(xp "count(/command/output/sessions/session)")" 3 "destroy -a: three sessions"
mi 0 "destroy -a, none left" destroy -a
mi 1 "status, no current session" status

# --- a streamed session
start_relayd || { echo "Bail out! the relay daemon did not start"; exit 1; }
mi 0 "create a streamed session" create r1 -U "net://127.0.0.1:$CPORT:$DPORT"
is "$(xp /command/output/session/path)" "tcp4://127.0.0.1:$CPORT/ [data: $DPORT]" \
	"create -U: the relay in the path, as LTTng's MI gives it"
mi 0 "enable-event in the streamed session" enable-event -u -a
mi 0 "start the streamed session" start
mi 0 "list the streamed session" list r1
is "$(xp $S/path)" "tcp4://127.0.0.1:$CPORT/ [data: $DPORT]" "list: the relay's path, as LTTng's"
mi 0 "create a snapshot session without output" create rs --snapshot --no-output
mi 0 "snapshot add-output to the relay" snapshot add-output -s rs "net://127.0.0.1:$CPORT:$DPORT"
is "$(xp $A/output/snapshot/ctrl_url) $(xp $A/output/snapshot/data_url)" \
	"tcp4://127.0.0.1:$CPORT/ tcp4://127.0.0.1:$DPORT/" \
	"snapshot add-output: the relay's two ports, as LTTng's MI gives them"
mi 0 "destroy the snapshot session" destroy rs
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
like "$ERR" "no session daemon" "list after the daemon left: why, on stderr"

done_testing
