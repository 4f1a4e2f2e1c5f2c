#!/bin/bash
# Trace chunks of a kernel session in a real kernel (scenario
# kernel_rotate): rotations while the test probe emits, each archive a
# trace babeltrace2 reads alone, every event once across the archives;
# a clear keeps only later events.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_rotate
plan 15

s=kernel_rotate
kvm_scenario_ok $s
is "$(kvm_file $s load_rc)" 0 "the probe emitted 200000 events while lttctl rotated"
is "$(kvm_file $s rotate_failed)" "" "every rotation succeeded"
is "$(kvm_file $s clear.rc)" 0 "clear succeeds"
is "$(kvm_file $s destroy.rc)" 0 "destroy succeeds"
trace=$KVM_OUT/$s/trace
n=$(kvm_file $s rotations)
# in chunk order: by N, the name's last field
archives=$(find "$trace/archives" -mindepth 1 -maxdepth 1 -type d |
	while read -r d; do echo "${d##*-} $d"; done | sort -n | cut -d' ' -f2)
# a rotation of a stopped session ends its chunk and begins none (as
# LTTng's), so destroy has no chunk left to archive
is "$(wc -l <<<"$archives")" $((n + 2)) \
	"one archive per chunk ($n rotations under load, one after, and the one the stopped rotation ended)"
is "$(kvm_file $s rotate_stopped.rc)" 0 "a stopped kernel session rotates"
is "$(find "$trace" -mindepth 1 -maxdepth 1 ! -name archives | wc -l)" 0 \
	"destroy after the stopped rotation leaves no chunk of its own beside the archives"
bad=0 full=0
: >"$TEST_TMP/all"
for d in $archives; do
	babeltrace2 "$d" >"$TEST_TMP/one" 2>"$TEST_TMP/one.err" || { bad=$((bad + 1)); diag "$d: $(head -2 "$TEST_TMP/one.err")"; }
	[ -s "$TEST_TMP/one" ] && full=$((full + 1))
	cat "$TEST_TMP/one" >>"$TEST_TMP/all"
done
is $bad 0 "babeltrace2 reads each kernel archive alone"
ok "$([ $full -ge 3 ] && echo 0 || echo 1)" "events are in $full archives: rotations fell while the probe emitted"
lost=$(kvm_discarded $s list)
# the last archive is the cleared chunk: 200 events, seq 0..199, after the 200000
last=$(tail -1 <<<"$archives")
babeltrace2 "$last" >"$TEST_TMP/last" 2>/dev/null
is "$(grep -c ' ltt_test_event: ' "$TEST_TMP/last")" 200 "after the clear, the chunk holds only the 200 later events"
# the load is ten batches of seq 0..19999, one after the other: an event is
# its timestamp and its seq
grep ' ltt_test_event: ' "$TEST_TMP/all" | grep -v -F -f <(grep ' ltt_test_event: ' "$TEST_TMP/last") |
	sed -E -n 's/^(\[[^]]*\]).*(seq = [0-9]+).*/\1 \2/p' >"$TEST_TMP/load"
sort "$TEST_TMP/load" | uniq -d >"$TEST_TMP/dups"
is "$(wc -l <"$TEST_TMP/dups")" 0 "no event of the load is in two archives"
distinct=$(sort -u "$TEST_TMP/load" | wc -l)
is $((distinct + lost)) 200000 "recorded ($distinct) + discarded ($lost) == the 200000 emitted"
per_seq=$(sed 's/.*seq = //' "$TEST_TMP/load" | sort | uniq -c | awk '$1 > 10' | wc -l)
is "$per_seq" 0 "no seq is recorded more often than the ten batches emitted it"
kvm_kernel_clean $s
