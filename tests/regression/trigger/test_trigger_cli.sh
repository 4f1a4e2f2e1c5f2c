#!/bin/bash
# lttctl's trigger commands without a session daemon: add-trigger's
# positional grammar and each of its refusals, made before connecting
# (the exit status, the message, nothing on stdout, no daemon asked: a
# line that is right gets as far as "no session daemon is running");
# remove-trigger's, wait-trigger's and list-triggers' own refusals; the
# help of each command; a refusal as a --mi xml document.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
mkdir -p "$LTT_RUNDIR"	# empty: no daemon listens there
NO_DAEMON="session daemon \\(run directory $LTT_RUNDIR\\): no session daemon is running"

# refused STATUS REGEX ARGS...: add-trigger ARGS exits STATUS, says
# "Error: " and REGEX first on stderr, nothing on stdout, without having
# looked for a daemon.
refused() {
	local status=$1 re=$2
	shift 2
	run lttctl add-trigger "$@"
	is "$RC" "$status" "add-trigger $*: exit $status"
	like "$(head -n 1 <<<"$ERR")" "^Error: $re" "  says: $re"
	unlike "$ERR" "session daemon" "  refused before connecting"
	is "$STDOUT" "" "  nothing on stdout"
}

# reaches ARGS...: add-trigger ARGS is a trigger: refused only for want of a daemon.
reaches() {
	run lttctl add-trigger "$@"
	is "$RC" 1 "add-trigger $*: a trigger, exit 1 without a daemon"
	like "$ERR" "^Error: $NO_DAEMON" "  only because no daemon is running"
}

ROT="--condition=session-rotation-starts --session=s1"

# --- lines that make a trigger: they get as far as connecting
reaches $ROT --action=notify
reaches --name=t1 --owner-uid=0 --condition session-rotation-finishes -s s1 \
	--action notify --rate-policy once-after:3
reaches --name t2 --condition=event-rule-matches --type=user --name='prov:*' \
	--exclude-name=prov:a -x prov:b --log-level=WARNING.. --filter='size > 3' \
	--capture=size --capture='samples[2]' --capture='$ctx.vtid' \
	--action=snapshot-session s1 --name=snap -m 1M --path="$TEST_TMP/snaps" \
	--rate-policy=every:2 --action=notify --action=stop-session s1
reaches --condition=event-rule-matches -t user:tracepoint -n ev -l INFO --action=notify
# exclusions in any order (ltt keeps them sorted)
reaches --condition=event-rule-matches --type=user --name='jean-*' \
	--exclude-name jean-chretien -x jean-charest --action=notify
reaches --condition=event-rule-matches -t python -n 'my.logger' -l .. --action=notify
reaches --condition=event-rule-matches -t kernel:syscall -n open --action=notify
reaches --condition=channel-buffer-usage-ge -s s1 -c channel0 -u --threshold-ratio=0.75 \
	--action=rotate-session s1
reaches --condition=channel-buffer-usage-le -s s1 -c channel0 --domain=kernel \
	--threshold-size 64k --action=start-session s1
reaches --condition=session-consumed-size-ge -s s1 --threshold-size=1G \
	--action=snapshot-session s1 --url=net://localhost
reaches $ROT --action=notify -- 	# "--" ends the options: nothing follows
reaches $ROT --action=snapshot-session s1 --ctrl-url=tcp://127.0.0.1:5342 \
	--data-url=tcp://127.0.0.1:5343
reaches $ROT --action=snapshot-session s1 -C tcp://127.0.0.1:5342 -D tcp://127.0.0.1:5343 -n s
reaches --condition=event-rule-matches --capture='$ctx.foo' --capture='$ctx.foo[2]' \
	--capture='$app.prov:type' --capture='$app.prov:type[2]' --action=notify

# --- the refusals the brief of add-trigger lists
refused 1 "While parsing argument #2 \\(\`--condition=foo\`\\): Unknown condition name 'foo'\$" \
	--condition=foo --action=notify
is "$(sed -n '2,$p' <<<"$ERR")" "Error: Valid condition names are:
Error:   event-rule-matches
Error:   channel-buffer-usage-ge
Error:   channel-buffer-usage-le
Error:   session-consumed-size-ge
Error:   session-rotation-starts
Error:   session-rotation-finishes" "  then LTTng's list, of ltt's condition types"
refused 1 "While parsing argument #4 \\(\`--action=bar\`\\): Unknown action name 'bar'\$" $ROT --action=bar
like "$ERR" "Error: Valid action names are:
Error:   notify
Error:   start-session" "  then LTTng's list, of ltt's action types"
refused 1 "Failed to parse log level string \`FOO\`\\.\$" --condition=event-rule-matches -l FOO
is "$(wc -l <<<"$ERR")" 1 "  a bad log level before the missing action, as LTTng says it"
refused 2 "Missing --condition\\.\$" --name=t
refused 2 "--action=notify before --condition" --action=notify $ROT
refused 2 "Need at least one --action\\.\$" $ROT
refused 2 "Missing session name\\.\$" $ROT --action=start-session
refused 2 "Missing session name\\.\$" \
	$ROT --action=notify --action=snapshot-session --max-size=1M
refused 1 "Rate policy value \`0\` must be > 0\\.\$" \
	$ROT --action=notify --rate-policy=every:0
refused 1 "Rate policy type \`foo\` unknown\\.\$" $ROT --action=notify --rate-policy=foo:3
refused 1 "Rate policy format is invalid\\.\$" $ROT --action=notify --rate-policy=every
refused 1 "Failed to parse rate policy value \`\` as an integer\\.\$" $ROT --action=notify \
	--rate-policy=once-after:
refused 1 "capture 'a\\[x\\]': invalid capture" \
	--condition=event-rule-matches --capture='a[x]' --action=notify
# LTTng's words for what it says of a capture: capture_refused EXPR REGEX
capture_refused() {
	refused 1 "$2" --condition=event-rule-matches --capture="$1" --action=notify
}
capture_refused '$app.nope' \
	"Invalid app-specific context field name: missing colon in \`nope\`\\.\$"
capture_refused '$app.p:' \
	"Invalid app-specific context field name: missing type name after colon in \`p:\`\\.\$"
capture_refused 'foo == 2' \
	"While parsing expression \`foo == 2\`: Binary operators are not allowed in capture expressions\\.\$"
capture_refused '!foo' \
	"While parsing expression \`!foo\`: Unary operators are not allowed in capture expressions\\.\$"
capture_refused 'a || b' \
	"While parsing expression \`a || b\`: Logical operators are not allowed in capture expressions\\.\$"
capture_refused 'foo[3].bar' \
	"While parsing expression \`foo\\[3\\]\\.bar\`: Capturing subfields is not supported\\.\$"
refused 1 "--ctrl-url is specified, but --data-url is missing\\.\$" \
	$ROT --action=snapshot-session s1 --ctrl-url=tcp://127.0.0.1:5342
refused 1 "The --ctrl-url/--data-url, --url, and --path options can't be used together\\.\$" \
	$ROT --action=snapshot-session s1 -C tcp://127.0.0.1:5342 -D tcp://127.0.0.1:5343 \
	--path=/tmp/x
refused 1 "Can't provide a snapshot output name without a snapshot output destination\\.\$" \
	$ROT --action=snapshot-session s1 --name=x
refused 1 "Can't provide a snapshot output max size without a snapshot output destination\\.\$" \
	$ROT --action=snapshot-session s1 -m 1M
refused 1 "Failed to parse '/a/path' as an URL\\.\$" \
	$ROT --action=snapshot-session s1 --url /a/path
refused 1 "Failed to parse 'net://127.0.0.1/' as a local path\\.\$" \
	$ROT --action=snapshot-session s1 --path net://127.0.0.1/
refused 1 "invalid filter: " --condition=event-rule-matches --filter='a ==' --action=notify
like "$ERR" $'\n  a ==\n +\\^' "  the filter shown with a caret under the bad token"
refused 1 "--threshold-ratio '1.5': invalid threshold" \
	--condition=channel-buffer-usage-ge -s s1 -c c1 -u --threshold-ratio=1.5 --action=notify
refused 1 "--threshold-ratio 'half': invalid threshold" \
	--condition=channel-buffer-usage-le -s s1 -c c1 -k --threshold-ratio half --action=notify
refused 1 "--threshold-size '0': invalid threshold" \
	--condition=session-consumed-size-ge -s s1 --threshold-size=0 --action=notify
refused 2 "--owner-uid 'abc': give a user id, a number" --owner-uid=abc $ROT --action=notify
refused 2 "--owner-uid '-1': give a user id" --owner-uid -1 $ROT --action=notify
nine=()
for i in 1 2 3 4 5 6 7 8 9; do nine+=(--action=notify); done
refused 1 "action 9 \\(notify\\): a trigger takes at most 8 actions" $ROT "${nine[@]}"
refused 2 "--channel is not an option of condition session-rotation-starts, which takes --session" \
	$ROT --channel=c1 --action=notify
refused 2 "--threshold-size is not an option of condition session-rotation-finishes" \
	--condition=session-rotation-finishes -s s1 --threshold-size=1M --action=notify
refused 2 "-f is not an option of condition session-consumed-size-ge, which takes --session, --threshold-size" \
	--condition=session-consumed-size-ge -s s1 --threshold-size=1M -f 'a == 1' --action=notify
refused 2 "--session is not an option of condition event-rule-matches, which takes --name, --type" \
	--condition=event-rule-matches --session s1 --action=notify

# --- positions: an option belongs to what it follows
refused 2 "--session before --condition: only --name and --owner-uid go there" \
	--session=s1 --condition=session-rotation-starts --action=notify
refused 2 "--rate-policy before --condition" --rate-policy=every:1 $ROT --action=notify
refused 2 "--name is not an option of action 1 \\(notify\\), which takes --rate-policy" \
	$ROT --action=notify --name=x
refused 2 "--max-size is not an option of action 1 \\(stop-session\\)" \
	$ROT --action=stop-session s1 --max-size=1M
refused 1 "trigger 'bad\\\\x09name': invalid trigger name" --name=$'bad\tname' $ROT --action=notify
reaches --name='a name, as LTTng takes it' $ROT --action=notify
refused 1 "event name pattern '': " --condition=event-rule-matches --name= --action=notify
refused 1 "snapshot name 'a/b': " $ROT --action=snapshot-session s1 --name=a/b

# LTTng's words are the whole of stderr, as its add-trigger tests compare
# them: one line, no usage line after it
for args in "--name=t" "$ROT" "$ROT --bogus --action=notify" "$ROT --action=notify s2"; do
	# shellcheck disable=SC2086
	run lttctl add-trigger $args
	is "$(wc -l <<<"$ERR")" 1 "add-trigger $args: one line on stderr ($ERR)"
done

# --- the grammar's other refusals
refused 2 "While parsing argument #4 \\(\`--bogus\`\\): Unknown option \`--bogus\`\$" \
	$ROT --bogus --action=notify
refused 2 "While parsing argument #4 \\(\`-Z\`\\): Unknown option \`-Z\`\$" $ROT -Z --action=notify
refused 2 "While parsing argument #3 \\(\`--session\`\\): Missing required argument for option \`--session\`\$" \
	--condition=session-rotation-starts --session
refused 2 "--kernel takes no value" --condition=channel-buffer-usage-ge --kernel=1 \
	--action=notify
refused 2 "-s is given twice for condition session-rotation-starts" \
	$ROT -s s2 --action=notify
refused 2 "A --condition was already given\\.\$" \
	$ROT --condition=session-rotation-finishes --action=notify
refused 2 "Unexpected argument \`s2\`\\.\$" $ROT --action=notify s2
refused 2 "Unexpected argument \`s3\`\\.\$" $ROT --action=stop-session s2 s3
refused 2 "Unexpected argument 'stray'\$" stray $ROT --action=notify
refused 2 "condition session-rotation-starts needs the session: --session=SESSION" \
	--condition=session-rotation-starts --action=notify
refused 2 "condition channel-buffer-usage-ge needs the channel: --channel=CHANNEL" \
	--condition=channel-buffer-usage-ge -s s1 -u --threshold-size=1M --action=notify
refused 2 "condition channel-buffer-usage-ge needs the channel's domain" \
	--condition=channel-buffer-usage-ge -s s1 -c c1 --threshold-size=1M --action=notify
refused 2 "condition channel-buffer-usage-le: give one domain" \
	--condition=channel-buffer-usage-le -s s1 -c c1 -u -k --threshold-size=1M --action=notify
refused 2 "--domain 'both': give user or kernel" \
	--condition=channel-buffer-usage-le -s s1 -c c1 --domain=both --threshold-size=1M \
	--action=notify
refused 2 "condition channel-buffer-usage-le needs one threshold" \
	--condition=channel-buffer-usage-le -s s1 -c c1 -u --threshold-size=1M \
	--threshold-ratio=0.5 --action=notify
refused 2 "condition session-consumed-size-ge needs the size: --threshold-size=SIZE" \
	--condition=session-consumed-size-ge -s s1 --action=notify
refused 1 "session 'a/b': invalid session name" --condition=session-rotation-starts -s a/b \
	--action=notify
refused 1 "session 'x/y': invalid session name" $ROT --action=start-session x/y
refused 1 "channel '.c': " --condition=channel-buffer-usage-ge -s s1 -c .c -u \
	--threshold-size=1M --action=notify

# --- event rules
refused 2 "--type 'java': give user \\(user:tracepoint\\), kernel:tracepoint, kernel:syscall, kernel:kprobe, kernel:uprobe, python \\(python:logging\\), jul \\(jul:logging\\) or log4j \\(log4j:logging\\)" \
	--condition=event-rule-matches --type=java --action=notify
reaches --condition=event-rule-matches --type=jul -n my.logger --log-level=WARNING.. --action=notify
reaches --condition=event-rule-matches --type=log4j:logging -n my.logger --log-level=WARN --action=notify
reaches --condition=event-rule-matches -t kernel:syscall:entry -n getpid --action=notify
reaches --condition=event-rule-matches -t syscall:exit --action=notify
refused 2 "Failed to parse syscall type 'syscall:nope'\\.\$" \
	--condition=event-rule-matches --type=syscall:nope --name=open --action=notify
is "$(wc -l <<<"$ERR")" 1 "  one line, as LTTng's"
# -L/-E after a --type that is no probe: LTTng's words (probes: test_kernel_tracefs_probe_trigger.sh)
refused 2 "Can't use --location with user tracepoint event rules\\.\$" \
	--condition=event-rule-matches --type=user --location=hello --action=notify
refused 2 "Can't use --event-name with kernel syscall event rules\\.\$" \
	--condition=event-rule-matches --type=kernel:syscall -E hello --action=notify
refused 1 "Event prov:b: Exclusions can only be used with a globbing pattern\$" \
	--condition=event-rule-matches -n prov:b -x prov:a --action=notify
refused 1 "--exclude-name 'pr\\*' for the pattern 'prov:\\*': each exclusion must be" \
	--condition=event-rule-matches -n 'prov:*' -x 'pr*' --action=notify
refused 2 "--exclude-name: only user-space rules take exclusions" \
	--condition=event-rule-matches -t kernel -x a --action=notify
refused 2 "--exclude-name: the name is empty" \
	--condition=event-rule-matches -n 'p:*' -x '' --action=notify
refused 1 "Failed to parse log level string \`BOGUS\`\\.\$" \
	--condition=event-rule-matches -l BOGUS --action=notify
refused 1 "--log-level 'INFO..': kernel events have no log level" \
	--condition=event-rule-matches -t kernel:tracepoint -l INFO.. --action=notify
# 64 captures (LTT_TRIGGER_CAPTURES_LIMIT), 16 of them past the public
# struct's array; a 65th is refused
captures=()
for i in $(seq 1 65); do captures+=(--capture="c$i"); done
refused 1 "capture 'c65': too many captures: an event-rule-matches condition takes at most 64" \
	--condition=event-rule-matches "${captures[@]}" --action=notify
reaches --condition=event-rule-matches "${captures[@]:0:64}" --action=notify

# --- snapshot-session's output
refused 2 "action 1 \\(snapshot-session\\): give --path or --url, not both" \
	$ROT --action=snapshot-session s1 --path=/tmp --url=net://localhost
refused 1 "URL 'tcp://localhost': invalid URL" $ROT --action=snapshot-session s1 \
	--url=tcp://localhost
refused 2 "invalid maximum size '0'" $ROT --action=snapshot-session s1 -m 0

# --- a refusal as a --mi xml document: LTTng's add-trigger document
# saying it failed, the reason on stderr
run lttctl --mi xml add-trigger --condition=foo --action=notify
printf '%s\n' "$STDOUT" >"$TEST_TMP/refused.xml"
is "$RC:$(mi_xp /command/name "$TEST_TMP/refused.xml"):$(mi_xp /command/success "$TEST_TMP/refused.xml")" \
	"1:add-trigger:false" "--mi xml add-trigger --condition=foo: exit 1, LTTng's document, success false"
like "$ERR" "^Error: While parsing argument #2 \\(\`--condition=foo\`\\): Unknown condition name 'foo'" "  the reason on stderr"
if command -v xmllint >/dev/null; then
	is "$(mi_valid "$TEST_TMP/refused.xml")" "$TEST_TMP/refused.xml validates" \
		"  it validates against LTTng's schema"
	run lttctl --mi xml add-trigger $ROT
	printf '%s\n' "$STDOUT" >"$TEST_TMP/usage.xml"
	is "$(mi_valid "$TEST_TMP/usage.xml")" "$TEST_TMP/usage.xml validates" \
		"a usage error of add-trigger validates against LTTng's schema"
	run lttctl --mi xml add-trigger --help
	printf '%s\n' "$STDOUT" >"$TEST_TMP/help.xml"
	is "$(mi_valid "$TEST_TMP/help.xml")" "$TEST_TMP/help.xml validates" \
		"add-trigger --help as a document validates against ltt's mi.xsd (LTTng's MI has no help)"
else
	skip 3 "xmllint is not installed"
fi

# --- help
run lttctl help add-trigger
is "$RC" 0 "help add-trigger: exit 0"
like "$STDOUT" "^Usage: lttctl add-trigger \\[--name NAME\\] \\[--owner-uid UID\\] --condition=TYPE" \
	"  its usage"
like "$STDOUT" "Conditions \\(--condition=TYPE\\) and their options:" "  the conditions"
like "$STDOUT" "  snapshot-session SESSION +\\[-n NAME\\] \\[-m SIZE\\] \\[--path DIR \\| --url URL\\]" \
	"  the actions with their arguments"
run lttctl add-trigger $ROT --action=notify --help
is "$RC" 0 "--help anywhere in the line: the help, exit 0"
like "$STDOUT" "^Usage: lttctl add-trigger" "  the help"
for cmd in add-trigger list-triggers remove-trigger wait-trigger; do
	run lttctl "$cmd" --help
	is "$RC" 0 "$cmd --help: exit 0"
	like "$STDOUT" "^Usage: lttctl $cmd" "  its usage"
	run lttctl help "$cmd"
	is "$STDOUT" "$(lttctl "$cmd" --help)" "help $cmd: the same as $cmd --help"
	run lttctl "$cmd" -h
	is "$RC" 0 "$cmd -h: exit 0"
done
run lttctl help
like "$STDOUT" "  wait-trigger +Print a trigger's notifications as they come" \
	"'lttctl help' lists the trigger commands"

# --- remove-trigger, wait-trigger, list-triggers
run lttctl remove-trigger
is "$RC" 2 "remove-trigger without a name: exit 2"
like "$ERR" "^Error: the trigger's name is needed" "  says so"
run lttctl remove-trigger a b
is "$RC" 2 "remove-trigger a b: exit 2"
run lttctl remove-trigger $'.\nt'
is "$RC" 1 "remove-trigger '.<newline>t': exit 1"
like "$ERR" "^Error: trigger '.\\\\x0at': invalid trigger name" "  TRIGGER_NAME (its newline shown escaped)"
run lttctl remove-trigger t1
is "$RC" 1 "remove-trigger t1 without a daemon: exit 1"
like "$ERR" "^Error: $NO_DAEMON" "  no daemon"
run lttctl wait-trigger
is "$RC" 2 "wait-trigger without a name: exit 2"
like "$ERR" "^Error: the trigger's name is needed" "  says so"
run lttctl wait-trigger t1 --timeout=abc
is "$RC" 2 "wait-trigger --timeout=abc: exit 2"
like "$ERR" "^Error: invalid timeout 'abc'" "  says so"
run lttctl wait-trigger t1 --timeout 1.2345
is "$RC" 2 "wait-trigger --timeout 1.2345 (four decimals): exit 2"
run lttctl wait-trigger t1 --count 0
is "$RC" 2 "wait-trigger --count 0: exit 2"
like "$ERR" "^Error: invalid count '0': give a number of notifications, at least 1" "  says so"
run lttctl wait-trigger $'a\tb'
is "$RC" 1 "wait-trigger 'a<tab>b': exit 1"
like "$ERR" "^Error: trigger 'a\\\\x09b': invalid trigger name" "  TRIGGER_NAME"
run lttctl wait-trigger 'a b'
like "$RC:$ERR" "^1:Error: $NO_DAEMON" "wait-trigger 'a b': a name, as LTTng's (no daemon to ask)"
run lttctl wait-trigger t1 --timeout 0.5 --count 2
is "$RC" 1 "wait-trigger t1 without a daemon: exit 1"
like "$ERR" "^Error: $NO_DAEMON" "  no daemon"
run lttctl list-triggers x
is "$RC" 2 "list-triggers x: exit 2"
like "$ERR" "^Error: unexpected argument 'x'" "  says so"
run lttctl list-triggers
is "$RC" 1 "list-triggers without a daemon: exit 1"
like "$ERR" "^Error: $NO_DAEMON" "  no daemon"
run lttctl --list-triggers
is "$RC" 1 "--list-triggers without a daemon: exit 1"
run lttctl --mi xml --list-triggers
is "$RC" 1 "--mi xml --list-triggers: refused"
like "$STDOUT:$ERR" "^:Error: --list-triggers prints names for scripts, one per line, and has no machine interface output" \
	"  no document, the reason on stderr"
run lttctl --list-triggers --list-sessions
is "$RC" 2 "--list-triggers --list-sessions: one of them"

# --- run as lttng (ltt-lttng-compat's name): LTTng's sentences where lttctl's differ
mkdir -p "$TEST_TMP/bin" && ln -s "$LTTCTL_BIN" "$TEST_TMP/bin/lttng"
# as_lttng WANT ARGS...: "lttng add-trigger ARGS" fails, its stderr WANT whole, stdout empty
as_lttng() {
	local want=$1
	shift
	run "$TEST_TMP/bin/lttng" add-trigger "$@"
	is "$STDOUT|$ERR" "|$want" "lttng add-trigger $*: LTTng's words whole, nothing on stdout"
	[ "$RC" != 0 ]
	ok $? "  fails"
}
as_lttng "Error: While parsing argument #2 (\`--condition=foo\`): Unknown condition name 'foo'
Error: Valid condition names are:
Error:   event-rule-matches" --condition=foo --action=notify
as_lttng "Error: While parsing argument #2 (\`--condition\`): Missing required argument for option \`--condition\`
Error: Valid condition names are:
Error:   event-rule-matches" --condition
as_lttng "Error: While parsing argument #5 (\`--action=bar\`): Unknown action name 'bar'
Error: Valid action names are:
Error:   notify" --condition event-rule-matches --type=user --action=bar
as_lttng "Error: While parsing argument #4 (\`--action\`): Missing required argument for option \`--action\`
Error: Valid action names are:
Error:   notify" --condition event-rule-matches --action
as_lttng "Error: While parsing argument #7 (\`--capture\`): Missing required argument for option \`--capture\`" \
	--action notify --condition event-rule-matches --type=user --capture
as_lttng "Error: While parsing expression \`--action\`: Unary operators are not allowed in capture expressions." \
	--condition event-rule-matches --type=user --capture --action notify
as_lttng "Error: Can't use --name with kernel kprobe event rules." \
	--condition event-rule-matches --type=kernel:kprobe --location=do_sys_open --name=hello
as_lttng "Error: Unexpected argument 'hello'" \
	--condition event-rule-matches --type=kernel:kprobe --location=/bin/true:main hello
# ... and by lttctl's own name, lttctl's
refused 2 "While parsing argument #2 \\(\`--condition\`\\): Missing required argument" --condition
is "$(wc -l <<<"$ERR")" 8 "  then the list of ltt's six condition types"
refused 2 "--action=notify before --condition" --action notify --condition event-rule-matches \
	--type=user --capture
run lttctl add-trigger --condition event-rule-matches --type=kernel:kprobe \
	--location=do_sys_open --name=hello --action=notify
is "$RC:$ERR" "1:Error: Can't use --name with kernel kprobe event rules." \
	"lttctl add-trigger of a kprobe rule with --name: LTTng's sentence (probe rules are ltt's too)"

done_testing
