#!/bin/bash
# The trigger commands against a session daemon, as lttctl prints them:
# add-trigger, list-triggers (conditions, actions, counters, a failed
# action's error), remove-trigger and wait-trigger (a rotation's
# notification, an event's with its captures, a trigger removed while
# waited for, a timeout), each --mi xml document valid against
# xml/mi.xsd and holding what the text says.  test_trigger_cli.sh has
# the refusals, without a daemon.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v xmllint >/dev/null || skip_all "xmllint is not installed (libxml2-utils; scripts/deps.sh)"
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
XSD="$LTT_TOP_SRCDIR/xml/mi.xsd"
DOC="$TEST_TMP/doc.xml"

# valid FILE DESC: FILE validates against mi.xsd.
valid() {
	local out
	out=$(xmllint --noout --schema "$XSD" "$1" 2>&1)
	ok $? "$2: the document validates"
	[ "$out" = "$1 validates" ] || diag "$out" "$(cat "$1")"
}

# mi WANT_RC DESC ARGS...: lttctl --mi xml ARGS exits WANT_RC; its
# document, in $DOC, validates.
mi() {
	local want=$1 desc=$2
	shift 2
	run lttctl --mi xml "$@"
	printf '%s\n' "$STDOUT" >"$DOC"
	is "$RC" "$want" "$desc: exit $want"
	valid "$DOC" "$desc"
}

# xp XPATH [FILE]: the string value of XPATH in FILE ($DOC).
xp() {
	xmllint --xpath "string($1)" "${2:-$DOC}" 2>/dev/null
}

# waiter ARGS...: lttctl ARGS (a wait-trigger) in the background, stdout
# into $TEST_TMP/wait.out; returns once it has subscribed (its "Waiting
# for trigger" line on stderr), so that what fires the trigger next is seen.
waiter() {
	local line
	rm -f "$TEST_TMP/sub"
	mkfifo "$TEST_TMP/sub"
	lttctl "$@" >"$TEST_TMP/wait.out" 2>"$TEST_TMP/sub" &
	WAITER=$!
	exec {SUB}<"$TEST_TMP/sub"
	while read -r -t "$TEST_TIMEOUT" -u "$SUB" line; do
		[[ $line == "Waiting for trigger "* ]] && return 0
		printf '%s\n' "$line" >>"$TEST_TMP/wait.err"
	done
	return 1
}

# waited: the waiter's exit status, its stderr (after the Waiting line) in $TEST_TMP/wait.err.
waited() {
	local rc
	wait "$WAITER"
	rc=$?
	cat <&"$SUB" >>"$TEST_TMP/wait.err"
	exec {SUB}<&-
	return $rc
}

lttctl -q create s1 -o "$TEST_TMP/out" && lttctl -q enable-event -u -a &&
	lttctl -q start && lttctl -q create snap --snapshot -o "$TEST_TMP/snap"
ok $? "fixture: session s1 (started) and the snapshot session snap"

# --- add-trigger
mi 0 "add-trigger rot" add-trigger --name=rot --condition=session-rotation-finishes -s s1 \
	--action=snapshot-session s1 --action=notify
is "$(xp /command/output/trigger/name)" rot "add-trigger rot: <trigger><name>"
is "$(xp /command/messages/message)" "Trigger rot added." "add-trigger rot: the message"
mi 0 "add-trigger without a name" add-trigger --condition=session-consumed-size-ge -s s1 \
	--threshold-size=1G --action=snapshot-session snap --name=big -m 2M \
	--path="$TEST_TMP/p" --rate-policy=once-after:2 --action=rotate-session s1
is "$(xp /command/output/trigger/name)" trigger0 "add-trigger: the daemon's name, trigger0"
run lttctl add-trigger --name ev --condition=event-rule-matches -n ltt_test:seq \
	-f 'seq == 1' -l DEBUG.. --capture seq --capture role --capture nofield \
	--capture '$ctx.vpid' --action=notify
is "$RC/$STDOUT" "0/Trigger ev added." "add-trigger ev (text): Trigger ev added."
mi 1 "add-trigger rot again" add-trigger --name=rot --condition=session-rotation-starts -s s1 \
	--action=notify
is "$(xp /command/errors/error/name)" TRIGGER_EXISTS "  TRIGGER_EXISTS"
mi 1 "add-trigger on a session that does not exist" add-trigger \
	--condition=session-rotation-starts -s nosuch --action=notify
is "$(xp /command/errors/error/name)" SESSION_NOT_FOUND "  SESSION_NOT_FOUND"
like "$(xp /command/errors/error/message)" "^trigger: session 'nosuch': " "  naming the session"
is "$(lttctl --list-triggers)" "$(printf '%s\n' ev rot trigger0)" "--list-triggers: the three names"

# --- list-triggers
mi 0 "list-triggers" list-triggers
is "$(xp 'count(/command/output/triggers/trigger)')" 3 "list-triggers: three triggers"
T="/command/output/triggers/trigger[name='ev']"
is "$(xp "$T/ownerUid")" "$(id -u)" "ev: owned by this user"
is "$(xp "$T/condition/type")/$(xp "$T/condition/domain")" "event-rule-matches/user" \
	"ev: event-rule-matches, user space"
is "$(xp "$T/condition/eventRule/pattern")/$(xp "$T/condition/eventRule/filter")" \
	"ltt_test:seq/seq == 1" "ev: the rule's pattern and filter"
is "$(xp "$T/condition/eventRule/loglevelType")/$(xp "$T/condition/eventRule/loglevel")" \
	"range/DEBUG" "ev: the log level, DEBUG or more severe"
is "$(xp "count($T/condition/captures/capture)")/$(xp "$T/condition/captures/capture[4]/expression")" \
	'4/$ctx.vpid' "ev: the four captures, in order"
T="/command/output/triggers/trigger[name='trigger0']"
is "$(xp "$T/condition/session")/$(xp "$T/condition/thresholdSize")" "s1/1073741824" \
	"trigger0: the session and the threshold in bytes"
A="$T/actions/action[1]"
is "$(xp "$A/type") $(xp "$A/session") $(xp "$A/ratePolicy"):$(xp "$A/rateCount")" \
	"snapshot-session snap once-after:2" "trigger0: action 1, snapshot-session snap once-after:2"
is "$(xp "$A/outputName") $(xp "$A/maxSize") $(xp "$A/output")" "big 2097152 $TEST_TMP/p" \
	"trigger0: its snapshots' name, size and directory"
is "$(xp "$T/actions/action[2]/type")/$(xp "$T/actions/action[2]/ratePolicy")" \
	"rotate-session/every" "trigger0: action 2, rotate-session every:1"
run lttctl list-triggers
like "$STDOUT" "    rule: ltt_test:seq \\(type: user, log level: DEBUG or more severe, filter: seq == 1\\)" \
	"list-triggers (text): ev's rule"
like "$STDOUT" '    captures: seq, role, nofield, \$ctx.vpid' "list-triggers (text): ev's captures"
like "$STDOUT" "    session: s1, threshold: 1 GiB" "list-triggers (text): trigger0's condition"

# --- a rotation: rot's snapshot fails (s1 is no snapshot session), then it notifies
waiter --mi xml wait-trigger rot --timeout 20
ok $? "wait-trigger rot: subscribed"
archive=$(lttctl -q rotate s1)
waited
is $? 0 "wait-trigger rot: exit 0 after the rotation"
valid "$TEST_TMP/wait.out" "wait-trigger rot"
N=/command/output/notification
is "$(xp "$N/trigger" "$TEST_TMP/wait.out")/$(xp "$N/seq" "$TEST_TMP/wait.out")" "rot/1" \
	"wait-trigger rot: the trigger's first notification"
is "$(xp "$N/condition" "$TEST_TMP/wait.out")/$(xp "$N/session" "$TEST_TMP/wait.out")" \
	"session-rotation-finishes/s1" "  session-rotation-finishes of s1"
is "$(xp "$N/path" "$TEST_TMP/wait.out")" "$archive" "  the archive rotate printed"
is "$(xp "$N/dropped" "$TEST_TMP/wait.out")" 0 "  none dropped"
mi 0 "list-triggers after the rotation" list-triggers
T="/command/output/triggers/trigger[name='rot']"
is "$(xp "$T/fired")/$(xp "$T/notificationsDropped")" "1/0" "rot: fired once, none dropped"
is "$(xp "$T/actions/action[1]/runs")/$(xp "$T/actions/action[1]/failures")/$(xp "$T/actions/action[1]/lastError")" \
	"1/1/SNAPSHOT_NOT_SNAPSHOT" "rot: its snapshot ran once and failed, SNAPSHOT_NOT_SNAPSHOT"
is "$(xp "$T/actions/action[2]/runs")/$(xp "$T/actions/action[2]/failures")" "1/0" \
	"rot: its notify ran once"
run lttctl list-triggers
like "$STDOUT" "      runs: 1, failures: 1, last error: SNAPSHOT_NOT_SNAPSHOT" \
	"list-triggers (text): the failed action and its error"

# --- an event, in text then in a document
waiter wait-trigger ev --timeout 20
ok $? "wait-trigger ev: subscribed"
"$UST_APP" -n 3 >/dev/null 2>&1 &
app=$!
wait $app
waited
is $? 0 "wait-trigger ev: exit 0 after the program's events"
is "$(cat "$TEST_TMP/wait.out")" \
	"Trigger ev fired (#1): event ltt_test:seq, pid $app; captures: seq=1, role=\"main\", nofield=unavailable, \$ctx.vpid=$app" \
	"wait-trigger ev: one line, the event, its program and the captures"
waiter --mi xml wait-trigger ev --timeout 20
ok $? "wait-trigger ev --mi xml: subscribed"
"$UST_APP" -n 3 >/dev/null 2>&1 &
app=$!
wait $app
waited
is $? 0 "wait-trigger ev --mi xml: exit 0"
valid "$TEST_TMP/wait.out" "wait-trigger ev"
W=$TEST_TMP/wait.out
is "$(xp "$N/seq" "$W")/$(xp "$N/event" "$W")/$(xp "$N/pid" "$W")" "2/ltt_test:seq/$app" \
	"  the second time, the event and its program"
C="$N/captures/capture"
is "$(xp "$C[1]/expression" "$W")=$(xp "$C[1]/type" "$W"):$(xp "$C[1]/value" "$W")" "seq=unsigned:1" \
	"  capture 1: seq, unsigned, 1"
is "$(xp "$C[2]/type" "$W"):$(xp "$C[2]/value" "$W")" "string:main" "  capture 2: a string"
is "$(xp "$C[3]/type" "$W")/$(xp "count($C[3]/value)" "$W")" "unavailable/0" \
	"  capture 3: unavailable, without a value"
is "$(xp "$C[4]/type" "$W"):$(xp "$C[4]/value" "$W")" "signed:$app" "  capture 4: the vpid"

# --- a timeout, a removal while waiting, remove-trigger
mi 1 "wait-trigger trigger0 (no notify action)" wait-trigger trigger0 --timeout 20
is "$(xp /command/errors/error/name)" TRIGGER_ACTION "  TRIGGER_ACTION: nothing would come, so no wait"
like "$(xp /command/errors/error/message)" "trigger trigger0 has no notify action" "  saying so"
mi 1 "wait-trigger ev --timeout 0.2" wait-trigger ev --timeout 0.2
is "$(xp /command/errors/error/name)" NOTIFICATION_TIMEOUT "  NOTIFICATION_TIMEOUT"
like "$(xp /command/errors/error/message)" "\\(0 of 1 within 0.200 s\\)" "  saying how many came"
waiter wait-trigger rot --timeout 20
ok $? "wait-trigger rot: subscribed again"
mi 0 "remove-trigger rot" remove-trigger rot
is "$(xp /command/output/trigger/name)/$(xp /command/messages/message)" "rot/Removed trigger rot." \
	"remove-trigger rot: its name, and the message"
waited
is $? 1 "wait-trigger rot: exit 1 when the trigger is removed"
like "$(cat "$TEST_TMP/wait.err")" "Error: trigger 'rot' was removed: no more notifications will come" \
	"  it says why"
mi 1 "remove-trigger rot again" remove-trigger rot
is "$(xp /command/errors/error/name)" TRIGGER_NOT_FOUND "  TRIGGER_NOT_FOUND"
lttctl -q remove-trigger ev && lttctl -q remove-trigger trigger0
ok $? "remove-trigger ev, trigger0"
mi 0 "list-triggers, none left" list-triggers
is "$(xp 'count(/command/output/triggers/trigger)')/$(xp /command/messages/message)" "0/No trigger." \
	"list-triggers: none, No trigger."

done_testing
