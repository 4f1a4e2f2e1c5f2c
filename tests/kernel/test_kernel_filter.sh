#!/bin/bash
# Filters and exclusions in the kernel domain (scenario kernel_filter):
# exact counts of the test probe's 1000 events under each operator family,
# $ctx fields, two rules ORed, an exclusion, a rule changed while it
# records; the refusals of what the kernel can't evaluate; list, MI and
# save/load; the tracer's own validation of hostile programs through the
# raw ABI (none taken that src/common's validator refuses, no oops), a
# filter swapped while the event fires, and the probe's cost.
# The mutants and the cost figures take a while under TCG.
KVM_SCENARIO_TIMEOUT=${KVM_SCENARIO_TIMEOUT:-300}
KVM_TIMEOUT=${KVM_TIMEOUT:-420}
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_filter
plan 44

s=kernel_filter
kvm_scenario_ok $s

# count SESSION EVENT: EVENT's events in SESSION's kernel trace
count() {
	babeltrace2 "$KVM_OUT/$s/$1/kernel" 2>/dev/null | grep -c " $2: "
}
is "$(kvm_file $s enable_fa.rc)" 0 "enable-event -k --filter is accepted"
is "$(count fa ltt_test_event)" 100 "seq < 100: 100 events"
is "$(count fb ltt_test_event)" 499 "value >= 0 && (flags & 1) == 1: 499 (odd seq from 3)"
is "$(count fc ltt_test_event)" 111 "name == \"ltt-test-1*\": 111 (1, 10-19, 100-199)"
is "$(count fd ltt_test_event)" 21 "!(seq >= 10) || tag == \"t99*\": 21 (an array of text)"
is "$(count fe ltt_test_event)" 3 "bytes[1] == 8: 3 (a sequence index, out of bounds rejects)"
is "$(count ff ltt_test_event)" 10 "two rules, seq < 5 and seq >= 995, ORed: 10"
is "$(count fg ltt_test_event)" 10 "neg == -50 and \$ctx procname, vtid, vpid, pid, tid, cpu_id, vuid: 10"
is "$(count fh ltt_test_event)" 1000 "'ltt_*' -x ltt_logger: the 1000 test events"
is "$(count fh ltt_logger)" 0 "... and no ltt_logger"
is "$(count fi ltt_test_event)" 1000 "a rule without filter beside one with: every event"
is "$(count fj ltt_test_event)" 9 "(seq ^ 1) << 1 == 6 || (seq >> 3) == 100: 9"
is "$(count fl ltt_test_event)" 40 "a rule added then one disabled while recording: 10 + 20 + 10"
is "$(count fm ltt_test_event)" 0 "a field the event lacks: the rule takes no event"
is "$(count fn ltt_logger)" 1 "exclusion and filter together: the logger's line"
is "$(count fn ltt_test_event)" 0 "... and none of the excluded event"
babeltrace2 "$KVM_OUT/$s/fa/kernel" 2>/dev/null | grep -o 'seq = [0-9]*' | cut -d' ' -f3 | sort -n |
	uniq >"$TEST_TMP/fa.seqs"
is "$(head -1 "$TEST_TMP/fa.seqs") $(tail -1 "$TEST_TMP/fa.seqs") $(wc -l <"$TEST_TMP/fa.seqs")" \
	"0 99 100" "fa: exactly seq 0..99"
sched=$(babeltrace2 "$KVM_OUT/$s/fk/kernel" 2>/dev/null)
ok $([ "$(grep -c ' sched_switch: ' <<<"$sched")" -gt 0 ] && echo 0 || echo 1) \
	"'sched_*' --filter 'prev_tid == 1 || next_comm == \"ltt*\"': sched_switch events"
is "$(grep ' sched_switch: ' <<<"$sched" | grep -v 'prev_tid = 1,' | grep -vc 'next_comm = "ltt')" 0 \
	"... each with prev_tid 1 or a next_comm starting with ltt"
is "$(grep -c ' sched_[a-z_]*: ' <<<"$sched")" "$(grep -c ' sched_switch: ' <<<"$sched")" \
	"... and no other sched_ event (they lack those fields)"

like "$(kvm_file $s list_fa)" 'ltt_test_event \(type: tracepoint\) \[enabled\] \[filter: seq < 100\]' \
	"list shows a kernel rule's filter"
like "$(kvm_file $s list_ff)" 'filter: seq >= 995' "list shows both rules of one event"
like "$(kvm_file $s list_fh)" "excludes: ltt_logger" "list shows a kernel rule's exclusions"
like "$(kvm_file $s mi_fa)" '<filter_expression>seq &lt; 100</filter_expression>' \
	"--mi xml carries the filter (LTTng's filter_expression)"
is "$(kvm_file $s load.rc)" 0 "save, destroy, load"
is "$(grep ltt_ <<<"$(kvm_file $s list_fa_loaded)")" "$(grep ltt_ <<<"$(kvm_file $s list_fa)")" \
	"the loaded kernel rule has its filter"
is "$(grep ltt_ <<<"$(kvm_file $s list_fh_loaded)")" "$(grep ltt_ <<<"$(kvm_file $s list_before)")" \
	"the loaded kernel rule has its exclusions"

like "$(kvm_file $s float_k)" "kernel filters take no floating-point numbers" "a float literal is refused"
like "$(kvm_file $s app_k)" "context the kernel domain does not have" "\$app is refused"
like "$(kvm_file $s pthread_k)" "context the kernel domain does not have" "\$ctx.pthread_id is refused"
like "$(kvm_file $s type_k)" "does not type-check against the kernel event" "a type error is refused"
like "$(kvm_file $s sessiond.log)" "name == 5" "... the daemon logs the expression"
like "$(kvm_file $s syntax_k)" "invalid filter" "a syntax error: lttctl's caret message"
like "$(kvm_file $s excl_noglob_k)" "exclusions need a pattern with an unescaped '\\*'" \
	"an exclusion needs a pattern with '*'"
unlike "$(kvm_file $s list_r)" "ltt_test_event" "the refusals changed nothing"
is "$(kvm_file $s float_k.rc)" 1 "... and exit 1"

hostile=$(kvm_file $s hostile)
is "$(kvm_file $s hostile.rc)" 0 "kfilter_client hostile: every check passed"
is "$(grep -c '^ok EINVAL' <<<"$hostile")" 29 "29 handcrafted programs and headers refused with EINVAL"
is "$(grep -c '^not ok' <<<"$hostile")" 0 "no check failed"
grep '^not ok' <<<"$hostile" | while read -r l; do diag "$l"; done
like "$hostile" 'mismatch=0 ' "every mutant the tracer took, src/common's validator takes too"
mut=$(grep -o 'mutants=[0-9]* accepted=[0-9]*' <<<"$hostile")
diag "$mut (each accepted one ran on 3 events), $(grep -o 'stricter=[0-9]*' <<<"$hostile") refused only by the tracer (floats)"
is "$(kvm_file $s swap)" "swaps=300" "300 filter swaps while the event fires"
ok $([ "$(kvm_file $s bench.rc)" = 0 ] && echo 0 || echo 1) "the cost was measured"
while read -r name min med max; do
	diag "probe cost: $name min $min median $med max $max ns/event (guest, TCG)"
done \
	<"$KVM_OUT/$s/bench"
kvm_kernel_clean $s
done_testing
