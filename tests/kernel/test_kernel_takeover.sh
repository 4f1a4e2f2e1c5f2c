#!/bin/bash
# A kernel consumer SIGKILLed during a burst of test events is replaced at
# once and the new one takes the trace over (scenario kernel_consumer_kill):
# the same files continued, no packet written twice, stop succeeds, and
# recorded + counted lost = emitted, exactly.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_consumer_kill kernel_consumer_held
plan 24

s=kernel_consumer_kill
kvm_scenario_ok $s
emitted=$(kvm_file $s emitted)
kills=$(kvm_file $s kills)
is "$kills" 3 "the consumer was SIGKILLed 3 times while the burst ran"
is "$(kvm_file $s burst_rc)" 0 "the burst emitted its $emitted events"
ok $([ ! -e "$KVM_OUT/$s/no_new_consumer" ] && [ -n "$(kvm_file $s consumer_3)" ] &&
	echo 0 || echo 1) "a new consumer was running after each kill"
is "$(grep -c 'kernel trace .*: taken over by the new consumer daemon' \
	"$KVM_OUT/$s/sessiond.log")" "$kills" "the daemon says each takeover"
is "$(kvm_file $s stop.rc)" 0 "stop succeeds after the takeovers"
[ "$(kvm_file $s stop.rc)" = 0 ] || diag "$(kvm_file $s stop)"

run timeout "$BT_TIMEOUT" babeltrace2 "$KVM_OUT/$s/trace/kernel"
is "$RC" 0 "babeltrace2 reads the trace written by $((kills + 1)) consumers"
[ "$RC" = 0 ] || diag "$ERR"
recorded=$(grep -c ' ltt_test_event: ' <<<"$STDOUT")
# each chunk numbers its events from 0: an event twice has its timestamp
# and its number twice
twice=$(sed -n 's/^\(\[[^]]*\]\).* ltt_test_event: .*{ seq = \([0-9]*\),.*/\1 \2/p' <<<"$STDOUT" |
	sort | uniq -d | wc -l)
is "$twice" 0 "no event twice ($recorded recorded)"
lost=$(sed -n 's/^ *discarded events: //p' "$KVM_OUT/$s/list")
like "$lost" '^[0-9]+$' "list shows the channel's discarded events"
is $((recorded + ${lost:-0})) "$emitted" \
	"recorded $recorded + discarded ${lost:-?} == $emitted emitted, exactly"
packets=$(sed -n 's/^ *lost packets: //p' "$KVM_OUT/$s/list")
is "${packets:-0}" 0 "no packet lost (read again, or refused as written already)"
grep -q 'held by a consumer that died' "$KVM_OUT/$s/sessiond.log" "$KVM_OUT/$s/log" 2>/dev/null &&
	diag "a packet held by a dead consumer was read again"
kvm_kernel_clean $s

# --- killed while it holds a packet it could not write (full file system)
s=kernel_consumer_held
kvm_scenario_ok $s
emitted=$(kvm_file $s emitted)
ok $([ ! -e "$KVM_OUT/$s/no_failure" ] && echo 0 || echo 1) \
	"the consumer failed to write a packet (its file system full) and kept it"
ok $([ ! -e "$KVM_OUT/$s/no_takeover" ] && echo 0 || echo 1) "a new consumer took the trace over"
ok $([ ! -e "$KVM_OUT/$s/not_taken_back" ] && echo 0 || echo 1) \
	"it took back the packet the dead one held (GET_HELD_SUBBUF)"
like "$(kvm_file $s stop1)" "can't write its trace under /mnt/small/trace since .*No space left on device" \
	"stop while the file system is full says why"
is "$(kvm_file $s start2.rc)" 0 "once space is freed, start succeeds"
is "$(kvm_file $s stop2.rc)" 0 "and stop"
run timeout "$BT_TIMEOUT" babeltrace2 "$KVM_OUT/$s/trace/kernel"
is "$RC" 0 "babeltrace2 reads the trace"
[ "$RC" = 0 ] || diag "$ERR"
recorded=$(grep -c ' ltt_test_event: ' <<<"$STDOUT")
distinct=$(grep -o 'seq = [0-9]*' <<<"$STDOUT" | sort -u | wc -l)
is "$distinct" "$recorded" "no event twice ($recorded recorded)"
ok $([ "$(grep -c 'seq = 0,' <<<"$STDOUT")" = 1 ] && echo 0 || echo 1) \
	"the held packet's first event is in the trace"
lost=$(sed -n 's/^ *discarded events: //p' "$KVM_OUT/$s/list")
is $((recorded + ${lost:-0})) "$emitted" \
	"recorded $recorded + discarded ${lost:-?} == $emitted emitted, exactly"
kvm_kernel_clean $s
done_testing
