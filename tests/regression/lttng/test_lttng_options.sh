#!/bin/bash
# LTTng's command lines that ltt lacks a feature for: each refused in the
# sentence of src/common/model/lttng-gap.c (the one load uses), exit 1, never a
# bare "unknown option", nothing changed (the session's listing is the
# same before and after); --monitor-timer and --blocking-timeout=0 taken
# (test_ust_blocking.sh has the other timeouts);
# list SESSION --channel=C; metadata regenerate; a rule without -c while
# the domain has another channel than channel0 (NEED_CHANNEL_NAME, as
# LTTng); enable-event -c of a channel the session lacks makes it with
# the domain's defaults (as LTTng); -g, --sessiond-path, --relayd-path; snapshot -C/-D;
# disable-event --tracepoint/--syscall; view -t; remove-trigger
# --owner-uid; add-trigger's probe types, -L and -E, its JUL and log4j
# types, add-context's kernel perf counters, $app. contexts and call
# stacks refused.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

lttctl -q create s -o "$TEST_TMP/s" && lttctl -q enable-event -u ev1
ok $? "fixture: session s, rule ev1 in channel0"
state() { lttctl list s; lttctl list; lttctl list-triggers; }
before=$(state)

# refused CMD... : exit 1, the sentence on stderr, nothing on stdout, nothing changed.
refused() {
	local msg=$1
	shift
	run lttctl "$@"
	is "$RC" 1 "$*: exit 1"
	is "$ERR" "Error: $msg" "$*: what ltt lacks and what to do"
	is "$STDOUT" "" "$*: nothing on stdout"
	is "$(state)" "$before" "$*: nothing changed"
}
# --shm-path is ltt's too (test_ust_crash.sh)
run lttctl create x --shm-path="$TEST_TMP/shm"
is "$RC" 0 "create --shm-path=DIR: exit 0"
like "$STDOUT" "^Session x created" "create --shm-path=DIR: created"
lttctl -q destroy x && lttctl -q set-session s
is "$?" 0 "create --shm-path=DIR: destroyed, s current again"
is "$(state)" "$before" "create --shm-path=DIR, destroy: as before"
refused "a buffer usage sampling period under 50 ms (lttng enable-channel --monitor-timer) is not supported by ltt: give --monitor-timer=50ms or more, or leave it out; ltt samples the buffer usage of every channel every 50 ms, which meets any longer period" \
	enable-channel -u c --monitor-timer=10ms
# list -d/--domain: the session's domains alone, as LTTng's list gives them
lttctl -q enable-event -j jev -s s
run lttctl list -d s
is "$RC:$(sed -n '/^Domains:/,$p' <<<"$STDOUT")" "0:Domains:
-------------
  - UST global
  - JUL (Java Util Logging)" "list -d s: its domains, user space and JUL, as LTTng's"
run lttctl --mi xml list --domain s
printf '%s\n' "$STDOUT" >"$TEST_TMP/domains.xml"
is "$(mi_valid "$TEST_TMP/domains.xml" >/dev/null; echo $?) $(mi_xp "count(//domains/domain)" <<<"$STDOUT"): $(mi_xp "//domains/domain[1]/type" <<<"$STDOUT") $(mi_xp "//domains/domain[2]/type" <<<"$STDOUT")" \
	"0 2: UST JUL" "list --domain s, --mi xml: LTTng's document, sessions/session/domains, UST and JUL"
run lttctl list -d
is "$RC" 2 "list -d without a session: a usage error"
lttctl -q disable-event -j jev -s s
run lttctl enable-channel -u c --monitor-timer=bogus
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: invalid --monitor-timer 'bogus': use microseconds, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	"--monitor-timer: a bad period is a usage error"

# --- taken: --monitor-timer from 50 ms (ltt samples every 50 ms) or 0, --blocking-timeout=0
run lttctl enable-channel -u c --monitor-timer=500ms --blocking-timeout=0
is "$RC:$OUT" "0:Channel c enabled for session s." "--monitor-timer and --blocking-timeout=0 are taken"
like "$(lttctl list s)" "- c: \\[enabled\\]" "the channel exists"

# --- --output: mmap (or splice for the kernel) taken, the consumer picks
before=$(state)
run lttctl enable-channel -u c --output=splice
is "$RC:$STDOUT" "2:" "--output=splice for user space: a usage error"
is "$(head -n 1 <<<"$ERR")" "Error: --output=splice is for kernel channels: user space buffers are read through mmap (give --output=mmap or leave it out)" \
	"--output=splice for user space: the sentence"
run lttctl enable-channel -u c --output=pipe
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: invalid --output 'pipe': give mmap or splice" "--output: another word is a usage error"
is "$(state)" "$before" "a refused --output changes nothing"
run lttctl enable-channel -u m --output=mmap --subbuf-size=64k
is "$RC:$OUT" "0:Channel m enabled for session s." "--output=mmap is taken"
like "$(lttctl list s)" "- m: \\[enabled\\]" "the channel m exists"
like "$(lttctl --mi xml list s | tr -d " \n")" "<channel><name>m</name>[^/]*</enabled><attributes>.*<output_type>MMAP</output_type>" \
	"--mi xml: channel m reads its buffers through mmap"

# --- LTTng's spellings: disable-event --all-events, -n of stop, destroy
# and rotate, -p of track (--pid; with -u LTTng's --vpid)
lttctl -q create n -o "$TEST_TMP/n" && lttctl -q enable-event -u 'a*,b*' && lttctl -q start n
run lttctl disable-event -u --all-events -s n
is "$RC:$OUT" "0:All event rules disabled in channel channel0 of session n (user)." "disable-event --all-events: -a"
is "$(lttctl list n | grep -c '\[disabled\]')" 2 "disable-event --all-events: both rules disabled"
run lttctl rotate -n n
like "$RC:$OUT" "^0:Trace chunk archive for session n is now readable at $TEST_TMP/n/archives/" "rotate -n: the archive, complete"
run lttctl stop -n n
is "$RC:$OUT" "0:Tracing stopped for session n." "stop -n: --no-wait"
run lttctl destroy -n n
is "$RC:$OUT" "0:Session n destroyed." "destroy -n: --no-wait"
run lttctl track -u -s s --pid=1
long="$RC:$OUT"
lttctl -q track -u -s s --vpid --all
run lttctl track -u -s s -p1
is "$RC:$OUT" "$long" "track -p: --pid's short form, with -u the vpid tracker as --pid"
is "$long" "0:vpid 1 tracked in session s (user)." "track -u --pid: LTTng's --vpid"
lttctl -q track -u -s s --vpid --all
lttctl -q set-session s

# --- no -c while the domain has a channel other than channel0
need="the domain has a channel other than channel0, so a rule's channel must be named: give -c CHANNEL (-c channel0 for the default one)"
before=$(state)
refused "session 's', user domain (it has channel 'c'): $need" enable-event -u ev2
refused "session 's', user domain (it has channel 'c'): $need" disable-event -u ev1
run lttctl enable-event -u ev2 -c channel0
is "$RC:$OUT" "0:Event rule ev2 enabled in channel channel0 of session s (user)." "-c channel0 names the default channel"
lttctl -q create p -o "$TEST_TMP/p" && lttctl -q enable-event -p py.logger
run lttctl enable-event -u ev1
is "$RC:$OUT" "0:Event rule ev1 enabled in channel channel0 of session p (user)." \
	"lttng_python_channel leaves no doubt: no -c is channel0"

# --- enable-event -c NAME of a channel the session lacks: made with the
# domain's defaults, as LTTng's enable-event makes it; then, as LTTng, a
# rule without -c must name its channel.  add-context makes channel0 only.
lttctl -q create g -o "$TEST_TMP/g" && lttctl -q enable-event -u ev0 -s g
run lttctl enable-event -u tp:tptest -c testchan -s g
is "$RC:$OUT" "0:Event rule tp:tptest enabled in channel testchan of session g (user)." \
	"enable-event -c testchan of a session without it: made, the rule in it"
chan_attrs() { lttctl list g -c "$1" | sed -n '/Attributes:/,/^ *$/p'; }
like "$(chan_attrs testchan)" "sub-buffer size" "list g -c testchan: the new channel's attributes"
is "$(chan_attrs testchan)" "$(chan_attrs channel0)" "  the domain's defaults, as channel0's"
like "$(lttctl list g -c testchan)" "tp:tptest .*\[enabled\]" "  its rule is enabled"
run lttctl enable-event -u tp:other -c testchan -s g
is "$RC:$(lttctl list g | grep -c '^- testchan:')" "0:1" "a second rule -c testchan goes to it, no second channel"
run lttctl enable-event -u ev9 -s g
is "$RC:$ERR" "1:Error: session 'g', user domain (it has channel 'testchan'): $need" \
	"then a rule without -c is refused, as LTTng (the domain has a channel other than channel0)"
run lttctl enable-event -u ev9 -c 'bad/name' -s g
like "$RC:$ERR" "^1:Error: channel 'bad/name': invalid channel name" "-c of an invalid name: refused, nothing made"
lttctl -q create h -o "$TEST_TMP/h"
run lttctl add-context -u -t vpid -c nochan -s h
like "$RC:$ERR" "^1:.*no channel by that name" "add-context -c of a missing channel: refused (it makes channel0 only)"
unlike "$(lttctl list h)" "nochan" "  nothing made"
lttctl -q destroy g && lttctl -q destroy h
lttctl -q set-session s

# --- list SESSION --channel=C
lttctl -q set-session s
run lttctl list s --channel=c
is "$RC" 0 "list s --channel=c: exit 0"
like "$STDOUT" "- c: \\[enabled\\]" "list s --channel=c: the channel c"
unlike "$STDOUT" "channel0" "list s --channel=c: no other channel"
run lttctl list s -c channel0
like "$STDOUT" "^- channel0: \\[enabled\\]" "list s -c channel0: the channel"
is "$(grep -c '^      ev[12] ' <<<"$STDOUT")" 2 "list s -c channel0: its two rules"
unlike "$STDOUT" "- c:" "list s -c channel0: not channel c"
run lttctl list s -c nope
is "$RC:$STDOUT" "1:" "list s -c nope: exit 1, nothing printed"
is "$ERR" "Error: channel 'nope' of session 's': no channel by that name in this domain; 'lttctl list SESSION' shows the channels" \
	"list s -c nope: the channel named"
run lttctl list -c c
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: --channel lists one channel of a session: give the session's NAME" \
	"list -c without a session: a usage error"

# --- metadata regenerate: regenerate metadata, with a warning
lttctl -q start s
run lttctl metadata regenerate -s s
is "$RC:$STDOUT" "0:Metadata regenerated for session s." "metadata regenerate: done"
is "$ERR" "Warning: 'metadata regenerate' is 'regenerate metadata': LTTng's older spelling, done as the newer one: write the newer one in new scripts" \
	"metadata regenerate: the newer spelling named"
run lttctl metadata
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: 'metadata' takes one action, regenerate: 'lttctl regenerate metadata' is its newer spelling" \
	"metadata without its action: a usage error"
like "$(lttctl --list-commands)" "metadata" "--list-commands lists metadata, as LTTng's"

# --- add-trigger's probes, remove-trigger --owner-uid of another user
before=$(state)
# probe rules are ltt's too (test_kernel_tracefs_probe_trigger.sh): their misuse in LTTng's words
run lttctl add-trigger --condition=event-rule-matches --type=kernel:uprobe --action=notify
is "$RC:$ERR" "1:Error: Event rule of type kernel uprobe requires a --location." \
	"add-trigger --type=kernel:uprobe without -L: LTTng's words"
run lttctl add-trigger --condition=event-rule-matches -L elf:/bin/ls:main --action=notify
is "$RC:$ERR" "2:Error: Can't use --location with user tracepoint event rules." \
	"add-trigger -L without --type (a user rule): LTTng's words"
run lttctl add-trigger --condition=event-rule-matches -E myprobe --action=notify
is "$RC:$ERR" "2:Error: Can't use --event-name with user tracepoint event rules." \
	"add-trigger -E without --type (a user rule): LTTng's words"
is "$(state)" "$before" "... nothing changed"
# JUL and log4j rules are taken, as LTTng's (test_lttng_compat_triggers.sh fires them)
run lttctl add-trigger --name jt --condition=event-rule-matches --type=jul:logging -n my.logger \
	--log-level=WARNING.. --action=notify
run lttctl add-trigger --name lt --condition=event-rule-matches --type=log4j -n 'my.*' \
	--log-level=ERROR --action=notify
run lttctl list-triggers
like "$OUT" "rule: my.logger \\(type: jul:logging, log level at least WARNING\\)" \
	"add-trigger --type=jul:logging: taken, listed as LTTng lists it"
like "$OUT" "rule: my.\\* \\(type: log4j:logging, log level is ERROR\\)" \
	"add-trigger --type=log4j: taken, listed as LTTng lists it"
lttctl remove-trigger jt >/dev/null && lttctl remove-trigger lt >/dev/null

# --- add-context: kernel perf counters, application contexts, call stacks
perf_gap="a perf counter context in the kernel domain (lttng add-context -k -t perf:...) is not supported by ltt: add the counter to a user-space channel instead (-u -t perf:thread:...); its perf counters are read by the programs, thread by thread"
refused "$perf_gap" add-context -k -t perf:cpu:cpu-cycles
refused "$perf_gap" add-context -k -t pid -t perf:thread:instructions
refused "an application-specific context (lttng add-context -t '\$app.PROVIDER:TYPE') is not supported by ltt: record the value as a field of the program's tracepoints instead; its contexts are those 'lttctl add-context --list' shows" \
	add-context -u -t '$app.myprovider:mytype'
callstack="a call stack context (lttng add-context -t callstack-user or callstack-kernel) is not supported by ltt: leave the type out ('lttctl add-context --list' shows the contexts ltt has); it records no stacks with its events"
refused "$callstack" add-context -u -t callstack-user
refused "$callstack" add-context -k -t vpid -t callstack-kernel

lttctl -q add-trigger --name t1 --condition=event-rule-matches -n ev1 --action=notify
ok $? "fixture: trigger t1"
owner_gap="removing another user's trigger (lttng remove-trigger --owner-uid) is not supported by ltt: run 'lttctl remove-trigger NAME' as that user; ltt-sessiond lets only root remove another user's trigger, and only one whose name no other trigger has"
before=$(state)
if [ "$(id -u)" != 0 ]; then
	refused "$owner_gap" remove-trigger t1 --owner-uid 0
else
	# root: another user's trigger, when no other trigger has its name
	notify=(--condition=event-rule-matches -n ev1 --action=notify)
	lttctl -q add-trigger --name t2 --owner-uid 1 "${notify[@]}" &&
		lttctl -q add-trigger --name t3 --owner-uid 1 "${notify[@]}" &&
		lttctl -q add-trigger --name t3 --owner-uid 2 "${notify[@]}"
	ok $? "fixture: t2 of uid 1, t3 of uids 1 and 2"
	before=$(state)
	refused "$owner_gap" remove-trigger t3 --owner-uid 1
	run lttctl remove-trigger t2 --owner-uid 2
	is "$RC:$STDOUT" "1:" "remove-trigger of a uid without that trigger: exit 1"
	like "$ERR" "^Error: trigger 't2' of uid 2: " "the trigger and uid named"
	is "$(state)" "$before" "nothing changed"
	run lttctl remove-trigger t2 --owner-uid 1
	is "$RC:$OUT" "0:Removed trigger \`t2\`." "root removes uid 1's trigger t2"
	unlike "$(lttctl list-triggers)" "t2" "the trigger t2 is gone"
fi
run lttctl remove-trigger t1 --owner-uid "$(id -u)"
is "$RC:$OUT" "0:Removed trigger \`t1\`." "remove-trigger --owner-uid of the caller: removed"
unlike "$(lttctl list-triggers)" "t1" "the trigger t1 is gone"

# --- disable-event --tracepoint / --syscall: only the rules of that type
lttctl -q enable-event -u tp1,tp2 -c channel0
before=$(state)
run lttctl disable-event -u nope -c channel0
unknown=${ERR//nope/tp1}
run lttctl disable-event -u --syscall tp1 -c channel0
is "$RC:$STDOUT" "1:" "disable-event --syscall of a tracepoint rule: exit 1"
is "$ERR" "$unknown" "disable-event --syscall: no such rule, as for an unknown pattern"
is "$(state)" "$before" "disable-event --syscall: nothing changed"
run lttctl disable-event -u -a --syscall -c channel0
is "$RC:$(state)" "1:$before" "disable-event -a --syscall: no system call rule, nothing changed"
run lttctl disable-event -u --tracepoint tp1 -c channel0
is "$RC:$OUT" "0:Event rule tp1 disabled in channel channel0 of session s (user)." "disable-event --tracepoint: disabled"
like "$(lttctl list s)" "tp1 .*\\[disabled\\]" "tp1 disabled"
like "$(lttctl list s)" "tp2 .*\\[enabled\\]" "tp2 still enabled"
run lttctl disable-event -u -a --tracepoint -c channel0
is "$RC" 0 "disable-event -a --tracepoint: exit 0"
is "$(lttctl list s -c channel0 | grep -c '^      .*\[enabled\]')" 0 "every tracepoint rule of channel0 disabled"

# --- view -t DIR: the reader on DIR
mkdir -p "$TEST_TMP/trace"
run lttctl view -t "$TEST_TMP/trace" -e echo
is "$RC:$OUT" "0:$TEST_TMP/trace" "view -t DIR: the reader runs on DIR"
run lttctl view --trace-path="$TEST_TMP/trace" -e "echo -n x"
is "$RC:$OUT" "0:x $TEST_TMP/trace" "view --trace-path: the reader's options kept"
run lttctl view -t "$TEST_TMP/none" -e echo
is "$RC:$STDOUT" "1:" "view -t of a missing directory: exit 1"
is "$ERR" "Error: trace directory '$TEST_TMP/none': No such file or directory: give the directory of a trace (a session's output)" \
	"view -t of a missing directory: the sentence"
run lttctl view s -t "$TEST_TMP/trace" -e echo
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: give a session NAME or -t DIR, not both" "view NAME -t DIR: a usage error"

# --- snapshot add-output and record with -C/-D: their net URL
lttctl -q create snap --snapshot --no-output
run lttctl snapshot add-output -s snap -C tcp://127.0.0.1:6342 -D tcp://127.0.0.1:6343
is "$RC" 0 "snapshot add-output -C -D: exit 0"
like "$(lttctl snapshot list-output -s snap)" "net://127.0.0.1:6342:6343" "the output is their net URL"
run lttctl snapshot record -s snap -C tcp://127.0.0.1:6342
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: -C (control) and -D (data) go together: give both as tcp://HOST[:PORT] with the same host, and no --set-url, -o or --no-output" \
	"snapshot record -C without -D: a usage error"
run lttctl snapshot record -s snap -C tcp://127.0.0.1 -D tcp://127.0.0.2
is "$RC:$STDOUT" "1:" "snapshot record -C -D of two hosts: exit 1"
like "$ERR" "^Error: data URL 'tcp://127.0.0.2': -C \\(control\\)" "two hosts: the data URL named"

# --- global -g, --sessiond-path, --relayd-path: the daemons lttctl starts
printf '#!/bin/sh\necho "$@" > "%s/args"\nexit 1\n' "$TEST_TMP" > "$TEST_TMP/fake-sessiond"
chmod +x "$TEST_TMP/fake-sessiond"
run lttctl --rundir "$TEST_TMP/none-run" --sessiond-path "$TEST_TMP/fake-sessiond" -g grp \
	create x -o "$TEST_TMP/x"
is "$RC" 1 "--sessiond-path of a program that fails: exit 1"
is "$(cat "$TEST_TMP/args")" "--daemonize --rundir $TEST_TMP/none-run --group grp" \
	"--sessiond-path runs PATH, -g gives it the group"
run lttctl --relayd-path "$TEST_TMP/fake-relayd" list s
is "$RC:$STDOUT" "0:$(lttctl list s)" "--relayd-path: taken"

# --- LTTng 2.14 to 2.16: what ltt lacks refused in its sentence, the rest taken
lttctl -q set-session s
before=$(state)
log4j2="an Apache Log4j 2 domain (lttng enable-event, disable-event, add-context or list --log4j2, add-trigger --type=log4j2:logging or --domain=log4j2) is not supported by ltt: record the loggers through LTTng's log4j 1.x agent with -l/--log4j, or java.util.logging with -j/--jul; its Java domains are java.util.logging (-j) and log4j 1.x (-l), which LTTng's JUL and log4j agents feed"
refused "$log4j2" enable-event --log4j2 my.logger
refused "$log4j2" disable-event --log4j2 my.logger
refused "$log4j2" add-context --log4j2 -t vpid
refused "$log4j2" list --log4j2
refused "$log4j2" list s --log4j2
refused "$log4j2" add-trigger --condition=event-rule-matches --type=log4j2:logging -n my.logger \
	--action=notify
refused "$log4j2" add-trigger --condition=channel-buffer-usage-ge --session=s --channel=channel0 \
	--domain=log4j2 --threshold-ratio=0.5 --action=notify
refused "one ring buffer for a whole kernel channel (lttng enable-channel --kernel --buffer-allocation=per-channel) is not supported by ltt: give --buffer-allocation=per-cpu or leave it out for the kernel channel; its kernel backends' buffers (the module's and tracefs's) are per CPU, written without a lock (one buffer for every CPU serialises its writers: bench/README.md); user-space channels (-u) take per-channel" \
	enable-channel -k c --buffer-allocation=per-channel
refused "a choice of map update policy (lttng add-map-channel --update-policy) is not supported by ltt: leave --update-policy out; each trigger whose rule takes an event adds 1 to its key, so two triggers counting one key of a map add 2" \
	add-map-channel --type=user --update-policy=per-rule-match -s s m
view="a filter, sort or aggregation of show-maps (lttng show-maps --type, --per, --uid, --pid, --all-uids, --all-pids, --shared, --system, --part-id, --cpu-id, --key, --key-glob, --non-init-values, --sort-by, --sort-order, --limit) is not supported by ltt: export the counters with 'lttctl export-maps' and query them with sqlite3 (the vmap view); its show-maps prints every key of each map channel with its value per user, summed over the CPUs"
refused "$view" show-maps -s s --per=cpu
style="a choice of text layout (lttng list or status --style=compact or breathe) is not supported by ltt: leave --style out, or give --mi xml for a document a program reads; its list and status have one text layout, which names are never truncated in"
refused "$style" list s --style=compact
refused "$style" status --style=breathe
# usage errors for what LTTng does not take either
run lttctl create x -F ctf-3
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: invalid --trace-format 'ctf-3': --trace-format takes default, ctf-1.8 or ctf-2" \
	"create -F ctf-3: a usage error"
run lttctl enable-channel -u c --buffer-ownership=cpu
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: invalid --buffer-ownership 'cpu': give system (-k), user or process (-u)" \
	"--buffer-ownership=cpu: a usage error"
run lttctl enable-channel -u c --buffer-ownership=user --buffers-pid
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: choose one of --buffers-uid, --buffers-pid, --buffers-global and --buffer-ownership" \
	"--buffer-ownership with --buffers-pid: a usage error"
run lttctl enable-channel -k c --watchdog-timer=1s
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: --watchdog-timer is for user space channels (-u)" \
	"-k --watchdog-timer: a usage error"
is "$(state)" "$before" "the usage errors changed nothing"
# MI: the document says failure, the sentence is on stderr; a refused command has none
run lttctl --mi xml enable-channel -k c --buffer-allocation=per-channel
is "$RC:$(mi_xp /command/success <<<"$STDOUT")" "1:false" "--mi xml enable-channel -k --buffer-allocation=per-channel: exit 1, success false"
printf '%s\n' "$STDOUT" >"$TEST_TMP/mi.xml"
valid=$(mi_valid "$TEST_TMP/mi.xml")
is "$valid" "$TEST_TMP/mi.xml validates" "--mi xml enable-channel refused: LTTng's schema"
like "$ERR" "^Error: one ring buffer for a whole kernel channel" "--mi xml: the sentence on stderr"
run lttctl --mi xml show-maps -s s --per=cpu
is "$RC:$(mi_xp /command/success <<<"$STDOUT")" "1:false" "--mi xml show-maps --per: exit 1, success false"
is "$ERR" "Error: $view" "--mi xml show-maps --per: the sentence on stderr"
is "$(state)" "$before" "MI refusals changed nothing"
# taken: ctf-1.8, LTTng's ownership names, per-cpu, off, a watchdog period, --no-truncate
run lttctl create f18 -F ctf-1.8 --no-output
is "$RC:$OUT" "0:Session f18 created.
No output: the traces stay in the tracing buffers." "create -F ctf-1.8: created"
run lttctl create f2 -F ctf-2 -U net://127.0.0.1
is "$RC:$(lttctl list f2 | sed -n 2p)" "0:Trace format: CTF 2 (babeltrace2 2.1 and later read it)" \
	"create -F ctf-2, streamed: created, a CTF 2 session (its relay is asked at start)"
lttctl -q destroy f2 && lttctl -q set-session f18
run lttctl enable-channel -u -s f18 cpid --buffer-ownership=process --buffer-allocation=per-cpu \
	--auto-reclaim-memory=off --watchdog-timer=2s
is "$RC:$OUT" "0:Channel cpid enabled for session f18." "--buffer-ownership=process, per-cpu, off, --watchdog-timer: taken"
like "$(lttctl list f18)" "cpid: \\[enabled\\]" "channel cpid is there"
like "$(lttctl list f18 -c cpid)" "Buffering scheme: per-pid" "--buffer-ownership=process: buffers per process"
run lttctl status --no-truncate -u -c cpid
is "$RC:$STDOUT" "0:$(lttctl list f18 -u -c cpid)" "status -u -c C --no-truncate: list of the current session's channel"
# start, stop, destroy: -a and -g PATTERN
lttctl -q create g1 --no-output && lttctl -q create g2 --no-output && lttctl -q enable-event -u -s g1 e && lttctl -q enable-event -u -s g2 e
ok $? "fixture: sessions g1, g2"
run lttctl start -g 'g*'
is "$RC:$OUT" "0:Tracing started for session g1.
Tracing started for session g2." "start -g 'g*': g1 and g2"
like "$(lttctl list)" "g2 \\(no output\\) \\[active\\]" "g2 is active"
like "$(lttctl list)" "f18 \\(no output\\) \\[inactive\\]" "f18, not matching, is not"
run lttctl --mi xml stop --glob 'g*'
is "$RC:$(mi_xp 'count(/command/output/sessions/session)' <<<"$STDOUT")" "0:2" "--mi xml stop --glob: two sessions"
run lttctl start -g 'nomatch*'
is "$RC:$OUT" "0:No session's name matches 'nomatch*'." "start -g of no session: none, said"
run lttctl stop -a -g 'g*'
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: give -a or -g PATTERN, not both" "stop -a -g: a usage error"
run lttctl start g1 -g 'g*'
is "$RC:$(head -n 1 <<<"$ERR")" "2:Error: give a session name or -g PATTERN, not both" "start NAME -g: a usage error"
run lttctl destroy -g 'g?'
is "$RC:$OUT" "0:Session g1 destroyed.
Session g2 destroyed." "destroy -g 'g?': g1 and g2"
# by their list lines ("N) NAME (OUTPUT)"): the test's directory's random name may hold g1
unlike "$(lttctl list)" "[0-9]\\) g[12] " "g1 and g2 are gone"
lttctl -q destroy f18

# --- list NAME with several domains: each one asked for, as LTTng's
run lttctl list s -k -u -j
is "$RC" 0 "list s -k -u -j: each domain asked for, no usage error"
like "$STDOUT" "=== Domain: User space ===" "... the user-space domain is shown"
run lttctl list -u -j
is "$RC" 2 "list -u -j without a session: the available events are one domain's"
done_testing
