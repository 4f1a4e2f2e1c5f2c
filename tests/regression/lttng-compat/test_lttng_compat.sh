#!/bin/bash
# test_lttng_compat.sh - ltt-sessiond --lttng-compat serves LTTng 2.13's
# clients, unchanged, on LTTng's client socket (/var/run/lttng, as root:
# the test runs in its own mount namespace with its own /run):
# Debian's /usr/bin/lttng creates a session, enables an event, starts,
# stops and destroys it, and exactly the events of a program built with
# Debian's LTTng-UST headers are recorded (babeltrace2); lttctl lists
# the session lttng created and lttng the one lttctl created;
# python3-lttng (Debian's) does ros2_tracing's sequence and its events are
# recorded with its contexts, and lists what it set; the agents' domains
# (-j, -l, -p): their rules listed both ways, a python agent's and
# Debian's JUL and log4j agents' records; system calls, kernel probes, user-space
# probes (their descriptor passed) recorded, perf counter contexts;
# `lttng create` with no daemon spawns ltt-sessiond as lttng-sessiond;
# `lttng create --shm-path` keeps the buffers in files ltt-crash reads;
# lttng save in a daemon that gave root's rights up; malformed
# requests get an error or a closed connection and the daemon serves on;
# and a socket a live lttng-sessiond serves is refused, never taken over.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

# the whole test in a mount namespace with its own /run (/var/run/lttng)
compat_private_run "$0" "$@"
# a save's process stops where told (only once this file exists: below)
SAVE_FAULT=/run/ltt-test-save.fault
LTT_FAULT="stop save-lttng $SAVE_FAULT" ust_setup --log --lttng-compat
plan 120

SOCK=/var/run/lttng/client-lttng-sessiond
HERE="$LTT_TOP_SRCDIR/tests/regression/lttng-compat"
N=25
export LTTNG_HOME="$TEST_TMP/lttng-home"
mkdir -p "$LTTNG_HOME"
compat_build
# LTTng's tools, never ltt's: Debian's binaries by their paths
LTTNG=/usr/bin/lttng
lttng() { timeout "$TEST_TIMEOUT" "$LTTNG" "$@"; }

ok "$([ -S "$SOCK" ] && echo 0 || echo 1)" "the daemon listens on $SOCK"
is "$(cat /var/run/lttng/lttng-sessiond.pid 2>/dev/null)" "$(sessiond_pid)" \
	"... and lttng-sessiond.pid beside it holds its pid"

# --- Debian's lttng drives a whole recording ---
run lttng create s -o "$TEST_TMP/lttng-trace"
ok $RC "lttng create" || diag "$OUT"
like "$OUT" "Traces will be output to $TEST_TMP/lttng-trace" "... told where its traces go"
run lttng enable-event -u compat:basic -s s
ok $RC "lttng enable-event -u compat:basic" || diag "$OUT"
run lttctl list
like "$STDOUT" "s \\($TEST_TMP/lttng-trace\\)" "lttctl list shows the session lttng created"
run lttctl list s
like "$STDOUT" "compat:basic" "... with the rule lttng enabled"
# no output given: LTTng's default, the client's home's lttng-traces
run lttng create dflt
like "$RC:$(sed -n 2p <<<"$STDOUT")" "^0:Traces will be output to $LTTNG_HOME/lttng-traces/dflt-[0-9]{8}-[0-9]{6}" \
	"lttng create with no output: \$LTTNG_HOME/lttng-traces/NAME-DATE, as LTTng's daemon" || diag "$OUT"
lttctl -q destroy dflt >/dev/null
# a streamed session's path, as LTTng's list gives it (no relay needed to list it)
lttctl -q create nr -U net://127.0.0.1:15342:15343 >/dev/null
run lttng list
like "$STDOUT" "Trace output: tcp4://127\\.0\\.0\\.1:15342/ \\[data: 15343\\]" \
	"lttng list: a streamed session's path, in LTTng's form" || diag "$OUT"
lttctl -q destroy nr >/dev/null
run lttng start s
ok $RC "lttng start" || diag "$OUT"
compat_run $N
is $? 0 "the program built with LTTng-UST's headers runs under ltt-run"
run lttng stop s
ok $RC "lttng stop (waits on DATA_PENDING)" || diag "$OUT"
run lttng list s
like "$STDOUT" "compat:basic \\(type: tracepoint\\) \\[enabled\\]" "lttng list s shows its event rule" ||
	diag "$OUT"
run lttng destroy s
ok $RC "lttng destroy" || diag "$OUT"
bt "$TEST_TMP/lttng-trace" "$TEST_TMP/lttng.txt"
is "$(count_events "$TEST_TMP/lttng.txt" compat:basic)" $N "exactly the $N compat:basic events were recorded"
is "$(grep -c '^\[' "$TEST_TMP/lttng.txt")" $N "... and no other event (the program emits 11 kinds)"
run lttctl list
unlike "$STDOUT" "s \\(" "lttctl list: the session lttng destroyed is gone"

# --- lttng create --shm-path: SET_SESSION_SHM_PATH, the path LTTng names taken whole ---
run lttng create shm --shm-path "$TEST_TMP/shm" -o "$TEST_TMP/shm-trace"
ok $RC "lttng create --shm-path" || diag "$OUT"
lttng enable-event -u compat:basic -s shm >/dev/null && lttng start shm >/dev/null &&
	compat_run $N && lttng stop shm >/dev/null
ls "$TEST_TMP"/shm/shm-*/ust/uid/*/64-bit/metadata >/dev/null 2>&1
ok $? "its buffers' files under DIR/shm-DATE/ust/uid/UID/64-bit, as LTTng's (no second NAME-DATE)"
run "$LTT_TOP_BUILDDIR/src/crash/ltt-crash" "$TEST_TMP/shm"
is "$(grep -c ' compat:basic: ' <<<"$STDOUT")" $N "ltt-crash reads the $N events back from them"
lttng destroy shm >/dev/null
is "$(find "$TEST_TMP/shm" -mindepth 1 | wc -l)" 0 "destroy removed them"

# --- the other way round ---
lttctl create fromltt -o "$TEST_TMP/ltt-trace" >/dev/null
run lttng list
like "$STDOUT" "fromltt \\[inactive\\]" "lttng list shows the session lttctl created"
run lttng enable-event -u 'compat:*' -x compat:basic -s fromltt
ok $RC "lttng enable-event with an exclusion on it" || diag "$OUT"
run lttng enable-event -u compat:basic --filter 'i < 5' -s fromltt
ok $RC "lttng enable-event with a filter on it" || diag "$OUT"
run lttng enable-channel -u blk -s fromltt --blocking-timeout=inf
ok $RC "lttng enable-channel --blocking-timeout=inf" || diag "$OUT"
run lttng enable-channel -u blk2 -s fromltt --blocking-timeout=2000
ok $RC "lttng enable-channel --blocking-timeout=2000" || diag "$OUT"
run lttctl list fromltt
like "$STDOUT" "blocking timeout: inf" "lttctl list: the blocking timeout lttng set, inf"
like "$STDOUT" "blocking timeout: 2000 us" "... and 2000 us"
run lttng list fromltt
is "$(awk '/^- /{c=$2} /Blocking timeout/{sub(/^ */, ""); print c, $0}' <<<"$STDOUT" | grep "^blk")" \
	"blk: Blocking timeout: infinite
blk2: Blocking timeout: 2000 us" "lttng list shows both back, as from LTTng's daemon"
like "$STDOUT" "compat:\\* .*\\[exclusions: compat:basic\\]" \
	"lttng list: the exclusion lttng set, read back after its event" || diag "$STDOUT"
run lttctl list fromltt
like "$STDOUT" "compat:basic .*filter: i < 5" "lttctl list shows the filter lttng set" || diag "$STDOUT"
lttctl start fromltt >/dev/null && compat_run $N && lttctl stop fromltt >/dev/null
bt "$TEST_TMP/ltt-trace" "$TEST_TMP/ltt.txt"
is "$(count_events "$TEST_TMP/ltt.txt" compat:basic)" 5 \
	"lttng's exclusion of compat:basic from compat:*, its filter i < 5 on compat:basic: 5 recorded"
is "$(count_events "$TEST_TMP/ltt.txt" compat:ints)" $N "... and the $N compat:ints of compat:*"
lttctl destroy fromltt >/dev/null

# --- python3-lttng, as ros2_tracing drives it ---
run /usr/bin/python3 "$HERE/ros2_sequence.py" start ros "$TEST_TMP/ros-trace"
ok $RC "python3-lttng: alive, create, handle, enable_channel, enable_event, add_context x3, start" ||
	diag "$OUT"
run lttctl list ros
like "$STDOUT" "- ros2: \\[enabled\\]" "... its channel ros2 is ltt's" || diag "$STDOUT"
run /usr/bin/python3 "$HERE/ros2_sequence.py" list ros
is "$OUT" "domain 2 buf_type=1
channel ros2 enabled=1 overwrite=0 subbuf_size=8192 num_subbuf=8 read_timer=200 output=1
event ros2 compat:* type=0 enabled=1" \
	"python3-lttng list_domains, list_channels, list_events: what it set, as LTTng's daemon lists it"
compat_run $N
run /usr/bin/python3 "$HERE/ros2_sequence.py" stop ros
ok $RC "python3-lttng: stop, destroy" || diag "$OUT"
bt "$TEST_TMP/ros-trace" "$TEST_TMP/ros.txt"
is "$(count_events "$TEST_TMP/ros.txt" compat:basic)" $N "... and the $N compat:basic events were recorded"
is "$(grep -c "compat:basic: { cpu_id = [0-9]* }, { vpid = [0-9]*, vtid = [0-9]*, procname = \"compat_app\" }" \
	"$TEST_TMP/ros.txt")" $N "... each with the contexts vpid, vtid and procname" ||
	diag "$(grep -m1 compat:basic "$TEST_TMP/ros.txt")"

run /usr/bin/python3 "$HERE/ros2_sequence.py" snapshot psnap "$TEST_TMP/psnap"
ok $RC "python3-lttng create_snapshot" || diag "$OUT"
run lttng snapshot list-output -s psnap
like "$STDOUT" "\\[1\\] snapshot-1: $TEST_TMP/psnap" "... a snapshot session, its output the one given" ||
	diag "$OUT"
lttng destroy psnap >/dev/null

# --- disabling, and the tracepoints of the programs running ---
lttctl create other >/dev/null
lttng enable-event -u compat:basic -s other >/dev/null
run lttng disable-event -u compat:basic -s other
ok $RC "lttng disable-event" || diag "$OUT"
# disabled already: no error, as LTTng's daemon (2.16's tools/mi disables
# a list holding one disabled rule, and expects each to succeed)
run lttng disable-event -u compat:basic -s other
ok $RC "lttng disable-event of a rule disabled already: succeeds" || diag "$OUT"
run lttng disable-channel -u channel0 -s other
ok $RC "lttng disable-channel" || diag "$OUT"
run lttctl list other
like "$STDOUT" "- channel0: \\[disabled\\]" "lttctl list shows the channel lttng disabled"
like "$STDOUT" "compat:basic .*\\[disabled\\]" "... and its rule, disabled" || diag "$STDOUT"
run lttng track -u --vpid 42,43 -s other
ok $RC "lttng track -u --vpid 42,43" || diag "$OUT"
lttng untrack -u --vpid 43 -s other >/dev/null
run lttctl list other
like "$STDOUT" "process ids \\(vpid\\) +42
" "lttctl list: the vpid tracker lttng set, 43 untracked" || diag "$STDOUT"
run lttng list other
like "$STDOUT" "Virtual process IDs: +42
" "lttng list shows it too"
# a session with no channel whose processes are tracked: LTTng lists
# the domain (2.16's tools/mi), and its tracker
lttctl create trk --no-output >/dev/null
lttng track -u --vpid 7,8 -s trk >/dev/null
run lttng list trk
like "$(tr '\n' ' ' <<<"$STDOUT")" "=== Domain: User space ===.*Virtual process IDs: +7, 8" \
	"lttng list of a session with a tracker and no channel: the domain and its tracker" || diag "$OUT"
run lttng list -d trk
is "$RC:$(grep -c 'UST global' <<<"$STDOUT")" "0:1" "lttng list -d: the domain, once" || diag "$OUT"
lttng destroy trk >/dev/null
lttng untrack -u --vgid --all -s other >/dev/null
run lttctl list other
like "$STDOUT" "group ids \\(vgid\\) +none" "lttng untrack --vgid --all: lttctl list says none"
open_fifo READY "$TEST_TMP/ready"
open_fifo GO "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 1
wait_ready $READY
run lttng list -u
like "$STDOUT" "PID: $READY_PIDS - Name: " "lttng list -u: the registered program, by its pid" || diag "$OUT"
like "$STDOUT" "ltt_test:seq \\(loglevel: .*\\) \\(type: tracepoint\\)" "... with its tracepoints"
run lttng list -u -f
like "$STDOUT" "ltt_test:seq \\(loglevel: .*\\) \\(type: tracepoint\\)
 *field: role \\(string\\)
 *field: thread \\(integer\\)" "lttng list -u -f: and their fields, with their types" || diag "$OUT"
echo go >&$GO
wait $BG_PID

# --- the agents' domains (-j, -l, -p): their rules, listed both ways, and recorded ---
run lttng create ag -o "$TEST_TMP/ag"
lttng enable-event -j foo -s ag >/dev/null && lttng enable-event -j -a -s ag >/dev/null
run lttng enable-event -l bar --loglevel-only WARN --filter 'msg == "x"' -s ag
ok $RC "lttng enable-event -l with a level and a filter" || diag "$OUT"
run lttng enable-event -p qa.app --loglevel WARNING -s ag
ok $RC "lttng enable-event -p --loglevel WARNING" || diag "$OUT"
run lttctl list ag
like "$STDOUT" "foo \\(jul logger, loglevel: any\\) \\[enabled\\]
 *\\* \\(jul logger, loglevel: any\\) \\[enabled\\]" \
	"lttctl list: the JUL rules lttng enabled, the logger's part of their filter ltt's own" || diag "$STDOUT"
like "$STDOUT" "bar \\(log4j logger, loglevel: WARN only\\) \\[enabled\\] \\[filter: msg == \"x\"\\]" \
	"... the log4j rule, its level, the user's filter alone"
like "$STDOUT" "qa.app \\(python logger, loglevel: WARNING or more severe\\) \\[enabled\\]" "... the python rule"
run lttng list ag -l
like "$STDOUT" "- bar \\[enabled\\] \\(loglevel == LOG4J_WARN\\) \\[filter: '\\(\\(msg == \"x\"\\) && \\(logger_name == \"bar\"\\)\\) && \\(int_loglevel == 30000\\)'\\]" \
	"lttng list -l: the rule with the filter LTTng's client sent, as LTTng's daemon lists it" || diag "$OUT"
run lttng list ag
like "$(tr '\n' ' ' <<<"$STDOUT")" "=== Domain: java.util.logging \\(JUL\\) ===.*=== Domain: log4j ===.*=== Domain: Python logging ===" \
	"lttng list: the three agent domains, each with a rule" || diag "$OUT"
run lttng add-context -j -t vpid -s ag
like "$RC:$(lttctl list ag -c lttng_jul_channel | tr '\n' ' ')" "^0:.*Contexts: +vpid" \
	"lttng add-context -j: the context of lttng_jul_channel, as LTTng" || diag "$OUT"
# -c with an agent domain: LTTng's daemon takes the rule into the
# domain's own channel whatever was named (LTTng 2.16's tools/mi does it)
run lttng enable-event -j named -c other -s ag
like "$RC:$(lttctl list ag -c lttng_jul_channel | tr '\n' ' ')" "^0:.*named \\(jul logger" \
	"lttng enable-event -j -c other: the rule in lttng_jul_channel, as LTTng" || diag "$OUT"
unlike "$(lttctl list ag)" "other" "... and no channel other made"
lttng disable-event -j foo -s ag >/dev/null
run lttctl list ag
like "$STDOUT" "foo \\(jul logger, loglevel: any\\) \\[disabled\\]
 *\\* \\(jul logger, loglevel: any\\) \\[enabled\\]" "lttng disable-event -j foo: that rule alone disabled"
lttng disable-event -j -a -s ag >/dev/null
like "$(lttctl list ag)" "\\* \\(jul logger, loglevel: any\\) \\[disabled\\]" "lttng disable-event -j -a: every JUL rule"
if python_env; then
	mkdir -p "$TEST_TMP/py/ltt"
	ln -s "$LTT_TOP_SRCDIR/src/python/ltt/__init__.py" "$LTT_TOP_SRCDIR/src/python/ltt/agent.py" \
		"$TEST_TMP/py/ltt/"
	ln -s "$LTT_TOP_BUILDDIR/src/python/.libs/_ltt.so" "$LTT_TOP_BUILDDIR/src/python/.libs/_agent.so" \
		"$TEST_TMP/py/ltt/"
	lttng start ag >/dev/null
	env "${PYENV[@]}" PYTHONPATH="$TEST_TMP/py" timeout "$TEST_TIMEOUT" "$PYTHON3" -B \
		"$LTT_TOP_SRCDIR/tests/regression/python_agent_app.py" burst >"$TEST_TMP/burst.out" 2>&1
	is $? 0 "a program logging through ltt's python agent ran" || diag "$(cat "$TEST_TMP/burst.out")"
	lttng stop ag >/dev/null
	bt "$TEST_TMP/ag" "$TEST_TMP/ag.txt"
	is "$(grep -c ' lttng_python:event: ' "$TEST_TMP/ag.txt")" 300 \
		"lttng's -p qa.app --loglevel WARNING: its 300 warnings recorded, not its infos nor other's debugs"
else
	skip 2 "configured without the Python package: no python agent run"
fi
# Debian's Java agents (JUL, log4j) under ltt-run, their rules set by Debian's lttng
JARS=/usr/share/java JNI=/usr/lib/x86_64-linux-gnu/jni
JCP="$JARS/lttng-ust-agent-common.jar:$JARS/lttng-ust-agent-jul.jar:$JARS/lttng-ust-agent-log4j.jar:$JARS/log4j-1.2.jar"
# java_agent jul|log4j OPT RANGE_LEVEL ONE_LEVEL EXPECTED: a level range on
# qa.app, one level on qa.other, a filter on qa.fmt.*, 4 rounds of records;
# EXPECTED: the count of each logger's records; one TAP result.
java_agent() {
	local fw=$1 opt=$2
	lttng create "j$fw" -o "$TEST_TMP/j$fw" >/dev/null
	lttng enable-event "$opt" qa.app --loglevel "$3" -s "j$fw" >/dev/null &&
		lttng enable-event "$opt" qa.other --loglevel-only "$4" -s "j$fw" >/dev/null &&
		lttng enable-event "$opt" 'qa.fmt.*' --filter 'msg == "keep*"' -s "j$fw" >/dev/null &&
		lttng start "j$fw" >/dev/null
	printf 'enabled qa.app yes\nrecord 4\nexit\n' |
		LTTNG_HOME=$HOME compat_run -p java -cp "$TEST_TMP/classes:$JCP" -Djava.library.path="$JNI" \
		LttngJavaApp "$fw" >"$TEST_TMP/$fw.out"
	lttng stop "j$fw" >/dev/null
	bt "$TEST_TMP/j$fw" "$TEST_TMP/j$fw.txt"
	is "$(grep " lttng_$fw:event: " "$TEST_TMP/j$fw.txt" | grep -o 'logger_name = "[^"]*"' | sort |
		uniq -c | awk '{ print $1, $4 }' | tr '\n' ' ')" "$5" \
		"$fw through Debian's agent, rules by lttng $opt: qa.app's $3 and above, qa.other's $4, qa.fmt.sub's keep* records" ||
		diag "$(cat "$TEST_TMP/$fw.out" "$TEST_TMP/app.err")"
	lttng destroy "j$fw" >/dev/null
}
if command -v javac >/dev/null && [ -f "$JNI/liblttng-ust-jul-jni.so" ] &&
	[ -f "$JNI/liblttng-ust-log4j-jni.so" ] && [ -f "$JARS/log4j-1.2.jar" ] &&
	mkdir -p "$TEST_TMP/classes" && javac -d "$TEST_TMP/classes" -cp "$JCP" \
		"$LTT_TOP_SRCDIR/tests/regression/java/LttngJavaApp.java" 2>"$TEST_TMP/javac.err"; then
	# JUL's 7 levels a round: WARNING and SEVERE, CONFIG; keep* in 2 rounds of 4
	java_agent jul -j JUL_WARNING JUL_CONFIG '8 "qa.app" 14 "qa.fmt.sub" 4 "qa.other" '
	# log4j's 6: WARN, ERROR and FATAL, DEBUG
	java_agent log4j -l LOG4J_WARN LOG4J_DEBUG '12 "qa.app" 12 "qa.fmt.sub" 4 "qa.other" '
else
	skip 2 "no javac, or no Debian's Java agents (liblttng-ust-agent-java-jni, liblog4j1.2-java)"
fi
run lttng disable-event -p -a -s ag
like "$(lttctl list ag)" "qa.app \\(python logger, loglevel: WARNING or more severe\\) \\[disabled\\]" \
	"lttng disable-event -p -a: the python rule disabled"
run lttng enable-channel -j chan -s ag
unlike "$RC" "^0$" "lttng enable-channel -j: refused (LTTng's client does too)"
lttng destroy ag >/dev/null

# --- system calls, perf counters, application contexts ---
run lttctl list -k --syscall
NSYS=$(grep -c '^ *[a-z_0-9]* (type: syscall)$' <<<"$STDOUT")
if [ "$RC" = 0 ] && [ "$NSYS" -gt 0 ]; then
	run lttng list -k --syscall
	is "$(grep -c '^ *[a-z_0-9]* \[64-bit\]$' <<<"$STDOUT")" "$NSYS" \
		"lttng list -k --syscall: the $NSYS system calls lttctl lists, each 64-bit" || diag "$OUT"
else
	skip 1 "no kernel domain here: lttctl list -k --syscall lists none"
fi
# kernel probes and functions: ltt's own rules (placed with kprobe_events on tracefs)
lttctl create kp --no-output >/dev/null
run lttng enable-event -k --probe __x64_sys_getppid+4 kp1 -s kp
run2=$RC
run lttng enable-event -k --function 0xffffffff81000000 kf1 -s kp
TFS=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
if [ -e "${TFS:-/sys/kernel/tracing}/kprobe_events" ] && [ "$run2" = 0 ]; then
	like "$(lttctl list kp)" "kp1 .*__x64_sys_getppid\\+4" \
		"lttng enable-event -k --probe SYMBOL+4: ltt's kernel probe at that place"
	like "$(lttng list kp)" "kp1 \\(type: probe\\).*
 *offset: 0x4
 *symbol: __x64_sys_getppid" "... lttng lists it with its symbol and offset"
else
	like "$run2:$(grep -m1 'probe kp1 refused' "$SESSIOND_LOG")" "^[1-9][0-9]*:.*this kernel's tracefs has no kprobe_events" \
		"lttng enable-event -k --probe: ltt's kernel domain takes the probe (this kernel can't place it: said so)"
	like "$RC:$(grep -m1 'probe kf1 refused' "$SESSIOND_LOG")" "^[1-9][0-9]*:.*this kernel's tracefs has no kprobe_events" \
		"lttng enable-event -k --function 0xADDR: the same"
fi
lttctl destroy kp >/dev/null
# user-space probes: lttng passes the binary's descriptor (SCM_RIGHTS); ltt takes the path
PROG=$(readlink -f "$LTT_TOP_BUILDDIR/tests/regression/uprobe_prog")
if [ -w "${TFS:-/sys/kernel/tracing}/uprobe_events" ] && [ -x "$PROG" ]; then
	kernel_lock
	lttng create up -o "$TEST_TMP/up" >/dev/null
	run lttng enable-event -k --userspace-probe="elf:$PROG:uprobe_target" up1 -s up
	ok $RC "lttng enable-event -k --userspace-probe=elf:PROG:FUNCTION, its descriptor passed" ||
		diag "status $RC: $OUT"
	lttng enable-event -k --userspace-probe="sdt:$PROG:ltt_test:plain" up2 -s up >/dev/null
	like "$(lttctl list up)" "up1 \\(type: userspace-probe, location: elf:$PROG:uprobe_target\\)" \
		"lttctl lists ltt's user-space probe rule, at the function of that file"
	run lttng list up -k
	is "$(grep -A4 '^      up1 ' <<<"$STDOUT")" "      up1 (type: userspace-probe) [enabled]
        Type: Function
        Binary path:   $PROG
        Function:      uprobe_target()
        Lookup method: ELF" "lttng list -k: the function's probe as LTTng lists it, with its location" ||
		diag "status $RC: $OUT"
	# LTTng's client takes an SDT probe's location only with the binary's
	# descriptor: the daemon passes it with the reply, opened as the client
	is "$(grep -A4 '^      up2 ' <<<"$STDOUT")" "      up2 (type: userspace-probe) [enabled]
        Type: Tracepoint
        Binary path:   $PROG
        Tracepoint:    ltt_test:plain
        Lookup method: SDT" "... the SDT probe's as LTTng lists it, the binary's descriptor passed" ||
		diag "$OUT"
	lttng start up >/dev/null && "$PROG" 10 >/dev/null && lttng stop up >/dev/null
	bt "$TEST_TMP/up" "$TEST_TMP/up.txt"
	is "$(grep -c ' up1: ' "$TEST_TMP/up.txt"):$(grep -c ' up2: ' "$TEST_TMP/up.txt")" 10:10 \
		"... the program's 10 calls of the function and 10 of the SDT probe recorded"
	lttng destroy up >/dev/null
else
	skip 5 "no writable uprobe_events, or no uprobe_prog: user-space probes not tried"
fi
lttctl create ctx --no-output >/dev/null
lttng enable-channel -u c1 -s ctx >/dev/null
run lttng add-context -u -t perf:thread:task-clock -t perf:thread:raw:r1:myraw -c c1 -s ctx
run lttctl list ctx
like "$STDOUT" "perf:thread:task-clock" "lttng add-context perf:thread:task-clock: ltt's per-thread counter" ||
	diag "$OUT"
run lttng add-context -k -t perf:cpu:cycles -s ctx
like "$RC:$OUT" "^[1-9]:.*Operation not supported" "perf:cpu:cycles (a per-CPU counter): refused"
run lttng add-context -u -t '$app.myprov:myctx' -s ctx
like "$RC:$OUT" "^[1-9]:.*Operation not supported" '$app.myprov:myctx (an application context): refused'
like "$(cat "$SESSIOND_LOG")" "ADD_CONTEXT: ltt-sessiond --lttng-compat does not serve application contexts" \
	"... and the daemon's log says why"
lttctl destroy ctx >/dev/null

# --- snapshots ---
run lttng create snap --snapshot -o "$TEST_TMP/snap"
ok $RC "lttng create --snapshot" || diag "$OUT"
run lttng snapshot list-output -s snap
like "$STDOUT" "\\[1\\] snapshot-1: $TEST_TMP/snap" "lttng snapshot list-output: the session's output" ||
	diag "$OUT"
# a relay's output: its two URLs, as LTTng's daemon lists them (LTTng's
# save-load/test_load reads them after a load's net:// override)
lttng create snapnet --snapshot --no-output >/dev/null
run lttng snapshot add-output -s snapnet -n relayout net://127.0.0.1:6342:6343
ok $RC "lttng snapshot add-output net://HOST:CTRL:DATA" || diag "$OUT"
run lttng --mi xml snapshot list-output -s snapnet
like "$STDOUT" "<name>relayout</name><ctrl_url>tcp4://127\\.0\\.0\\.1:6342/</ctrl_url><data_url>tcp4://127\\.0\\.0\\.1:6343/</data_url>" \
	"lttng --mi xml snapshot list-output: the relay's control and data URLs, as LTTng's" || diag "$OUT"
lttng destroy snapnet >/dev/null
lttng enable-event -u compat:basic -s snap >/dev/null && lttng start snap >/dev/null && compat_run $N
run lttng snapshot record -s snap
ok $RC "lttng snapshot record" || diag "$OUT"
bt "$TEST_TMP/snap" "$TEST_TMP/snap.txt"
is "$(count_events "$TEST_TMP/snap.txt" compat:basic)" $N "... holds the $N compat:basic events"
lttng destroy snap >/dev/null
# the size of the session's output (add-output -m), which a record
# without -m keeps (LTTng's client sends its "unset" size, -1): a packet
# for each stream, one a configured CPU (LTTng 2.16's snapshots/test_ust_fast)
lttng create snapm --snapshot --no-output >/dev/null
lttng enable-channel -u c -s snapm --subbuf-size 4096 --num-subbuf 8 >/dev/null
lttng enable-event -u compat:basic -c c -s snapm >/dev/null && lttng start snapm >/dev/null
ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
lttng snapshot add-output -s snapm -m $((4096 * ncpu)) "file://$TEST_TMP/snapm" >/dev/null
compat_run 3000
run lttng snapshot record -s snapm
sizes=$(find "$TEST_TMP/snapm" -name 'c_*' -exec stat -c %s {} + | sort -u | tr '\n' ' ')
is "$RC:$sizes" "0:4096 " "lttng snapshot record, the output's -m of one packet a stream: one packet each" ||
	diag "$OUT" "$(find "$TEST_TMP/snapm" -name 'c_*' -exec stat -c '%s %n' {} +)"
lttng destroy snapm >/dev/null

# --- rotations ---
lttng create rot -o "$TEST_TMP/rot" >/dev/null && lttng enable-event -u compat:basic -s rot >/dev/null &&
	lttng start rot >/dev/null && compat_run $N
run lttng rotate rot
like "$STDOUT" "Trace chunk archive for session rot is now readable at $TEST_TMP/rot/archives/" \
	"lttng rotate: waits for ROTATION_GET_INFO's completed archive and says where" || diag "$OUT"
bt "$(sed -n 's/.* is now readable at //p' <<<"$STDOUT")" "$TEST_TMP/rot.txt"
is "$(count_events "$TEST_TMP/rot.txt" compat:basic)" $N "... which holds the $N compat:basic events"
run lttng enable-rotation -s rot --timer 10s
ok $RC "lttng enable-rotation --timer 10s" || diag "$OUT"
run lttng list rot
like "$STDOUT" "timer period: 10000000 us" "lttng list: the schedule, read back from ltt"
lttng destroy rot >/dev/null

# --- lttng save of root's session in a root daemon that gave root's
# rights up (test_lttng_compat_save.sh: one that keeps them): its
# privileged part saves, to root's .lttng/sessions only (a directory the
# daemon named could be any that root can write)
run lttng save other -o "$TEST_TMP/saved"
like "$RC:$OUT" "^[1-9][0-9]*:.*Operation not supported" "lttng save -o DIR, the daemon's rights given up: refused ($OUT)"
ok "$([ ! -e "$TEST_TMP/saved/other.lttng" ]; echo $?)" "... and nothing written there"
saved="$HOME/.lttng/sessions/other.lttng"
run lttng save other
ok "$([ "$RC" = 0 ] && [ "$(awk '/^Uid:/ { print $3 }' "/proc/$(sessiond_pid)/status")" != 0 ] &&
	echo 0 || echo 1)" "lttng save, the daemon's rights given up: saved (status $RC)" ||
	diag "$OUT" "$(grep SAVE_SESSION "$SESSIOND_LOG")"
is "$(stat -c %U "$saved" 2>&1):$(mi_xp /sessions/session/name "$saved")" \
	"root:other" "... root's file in root's .lttng/sessions, by its privileged part, holding the session"
like "$(cat "$SESSIOND_LOG")" "SAVE_SESSION \\(31\\) -> 10" "... LTTNG_OK in the daemon's log"
# the save's process (ltt-priv's grandchild) stopped at its start: it
# holds the pipe its result goes on and stderr, none of ltt-priv's
# descriptors (its link to the daemon, the tracer's objects); killed, the
# client hears that the save ended without a result
: >"$SAVE_FAULT"
lttng save other -f >"$TEST_TMP/save-killed.out" 2>&1 &
SAVE_CLIENT=$!
SAVER=$(timeout "$TEST_TIMEOUT" bash -c '
	until p=$(grep -o "LTT_FAULT: stopping at save-lttng" "$1" >/dev/null &&
		ps -eo pid=,stat=,comm= | awk "\$2 ~ /^T/ && \$3 == \"ltt-priv\" { print \$1 }") &&
		[ -n "$p" ]; do :; done; echo "$p"' _ "$SESSIOND_LOG")
is "$(ls "/proc/$SAVER/fd" 2>&1 | sort -n | tr '\n' ' ')" "0 1 2 3 " \
	"the save's process keeps stdin, stdout, stderr and its result's pipe, nothing of ltt-priv's"
kill -KILL "$SAVER"
wait "$SAVE_CLIENT"
like "rc $? $(grep 'SAVE_SESSION: ' "$SESSIOND_LOG" | tail -n 1)" \
	"^rc [1-9][0-9]* .*SAVE_SESSION: the privileged part's save ended without a result \\(killed, or it failed\\) within 30 s" \
	"killed, the save fails (lttng's status), and the daemon says why"

# --- what no LTTng client sends ---
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" short)" closed \
	"half a request, then the client's end shut: closed without a reply"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" unknown)" 12 \
	"command 99, which LTTng 2.13 lacks: LTTNG_ERR_UND"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" huge)" 152 \
	"ENABLE_CHANNEL announcing a 16 MiB variable part: LTTNG_ERR_INVALID_PROTOCOL"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" badname)" 152 \
	"a session name without its NUL: LTTNG_ERR_INVALID_PROTOCOL"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" fdlate)" "waited
15" "a request passing a descriptor: answered once its byte came (LTTng's client sends it after the request)"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" "$SOCK" bigname)" 152 \
	"a session descriptor whose name runs past its bytes: LTTNG_ERR_INVALID_PROTOCOL"
run lttng list
like "$STDOUT" "other \\[inactive\\]" "the daemon serves on, its sessions as they were"

# --- a user's daemon: LTTng's socket in $LTTNG_HOME/.lttng ---
if can_switch_user; then
	U="$TEST_TMP/user"
	nobody_dir "$U"
	as_nobody env HOME="$U" LTTNG_HOME="$U" LTT_HOME="$U" "$SESSIOND" --daemonize \
		--rundir "$U/run" --lttng-compat --no-kernel
	is "$(stat -c '%U %a' "$U/.lttng/client-lttng-sessiond" 2>&1)" "nobody 600" \
		"a user's daemon: its socket in \$LTTNG_HOME/.lttng, the user's alone"
	as_nobody env HOME="$U" LTTNG_HOME="$U" "$LTTNG" create mine -o "$U/tr" >/dev/null 2>&1
	run as_nobody env LTT_RUNDIR="$U/run" "$LTTCTL_BIN" list
	like "$STDOUT" "mine \\($U/tr\\)" "... where the user's lttng creates a session lttctl lists" ||
		diag "$OUT"
	UPID=$(cat "$U/run/sessiond.pid")
	kill "$UPID" && wait_pid_exit "$UPID"
else
	skip 2 "no setpriv or no user nobody: a user's daemon is not tested"
fi

# --- a socket a live lttng-sessiond serves is never taken over ---
stop_sessiond
timeout "$TEST_TIMEOUT" /usr/bin/lttng-sessiond --daemonize --no-kernel \
	--pidfile="$TEST_TMP/lttng-sessiond.pid" ||
	{ echo "Bail out! Debian's lttng-sessiond did not start"; exit 1; }
LTTNG_PID=$(cat "$TEST_TMP/lttng-sessiond.pid")
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run2" --lttng-compat
is $RC 1 "ltt-sessiond --lttng-compat beside a live lttng-sessiond: refused, status 1"
like "$ERR" "--lttng-compat: a live session daemon \\(lttng-sessiond, or another ltt-sessiond --lttng-compat\\) serves $SOCK already; ltt-sessiond never takes it over" \
	"... in one sentence"
run lttng create still -o "$TEST_TMP/still"
like "$OUT" "Session still created" "LTTng's daemon still serves its socket" || diag "$OUT"
kill "$LTTNG_PID"
wait_pid_exit "$LTTNG_PID"

# --- no daemon alive: `lttng create` spawns LTTNG_SESSIOND_PATH, ltt-sessiond as lttng-sessiond ---
run env LTTNG_SESSIOND_PATH="$SESSIOND" LTT_RUNDIR="$TEST_TMP/run3" timeout "$TEST_TIMEOUT" \
	"$LTTNG" create spawned -o "$TEST_TMP/spawned"
like "$OUT" "Spawning a session daemon
Session spawned created" "lttng create, no daemon alive: spawns LTTNG_SESSIOND_PATH, then creates" ||
	diag "$OUT"
SPID=$(sessiond_pid "$TEST_TMP/run3")
is "$(tr '\0' ' ' <"/proc/$SPID/cmdline" 2>/dev/null)" "lttng-sessiond --daemonize " \
	"... ltt-sessiond, started as LTTng starts its daemon, serves LTTng's clients"
run env LTT_RUNDIR="$TEST_TMP/run3" "$LTTCTL_BIN" list
like "$STDOUT" "spawned \\($TEST_TMP/spawned\\)" "... the session lttng created in it, lttctl lists" || diag "$OUT"
kill "$SPID" && wait_pid_exit "$SPID"
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/run4" --lttng-compat --no-lttng-compat
like "$RC:$ERR" "^1:.*choose one of --lttng-compat and --no-lttng-compat" "--lttng-compat with --no-lttng-compat: refused"

done_testing
