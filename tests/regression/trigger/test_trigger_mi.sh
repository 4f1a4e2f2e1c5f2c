#!/bin/bash
# The trigger commands against a session daemon, as lttctl prints them:
# add-trigger, list-triggers (conditions, actions, counters, a failed
# action's error), remove-trigger and wait-trigger (a rotation's
# notification, an event's with its captures, a trigger removed while
# waited for, a timeout), each --mi xml document valid against its
# schema (LTTng's mi-lttng-4.1.xsd for add-trigger, list-trigger and
# remove-trigger, in LTTng's vocabulary; ltt's xml/mi.xsd for
# wait-trigger, which LTTng lacks) and holding what the text says.  What
# LTTng's schema has no place for (times fired, runs, last error) is
# checked in the text.  test_trigger_cli.sh has the refusals, without a
# daemon.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
command -v xmllint >/dev/null || skip_all "xmllint is not installed (libxml2-utils; scripts/deps.sh)"
[ -x "$UST_APP" ] || { echo "Bail out! $UST_APP not built"; exit 1; }
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
DOC="$TEST_TMP/doc.xml"

# valid FILE DESC: FILE validates against its schema (mi_valid).
valid() {
	local out
	out=$(mi_valid "$1")
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
	mi_xp "$1" "${2:-$DOC}"
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

# --- add-trigger: LTTng's <trigger>, its condition and actions
mi 0 "add-trigger rot" add-trigger --name=rot --condition=session-rotation-finishes -s s1 \
	--action=snapshot-session s1 --action=notify
T=/command/output/trigger
is "$(xp /command/name)/$(xp $T/name)/$(xp $T/owner_uid)" "add-trigger/rot/$(id -u)" \
	"add-trigger rot: LTTng's add-trigger document, the trigger's name and owner"
is "$(xp "count(//error_query_results)")" 0 "add-trigger rot: no counters, as LTTng's"
is "$(xp $T/condition/condition_session_rotation_completed/session_name)" s1 \
	"add-trigger rot: condition_session_rotation_completed of s1"
L=$T/action/action_list
is "$(xp "count($L/action)"):$(xp "$L/action[1]/action_snapshot_session/session_name"):$(xp "count($L/action[2]/action_notify)")" \
	"2:s1:1" "add-trigger rot: an action_list of action_snapshot_session s1, action_notify"
is "$(xp "$L/action[1]/action_snapshot_session/rate_policy/rate_policy_every_n/interval")" 1 \
	"add-trigger rot: the rate policy, every 1"
mi 0 "add-trigger without a name" add-trigger --condition=session-consumed-size-ge -s s1 \
	--threshold-size=1G --action=snapshot-session snap --name=big -m 2M \
	--path="$TEST_TMP/p" --rate-policy=once-after:2 --action=rotate-session s1
is "$(xp $T/name)" trigger0 "add-trigger: the daemon's name, trigger0"
run lttctl add-trigger --name ev --condition=event-rule-matches -n ltt_test:seq \
	-f 'seq == 1' -l DEBUG.. --capture seq --capture role --capture nofield \
	--capture '$ctx.vpid' --capture 'samples[2]' --action=notify
is "$RC/$STDOUT" "0/Added trigger \`ev\`." "add-trigger ev (text): LTTng's words, Added trigger \`ev\`."
mi 1 "add-trigger rot again" add-trigger --name=rot --condition=session-rotation-starts -s s1 \
	--action=notify
is "$(xp /command/success)" false "  success false"
like "$ERR" "^Error: trigger 'rot': " "  the reason on stderr, naming the trigger"
# (a session that does not exist is no refusal: LTTng's conditions wait for it)
mi 1 "add-trigger the daemon refuses (a kernel rule, kernel tracing off: --no-kernel)" add-trigger \
	--condition=event-rule-matches --type=kernel:tracepoint --name=no_such_event --action=notify
like "$ERR" "^Error: trigger: kernel tracing is disabled in this session daemon \(--no-kernel\); restart it without that option" \
	"  the reason on stderr, and what to do"
is "$(lttctl --list-triggers)" "$(printf '%s\n' ev rot trigger0)" "--list-triggers: the three names"

# --- list-triggers: LTTng's list-trigger document
mi 0 "list-triggers" list-triggers
is "$(xp /command/name)/$(xp 'count(/command/output/triggers/trigger)')" "list-trigger/3" \
	"list-triggers: LTTng's name of the command, three triggers"
T="/command/output/triggers/trigger[name='ev']"
is "$(xp "$T/owner_uid")" "$(id -u)" "ev: owned by this user"
R="$T/condition/condition_event_rule_matches/event_rule/event_rule_user_tracepoint"
is "$(xp "$R/name_pattern")/$(xp "$R/filter_expression")" \
	"ltt_test:seq/seq == 1" "ev: event_rule_user_tracepoint, its pattern and filter"
is "$(xp "$R/log_level_rule/log_level_rule_at_least_as_severe_as/level")" 14 \
	"ev: the log level, DEBUG (14) or more severe"
D="$T/condition/condition_event_rule_matches/capture_descriptors"
is "$(xp "count($D/event_expr)"):$(xp "$D/event_expr[1]/event_expr_payload_field/name"):$(xp "$D/event_expr[4]/event_expr_channel_context_field/name")" \
	'5:seq:vpid' "ev: the five captures in order, a payload field, a context"
is "$(xp "$D/event_expr[5]/event_expr_array_field_element/index"):$(xp "$D/event_expr[5]/event_expr_array_field_element/event_expr/event_expr_payload_field/name")" \
	'2:samples' "ev: samples[2], an element of an array field"
T="/command/output/triggers/trigger[name='trigger0']"
is "$(xp "$T/condition/condition_session_consumed_size/session_name")/$(xp "$T/condition/condition_session_consumed_size/threshold_bytes")" \
	"s1/1073741824" "trigger0: the session and the threshold in bytes"
A="$T/action/action_list/action[1]/action_snapshot_session"
is "$(xp "$A/session_name") $(xp "$A/rate_policy/rate_policy_once_after_n/threshold")" \
	"snap 2" "trigger0: action 1, snapshot-session snap once-after:2"
is "$(xp "$A/output/name") $(xp "$A/output/max_size") $(xp "$A/output/ctrl_url")" "big 2097152 $TEST_TMP/p" \
	"trigger0: its snapshots' name, size and directory"
A="$T/action/action_list/action[2]/action_rotate_session"
is "$(xp "$A/session_name")/$(xp "$A/rate_policy/rate_policy_every_n/interval")" \
	"s1/1" "trigger0: action 2, rotate-session s1 every:1"
E="/command/output/triggers/trigger[name='ev']"
Q="$E/condition/error_query_results/error_query_result"
is "$(xp "$Q/name")|$(xp "$Q/description")|$(xp "$Q/error_query_result_counter/value")" \
	"discarded tracer messages|Count of messages discarded by the tracer due to a communication error with the session daemon|0" \
	"ev: its lost notifications are its condition's, named and described as LTTng's MI does"
is "$(xp "count($E/error_query_results/*)")/$(xp "count($E/error_query_results)")" "0/1" \
	"ev: the trigger's own error_query_results empty, as LTTng's"
is "$(xp "$T/action/action_list/action[1]/error_query_results/error_query_result/description")" \
	"Aggregated count of errors encountered when executing the action" \
	"trigger0: an action's failures described as LTTng's"
is "$(xp "count(/command/success)")" 0 "list-triggers: no <success>, as LTTng's list-trigger document"
run lttctl list-triggers
# LTTng 2.13's layout, line for line (its test_list_triggers_cli's)
is "$(sed -n '/^- name: ev$/,/^- name: /p' <<<"$STDOUT" | sed '$d')" "- name: ev
  owner uid: $(id -u)
  condition: event rule matches
    rule: ltt_test:seq (type: user tracepoint, filter: seq == 1, log level at least DEBUG)
    captures:
      - seq
      - role
      - nofield
      - \$ctx.vpid
      - samples[2]
    errors: none
  actions:
    notify
      errors: none
  errors: none" "list-triggers (text): ev in LTTng's layout, its rule and captures"
is "$(sed -n '/^- name: trigger0$/,$p' <<<"$STDOUT")" "- name: trigger0
  owner uid: $(id -u)
  condition: session consumed size
    session name: s1
    threshold: 1073741824 bytes
    errors: none
  actions:
    snapshot session \`snap\`, path: $TEST_TMP/p, name: big, max size: 2097152, rate policy: once after 2 occurrences
      errors: none
    rotate session \`s1\`
      errors: none
  errors: none" "list-triggers (text): trigger0, last by name, its condition and actions"
is "$(grep '^- name: ' <<<"$STDOUT")" "- name: ev
- name: rot
- name: trigger0" "list-triggers (text): sorted by name, as LTTng"
unlike "$STDOUT" "fired:|runs:" "list-triggers (text): ltt's counters only with --counters"

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
F="error_query_results/error_query_result[name='total execution failures']/error_query_result_counter/value"
is "$(xp "$T/action/action_list/action[1]/$F")/$(xp "$T/action/action_list/action[2]/$F")" "1/0" \
	"rot: its snapshot failed once (LTTng's total execution failures), its notify never"
is "$(xp "$T/error_query_results/error_query_result[name='dropped notifications']/error_query_result_counter/value")" 0 \
	"rot: no notification dropped"
run lttctl list-triggers
like "$STDOUT" "    snapshot session \`s1\`
      errors:
        total execution failures: 1
    notify
      errors: none" "list-triggers (text): the failed action's error, as LTTng names it"
run lttctl list-triggers --counters
is "$(grep -A8 '^- name: rot$' <<<"$STDOUT" | grep '^  fired: ')" "  fired: 1 time, notifications dropped: 0" \
	"list-triggers --counters: rot fired once (LTTng has no place for it)"
like "$STDOUT" "    snapshot session \`s1\`
      errors:
        total execution failures: 1
      runs: 1, failures: 1, last error: SNAPSHOT_NOT_SNAPSHOT" \
	"list-triggers --counters: the failed action, its runs and its error"

# --- an event, in text then in a document
waiter wait-trigger ev --timeout 20
ok $? "wait-trigger ev: subscribed"
"$UST_APP" -n 3 >/dev/null 2>&1 &
app=$!
wait $app
waited
is $? 0 "wait-trigger ev: exit 0 after the program's events"
is "$(cat "$TEST_TMP/wait.out")" \
	"Trigger ev fired (#1): event ltt_test:seq, pid $app; captures: seq=1, role=\"main\", nofield=unavailable, \$ctx.vpid=$app, samples[2]=unavailable" \
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
is "$(xp /command/name)/$(xp /command/output/trigger/name)/$(xp /command/output/trigger/condition/condition_session_rotation_completed/session_name)" \
	"remove-trigger/rot/s1" "remove-trigger rot: the trigger removed, as LTTng writes it"
is "$(xp "count(//error_query_results)")" 0 "remove-trigger rot: no counters, as LTTng's (list-triggers has them)"
waited
is $? 1 "wait-trigger rot: exit 1 when the trigger is removed"
like "$(cat "$TEST_TMP/wait.err")" "Error: trigger 'rot' was removed: no more notifications will come" \
	"  it says why"
mi 1 "remove-trigger rot again" remove-trigger rot
like "$(xp /command/success):$ERR" "^false:Error: trigger 'rot': " "  success false, the reason on stderr"
lttctl -q remove-trigger ev && lttctl -q remove-trigger trigger0
ok $? "remove-trigger ev, trigger0"
mi 0 "list-triggers, none left" list-triggers
is "$(xp 'count(/command/output/triggers/trigger)')/$(xp 'count(/command/output/triggers)')" "0/1" \
	"list-triggers: an empty <triggers>"

# --- a snapshot output given as a control and a data URL, and a net URL
run lttctl add-trigger --name pair --condition=session-rotation-starts -s s1 \
	--action=snapshot-session snap --ctrl-url=tcp://127.0.0.1:5442 \
	--data-url=tcp://127.0.0.1:5443 --action=snapshot-session snap --url=net://127.0.0.1
is "$RC" 0 "add-trigger pair: a snapshot output of -C/-D, another of a net URL"
run lttctl list-triggers
like "$STDOUT" "    snapshot session \`snap\`, control url: tcp://127.0.0.1:5442, data url: tcp://127.0.0.1:5443
      errors: none
    snapshot session \`snap\`, url: net://127.0.0.1
      errors: none" "list-triggers (text): the pair as its two URLs, the net URL as given, as LTTng lists them"
mi 0 "list-triggers pair" list-triggers
A="/command/output/triggers/trigger[name='pair']/action/action_list/action"
is "$(xp "$A[1]/action_snapshot_session/output/ctrl_url") $(xp "$A[1]/action_snapshot_session/output/data_url") $(xp "$A[2]/action_snapshot_session/output/ctrl_url") $(xp "count($A[2]/action_snapshot_session/output/data_url)")" \
	"tcp://127.0.0.1:5442 tcp://127.0.0.1:5443 net://127.0.0.1 0" \
	"list-triggers pair (MI): ctrl_url and data_url, as LTTng's"
lttctl -q remove-trigger pair
ok $? "remove-trigger pair"

# --- a buffer usage ratio, as LTTng's list-triggers writes it: "0.25" in
# the text (it printed "%.2f": lttctl's text has no floating point
# conversion), 0.250000 in MI, and an empty <error_query_results> in
# the condition; run as lttng, the trigger's list empty too (LTTng's
# test_list_triggers_cli compares them)
run lttctl add-trigger --name usage --condition=channel-buffer-usage-ge -s s1 -c channel0 -u \
	--threshold-ratio=0.25 --action=notify
is "$RC" 0 "add-trigger usage: buffer usage at least a ratio of 0.25"
run lttctl list-triggers
like "$STDOUT" "    domain: ust
    threshold \(ratio\): 0\.25
    errors: none" "list-triggers usage (text): threshold (ratio): 0.25, as LTTng's"
mi 0 "list-triggers usage" list-triggers
C="/command/output/triggers/trigger[name='usage']/condition"
is "$(xp "$C/condition_buffer_usage_high/threshold_ratio")" 0.250000 \
	"list-triggers usage (MI): threshold_ratio 0.250000, as LTTng's writer prints a double"
is "$(xp "count($C/error_query_results)")/$(xp "count($C/error_query_results/*)")" 1/0 \
	"list-triggers usage (MI): the condition's <error_query_results>, empty, as LTTng's"
T="/command/output/triggers/trigger[name='usage']"
is "$(xp "count($T/error_query_results/error_query_result[name='dropped notifications'])")" 1 \
	"list-triggers usage (MI): ltt's dropped notifications counter in the trigger's list"
# run as lttng (ltt-lttng-compat's name), that list is LTTng's, empty, while nothing was dropped
mkdir -p "$TEST_TMP/bin" && ln -sf "$LTTCTL_BIN" "$TEST_TMP/bin/lttng"
run "$TEST_TMP/bin/lttng" --mi xml list-triggers
printf '%s\n' "$STDOUT" >"$DOC"
is "$RC/$(xp "count($T/error_query_results)")/$(xp "count($T/error_query_results/*)")" 0/1/0 \
	"lttng list-triggers usage (MI): the trigger's <error_query_results> empty, as LTTng's"
valid "$DOC" "lttng list-triggers"
lttctl -q remove-trigger usage
ok $? "remove-trigger usage"

done_testing
