#!/bin/bash
# test_lttng_compat_216.sh - LTTng 2.16's clients (Debian sid's lttng, in
# a root made by scripts/debian-root.sh) and Debian 12's 2.13 clients
# drive one ltt-sessiond --lttng-compat at once, each answered in its own
# version's layout: the daemon tells them apart by the liblttng-ctl each
# runs (lttng-compat-peer.c), never taking a request for another command
# (2.16's LIST_DOMAINS is 2.13's DESTROY_SESSION, its START_TRACE 2.13's
# LIST_SESSIONS).  Sid's lttng creates sessions (CTF 2 by default, as
# LTTng 2.15 and later do, while Debian 12's 2.13 gets the daemon's CTF
# 1.8; -F as asked, which its MI says), channels, event rules and contexts, kernel
# rules, snapshots, rotations, clear, starts, stops, lists and destroys;
# sid's python3-lttng as ros2_tracing drives it; a program's events are in
# the trace, counted; sid's map channel commands count in ltt's maps and
# show them; what ltt lacks of 2.16 is refused with LTTng's code and the
# daemon's sentence.  As root in its own mount namespace
# (/var/run/lttng), the root's /run the test's.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
root_or_skip sid
plan 120
compat_build
N=300

lttng_client
HERE="$LTT_TOP_SRCDIR/tests/regression/lttng-compat"
ROOT_RUN=/run
# sid's lttng, as root: /var/run/lttng, the daemon's
lttng216() { in_root env LTTNG_HOME="$LTTNG_HOME" timeout "$TEST_TIMEOUT" lttng "$@"; }
# the traces, read by the root's babeltrace2 2.1 (Debian 12's 2.0 reads no CTF 2)
bt() { bt21 "$@"; }

like "$(lttng216 --version)" "2\\.16\\." "the root's lttng is LTTng 2.16's"
ok_cmd "Debian 12's lttng create s13" lttng create s13 -o "$TEST_TMP/s13"

# --- a 2.16 request is never taken for 2.13's command of its number
run lttng216 list s13
is "$RC" 0 "sid's lttng list s13 (LIST_SESSIONS, LIST_DOMAINS: 2.13's LIST_DOMAINS, DESTROY_SESSION)" ||
	diag "$OUT"
like "$(lttctl list)" "s13" "... and s13 is still there"
like "$(cat "$SESSIOND_LOG")" "LTTng 2\\.16 client pid [0-9]+ uid 0: LIST_DOMAINS \\(9\\) -> 10" \
	"the daemon took 2.16's 9 for LIST_DOMAINS"

# --- a session of sid's lttng, recorded
ok_cmd "sid's lttng create s16" lttng216 create s16 -o "$TEST_TMP/s16"
ok_cmd "sid's lttng enable-channel -u c1 (2.16's channel: its watchdog, its policies)" \
	lttng216 enable-channel -u c1 -s s16 --subbuf-size 64k
ok_cmd "sid's lttng enable-event -u 'ltt_test:*' -c c1 (the event, then its rule)" \
	lttng216 enable-event -u 'ltt_test:*' -c c1 -s s16
ok_cmd "sid's lttng add-context -u -t vpid" lttng216 add-context -u -t vpid -c c1 -s s16
ok_cmd "sid's lttng start s16" lttng216 start s16
ust_app -n "$N" -r r16 >/dev/null
ok $? "a program records $N events"
run lttng216 list s16
like "$OUT" "Trace format: CTF 2" "sid's lttng list s16: its trace format, LTTng 2.16's default" ||
	diag "$OUT"
unlike "$(lttctl list s13)" "Trace format: CTF 2" \
	"... while Debian 12's lttng create s13 has the daemon's, CTF 1.8"
like "$OUT" "Event record channel \`c1\`" "... its channel c1"
like "$OUT" "4 sub-buffers of 64\\.00 KiB per CPU, per Unix user" "... with its buffers"
like "$OUT" "Event rule \`ltt_test:\\*\`" "... and its event rule"
like "$OUT" "Memory usage: .* [0-9.]+ [KM]iB / +[0-9.]+ [KM]iB" "... and its buffers' memory, as ltt measures it" ||
	diag "$(grep -A3 'Memory usage' <<<"$OUT")"
like "$(lttng list s16)" "ltt_test:\\*" "Debian 12's lttng lists s16 too"
ok_cmd "sid's lttng stop s16" lttng216 stop s16
bt "$TEST_TMP/s16" "$TEST_TMP/bt16"
is "$(grep -c ' ltt_test:seq: .*vpid = ' "$TEST_TMP/bt16")" "$N" \
	"babeltrace2 reads the $N events, each with its vpid"
ok_cmd "sid's lttng destroy s16" lttng216 destroy s16
unlike "$(lttctl list)" "s16" "... and s16 is gone"

# --- CTF 2, as LTTng 2.15 and later write by default
ok_cmd "sid's lttng create s2 -F ctf-2" lttng216 create s2 -F ctf-2 -o "$TEST_TMP/s2"
like "$(lttng216 list s2)" "Trace format: CTF 2" "... listed as CTF 2"
lttng216 enable-event -u 'ltt_test:*' -s s2 >/dev/null && lttng216 start s2 >/dev/null &&
	ust_app -n 10 -r r2 >/dev/null && lttng216 stop s2 >/dev/null
ok $? "10 events recorded in s2"
is "$(head -c 1 "$TEST_TMP/s2/ust/uid/0/64-bit/metadata" | od -An -tx1 | tr -d ' ')" "1e" \
	"its metadata is CTF 2's (a JSON text sequence)"

run lttng216 --mi xml list s2
like "$OUT" "<trace_format>CTF_2</trace_format>" \
	"sid's lttng --mi xml list s2: the trace format in LTTng 2.16's MI" || diag "$OUT"

# --- the kernel (tracefs here), from sid's lttng: its rules after the events skipped
ok_cmd "sid's lttng create k" lttng216 create k -o "$TEST_TMP/k"
ok_cmd "sid's lttng enable-event -k sched_switch" lttng216 enable-event -k sched_switch -s k
ok_cmd "sid's lttng start k" lttng216 start k
ust_app -n 20 -r k >/dev/null
lttng216 stop k >/dev/null && lttng216 destroy k >/dev/null
bt "$TEST_TMP/k" "$TEST_TMP/btk"
ok $(($(grep -c ' sched_switch: ' "$TEST_TMP/btk") == 0)) "the kernel trace holds sched_switch events"

# user-space probes from sid's lttng, which passes the binary's descriptor
# twice (the event's location, then its rule's): the binary where the root
# sees it too
PROG=$TEST_TMP/uprobe_prog
cp "$LTT_TOP_BUILDDIR/tests/regression/uprobe_prog" "$PROG"
if [ -w "${TFS:-/sys/kernel/tracing}/uprobe_events" ]; then
	kernel_lock
	lttng216 create up -o "$TEST_TMP/up" >/dev/null
	run lttng216 enable-event -k --userspace-probe="elf:$PROG:uprobe_target" up1 -s up
	ok $RC "sid's lttng enable-event -k --userspace-probe=elf:PROG:FUNCTION" || diag "status $RC: $OUT $ERR"
	run lttng216 enable-event -k --userspace-probe="sdt:$PROG:ltt_test:plain" up2 -s up
	ok $RC "sid's lttng enable-event -k --userspace-probe=sdt:PROG:PROVIDER:NAME" || diag "status $RC: $OUT $ERR"
	run lttng216 list up -k
	like "$OUT" "Event rule \`up1\` ❬Linux uprobe❭
 +🞂 Probe location: elf:$PROG:uprobe_target
(?s:.*)Event rule \`up2\` ❬Linux uprobe❭
 +🞂 Probe location: sdt:$PROG:ltt_test:plain" "sid's lttng list -k: both probes' rules with their locations" ||
		diag "$OUT"
	lttng216 start up >/dev/null && "$PROG" 10 >/dev/null && lttng216 stop up >/dev/null
	bt "$TEST_TMP/up" "$TEST_TMP/up.txt"
	is "$(grep -c ' up1: ' "$TEST_TMP/up.txt"):$(grep -c ' up2: ' "$TEST_TMP/up.txt")" 10:10 \
		"... the program's 10 calls of the function and 10 of the SDT probe recorded"
	lttng216 destroy up >/dev/null
else
	skip 4 "this kernel's tracefs has no uprobe_events"
fi

# --- snapshots, rotations, clear, regenerate: 2.16's clients as 2.13's
ok_cmd "sid's lttng create snap --snapshot" lttng216 create snap --snapshot -o "$TEST_TMP/snap"
lttng216 enable-event -u 'ltt_test:*' -s snap >/dev/null && lttng216 start snap >/dev/null &&
	ust_app -n 50 -r snap >/dev/null
ok $? "50 events in snap's buffers"
ok_cmd "sid's lttng snapshot record" lttng216 snapshot record -s snap
bt "$TEST_TMP/snap" "$TEST_TMP/btsnap"
is "$(count_events "$TEST_TMP/btsnap" ltt_test:seq)" 50 "... the snapshot holds the 50 events"
ok_cmd "sid's lttng create rot" lttng216 create rot -o "$TEST_TMP/rot"
lttng216 enable-event -u 'ltt_test:*' -s rot >/dev/null && lttng216 start rot >/dev/null &&
	ust_app -n 40 -r rot >/dev/null
ok $? "40 events in rot"
run lttng216 rotate rot
like "$RC:$(tail -n 1 <<<"$OUT")" "^0:Trace chunk archive for session rot is now readable at $TEST_TMP/rot/archives/" \
	"sid's lttng rotate: the archive's location, as 2.16 says it" || diag "$OUT"
ok_cmd "sid's lttng regenerate metadata" lttng216 regenerate metadata -s rot
ust_app -n 40 -r rot >/dev/null && lttng216 stop rot >/dev/null && lttng216 destroy rot >/dev/null
bt "$TEST_TMP/rot" "$TEST_TMP/btrot"
is "$(count_events "$TEST_TMP/btrot" ltt_test:seq)" 80 "babeltrace2 reads the 80 events across the chunks"
ok_cmd "sid's lttng clear s2" lttng216 clear s2
lttng216 start s2 >/dev/null && lttng216 stop s2 >/dev/null
ok $? "... then its start and stop again"
bt "$TEST_TMP/s2" "$TEST_TMP/bt2c"
is "$(count_events "$TEST_TMP/bt2c" ltt_test:seq)" 0 "... and its 10 events are gone"

# --- python3-lttng 2.16, as ros2_tracing drives it (its own channel, disabled unless asked)
cp "$LTT_TOP_SRCDIR/tests/regression/lttng-compat/ros2_sequence.py" "$TEST_TMP/"
run in_root python3 "$TEST_TMP/ros2_sequence.py" start ros "$TEST_TMP/ros"
is "$RC" 0 "sid's python3-lttng: alive, create, enable_channel, enable_event, add_context x3, start" ||
	diag "$OUT"
run in_root python3 "$TEST_TMP/ros2_sequence.py" list ros
like "$OUT" "channel ros2 enabled=0 overwrite=0 subbuf_size=8192 num_subbuf=8 read_timer=200 output=1" \
	"... its Channel() created disabled, as LTTng 2.16 does" || diag "$OUT"
export ROS2_CHANNEL_ENABLED=1
run in_root python3 "$TEST_TMP/ros2_sequence.py" start ros1 "$TEST_TMP/ros1"
is "$RC" 0 "... and a session whose channel it enables" || diag "$OUT"
unset ROS2_CHANNEL_ENABLED
compat_run 25 >/dev/null
ok $? "compat_app records 25 compat:basic"
run in_root python3 "$TEST_TMP/ros2_sequence.py" stop ros1
is "$RC" 0 "sid's python3-lttng: stop, destroy" || diag "$OUT"
in_root python3 "$TEST_TMP/ros2_sequence.py" stop ros >/dev/null
bt "$TEST_TMP/ros1" "$TEST_TMP/btros1"
is "$(grep -c 'compat:basic: .*vpid = [0-9]*, vtid = [0-9]*, procname = "compat_app"' "$TEST_TMP/btros1")" 25 \
	"... the 25 events with vpid, vtid and procname"
bt "$TEST_TMP/ros" "$TEST_TMP/btros"
is "$(grep -c ' compat:basic: ' "$TEST_TMP/btros")" 0 "... and none in the disabled channel"

# --- triggers: sid's add-trigger, list-triggers, remove-trigger
ok_cmd "sid's lttng add-trigger (a user-space rule with a filter and a capture, start-session, every 2)" \
	lttng216 add-trigger --name t2 --condition=event-rule-matches --type=user --name=ltt_test:seq \
	--filter='i > 3' --capture=i --action=start-session s13 --rate-policy=every:2
run lttng216 list-triggers
like "$OUT" "rule: ltt_test:seq \\(type: user tracepoint, filter: i > 3\\)" \
	"sid's lttng list-triggers: its rule and filter" || diag "$OUT"
like "$OUT" "start session \`s13\`, rate policy: every 2 occurrences" "... its action and rate policy"
like "$(lttng list-triggers)" "name: t2" "Debian 12's lttng lists it too"
ok_cmd "sid's lttng remove-trigger t2" lttng216 remove-trigger t2
unlike "$(lttctl list-triggers 2>&1)" "t2" "... and it is gone"

# a kernel probe's rule from sid's lttng (2.16's layout: its instrumentation site)
run lttng216 add-trigger --name kt --condition event-rule-matches --type=kernel:kprobe \
	--location=do_sys_open --event-name=kt --action notify
if [ -e "${TFS:-/sys/kernel/tracing}/kprobe_events" ]; then
	ok "$RC" "sid's lttng add-trigger of a kprobe rule" || diag "$OUT $ERR"
	run lttng216 list-triggers
	like "$OUT" "rule: kt \\(type: kernel:kprobe, location: do_sys_open\\)" \
		"sid's lttng list-triggers: the kprobe rule, read in 2.16's layout" || diag "$OUT"
	lttng216 remove-trigger kt >/dev/null
else
	like "$RC:$OUT" "^[1-9][0-9]*:.*Enable kernel event failed" \
		"sid's lttng add-trigger of a kprobe rule: read, then refused as a probe this kernel can't place" ||
		diag "$OUT $ERR"
	like "$(grep 'kt' "$SESSIOND_LOG" | tail -n 3)" "kprobe_events" \
		"... the daemon's log names kprobe_events (the rule was read whole)"
fi

# --- save and load keep the trace format (the daemon saves to root's .lttng/sessions)
lttng216 create sv -F ctf-2 -o "$TEST_TMP/sv" >/dev/null && lttng216 enable-event -u 'ltt_test:*' -s sv >/dev/null
ok_cmd "sid's lttng save sv" lttng216 save sv
like "$(cat "$HOME/.lttng/sessions/sv.lttng" 2>&1)" "<trace_format>CTF_2</trace_format>" \
	"... its file says CTF 2, as LTTng 2.16 writes it"
lttng216 destroy sv >/dev/null
ok_cmd "sid's lttng load sv (its client reads the file, the daemon creates)" \
	lttng216 load sv -i "$HOME/.lttng/sessions"
run lttng216 list sv
like "$OUT" "Trace format: CTF 2" "... and the session loaded is CTF 2 again" || diag "$OUT"
like "$OUT" "Event rule \`ltt_test:\\*\`" "... with its event rule"
lttng216 destroy sv >/dev/null

# --- a client's version is its liblttng-ctl's: a library of 2.15, of 2.16
for v in 2.15:lttng_channel_get_watchdog_timer_interval 2.16:lttng_action_increment_map_value_create; do
	mkdir -p "$TEST_TMP/ctl${v%%:*}"
	echo "void ${v#*:}(void) {}" | cc -shared -fPIC -x c -o "$TEST_TMP/ctl${v%%:*}/liblttng-ctl.so.0" -
done
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" /var/run/lttng/client-lttng-sessiond gen215 \
	"$TEST_TMP/ctl2.15/liblttng-ctl.so.0")" "15 20" \
	"a client whose liblttng-ctl is 2.15's: NOT_SUPPORTED, in 2.15's 20-byte reply"
like "$(cat "$SESSIOND_LOG")" "runs LTTng 2\\.15's liblttng-ctl: ltt-sessiond --lttng-compat speaks the client protocols of LTTng 2\\.13 and 2\\.16" \
	"... and the daemon's log names the versions ltt speaks"
is "$(/usr/bin/python3 "$HERE/lttng_wire.py" /var/run/lttng/client-lttng-sessiond gen216 \
	"$TEST_TMP/ctl2.16/liblttng-ctl.so.0")" "10 20" \
	"one whose liblttng-ctl is 2.16's: its LIST_SESSIONS (11) answered, in 2.16's 20-byte reply"

# --- 2.16's channel policies are ltt's too; a watchdog of another period it lacks
ok_cmd "sid's lttng create pol" lttng216 create pol -o "$TEST_TMP/pol"
ok_cmd "sid's lttng enable-channel -u with per-channel buffers, on demand, reclaimed after 30 s" \
	lttng216 enable-channel -u c2 -s pol --buffer-allocation=per-channel \
	--buffer-preallocation=on-demand --auto-reclaim-memory=older-than:30s
run lttctl list pol
like "$OUT" "c2:.*" "... ltt's channel c2" || diag "$OUT"
run lttng216 list pol
like "$OUT" "Preallocation policy: +On demand" "sid's lttng list: its preallocation" || diag "$OUT"
like "$OUT" "Auto. memory reclaim policy: +When older than 30" "... its automatic reclaim"
like "$OUT" "4 sub-buffers of 512\\.00 KiB per Unix user" "... its buffers per channel (not per CPU)"
run lttng216 enable-channel -u c3 -s pol --watchdog-timer=5000000
ok $((RC == 0)) "sid's lttng enable-channel --watchdog-timer=5000000: refused" || diag "$OUT"
like "$(cat "$SESSIOND_LOG")" "does not serve a watchdog timer of another period" \
	"... the daemon's log says what ltt lacks"
# 0 is none, which ltt runs anyway (LTTng 2.16's ust/blocking sets it)
ok_cmd "sid's lttng enable-channel --watchdog-timer=0: taken" \
	lttng216 enable-channel -u c4 -s pol --watchdog-timer=0
run lttctl list pol
like "$OUT" "c4:.*" "... ltt's channel c4" || diag "$OUT"
lttng216 destroy pol >/dev/null

# --- reclaim-memory: ltt's reclaim of a user-space channel, synchronous
# (nothing left pending for liblttng-ctl 2.16 to wait for)
lttng216 create rc -o "$TEST_TMP/rc" >/dev/null &&
	lttng216 enable-channel -u c1 -s rc --subbuf-size 64k --num-subbuf 8 >/dev/null &&
	lttng216 enable-event -u "ltt_test:*" -c c1 -s rc >/dev/null && lttng216 start rc >/dev/null
ok $? "sid's lttng create rc, a discard channel of 8 x 64 KiB, started"
(close_fifos; exec taskset -c 0 timeout "$(ust_guard -e "$TEST_TIMEOUT")" "$UST_APP" -e "$TEST_TIMEOUT" -n 30000)
ok $? "a burst of 30000 events on CPU 0"
run lttng216 reclaim-memory -u -s rc --older-than=3600000000 c1
is "$RC:$OUT" "0:Event record channel \`c1\`: 0 sub-buffers reclaimed" \
	"sid's lttng reclaim-memory --older-than=1h: none that old" || diag "$ERR"
run lttng216 reclaim-memory -u -s rc c1
like "$RC:$OUT" "^0:Event record channel \`c1\`: [1-9][0-9]* sub-buffers? reclaimed\$" \
	"sid's lttng reclaim-memory c1: the sub-buffers consumed, given back" || diag "$ERR"
run lttng216 reclaim-memory -u -s rc nosuch
ok $((RC == 0)) "sid's lttng reclaim-memory of a channel that does not exist: refused" || diag "$OUT"
run lttng216 reclaim-memory -u -s rc --all
like "$RC:$OUT" "^0:Event record channel \`c1\`: [0-9]+ sub-buffers? reclaimed\$" "... --all: its one channel" ||
	diag "$ERR"
lttng216 destroy rc >/dev/null

# --- the shm path in 2.16's session list: what liblttng-ctl's
# lttng_get_session_shm_path_override() gives (sid's lttng start measures
# that file system against the buffers): STATUS:PATH of session $1
shm_of() {
	in_root env LTTNG_HOME="$LTTNG_HOME" python3 -c '
import ctypes, sys
class S(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 255), ("path", ctypes.c_char * 4096),
                ("enabled", ctypes.c_uint32), ("snapshot_mode", ctypes.c_uint32),
                ("live_timer_interval", ctypes.c_uint), ("extended", ctypes.c_void_p)]
lib = ctypes.CDLL("liblttng-ctl.so.0")
p = ctypes.POINTER(S)()
n = lib.lttng_list_sessions(ctypes.byref(p))
for i in range(max(n, 0)):
    if p[i].name.decode() == sys.argv[1]:
        d = ctypes.c_char_p()
        st = lib.lttng_get_session_shm_path_override(ctypes.byref(p[i]), ctypes.byref(d))
        print("%d:%s" % (st, d.value.decode() if st == 0 else ""))' "$1"
}
ok_cmd "sid's lttng create shm16 --shm-path" lttng216 create shm16 --shm-path "$TEST_TMP/shm16" -o "$TEST_TMP/o16"
like "$(shm_of shm16)" "^0:$TEST_TMP/shm16/shm16-[0-9]{8}-[0-9]{6}\$" \
	"liblttng-ctl 2.16: the shm path sid's lttng create set, as LTTng's client named it"
lttctl -q create shl --shm-path "$TEST_TMP/shml" -o "$TEST_TMP/ol" && lttctl -q enable-event -u -a -s shl &&
	lttctl -q start shl && ust_app -n 3 >/dev/null
ok $? "lttctl create shl --shm-path DIR, a program recorded"
sp=$(shm_of shl)
like "$sp" "^0:$TEST_TMP/shml/shl-[0-9]{8}-[0-9]{6}\$" "liblttng-ctl 2.16: ltt's session's shm path, DIR/NAME-DATE"
ok "$(find "${sp#0:}" -name metadata | grep -q .; echo $?)" "... where its buffers' files are" ||
	diag "$(find "$TEST_TMP/shml" | head)"
is "$(shm_of s2)" "1:" "liblttng-ctl 2.16: a session without one, unset"
lttctl -q destroy shl && lttng216 destroy shm16 >/dev/null

# --- what ltt lacks of 2.16, refused with LTTng's code
run lttng216 show-maps -s s2
like "$RC:$OUT" "^0:Nothing to show!" "sid's lttng show-maps of a session without map channels: nothing" ||
	diag "$OUT $ERR"

# --- map channels: sid's add-map-channel and incr-map-value triggers count
# in ltt's maps (doc/maps.md)
lttng216 create mp -o "$TEST_TMP/mp" >/dev/null
ok_cmd "sid's lttng add-map-channel --type=user (per user, 64-bit values)" \
	lttng216 add-map-channel --session=mp --type=user --value-type=signed-int-64 m1
ok_cmd "sid's lttng add-map-channel --type=user --buffer-ownership=process (32-bit values, 16 keys)" \
	lttng216 add-map-channel --session=mp --type=user --buffer-ownership=process \
	--value-type=signed-int-32 --max-key-count=16 m2
ok_cmd "sid's lttng add-map-channel without a name" lttng216 add-map-channel --session=mp --type=user
like "$(lttctl show-maps -s mp)" "Map channel channel0 \\(user, signed-int-64, 0 of 4096 keys, per user," \
	"... named channel0, as LTTng 2.16 names the first"
run lttng216 add-map-channel --session=mp --type=user --update-policy=per-rule-match m3
ok $((RC == 0)) "sid's lttng add-map-channel --update-policy=per-rule-match: refused" || diag "$OUT"
like "$(cat "$SESSIOND_LOG")" "does not serve the per-rule-match update policy" "... what ltt lacks named in the log"
run lttctl show-maps -s mp
like "$OUT" "Map channel m1 \\(user, signed-int-64, 0 of 4096 keys, per user," \
	"lttctl show-maps: m1 as sid's lttng asked it (LTTng's defaults: 4,096 keys, per user)" || diag "$OUT"
like "$OUT" "Map channel m2 \\(user, signed-int-32, 0 of 16 keys, per process," "... and m2"
# a recording channel too: LTTng lists map channels by domain
lttng216 enable-event -u 'ltt_test:*' -s mp >/dev/null
run lttng216 list mp
like "$OUT" "❬1 event record channel❭ ❬3 map channels❭" "sid's lttng list mp: the user domain's three map channels" ||
	diag "$OUT"
like "$OUT" "m1(.|
)*m2" "... m1 and m2"
ok_cmd "sid's lttng add-trigger --action=incr-map-value (key: the event's name)" \
	lttng216 add-trigger --name cnt --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value --type=user --session=mp --channel=m1 --key='n_{event_name}'
run lttng216 add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value --type=kernel --session=mp --channel=m1 --key=k
ok $((RC == 0)) "sid's lttng add-trigger: a user rule counting in a kernel map: refused" || diag "$OUT"
like "$(cat "$SESSIOND_LOG")" "an incr-map-value whose map's type is not its rule's domain" "... the log says why"
run lttng216 list-triggers
like "$OUT" "increment.*m1|m1.*increment|incr.*m1" "sid's lttng list-triggers: the incr-map-value action, in 2.16's layout" ||
	diag "$OUT"
like "$(lttctl list-triggers)" "incr-map-value" "lttctl lists the trigger's action"
lttng216 start mp >/dev/null
ust_app -n 700 >/dev/null
lttng216 stop mp >/dev/null
run lttctl show-maps -s mp --channel m1
like "$OUT" "n_ltt_test:seq +700 " "the map counts the program's 700 events" || diag "$OUT"
# sid's show-maps and export-maps read ltt's counters: the keys, the
# groups (root's, per user), the values CPU by CPU
run lttng216 show-maps -s mp --channel m1
like "$OUT" "User space map channel .m1.:(.|
)*n_ltt_test:seq +│ +700 │" "sid's lttng show-maps: m1's 700 under the event's key" ||
	diag "$OUT $ERR"
run lttng216 show-maps -s mp --channel m1 --per=owner
like "$OUT" "m1., user ID 0 \(.root.\) \(64-bit int\. values\)" "... --per=owner: root's group, named" ||
	diag "$OUT $ERR"
run lttng216 show-maps -s mp --channel m1 --per=cpu --key=n_ltt_test:seq
is "$(grep -c ', CPU [0-9]*:' <<<"$OUT"):$(awk -F'│' '/n_ltt_test:seq/ { s += $2 } END { print s }' <<<"$OUT")" \
	"$(getconf _NPROCESSORS_CONF):700" "... --per=cpu: a table per CPU, their counts summing to 700" || diag "$OUT $ERR"
run lttng216 export-maps -s mp
printf '%s\n' "$OUT" >"$TEST_TMP/mp.sql"
is "$(python3 -c 'import sqlite3, sys
db = sqlite3.connect(":memory:"); db.executescript(open(sys.argv[1]).read())
print(db.execute("SELECT group_type, owner_name, SUM(value) FROM vmap WHERE channel_name = ? AND key = ?",
                 ("m1", "n_ltt_test:seq")).fetchone())' "$TEST_TMP/mp.sql" 2>&1)" "('user-per-user', 'root', 700)" \
	"sid's lttng export-maps: SQLite's vmap sums m1's 700" || diag "$OUT $ERR"
# GET_MAP_CHANNEL_BY_NAME, through liblttng-ctl 2.16: a map, one of another type, none
is "$(in_root python3 -c 'import ctypes
l = ctypes.CDLL("liblttng-ctl.so.0"); p = ctypes.c_void_p()
f = l.lttng_session_get_map_channel_by_name
print(f(b"mp", 1, b"m1", ctypes.byref(p)), f(b"mp", 0, b"m1", ctypes.byref(p)), f(b"mp", 1, b"nope", ctypes.byref(p)))' 2>&1)" \
	"10 146 146" "lttng_session_get_map_channel_by_name(): m1 found, not as a kernel map, no such map (CHAN_NOT_FOUND)"
lttng216 remove-trigger cnt >/dev/null
lttng216 destroy mp >/dev/null

# --- LTTng 2.16 in the root counts the same binary (built there with
# LTTng-UST 2.16's headers) in the same map: sid's show-maps prints the
# same table from ltt's daemon and from LTTng's
A=$TEST_TMP/app216
mkdir -p "$A/lttng" "$A/ltt"
ltt_ust_lib
cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{blob_app.c,blob_tp.h} "$A/"
# maps.sh DIR APP...: a map counting t16:* by event, APP run, show-maps into DIR/show
cat >"$A/maps.sh" <<'MAPS'
lttng create mq -o "$1/mq" >/dev/null && lttng add-map-channel --session=mq --type=user m >/dev/null &&
	lttng add-trigger --name q --condition=event-rule-matches --type=user --name='t16:*' \
		--action=incr-map-value --type=user --session=mq --channel=m --key='k_{event_name}' >/dev/null &&
	lttng start mq >/dev/null || exit 1
dir=$1
shift
"$@" >/dev/null && lttng stop mq >/dev/null && lttng show-maps -s mq >"$dir/show"
rc=$?
lttng remove-trigger q >/dev/null
lttng destroy mq >/dev/null
exit $rc
MAPS
in_root sh -c 'cd "$1" && cc -I. -o blob_app blob_app.c -llttng-ust -ldl' sh "$A" >"$A/build.log" 2>&1 &&
	ROOT_RUN=$TEST_TMP/lttng-run in_root sh -c 'export HOME="$1" LTTNG_UST_REGISTER_TIMEOUT=-1
		lttng-sessiond -b --no-kernel >/dev/null 2>&1 || exit 1
		sh "$1/maps.sh" "$1/lttng" "$1/blob_app" 250
		rc=$?
		kill "$(cat /run/lttng/lttng-sessiond.pid)"
		exit $rc' sh "$A" >"$A/lttng.log" 2>&1
ok $? "LTTng 2.16 counted blob_app's events in its own map (its daemon in the sid root)" ||
	diag "$(cat "$A/build.log" "$A/lttng.log")"
in_root env LTTNG_HOME="$LTTNG_HOME" LTT_HOME="$LTT_HOME" LTT_RUNDIR="$LTT_RUNDIR" \
	sh "$A/maps.sh" "$A/ltt" env LD_LIBRARY_PATH="$LTT_LIB" LTT_UST_REGISTER_TIMEOUT=5000 \
	"$A/blob_app" 250 >"$A/ltt.log" 2>&1
ok $? "ltt counted the same binary's events through sid's lttng (on ltt's liblttng-ust.so.1)" ||
	diag "$(cat "$A/ltt.log")"
is "$(diff "$A/lttng/show" "$A/ltt/show")$(grep -c '│ *250 │' "$A/ltt/show")" 2 \
	"sid's show-maps: ltt's table is LTTng 2.16's (k_t16:blob and k_t16:ints, 250 each)" ||
	diag "$(cat "$A/lttng/show" "$A/ltt/show")"

# --- 2.13's clients, the same daemon, the same sessions
run lttng list
is "$(grep -cE '^  [0-9]\) (s13|s2) ' <<<"$OUT")" 2 "Debian 12's lttng list: s13 and s2, the 2.16 client's" ||
	diag "$OUT"
ok_cmd "Debian 12's lttng destroy -a" lttng destroy -a
