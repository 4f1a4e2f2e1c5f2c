#!/bin/bash
# test_kernel_tracefs_refused.sh - the consumer can't make a kernel
# trace's directory at the session's first start (OUTPUT/kernel is a
# file): start fails with OUTPUT_CREATE, whose sentence says what is wrong
# and what to do, not the tracer's "could not apply the change" with the
# reason in the daemon's log only; the session stays stopped with no
# ftrace instance left; once the file is gone the same session starts and
# records a known load whole.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 12
N=300
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
spid=$(sessiond_pid)
instances() { ls "$tfs/instances" | grep -c "^ltt-$spid-" || true; }

ok_cmd "create k" lttctl create k -o "$TEST_TMP/k"
lttctl -q enable-event -k --syscall getppid -s k &&
	lttctl -q add-context -k -t tid -s k
ok $? "a getppid rule with the tid context"
mkdir "$TEST_TMP/k" && touch "$TEST_TMP/k/kernel"
run lttctl start k
is "$RC" 1 "start with OUTPUT/kernel a file: exit 1"
like "$ERR" "^Error: session 'k': .*the output directory can't be created: .*a part of it is not a directory" \
	"start: the output can't be made, in its own words (OUTPUT_CREATE), not the tracer's failure"
like "$(cat "$LOG")" "trace $TEST_TMP/k/kernel: can't create the directory: Not a directory" \
	"the log: the directory the consumer could not make, and why"
like "$(lttctl list k)" "^Session k .* \\[inactive\\]" "k stays stopped"
is "$(instances)" 0 "no ftrace instance left behind"

rm "$TEST_TMP/k/kernel"
ok_cmd "start k once the file is gone" lttctl start k
is "$(instances)" 1 "one ftrace instance while k records"
"$KLOAD" getppid $N >"$TEST_TMP/getppid" || echo "Bail out! kload getppid failed"
ok_cmd "stop k" lttctl stop k
tid=$(sed -n 's/^tid //p' "$TEST_TMP/getppid")
is "$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/k" 2>/dev/null |
	grep -c " syscall_entry_getppid: .*{ tid = $tid }")" $N "all $N getppid entries recorded"

term_sessiond
done_testing
