#!/bin/bash
# A stalled (SIGSTOPped, not dead) kernel consumer loses nothing
# (scenarios kernel_meta_stalled, kernel_rotate_stalled).
#
#   kernel_meta_stalled  two new kernel events enabled while the consumer
#        is stopped: the first's metadata is sent (its reply late), the
#        second finds the consumer owing that reply and waits in the
#        daemon; both enable-events succeed and their events are recorded
#        at once.  kms: after SIGCONT the daemon sends the waiting text
#        without a command, stop succeeds, babeltrace2 reads every event.
#        kms2: stop while stalled fails (CONSUMERD_STALLED) and destroy
#        refuses; after SIGCONT the daemon has the consumer write the
#        metadata and the flush the stop could not, then destroy.  In
#        each, recorded + discarded = emitted, exactly.
#   kernel_rotate_stalled  the consumer stops on a rotation's ROTATE_TRACE:
#        the rotation is taken as done later (ROTATE_LATE), stop fails and
#        destroy refuses while the move is owed; after SIGCONT destroy
#        archives every chunk: each event in exactly one archive.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_meta_stalled kernel_rotate_stalled
plan 36

stalled='did not answer in time'


s=kernel_meta_stalled
kvm_scenario_ok $s
emitted=$(kvm_file $s emitted)
for t in kms kms2; do
	is "$(kvm_file $s $t.enable_logger.rc):$(kvm_file $s $t.enable_d.rc)" 0:0 \
		"$t: both enable-events succeed while the consumer is stopped"
	[ "$(kvm_file $s $t.enable_d.rc)" = 0 ] || diag "$(kvm_file $s $t.enable_d)"
	ok "$([ "$(kvm_file $s $t.waits)" -ge 1 ] 2>/dev/null; echo $?)" \
		"$t: the second's metadata waits in the daemon (its log says so)"
done
is "$(kvm_file $s kms.classes_stalled)" 1 "kms: while stalled, the trace's metadata file has the first event class only"
is "$(kvm_file $s kms.classes)" 3 "kms: after SIGCONT, the daemon sent the metadata that waited, without a command"
is "$(kvm_file $s kms.stop.rc)" 0 "kms: stop succeeds"
[ "$(kvm_file $s kms.stop.rc)" = 0 ] || diag "$(kvm_file $s kms.stop)"
kvm_counts $s kms
is "$RC" 0 "kms: babeltrace2 reads the trace (every event class described)"
l=$(kvm_discarded $s kms.list)
is "$((TEST_N + LOGGER_N + l))" "$emitted" \
	"kms: recorded $TEST_N + $LOGGER_N + discarded $l == $emitted emitted, exactly"
is "$LOGGER_N" 50 "kms: the 50 ltt_logger lines written while the consumer was stopped"
is "$(kvm_file $s kms.destroy.rc)" 0 "kms: destroy"

like "$(kvm_file $s kms2.stop.rc):$(kvm_file $s kms2.stop)" "^1:.*$stalled" \
	"kms2: stop while the consumer is stopped fails with the reason"
like "$(kvm_file $s kms2.destroy_stalled.rc):$(kvm_file $s kms2.destroy_stalled)" "^1:.*$stalled" \
	"kms2: destroy refuses while the consumer owes a reply"
like "$(kvm_file $s kms2.list_stalled)" 'kms2.*\[inactive\]' "kms2: the session is kept, stopped"
is "$(kvm_file $s kms2.settled)" 0 \
	"kms2: after SIGCONT the daemon has the consumer do the flush the stop owed, without a command"
is "$(kvm_file $s kms2.destroy.rc)" 0 "kms2: then destroy"
kvm_counts $s kms2
is "$RC" 0 "kms2: babeltrace2 reads the trace"
l=$(kvm_discarded $s kms2.list)
is "$((TEST_N + LOGGER_N + l))" "$emitted" \
	"kms2: recorded $TEST_N + $LOGGER_N + discarded $l == $emitted emitted, exactly"
is "$LOGGER_N" 50 "kms2: the 50 ltt_logger lines"
is "$(grep -c 'metadata not written' "$KVM_OUT/$s/sessiond.log")" 0 "no metadata text dropped"
kvm_kernel_clean $s

s=kernel_rotate_stalled
kvm_scenario_ok $s
emitted=$(kvm_file $s emitted)
like "$(kvm_file $s rotate.rc):$(kvm_file $s rotate)" '^1:.*move to the new trace chunk once it runs again' \
	"the rotation ends with the move taken as done later"
is "$(kvm_file $s consumer_stopped)" 0 "the consumer stopped on ROTATE_TRACE (its fault point)"
like "$(kvm_file $s stop.rc):$(kvm_file $s stop)" "^1:.*$stalled" "stop fails: the consumer is stalled"
like "$(kvm_file $s destroy_stalled.rc):$(kvm_file $s destroy_stalled)" "^1:.*$stalled" \
	"destroy refuses: the consumer still owes the move"
like "$(kvm_file $s list_stalled)" 'krs.*\[inactive\]' "the session is still there, stopped"
grep -q "session 'krs': not destroyed: a rotation's move waits" "$KVM_OUT/$s/sessiond.log"
ok $? "the daemon's log says why"
is "$(kvm_file $s settled)" 0 "after SIGCONT the daemon has the consumer do the flush the stop owed"
is "$(kvm_file $s destroy.rc)" 0 "then destroy archives the chunks"
trace=$KVM_OUT/$s/trace
ok "$([ -z "$(find "$trace" -mindepth 1 -maxdepth 1 ! -name archives)" ]; echo $?)" \
	"every chunk archived: $(ls "$trace" | tr '\n' ' ')"
bad=0 n=0
: >"$TEST_TMP/all"
for d in "$trace"/archives/*/; do
	n=$((n + 1))
	babeltrace2 "$d" >"$TEST_TMP/one" 2>"$TEST_TMP/one.err" ||
		{ bad=$((bad + 1)); diag "$d: $(head -2 "$TEST_TMP/one.err")"; }
	cat "$TEST_TMP/one" >>"$TEST_TMP/all"
done
is "$n:$bad" "2:0" "two archives (before and after the rotation), each read alone"
# the two bursts number their events from 0: seq < N2 twice, the others once
grep ' ltt_test_event: ' "$TEST_TMP/all" | grep -o 'seq = [0-9]*' | sed 's/seq = //' | sort -n |
	uniq -c | awk -v n2="$(kvm_file $s n2)" '$1 > ($2 < n2 ? 2 : 1)' >"$TEST_TMP/dups"
is "$(wc -l <"$TEST_TMP/dups")" 0 "no event in two archives"
recorded=$(grep -c ' ltt_test_event: ' "$TEST_TMP/all")
l=$(kvm_discarded $s list)
is "$((recorded + l))" "$emitted" "recorded $recorded + discarded $l == $emitted emitted, exactly"
kvm_kernel_clean $s

done_testing
