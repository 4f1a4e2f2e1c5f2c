#!/bin/bash
# test_kernel_tracefs_probe_trigger.sh - probe rules in triggers (LTTng's
# add-trigger --type=kernel:uprobe, kernel:kprobe), natively through
# tracefs: the probe is placed for the trigger's notifier by the one path
# that places a session's (kernel-probe.c), in uprobe_events.
#
# A uprobe trigger on uprobe_prog's uprobe_target with a notify action:
# listed as LTTng 2.13 lists it (text and MI); the program calls the
# function N times and a notification client (lttctl wait-trigger
# --count N) receives N notifications, the trigger's counters saying
# fired + dropped = N; removed, its probe leaves uprobe_events.  A
# missing function or file is refused at add-trigger, nothing added nor
# placed; LTTng's misuses in LTTng's words (--name, --filter with a
# probe, no --location).  On a kernel without kprobe_events (this
# host's), a kprobe trigger is refused with the sentence that says so,
# nothing added.  Save and load keep a probe trigger (one saved with its
# session: a start-session action).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
uprobe_setup 36
N=200

tracefs_sessiond "$TEST_TMP/sessiond.log"
ok $? "a root daemon with --kernel-backend=tracefs started"
spid=$(sessiond_pid)
# ours: the probes of our daemon defined in uprobe_events
ours() {
	grep -c ":ltt_$spid/" "$tfs/uprobe_events" 2>/dev/null || true
}

# --- kprobes: this host's kernel has no kprobe_events
if [ ! -e "$tfs/kprobe_events" ]; then
	run lttctl add-trigger --name kt --condition=event-rule-matches --type=kernel:kprobe \
		--location=do_sys_open --event-name=kt --action=notify
	is "$RC" 1 "a kprobe trigger on a kernel without kprobe_events: exit 1"
	like "$ERR" "placed through tracefs' kprobe_events, which this kernel lacks" "... saying so"
	is "$(lttctl list-triggers)" "" "... nothing added"
else
	skip 3 "this kernel has kprobe_events"
fi

# --- LTTng's misuses, in its words; nothing reaches the daemon
run lttctl add-trigger --condition event-rule-matches --type=kprobe --location=do_sys_open \
	--name=hello --action notify
is "$ERR" "Error: Can't use --name with kernel kprobe event rules." "--name with a kprobe: LTTng's words"
run lttctl add-trigger --condition event-rule-matches --type=kernel:uprobe --event-name=x \
	--action notify
is "$ERR" "Error: Event rule of type kernel uprobe requires a --location." "no --location: LTTng's words"
run lttctl add-trigger --condition event-rule-matches --type=kernel:uprobe \
	--location="$PROG:uprobe_target" --filter='a == 1' --action notify
is "$ERR" "Error: Filter expressions are not supported for kernel uprobe event rules." \
	"--filter with a probe: LTTng's words"
run lttctl add-trigger --condition event-rule-matches --type=user --location=hello --action notify
is "$ERR" "Error: Can't use --location with user tracepoint event rules." \
	"--location with a user rule: LTTng's words"
run lttctl add-trigger --condition event-rule-matches --type=kernel:uprobe \
	--location="$PROG:uprobe_target" hello --action notify
is "$ERR" "Error: Unexpected argument 'hello'" "an extra argument: LTTng's words"

# --- refusals of the daemon: a missing function or file, nothing added nor placed
run lttctl add-trigger --name u0 --condition=event-rule-matches --type=kernel:uprobe \
	--location="$PROG:no_such_function" --action=notify
is "$RC" 1 "a missing function: exit 1"
like "$ERR" "no such probe point" "... saying so"
run lttctl add-trigger --name u0 --condition=event-rule-matches --type=kernel:uprobe \
	--location="elf:$TEST_TMP/nothing:main" --action=notify
is "$RC" 1 "a missing file: exit 1"
is "$(lttctl list-triggers)" "" "the refusals added nothing"
is "$(ours)" 0 "... and placed nothing in uprobe_events"

# --- a uprobe trigger fires once per call
ok_cmd "a uprobe trigger on uprobe_target" lttctl add-trigger --name up \
	--condition=event-rule-matches --type=kernel:uprobe --location="$PROG:uprobe_target" \
	--event-name=target --action=notify
is "$(ours)" 1 "its probe is placed in uprobe_events"
is "$(lttctl list-triggers)" "$(uprobe_trigger_listing up target uprobe_target)" \
	"listed as LTTng lists it"
mi=$(lttctl --mi xml list-triggers | tr -d " \n")
like "$mi" "<event_rule_kernel_uprobe><event_name>target</event_name><userspace_probe_location><userspace_probe_location_function><name>uprobe_target</name><binary_path>$PROG</binary_path><instrumentation_type>ENTRY</instrumentation_type><userspace_probe_location_lookup_method><userspace_probe_location_lookup_method_function_elf/>" \
	"its MI: LTTng's event_rule_kernel_uprobe" || diag "$mi"
ok_cmd "the location spelled elf:PATH:FUNCTION is taken too" lttctl add-trigger --name up2 \
	--condition=event-rule-matches --type=kernel:uprobe --location="elf:$PROG:uprobe_target" \
	--event-name=target2 --action=notify
ok_cmd "... and removed" lttctl remove-trigger up2

timeout "$TEST_TIMEOUT" "$LTTCTL_BIN" wait-trigger up --count "$N" --timeout "$TEST_TIMEOUT" \
	>"$TEST_TMP/up.out" 2>"$TEST_TMP/up.err" &
waiter=$!
# (wait_fs: its exit, a zombie until reaped, closes the file it writes)
wait_fs "$TEST_TMP/up.err" -- bash -c 'grep -q "^Waiting for trigger" "$0" 2>/dev/null ||
	! grep -q "^State:[[:space:]]*[^Z]" "/proc/$1/status" 2>/dev/null' "$TEST_TMP/up.err" "$waiter"
deadline=$((SECONDS + TEST_TIMEOUT))
like "$(cat "$TEST_TMP/up.err")" "^Waiting for trigger up" "a notification client is subscribed"
run "$PROG" "$N"
is "$RC" 0 "the program called uprobe_target $N times"
# every record read once the reader drained what ftrace holds (bounded)
until [ "$(($(trigger_count up fired) + $(trigger_count up dropped)))" -ge "$N" ] ||
	[ $SECONDS -ge $deadline ]; do :; done
fired=$(trigger_count up fired) dropped=$(trigger_count up dropped)
is "$((fired + dropped))" "$N" "fired ($fired) + dropped ($dropped) = the $N calls"
wait $waiter
wrc=$?
got=$(grep -c "^Trigger up fired" "$TEST_TMP/up.out" || true)
if [ "$dropped" = 0 ]; then
	is "$wrc:$got" "0:$N" "the client received $N notifications, one per call"
else
	ok "$([ "$got" -le "$N" ] && [ $((got + dropped)) -ge "$N" ]; echo $?)" \
		"the client received $got notifications, $dropped counted lost: none unseen"
fi
like "$(head -n 1 "$TEST_TMP/up.out")" "^Trigger up fired \(#1\): event target, pid [0-9]+" \
	"a notification names the probe's event" || diag "$(head -n 1 "$TEST_TMP/up.out")"

ok_cmd "remove up" lttctl remove-trigger up
is "$(ours)" 0 "its probe left uprobe_events"
is "$(lttctl list-triggers)" "" "no trigger left"

# --- save and load keep a probe trigger saved with its session (its action's)
lttctl -q create s -o "$TEST_TMP/s"
ok_cmd "a uprobe trigger starting session s" lttctl add-trigger --name us \
	--condition=event-rule-matches --type=kernel:uprobe --location="$PROG:uprobe_target" \
	--event-name=target --action=start-session s
ok_cmd "save s (its trigger with it)" lttctl save s -o "$TEST_TMP/save"
lttctl -q remove-trigger us && lttctl -q destroy s
is "$(ours)" 0 "removed: its probe left uprobe_events"
ok_cmd "load s" lttctl load -i "$TEST_TMP/save/s.ltt" s
like "$(lttctl list-triggers)" "rule: target \\(type: kernel:uprobe, location type: ELF, location: $PROG:uprobe_target\\)" \
	"the loaded trigger's probe rule is the saved one"
is "$(ours)" 1 "... its probe placed again"
lttctl -q destroy s
stop_sessiond
ok $? "the daemon stops"
is "$(ours)" 0 "... and leaves no probe in uprobe_events"
