#!/bin/bash
# test_saveload.sh - lttctl save and load with real daemons: save ->
# destroy -> load gives the same `list` and the same recording; -a; -f
# and its refusal; --override-url and --override-name; every malformed
# or invalid file of tests/regression/saveload refused with its line and
# nothing changed; a failure midway undone; the daemon's --load and its
# autoload directory at start; the default output resolved by the daemon.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
BAD="$LTT_TOP_SRCDIR/tests/regression/saveload"

SAVED="$HOME/.lttng/sessions"
# why a session with a net_ns context is saved in ltt's format
CTX_GAP="in ltt's format: LTTng 2.13's session format has no element for one of its contexts (it has its own types and user-space perf counters)."
N=100
declare -A c1

# snapshot_lists FILE: `list` (its lines in name order: a session loaded
# again is listed last) and `list NAME` of every session, into FILE.
snapshot_lists() {
	local s
	{
		lttctl list | sed 's/^ *[0-9]*) //' | sort
		for s in $(lttctl list | sed -n 's/^ *[0-9]*) \([^ ]*\) .*/\1/p' | sort); do
			lttctl list "$s"
		done
	} >"$1" 2>&1
}

# The default output: resolved by the daemon under our $LTT_HOME.
run lttctl create rec
like "$STDOUT" "Traces will be written in $LTT_HOME/ltt-traces/rec-[0-9]{8}-[0-9]{6}\$" \
	"create: the daemon resolves the default output under the client's LTT_HOME"
lttctl -q destroy rec
run lttctl create
like "$STDOUT" "Session auto-[0-9]{8}-[0-9]{6} created" "create: the daemon picks an automatic name"
like "$STDOUT" "Traces will be written in $LTT_HOME/ltt-traces/auto-[0-9]{8}-[0-9]{6}\$" \
	"create: an automatic name's output holds the date once"
lttctl -q destroy -a

# LTTNG_HOME without LTT_HOME: LTTng's layout, as lttng-tools' tests set
# it (test_autoload): the default output in $LTTNG_HOME/lttng-traces,
# saved sessions in $LTTNG_HOME/.lttng/sessions, its auto loaded at start.
LH="$TEST_TMP/lttng-home"
mkdir -p "$LH"
lh() { timeout "$TEST_TIMEOUT" env -u LTT_HOME LTTNG_HOME="$LH" "$@"; }
run lh "$LTTCTL_BIN" create lh1
like "$STDOUT" "Traces will be written in $LH/lttng-traces/lh1-[0-9]{8}-[0-9]{6}\$" \
	"LTTNG_HOME: the default output is \$LTTNG_HOME/lttng-traces/NAME-DATE"
run lh "$LTTCTL_BIN" create
like "$STDOUT" "Traces will be written in $LH/lttng-traces/auto-[0-9]{8}-[0-9]{6}\$" \
	"LTTNG_HOME: an automatic name's too, the date once"
run lh "$LTTCTL_BIN" save lh1
like "$STDOUT" "Session lh1 saved to $LH/\\.lttng/sessions/lh1\\." \
	"LTTNG_HOME: save's default directory is \$LTTNG_HOME/.lttng/sessions"
lttctl -q destroy -a
mkdir -p "$LH/.lttng/sessions/auto"
mv "$LH/.lttng/sessions/lh1".* "$LH/.lttng/sessions/auto/"
lh "$SESSIOND" --daemonize --rundir "$TEST_TMP/run-lh"
is $? 0 "LTTNG_HOME: a daemon starts"
run env LTT_RUNDIR="$TEST_TMP/run-lh" "$LTTCTL_BIN" list
like "$STDOUT" "1\\) lh1 " "LTTNG_HOME: it loaded \$LTTNG_HOME/.lttng/sessions/auto at start"
stop_sessiond "$TEST_TMP/run-lh"

# A session with everything the format holds: two channels of every
# attribute, rules of every loglevel type, disabled rules and channel.
lttctl -q create rec -o "$TEST_TMP/trace1"
lttctl -q enable-channel -u c1 --subbuf-size 16k --num-subbuf 8 --switch-timer 5000 \
	--read-timer 2000 --tracefile-size 1M --tracefile-count 3
lttctl -q enable-channel -u c2 --overwrite --subbuf-size 32k --num-subbuf 4
lttctl -q enable-event -u ltt_test:seq -c c1
lttctl -q enable-event -u 'ltt_test:crit' -c c1 --loglevel WARNING
lttctl -q enable-event -u 'ltt_test:crit' -c c1 --loglevel-only DEBUG
lttctl -q disable-event -u 'ltt_test:crit' -c c1
lttctl -q enable-event -u 'ltt_test:crit' -c c1 --loglevel WARNING
lttctl -q enable-event -u ltt_test:debug -c c1
lttctl -q disable-event -u ltt_test:debug -c c1
lttctl -q enable-event -u 'ltt_test:*' -c c2
lttctl -q disable-channel -u c2
lttctl -q add-context -u -c c1 -t vpid -t procname -t net_ns
lttctl -q add-context -u -c c2 -t vtid
lttctl -q create other --no-output
lttctl -q enable-event -u 'ltt_test:types' -s other
snapshot_lists "$TEST_TMP/before"
grep -q "ltt_test:crit (loglevel: DEBUG only) \[disabled\]" "$TEST_TMP/before"
ok $? "the setup has a disabled rule beside an enabled one of the same pattern"
is "$(grep -A3 'Contexts:' "$TEST_TMP/before" | grep -c '^      [a-z]')" 4 \
	"the setup has contexts in both channels"

run lttctl save rec
is "$RC" 0 "save NAME"
is "$STDOUT" "Session rec saved to $SAVED/rec.ltt, $CTX_GAP" \
	"save: in \$LTT_HOME/.lttng/sessions, NAME.ltt (net_ns has no place in LTTng's format), saying why"
run xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$SAVED/rec.ltt"
is "$RC" 0 "the saved file is valid against the installed schema (xmllint)"
is "$(sed -n '/<contexts>/,/<\/contexts>/p' "$SAVED/rec.ltt" | grep -o '<type>[^<]*</type>' | tr '\n' ' ')" \
	"<type>vpid</type> <type>procname</type> <type>net_ns</type> <type>vtid</type> " \
	"save: each channel's contexts, in order"
sum1=$(md5sum <"$SAVED/rec.ltt")
lttctl -q enable-event -u ltt_test:types -s rec -c c1
run lttctl save rec
is "$RC" 1 "save: an existing file is refused without -f"
like "$ERR" "$SAVED/rec.ltt: a saved configuration of that name already exists; use -f" \
	"save: the refusal names the file and -f"
is "$(md5sum <"$SAVED/rec.ltt")" "$sum1" "save: the refused file is unchanged"
run lttctl save -f rec
is "$RC" 0 "save -f overwrites"
grep -q "<pattern>ltt_test:types</pattern>" "$SAVED/rec.ltt"
ok $? "save -f: the file holds the new rule"
lttctl -q disable-event -u ltt_test:types -s rec -c c1
lttctl -q save -f rec
snapshot_lists "$TEST_TMP/before"

# save -> destroy -> load: the same list.
lttctl -q destroy rec
run lttctl load rec
is "$RC" 0 "load NAME"
is "$STDOUT" "Session rec loaded from $SAVED/rec.ltt" "load: from \$LTT_HOME/.lttng/sessions"
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "load: list is identical"

# The same recording: what the loaded session records is what the
# original recorded (the rules and their states came back).
record() { # OUTDIR -> TEST_TMP/rec.out: babeltrace2's text of the trace
	lttctl -q start rec
	ust_app -n $N -r main -T -L
	lttctl -q stop rec
	bt "$1" "$TEST_TMP/rec.out"
}
record "$TEST_TMP/trace1"
for ev in seq crit debug types; do
	c1[$ev]=$(count_events "$TEST_TMP/rec.out" ltt_test:$ev)
done
lttctl -q save -f rec
lttctl -q destroy rec
lttctl -q load rec --override-url "file://$TEST_TMP/trace2"
run lttctl list
like "$STDOUT" "rec \($TEST_TMP/trace2/\)" "--override-url file://: the loaded session writes there (LTTng's form, ending in /)"
record "$TEST_TMP/trace2"
is "${c1[seq]}:${c1[crit]}:${c1[debug]}:${c1[types]}" "$N:$N:0:0" \
	"the original session recorded seq and crit, not the disabled debug nor types"
for ev in seq crit debug types; do
	is "$(count_events "$TEST_TMP/rec.out" ltt_test:$ev)" "${c1[$ev]}" \
		"the loaded session recorded as many ltt_test:$ev events"
done
is "$(seq_check "$TEST_TMP/rec.out" main 1 $N)" "" "the loaded session: ltt_test:seq 0..$((N - 1)) once each"
lttctl -q destroy rec
lttctl -q load rec
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "load without override: list identical again"

# A started session is loaded started.
lttctl -q start other
lttctl -q save other
lttctl -q destroy other
lttctl -q load other
run lttctl list
like "$STDOUT" "other \(no output\) \[active\]|other .*\[active\]" "a session saved active is loaded started"
lttctl -q stop other
lttctl -q save -f other
snapshot_lists "$TEST_TMP/before"

# -a: every session, and load of the directory.
rm -f "$SAVED"/*.ltt "$SAVED"/*.lttng
run lttctl save -a
is "$RC" 0 "save -a"
is "$(ls "$SAVED")" "$(printf 'other.lttng\nrec.ltt')" \
	"save -a: one file per session, in LTTng's format where it holds the session"
lttctl -q destroy -a
run lttctl load -a
is "$RC" 0 "load -a"
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "load -a: list is identical"
run lttctl load -a
is "$RC" 1 "load: existing sessions are refused without -f"
like "$ERR" "session '(other|rec)' exists" "load: the refusal names the session"
run lttctl load -a -f
is "$RC" 0 "load -f replaces existing sessions"
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "load -f: list is identical"

# One file for all, -o FILE and -i FILE.
run lttctl save -a -o "$TEST_TMP/all.ltt"
is "$RC" 0 "save -a -o FILE.ltt"
is "$(grep -c '<session>' "$TEST_TMP/all.ltt")" 2 "save -o FILE: both sessions in the one file"
lttctl -q destroy -a
lttctl -q load -i "$TEST_TMP/all.ltt"
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "load -i FILE: list is identical"
run lttctl save -o "$TEST_TMP/dir/" rec
is "$STDOUT" "Session rec saved to $TEST_TMP/dir/rec.ltt, $CTX_GAP" "save -o DIR/: NAME.ltt in it"

# --override-name.
run lttctl load -i "$TEST_TMP/all.ltt" rec --override-name rec2
is "$RC" 0 "load --override-name"
diff <(lttctl list rec | sed 1d) <(lttctl list rec2 | sed 1d) >/dev/null
ok $? "the renamed session has the original's channels and rules"
like "$(lttctl list rec2 | sed -n 1p)" "^Session rec2 \(" "the renamed session is called so"
run lttctl load -i "$TEST_TMP/all.ltt" --override-name rec3
is "$RC" 1 "--override-name with two sessions is refused"
like "$ERR" "override-name needs the session to load named" "and says why"
run lttctl load -i "$TEST_TMP/all.ltt" rec --override-name rec4 --override-url 'ftp://x'
is "$RC" 1 "a bad --override-url is refused"
like "$ERR" "invalid URL" "and says why"
lttctl -q destroy rec2
# LTTng's forms: --override-name with the session named, even where the
# file holds only it; --override-url taking an absolute path, recorded
# as LTTng records it (the text of its URL, ending in /)
run lttctl load -i "$TEST_TMP/dir/rec.ltt" --override-name rec3
is "$RC:$(lttctl list | grep -c ' rec3 ')" 1:0 "--override-name without the session's name: refused, as LTTng's"
run lttctl load -i "$TEST_TMP/dir/rec.ltt" rec --override-name rec3 --override-url "$TEST_TMP/trace3"
is "$RC" 0 "--override-url with an absolute path, as LTTng's"
is "$(lttctl --mi xml list rec3 | mi_xp /command/output/sessions/session/path)" "$TEST_TMP/trace3/" \
	"the session writes there; its path is LTTng's, ending in /"
lttctl -q destroy rec3
run lttctl load nosuch
is "$RC" 1 "load of an unknown session fails"
like "$ERR" "session 'nosuch'.*no saved session configuration found" "and says so"

# --mi xml: the documents validate against LTTng's schema and hold the results.
lttctl --mi xml save -f rec >"$TEST_TMP/mi-save.xml"
mi_valid "$TEST_TMP/mi-save.xml" >/dev/null
ok $? "--mi xml save: valid against LTTng's schema"
is "$(mi_xp '/command/output/save[session/name="rec"]/path' "$TEST_TMP/mi-save.xml")" \
	"$SAVED/rec.ltt" "--mi xml save: the session and its file"
lttctl --mi xml load -i "$BAD/bad-size-pow2.ltt" >"$TEST_TMP/mi-load.xml" 2>"$TEST_TMP/mi-load.err"
mi_valid "$TEST_TMP/mi-load.xml" >/dev/null
ok $? "--mi xml load of a bad file: valid against LTTng's schema"
is "$(mi_xp /command/success "$TEST_TMP/mi-load.xml")" false \
	"--mi xml load of a bad file: success false"
like "$(cat "$TEST_TMP/mi-load.err")" \
	"bad-size-pow2\\.ltt:15: " "--mi xml load of a bad file: the message, on stderr, names the line"

# Every malformed or invalid file: refused with its line, nothing changed.
snapshot_lists "$TEST_TMP/before"
lttctl -q destroy -a
snapshot_lists "$TEST_TMP/before"
while read -r name line; do
	case "$name" in '#'*|'') continue ;; esac
	f="$BAD/bad-$name.ltt"
	run lttctl load -i "$f"
	is "$RC" 1 "bad-$name.ltt is refused"
	like "$ERR" "bad-$name\\.ltt:$line: " "bad-$name.ltt: the message names line $line"
	snapshot_lists "$TEST_TMP/after"
	is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "bad-$name.ltt: nothing changed"
done <"$BAD/expected-lines"
# A directory with a good file and a bad one: nothing loaded.
mkdir "$TEST_TMP/mixed"
cp "$BAD/good.ltt" "$TEST_TMP/mixed/a.ltt"
cp "$BAD/bad-size-pow2.ltt" "$TEST_TMP/mixed/b.ltt"
run lttctl load -i "$TEST_TMP/mixed"
is "$RC" 1 "a directory with one bad file is refused"
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "and its good file is not loaded either"
run lttctl load -i "$BAD/good.ltt"
is "$RC" 0 "good.ltt loads"
like "$(lttctl list good)" "good \($LTT_HOME/ltt-traces/good-[0-9]{8}-[0-9]{6}\)" \
	"<default/>: the daemon resolves the output"
lttctl -q destroy good

# A failure midway: the second session's kernel rule is refused by every
# daemon (an event no kernel has; a daemon without a kernel tracer refuses
# its channel already), so the first one, created, is destroyed again.
sed -e 's|<name>good</name>|<name>first</name>|' "$BAD/good.ltt" >"$TEST_TMP/two.ltt"
python3 - "$TEST_TMP/two.ltt" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
i = s.index('  <session>')
j = s.index('</sessions>')
k = s[i:j].replace('<name>first</name>', '<name>second</name>').replace(
    '<type>user</type>', '<type>kernel</type>').replace('per-uid', 'global').replace(
    '<pattern>ltt_test:*</pattern>', '<pattern>ltt_no_such_kernel_event</pattern>')
open(p, 'w').write(s[:j] + k + s[j:])
EOF
xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$TEST_TMP/two.ltt" 2>/dev/null
ok $? "two.ltt is valid: only the daemon can refuse it"
run lttctl load -i "$TEST_TMP/two.ltt"
is "$RC" 1 "a kernel channel or rule this daemon can't serve fails the load"
like "$ERR" "two.ltt:[0-9]+: (kernel channel 'c1' can't be created|the rules of kernel channel 'c1' can't be set: the kernel tracer has no event)" \
	"the message names the channel or the rule, and its line"
snapshot_lists "$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "the first session, created, was destroyed again"
# The same failure with -f over an existing 'first': the one it replaced
# comes back as it was, its channel, rule and process tracker included.
ok_cmd "an existing session 'first'" lttctl -q create first -o "$TEST_TMP/first-out"
ok_cmd "with a rule" lttctl -q enable-event -u -s first 'ltt_test:*'
ok_cmd "and a vpid tracker" lttctl -q track -u -s first --vpid 123,456
snapshot_lists "$TEST_TMP/before-f"
like "$(lttctl list first)" "123, 456|123,456" "its tracker shows in list"
run lttctl load -f -i "$TEST_TMP/two.ltt"
is "$RC" 1 "load -f of two.ltt fails on the kernel channel or rule"
snapshot_lists "$TEST_TMP/after-f"
is "$(diff "$TEST_TMP/before-f" "$TEST_TMP/after-f")" "" \
	"the replaced session is back as it was, its tracker included"
lttctl -q destroy first

# The daemon's --load at start, before it says it is ready.
cp "$BAD/good.ltt" "$TEST_TMP/boot.ltt"
start_sessiond "$TEST_TMP/run2" --load "$TEST_TMP/boot.ltt"
is $? 0 "ltt-sessiond --load FILE starts"
run env LTT_RUNDIR="$TEST_TMP/run2" "$LTTCTL_BIN" list
like "$STDOUT" "1\) good " "--load: the session exists once the daemon is ready"
run env LTT_RUNDIR="$TEST_TMP/run2" "$LTTCTL_BIN" list good
like "$STDOUT" "ltt_test:\* \(loglevel: any\) \[enabled\]" "--load: with its rules"
stop_sessiond "$TEST_TMP/run2"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$TEST_TMP/run3" \
	--load "$BAD/bad-unknown-element.ltt"
isnt_zero=$([ "$RC" -ne 0 ]; echo $?)
ok "$isnt_zero" "ltt-sessiond --load of a bad file does not start"
like "$ERR" "bad-unknown-element\\.ltt:19: " "and its error names the file and line"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --daemonize --rundir "$TEST_TMP/run5" \
	--load "$TEST_TMP/nothing-here.ltt"
ok "$([ "$RC" -ne 0 ]; echo $?)" "ltt-sessiond --load of a missing file does not start"
like "$ERR" "nothing-here\.ltt: No such file" "and says which file is missing"
# --load of a directory without saved sessions: the daemon starts with
# none, as LTTng's does (lttng-tools' test_autoload starts it so).
mkdir "$TEST_TMP/empty-load"
# (--background keeps the standard streams: into a file, not a pipe)
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$TEST_TMP/run6" \
	--load "$TEST_TMP/empty-load" >"$TEST_TMP/run6.out" 2>&1
is "$?" 0 "ltt-sessiond --load EMPTYDIR --background starts"
run env LTT_RUNDIR="$TEST_TMP/run6" "$LTTCTL_BIN" list
is "$RC:$STDOUT" "0:No sessions." "and serves, with no session"
stop_sessiond "$TEST_TMP/run6"
# The autoload directory of the daemon's user.
mkdir -p "$SAVED/auto"
sed 's|<name>good</name>|<name>autoloaded</name>|' "$BAD/good.ltt" >"$SAVED/auto/a.ltt"
start_sessiond "$TEST_TMP/run4"
run env LTT_RUNDIR="$TEST_TMP/run4" "$LTTCTL_BIN" list
like "$STDOUT" "1\) autoloaded " "a daemon loads \$LTT_HOME/.lttng/sessions/auto at start"
stop_sessiond "$TEST_TMP/run4"
rm -r "$SAVED/auto"
# ltt's directory of before, $LTT_HOME/.ltt/sessions: still read, its
# auto loaded at start, a name in .lttng/sessions wins.
OLD="$LTT_HOME/.ltt/sessions"
mkdir -p "$OLD/auto"
sed 's|<name>good</name>|<name>oldauto</name>|' "$BAD/good.ltt" >"$OLD/auto/a.ltt"
sed 's|<name>good</name>|<name>oldsaved</name>|' "$BAD/good.ltt" >"$OLD/o.ltt"
start_sessiond "$TEST_TMP/run7"
run env LTT_RUNDIR="$TEST_TMP/run7" "$LTTCTL_BIN" list
like "$STDOUT" "1\) oldauto " "a daemon loads ltt's old \$LTT_HOME/.ltt/sessions/auto at start too"
run env LTT_RUNDIR="$TEST_TMP/run7" "$LTTCTL_BIN" load oldsaved
is "$RC" 0 "load NAME finds a session in ltt's old directory"
run env LTT_RUNDIR="$TEST_TMP/run7" "$LTTCTL_BIN" list
like "$STDOUT" "oldsaved" "and loads it"
stop_sessiond "$TEST_TMP/run7"
rm -r "$OLD"

# A snapshot session's output (its snapshot output) comes back with it.
ok_cmd "a snapshot session" lttctl -q create fr --snapshot -o "$TEST_TMP/snaps"
ok_cmd "with a channel" lttctl -q enable-channel -u c -s fr
ok_cmd "saved" lttctl -q save fr -o "$TEST_TMP/fr.ltt"
ok_cmd "destroyed" lttctl -q destroy fr
ok_cmd "loaded" lttctl -q load -i "$TEST_TMP/fr.ltt"
run lttctl snapshot list-output -s fr
like "$STDOUT" "$TEST_TMP/snaps" "its snapshot output is the one it was created with"
ok_cmd "destroy it" lttctl -q destroy fr
done_testing
