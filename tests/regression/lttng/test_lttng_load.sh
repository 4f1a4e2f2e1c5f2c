#!/bin/bash
# test_lttng_load.sh - lttctl load of LTTng's saved sessions (.lttng).
# Files saved by Debian's `lttng save` (made here with LTTng's own session
# daemon, in this test's directory, as nobody when run as root) load into
# ltt with their channels, attributes, rules, contexts, trackers and
# outputs (local, none, snapshot, relay, live, rotation, started), and a
# loaded session records what the LTTng session would.  What ltt lacks,
# from real files and from the fixtures of tests/regression/saveload-lttng
# (a kernel session written as LTTng writes one, and variants of it), is
# refused with the file, the line and what to do, and nothing is created.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

ust_setup
relayd_init
FIX="$LTT_TOP_SRCDIR/tests/regression/saveload-lttng"
N=50

sessions_now() { lttctl list 2>&1 | sed 's/^ *[0-9]*) //' | sort; }

# refused FILE NAME-REGEX LINE MESSAGE DESC: load -i FILE fails, names the
# line and says MESSAGE, and no session appeared.
refused() {
	local before
	before=$(sessions_now)
	run lttctl load -i "$1"
	is "$RC" 1 "$5: refused"
	like "$ERR" "$2:$3: $4" "$5: the message names the line and what"
	is "$(sessions_now)" "$before" "$5: nothing was created"
}

# The fixtures: a kernel session as LTTng writes one, and what is refused.
while read -r name line code msg; do
	[ "$name" = "#" ] && continue
	refused "$FIX/$name.lttng" "$name\\.lttng" "$line" "$msg" "$name.lttng ($code)"
	case $code in
	CONFIG_UNSUPPORTED) like "$ERR" "ltt does not have" "$name.lttng: CONFIG_UNSUPPORTED's sentence" ;;
	*) like "$ERR" "not a valid ltt session configuration" "$name.lttng: CONFIG_INVALID's sentence" ;;
	esac
done <"$FIX/expected"

run lttctl load -i "$FIX/kernel.lttng" --override-url "file://$TEST_TMP/kern"
kernel_rc=$RC kernel_err=$ERR
if [ "$RC" = 0 ]; then
	run lttctl list kern
	like "$STDOUT" "Session kern \\($TEST_TMP/kern/\\)" "kernel.lttng: --override-url gives the output"
	like "$STDOUT" "Automatic rotation schedule: every 3000000 us" "kernel.lttng: the periodic rotation"
	like "$STDOUT" "Domain: Kernel" "kernel.lttng: the kernel domain"
	like "$STDOUT" "Buffering scheme: global" "kernel.lttng: GLOBAL buffers"
	matches "$STDOUT" "kchan: \\[enabled\\].*sub-buffer size: 256 KiB.*sub-buffer count: 8.*read timer: 200000 us" \
		"kernel.lttng: the channel's attributes"
	like "$STDOUT" "sched_switch \\(type: tracepoint\\) \\[enabled\\]" "kernel.lttng: a TRACEPOINT event"
	like "$STDOUT" "openat \\(type: syscall\\) \\[enabled\\]" "kernel.lttng: a SYSCALL event"
	like "$STDOUT" "process ids \\(pid\\) +1\$" "kernel.lttng: the pid tracker"
	like "$STDOUT" "process ids \\(vpid\\) +4242\$" "kernel.lttng: LTTng 2.10's pid_tracker, user space: vpid"
	like "$STDOUT" "user ids \\(vuid\\) +0\$" "kernel.lttng: a vuid tracker by user name (root)"
	lttctl -q destroy kern
else
	skip 11 "this daemon can't trace the kernel: $ERR"
fi

# load_as_kernel FILE DIR PATTERN WHAT: LTTng's FILE loads as kernel.lttng
# did (its session's list then matches PATTERN, WHAT), or is refused by
# this daemon for the same reason.
load_as_kernel() {
	run lttctl load -i "$FIX/$1" --override-url "file://$TEST_TMP/$2"
	if [ "$kernel_rc" = 0 ]; then
		is "$RC" 0 "$1: loads as kernel.lttng does"
		like "$(lttctl list kern)" "$3" "$1: $4"
		lttctl -q destroy kern
	else
		is "$RC" "$kernel_rc" "$1: refused by this daemon as kernel.lttng is"
		is "${ERR#*"$1":*: }" "${kernel_err#*kernel.lttng:*: }" "$1: for the same reason"
	fi
}

# LTTng 2.14 to 2.16's elements for what ltt does (trace_format CTF_1_8,
# allocation_policy PER_CPU, a watchdog period, empty map_channels and an
# empty LOG4J2 domain, as lttng save writes them): read as kernel.lttng is.
load_as_kernel lttng216.lttng k216 "kchan: \\[enabled\\].*" "its channel"
# LTTng 2.15's <trace_format>CTF_2</trace_format>: the session writes CTF 2.
load_as_kernel ctf2.lttng kc2 "Trace format: CTF 2 " "a CTF 2 session"

# A level of -1 with RANGE or SINGLE: LTTng's "every level" (lttng-tools'
# load-42-complex.lttng has one), loaded as a rule of any level beside
# the one of the same name with a range.
run lttctl load -i "$FIX/ust-loglevel-all.lttng"
is "$RC" 0 "ust-loglevel-all.lttng: a level of -1 loads"
run lttctl list llall
like "$STDOUT" "uevent_same_name_diff_llevel \\(loglevel: any\\) \\[disabled\\]" \
	"RANGE -1: a rule of any level, disabled as saved"
like "$STDOUT" "uevent_same_name_diff_llevel \\(loglevel: INFO or more severe\\) \\[enabled\\]" \
	"RANGE 6 of the same name: its own rule"
like "$STDOUT" "uevent_single_all \\(loglevel: any\\) \\[enabled\\]" "SINGLE -1: any level too"
lttctl -q destroy llall

# LTTng's own files, from Debian's lttng-tools.
NLTTNG=50
if ! command -v lttng >/dev/null || ! command -v lttng-sessiond >/dev/null; then
	skip $NLTTNG "lttng-tools is not installed (scripts/deps.sh)"
	done_testing
	exit
fi
if [ "$(id -u)" = 0 ] && ! can_switch_user; then
	skip $NLTTNG "root without setpriv and nobody: LTTng's root daemon would share /var/run/lttng"
	done_testing
	exit
fi
LH="$TEST_TMP/lttng-home"
# lttng_do CMD...: as the user of LTTng's daemon, whose home is LH (root's
# daemon would use the system's /var/run/lttng: nobody's is private).
if [ "$(id -u)" = 0 ]; then
	nobody_dir "$LH"
	lttng_do() { as_nobody env HOME="$LH" LTTNG_HOME="$LH" "$@"; }
else
	mkdir -p "$LH"
	lttng_do() { timeout "$TEST_TIMEOUT" env HOME="$LH" LTTNG_HOME="$LH" "$@"; }
fi
_lttng_cleanup() {
	local pid
	pid=$(cat "$LH/.lttng/lttng-sessiond.pid" 2>/dev/null) || return 0
	kill -TERM "$pid" 2>/dev/null && wait_pid_exit "$pid"
	return 0
}
trap '_lttng_cleanup; _relayd_cleanup; _cleanup' EXIT
lttng_do lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 ||
	{ echo "Bail out! LTTng's session daemon did not start"; exit 1; }
L() { lttng_do lttng "$@" >/dev/null 2>"$TEST_TMP/lttng.err" || { cat "$TEST_TMP/lttng.err" >&2; return 1; }; }
start_relayd || { echo "Bail out! ltt-relayd did not start"; exit 1; }

ok_cmd "lttng: a session of every channel attribute, rule and context" eval '
	L create full -o "$TEST_TMP/full" &&
	L enable-channel -u c1 --subbuf-size=16384 --num-subbuf=8 --switch-timer=200000 \
		--read-timer=300000 --tracefile-size=1048576 --tracefile-count=4 &&
	L enable-channel -u c2 --overwrite --subbuf-size=32768 --num-subbuf=4 &&
	L enable-event -u -c c1 ltt_test:seq &&
	L enable-event -u -c c1 ltt_test:crit --loglevel=TRACE_WARNING &&
	L enable-event -u -c c1 ltt_test:debug --loglevel-only=TRACE_DEBUG &&
	L disable-event -u -c c1 ltt_test:debug &&
	L enable-event -u -c c2 "ltt_test:*" --filter "seq >= 0" --exclude ltt_test:types,ltt_test:debug &&
	L disable-channel -u c2 &&
	L add-context -u -c c1 -t vpid -t procname -t pthread_id -t vtid'
ok_cmd "lttng: per-pid, snapshot, rotation, trackers, relay, live and started sessions" eval '
	L create perpid -o "$TEST_TMP/perpid" && L enable-channel -u pc --buffers-pid &&
	L enable-event -u -c pc ltt_test:seq &&
	L create snap --snapshot -o "$TEST_TMP/snapdir" && L enable-event -u ltt_test:seq &&
	L create rot -o "$TEST_TMP/rot" && L enable-event -u ltt_test:seq &&
	L enable-rotation --timer 5s && L enable-rotation --size 2M &&
	L create trk --no-output && L enable-event -u ltt_test:seq &&
	L track -u --vpid 1234,5678 && L track -u --vuid 0 && L untrack -u --vgid --all &&
	L create net --set-url="net://127.0.0.1:$CPORT:$DPORT/sub" && L enable-event -u ltt_test:seq &&
	L create live --live=2000000 --set-url="net://127.0.0.1:$CPORT:$DPORT" &&
	L enable-event -u ltt_test:seq &&
	L create st -o "$LH/st" && L enable-event -u ltt_test:seq && L start st &&
	L save -a -o "$LH/saved"'

run lttctl load -i "$LH/saved"
is "$RC" 0 "load -i DIR of lttng save -a: loaded"
for s in full live net perpid rot snap st trk; do
	like "$STDOUT" "Session $s loaded from $LH/saved/$s\\.lttng" "load -i DIR: $s.lttng"
done

run lttctl list full
like "$STDOUT" "Session full \\($TEST_TMP/full\\) \\[inactive\\]" "full: its local output"
like "$STDOUT" "Buffering scheme: per-uid" "full: PER_UID"
matches "$STDOUT" "c1: \\[enabled\\].*sub-buffer size: 16 KiB.*sub-buffer count: 8.*overwrite mode: discard.*switch timer: 200000 us.*read timer: 300000 us.*tracefile size: 1 MiB.*tracefile count: 4" \
	"full: c1's attributes"
matches "$STDOUT" "c2: \\[disabled\\].*sub-buffer size: 32 KiB.*sub-buffer count: 4.*overwrite mode: overwrite" \
	"full: c2 disabled, overwrite"
like "$STDOUT" "ltt_test:seq \\(loglevel: any\\) \\[enabled\\]" "full: a rule"
like "$STDOUT" "ltt_test:crit \\(loglevel: WARNING or more severe\\) \\[enabled\\]" "full: TRACE_WARNING as a range"
like "$STDOUT" "ltt_test:debug \\(loglevel: DEBUG only\\) \\[disabled\\]" "full: a single level, disabled"
like "$STDOUT" "ltt_test:\\* \\(loglevel: any\\) \\(excludes: ltt_test:debug,ltt_test:types\\) \\[enabled\\] \\[filter: seq >= 0\\]" \
	"full: the filter and the exclusions"
matches "$STDOUT" "Contexts:
      vpid
      procname
      pthread_id
      vtid
" "full: c1's contexts, in order"

run lttctl list perpid
like "$STDOUT" "Buffering scheme: per-pid" "perpid: PER_PID"
run lttctl list snap
like "$STDOUT" "Session snap \\(snapshots only\\) \\[inactive\\] \\[snapshot\\]" "snap: a snapshot session"
like "$STDOUT" "Snapshot output: \\[1\\] snapshot-1: $TEST_TMP/snapdir" "snap: its snapshot output"
run lttctl list rot
like "$STDOUT" "Automatic rotation schedule: every 5000000 us" "rot: the periodic rotation"
like "$STDOUT" "Automatic rotation schedule: each time 2 MiB are written" "rot: the size rotation"
run lttctl list trk
like "$STDOUT" "Session trk \\(no output\\)" "trk: --no-output"
like "$STDOUT" "process ids \\(vpid\\) +1234, 5678\$" "trk: the vpid tracker"
like "$STDOUT" "user ids \\(vuid\\) +0\$" "trk: the vuid tracker"
like "$STDOUT" "group ids \\(vgid\\) +none\$" "trk: untrack --all is none"
run lttctl list net
like "$STDOUT" "Session net \\(net://127\\.0\\.0\\.1:$CPORT:$DPORT/sub\\)" "net: the relay URL, path included"
run lttctl list live
like "$STDOUT" "Session live \\(net://127\\.0\\.0\\.1:$CPORT:$DPORT\\).*live" "live: the relay URL, live"
run lttctl list st
like "$STDOUT" "Session st \\($LH/st\\) \\[active\\]" "st: saved started, loaded started"

# A loaded session records as LTTng's would: seq and crit, not the disabled debug.
lttctl -q start full
ust_app -n $N -r main -T -L
lttctl -q stop full
bt "$TEST_TMP/full" "$TEST_TMP/full.out"
is "$(count_events "$TEST_TMP/full.out" ltt_test:seq):$(count_events "$TEST_TMP/full.out" ltt_test:crit):$(count_events "$TEST_TMP/full.out" ltt_test:debug)" \
	"$N:$N:0" "full recorded $N seq, $N crit, no disabled debug"
like "$(grep -m1 ' ltt_test:seq: ' "$TEST_TMP/full.out")" "vpid = [0-9]+.*procname = \"" \
	"full: its events carry the contexts"
lttctl -q destroy -a

# What ltt lacks, from LTTng's own files: each refused, nothing created.
ok_cmd "lttng: sessions of what ltt lacks" eval '
	L create appctx && L enable-event -u "a:*" && L add-context -u -t "\$app.prov:ctx" &&
	L save -o "$LH/r-app" appctx &&
	L create shm --shm-path="$LH/shm" && L enable-event -u "a:*" && L save -o "$LH/r-shm" shm &&
	L create blk && L enable-channel -u b --blocking-timeout=100 && L save -o "$LH/r-blk" blk'
refused "$LH/r-app" "appctx\\.lttng" "[0-9]+" \
	"an application context \\(\\\$app.PROVIDER:NAME\\) is not supported by ltt: remove this <context>" \
	"an app context"
# LTTng's shared memory path is ltt's too (test_ust_crash.sh): it loads
run lttctl load -i "$LH/r-shm" shm
is "$RC" 0 "lttng: a session with <shared_memory_path> loads"
like "$(sessions_now)" "^shm " "and is there"
lttctl -q save -o "$TEST_TMP/shm-saved" shm
like "$(cat "$TEST_TMP"/shm-saved/shm.* 2>&1)" "<shared_memory_path>$LH/shm/shm-[0-9]{8}-[0-9]{6}</shared_memory_path>" \
	"and keeps its shared memory path (saved again)"
lttctl -q destroy shm
is "$?" 0 "and is destroyed"
# LTTng's blocking timeout is ltt's too (test_ust_blocking.sh): it comes back
run lttctl load -i "$LH/r-blk" blk
is "$RC" 0 "lttng: a channel with a blocking timeout loads"
like "$(lttctl list blk)" "blocking timeout: 100 us" "and keeps its timeout (100 us)"
lttctl -q destroy blk
cp "$LH/r-app/appctx.lttng" "$LH/saved/"
refused "$LH/saved" "appctx\\.lttng" "[0-9]+" "an application context" \
	"a directory with one refused file"

# LTTng's JUL and log4j domains, as lttng save writes them: their rules
# come back in lttng_jul_channel and lttng_log4j_channel.
ok_cmd "lttng: a session of JUL and log4j rules" eval '
	L create java && L enable-event -j my.logger --loglevel JUL_INFO &&
	L enable-event -l "org.*" --loglevel-only LOG4J_WARN --filter "msg == \"x*\"" &&
	L save -o "$LH/java" java'
ok_cmd "load LTTng's JUL and log4j domains" lttctl load java -i "$LH/java"
run lttctl list java
like "$STDOUT" "      my.logger \\(jul logger, loglevel: INFO or more severe\\) \\[enabled\\]" \
	"java: the JUL rule at INFO or more severe, in lttng_jul_channel"
# (lttng save writes the filter LTTng made of the rule, the user's inside it)
like "$STDOUT" "      org.\\* \\(log4j logger, loglevel: WARN only\\) \\[enabled\\] \\[filter: .*msg == \"x\\*\".*\\]" \
	"java: the log4j rule at WARN only, its filter"

# ltt's save writes LTTng 2.13's format (NAME.lttng) for what it holds,
# which Debian's lttng loads; a session with what only ltt has goes to
# NAME.ltt, save saying why; load takes both.
lttctl -q destroy -a
ok_cmd "ltt: sessions of what LTTng's format holds" eval '
	lttctl -q create lx -o "$TEST_TMP/lx" &&
	lttctl -q enable-channel -u chan-save --subbuf-size 16k --num-subbuf 8 --switch-timer 200000 \
		--read-timer 300000 --tracefile-size 1M --tracefile-count 4 &&
	lttctl -q enable-event -u -c chan-save tp:tptest &&
	lttctl -q enable-event -u -c chan-save ltt_test:crit --loglevel TRACE_WARNING &&
	lttctl -q enable-event -u -c chan-save ltt_test:debug --loglevel-only TRACE_DEBUG &&
	lttctl -q disable-event -u -c chan-save ltt_test:debug &&
	lttctl -q enable-event -u -c chan-save "ltt_test:*" --filter "seq >= 0" &&
	lttctl -q add-context -u -c chan-save -t vpid -t procname &&
	lttctl -q track -u --vpid 666 &&
	lttctl -q create lx-x -o "$TEST_TMP/lx-x" &&
	lttctl -q enable-event -u "ltt_test:*" --filter "seq >= 0" --exclude ltt_test:types &&
	lttctl -q create lx-snap --snapshot -o "$TEST_TMP/lx-snapdir" &&
	lttctl -q enable-event -u ltt_test:seq &&
	lttctl -q create lx-rot -o "$TEST_TMP/lx-rot" && lttctl -q enable-event -u ltt_test:seq &&
	lttctl -q enable-rotation --timer 5s && lttctl -q enable-rotation --size 2M &&
	lttctl -q create lx-net --set-url="net://127.0.0.1:$CPORT:$DPORT/lx-sub" &&
	lttctl -q enable-event -u ltt_test:seq &&
	lttctl -q create lx-none --no-output && lttctl -q enable-event -u ltt_test:seq'
LX="$TEST_TMP/ltt-saved"
run lttctl save -a -o "$LX"
is "$RC" 0 "save -a -o DIR: saved"
for s in lx lx-x lx-snap lx-rot lx-net lx-none; do
	like "$STDOUT" "Session $s saved to $LX/$s\\.lttng\$" "save: $s.lttng, LTTng's format"
done
if command -v xmllint >/dev/null && [ -f /usr/share/xml/lttng/session.xsd ]; then
	run xmllint --noout --schema /usr/share/xml/lttng/session.xsd "$LX"/*.lttng
	is "$RC" 0 "the six files follow LTTng's session.xsd"
else
	skip 1 "no xmllint or no LTTng session.xsd (/usr/share/xml/lttng)"
fi
lttctl -q destroy -a
run lttctl load -i "$LX"
is "$RC" 0 "ltt loads what it saved in LTTng's format"
matches "$(lttctl list lx)" "chan-save: \\[enabled\\].*sub-buffer size: 16 KiB.*sub-buffer count: 8.*switch timer: 200000 us.*read timer: 300000 us.*tracefile size: 1 MiB.*tracefile count: 4" \
	"lx: the channel's attributes come back"
like "$(lttctl list lx-x)" "ltt_test:\\* \\(loglevel: any\\) \\(excludes: ltt_test:types\\) \\[enabled\\] \\[filter: seq >= 0\\]" \
	"lx-x: the filter and exclusion come back"
like "$(lttctl list lx-snap)" "Snapshot output: \\[1\\] snapshot-1: $TEST_TMP/lx-snapdir" \
	"lx-snap: its snapshot output comes back"
lttctl -q destroy -a
LXN="$LH/ltt-saved"
nobody_dir "$LXN" 2>/dev/null || mkdir -p "$LXN"
# (not lx-none.lttng: LTTng 2.13.9's load refuses, "Invalid parameter",
# the very file its own save writes for a --no-output session)
cp "$LX"/*.lttng "$LXN/" && rm "$LXN/lx-none.lttng" && chmod 644 "$LXN"/*.lttng
ok_cmd "Debian's lttng load -i takes the files ltt wrote" L load -i "$LXN"
# (not lttng list lx-x: LTTng 2.13.9's daemon dies listing a rule with exclusions)
run lttng_do lttng list lx
like "$STDOUT" "chan-save: \\[enabled\\]" "lttng list lx: the channel"
like "$STDOUT" "ltt_test:crit \\(loglevel <= TRACE_WARNING \\(4\\)\\) \\(type: tracepoint\\) \\[enabled\\]" \
	"lttng list lx: a rule with its level range"
like "$STDOUT" "ltt_test:debug \\(loglevel == TRACE_DEBUG \\(14\\)\\) \\(type: tracepoint\\) \\[disabled\\]" \
	"lttng list lx: a rule of one level, disabled"
like "$STDOUT" "ltt_test:\\* \\(type: tracepoint\\) \\[enabled\\] \\[filter: 'seq >= 0'\\]" \
	"lttng list lx: the filtered rule"
like "$STDOUT" "Virtual process IDs: +666" "lttng list lx: the vpid tracker"
run lttng_do lttng list lx-rot
like "$STDOUT" "timer period: 5000000 us" "lttng list lx-rot: the periodic rotation"
like "$STDOUT" "size threshold: 2097152 bytes" "lttng list lx-rot: the size rotation"
run lttng_do lttng snapshot list-output -s lx-snap
like "$STDOUT" "$TEST_TMP/lx-snapdir" "lttng snapshot list-output: the snapshot output"
L destroy -a

# A session with what only ltt has (a synced channel): NAME.ltt and why;
# a file named .lttng refused; load takes a directory of both.
lttctl -q create lx-fsync -o "$TEST_TMP/lx-fsync" && lttctl -q enable-channel -u c --fsync
run lttctl save lx-fsync -o "$LX"
like "$STDOUT" "Session lx-fsync saved to $LX/lx-fsync\\.ltt, in ltt's format: LTTng's session format has no synced channel \\(enable-channel --fsync\\)\\.\$" \
	"save: a synced channel's session goes to NAME.ltt, save says why"
run lttctl save lx-fsync -o "$TEST_TMP/one.lttng"
is "$RC:$([ -e "$TEST_TMP/one.lttng" ] && echo written)" "1:" "save -o FILE.lttng of it: refused, nothing written"
like "$ERR" "session 'lx-fsync': LTTng's session format has no synced channel" "... naming the session and why"
lttctl -q destroy -a
run lttctl load -i "$LX"
is "$RC" 0 "load -i DIR: .lttng and .ltt files together"
like "$STDOUT" "Session lx-fsync loaded from $LX/lx-fsync\\.ltt" "... the .ltt one"
like "$STDOUT" "Session lx loaded from $LX/lx\\.lttng" "... and the .lttng ones"
lttctl -q destroy -a

done_testing
