#!/bin/bash
# test_kernel_tracefs_map.sh - kernel map channels (add-map-channel
# --type=kernel) through the tracefs kernel backend, which counts with
# ftrace's histogram triggers.  On a kernel without them (this
# development machine's: no events/*/*/hist, CONFIG_HIST_TRIGGERS off):
# refused at add-map-channel in one sentence that says what ltt lacks and
# what to do, exit 1, nothing added (show-maps, list-triggers, no ftrace
# instance made), the daemon's log naming the kernel's missing hist
# files.  Where the kernel has them, counting is tested in Debian's
# kernel: tests/kernel/test_kernel_map.sh.  Also without a kernel domain
# at all (the personal daemon): refused with the kernel domain's reason.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
tfs=${tfs:-/sys/kernel/tracing}
if [ "$(id -u)" = 0 ] && ls "$tfs"/events/*/*/hist >/dev/null 2>&1; then
	skip_all "this kernel has histogram triggers: tests/kernel/test_kernel_map.sh counts with them"
fi
tracefs_setup 11

instances() { ls "$tfs/instances" 2>/dev/null | grep -c '^ltt-'; }
lttctl -q create m --no-output
before=$(instances)
run lttctl add-map-channel --type=kernel -s m km
is "$RC" 1 "--type=kernel without histogram triggers: exit 1"
like "$ERR" "ltt keeps kernel map channels with ftrace's histogram triggers.*CONFIG_HIST_TRIGGERS" \
	"... one sentence saying what ltt lacks and what to do"
run lttctl show-maps -s m
like "$RC:$OUT" "^0:Session m has no map channel" "nothing was added"
is "$(instances)" "$before" "no ftrace instance was made"
like "$(cat "$LOG")" "kernel map channel km refused: .*no events/\\*/\\*/hist in tracefs: CONFIG_HIST_TRIGGERS is off" \
	"the daemon's log says what the kernel lacks"
run lttctl add-trigger --name c --condition=event-rule-matches --type=kernel:syscall \
	--name=getppid --action=incr-map-value -s m --map km --key '{event_name}'
like "$RC:$OUT" "^1:.*no map channel of that name" "a counting kernel trigger without its map: refused"
lttctl -q add-map-channel --type=user -s m um
run lttctl add-trigger --name c --condition=event-rule-matches --type=kernel:syscall \
	--name=getppid --action=incr-map-value -s m --map um --key '{event_name}'
like "$RC:$OUT" "^1:.*a kernel rule in a --type=kernel map" "a kernel rule counting in a user map: refused"
run lttctl list-triggers
unlike "$OUT" "trigger \`c\`|name: c$" "no trigger was added"
run lttctl add-map-channel --type=kernel --buffer-ownership=process -s m km
like "$RC:$OUT" "^2:.*are for user-space maps" "--type=kernel with --buffer-ownership: a usage error"
lttctl -q destroy m
stop_sessiond

# a personal daemon has no kernel domain: its reason
export LTT_RUNDIR=$TEST_TMP/personal
start_sessiond "$LTT_RUNDIR" --no-kernel >/dev/null 2>&1
lttctl -q create p --no-output
run lttctl add-map-channel --type=kernel -s p km
like "$RC:$ERR" "^1:.*kernel tracing (is disabled|needs)" \
	"--type=kernel without a kernel domain: refused with its reason"
done_testing
