#!/bin/bash
# test_lttng_compat_probe_trigger.sh - Debian's lttng adds a user-space
# probe trigger (add-trigger --type=kernel:uprobe) to ltt-sessiond
# --lttng-compat: LTTng's kernel_uprobe event rule decoded (its binary's
# descriptor read past: ltt opens the path with the client's rights), the
# probe placed in uprobe_events for the trigger's notifier; lttng
# list-triggers prints it as LTTng prints it (text and MI), lttctl lists
# the same trigger; the program's N calls fire it N times (fired +
# dropped = N); lttng remove-trigger removes the probe.  An SDT probe's
# rule is listed too, its binary's descriptor passed, and 20 probe
# triggers are listed, their 20 descriptors passed.  A kprobe
# trigger on a kernel without kprobe_events (this host's) is refused,
# nothing added.  Root, tracefs, in its own mount namespace
# (/var/run/lttng), as test_lttng_compat_kfilter.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
[ -w "${tfs:-/sys/kernel/tracing}/uprobe_events" ] || skip_all "needs a kernel with uprobe_events"
test_init
kernel_lock
LOG="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv --lttng-compat \
	--kernel-backend=tracefs </dev/null >/dev/null 2>"$LOG" ||
	{ echo "Bail out! the session daemon did not start"; exit 1; }
plan 20
spid=$(sessiond_pid)
ours() {
	grep -c ":ltt_$spid/" "$tfs/uprobe_events" 2>/dev/null || true
}

lttng_client
PROG="$LTT_TOP_BUILDDIR/tests/regression/uprobe_prog"
[ -x "$PROG" ] || { echo "Bail out! $PROG not built"; exit 1; }
PROG=$(readlink -f "$PROG")
N=100

run lttng add-trigger --name up --condition event-rule-matches --type=kernel:uprobe \
	--location="$PROG:uprobe_target" --event-name=target --action notify
is "$RC:$STDOUT" "0:Added trigger \`up\`." "lttng add-trigger --type=kernel:uprobe: added" ||
	diag "$OUT" "$(tail -5 "$LOG")"
is "$(ours)" 1 "... its probe placed in uprobe_events"
run lttng list-triggers
is "$STDOUT" "$(uprobe_trigger_listing up target uprobe_target)" \
	"lttng list-triggers prints it as LTTng prints it" || diag "$OUT"
mi=$(lttng --mi xml list-triggers | tr -d ' \n')
like "$mi" "<event_rule_kernel_uprobe><event_name>target</event_name><userspace_probe_location><userspace_probe_location_function><name>uprobe_target</name><binary_path>$PROG</binary_path>" \
	"... and its MI" || diag "$mi"
like "$(lttctl list-triggers)" "rule: target \\(type: kernel:uprobe, location type: ELF, location: $PROG:uprobe_target\\)" \
	"lttctl lists the same trigger"

run "$PROG" "$N"
is "$RC" 0 "the program called uprobe_target $N times"
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(($(trigger_count up fired) + $(trigger_count up dropped)))" -ge "$N" ] ||
	[ $SECONDS -ge $deadline ]; do :; done
fired=$(trigger_count up fired) dropped=$(trigger_count up dropped)
is "$((fired + dropped))" "$N" "fired ($fired) + dropped ($dropped) = the $N calls"

run lttng remove-trigger up
is "$RC:$STDOUT" "0:Removed trigger \`up\`." "lttng remove-trigger up" || diag "$OUT"
is "$(ours)" 0 "... its probe left uprobe_events"

# an SDT probe's rule: listed with its binary's descriptor, as LTTng's daemon lists it
run lttng add-trigger --name us --condition event-rule-matches --type=kernel:uprobe \
	--location="sdt:$PROG:ltt_test:plain" --event-name=plain --action notify
is "$RC:$STDOUT" "0:Added trigger \`us\`." "lttng add-trigger of an SDT probe: added" || diag "$OUT"
like "$(lttng list-triggers)" "rule: plain \\(type: kernel:uprobe, location type: SDT, location: $PROG:ltt_test:plain\\)" \
	"... lttng list-triggers prints it as LTTng prints it"
run lttng remove-trigger us
is "$RC:$(ours)" "0:0" "... lttng remove-trigger removes it and its probe" || diag "$OUT"

# more probe triggers than 16 (a reply passed at most 16 descriptors, and
# the others were left out of lttng's listing, said only in the log):
# each listed with its binary's descriptor, as LTTng's daemon passes up
# to 253 in one reply
for i in $(seq 1 20); do
	lttng add-trigger --name "p$i" --condition event-rule-matches --type=kernel:uprobe \
		--location="$PROG:uprobe_target" --event-name=target --action notify >/dev/null
done
is "$(lttctl list-triggers | grep -c '^- name: p[0-9]')" 20 "20 probe triggers added"
run lttng list-triggers
is "$RC:$(grep -c '^- name: p[0-9]' <<<"$STDOUT")" "0:20" "lttng list-triggers lists the 20" ||
	diag "$(tail -3 "$LOG")"
unlike "$(cat "$LOG")" "not listed to LTTng's clients" "... the daemon's log leaves none out"
for i in $(seq 1 20); do lttng remove-trigger "p$i" >/dev/null; done
is "$(ours)" 0 "... removed, their probes with them"

if [ ! -e "$tfs/kprobe_events" ]; then
	run lttng add-trigger --name kt --condition event-rule-matches --type=kernel:kprobe \
		--location=do_sys_open --event-name=kt --action notify
	ok "$([ "$RC" != 0 ]; echo $?)" "a kprobe trigger on a kernel without kprobe_events: refused (status $RC)" ||
		diag "$OUT"
	like "$OUT" "Error: Failed to register trigger: Enable kernel event failed\." \
		"... with LTTng's KERN_ENABLE_FAIL, as its daemon refuses a probe it can't place"
	like "$(cat "$LOG")" "kprobe_events" "... the daemon's log names kprobe_events"
	is "$(lttctl list-triggers)" "" "... nothing added"
else
	skip 4 "this kernel has kprobe_events"
fi
