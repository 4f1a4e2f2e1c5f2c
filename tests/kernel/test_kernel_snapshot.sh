#!/bin/bash
# Snapshots of kernel channels in a real kernel (one boot): the tracer's
# non-consuming read through its raw ABI (scenario kmod_snapshot:
# ltt-ktest snapshot), and kernel snapshot sessions through lttctl
# (kernel_snapshot): exact contents of records in a row, -m keeps the
# newest packets, a lapped buffer the newest events, tracing goes on, a
# killed consumer's trace taken over at the next record, kernel and user
# space in one snapshot (to a relay:
# test_kernel_net_lifecycle.sh).
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kmod_snapshot kernel_snapshot
plan 37

# kmod_snapshot
s=kmod_snapshot
kvm_scenario_ok $s
f=$KVM_OUT/$s/ktest_snapshot
n=$(grep -c '^ok ' "$f" 2>/dev/null)
is "$(kvm_file $s ktest_snapshot.rc):$n:$(tail -n 1 "$f")" "0:16:ltt-ktest: PASS" "ltt-ktest snapshot: 16 checks passed"
grep '^not ok' "$f" 2>/dev/null | sed 's/^/# /'
ok $(grep -Eq '^ok [0-9]+ - snapshot: a second right after holds the same 100' "$f"; echo $?) \
	"raw ABI: two snapshots in a row hold the same 100 events (nothing consumed)"
ok $(grep -Eq '^ok [0-9]+ - snapshot race: [0-9]+ snapshots while 200000 events were written: [1-9][0-9]* packets copied whole, none torn' "$f"; echo $?) \
	"raw ABI: snapshots while CPU 0 writes copy whole packets only"
ok $(grep -Eq '^ok [0-9]+ - snapshot: a packet overwritten while it was copied .* is refused: Stale' "$f"; echo $?) \
	"raw ABI: a copy overtaken by writers halfway (userfaultfd) is refused, not returned torn"
diag "$(grep 'snapshot race' "$f")"
kvm_kernel_clean $s

# kernel_snapshot
s=kernel_snapshot
kvm_scenario_ok $s
like "$(kvm_file $s list)" 'snapchan.*' "the session lists its kernel channel"
like "$(kvm_file $s list)" 'overwrite mode: overwrite' "... in overwrite mode (a snapshot session's default)"
for r in first second small tiny third lapped stopped; do
	[ "$(kvm_file $s rec_$r.rc)" = 0 ] || diag "snapshot record -n $r: $(kvm_file $s rec_$r)"
done
is "$(cat "$KVM_OUT/$s"/rec_{first,second,small,third,lapped,stopped}.rc | sort -u)" 0 \
	"snapshot record succeeds each time, also after stop"
snap() { find "$KVM_OUT/$s/snaps" -mindepth 1 -maxdepth 1 -type d -name "$1-*" | head -1; }
# events DIR: the test events babeltrace2 reads in DIR/kernel
events() { babeltrace2 "$1/kernel" 2>"$TEST_TMP/bt.err" | grep ' ltt_test_event: '; }
# seqs DIR: their sequence numbers, in trace order
seqs() { events "$1" | grep -o 'seq = [0-9]*' | cut -d' ' -f3; }
first=$(snap first) second=$(snap second) small=$(snap small) third=$(snap third)
lapped=$(snap lapped) stopped=$(snap stopped)
ok $([ -f "$first/kernel/metadata" ] && echo 0 || echo 1) "each snapshot is its own directory: OUTPUT/first-DATE-0/kernel"
run babeltrace2 "$first/kernel"
is "$RC" 0 "babeltrace2 reads the first snapshot"
is "$(seqs "$first" | tr '\n' ' ')" "$(seq 0 299 | tr '\n' ' ')" "the first holds the 300 events, seq 0..299, once each, in order"
is "$(seqs "$second" | tr '\n' ' ')" "$(seq 0 299 | tr '\n' ' ')$(seq 0 199 | tr '\n' ' ')" \
	"the second holds the first's 300 and the 200 new ones, in order: nothing was consumed"
like "$(grep 'seq = 7,' <(events "$second") | head -1)" \
	'value = 14, neg = -7, flags = 0x7, name = "ltt-test-7", tag = "t7", _bytes_length = 2' \
	"event 7's fields as the probe wrote them"
is "$(seqs "$third" | wc -l)" 600 "after 100 more, the third holds 600: tracing went on after the records"
is "$(seqs "$third" | tail -100 | tr '\n' ' ')" "$(seq 0 99 | tr '\n' ' ')" "... the 100 new ones last"
# -m 8k, 2 CPUs, 4 KiB packets: the newest packet of each stream
n_small=$(seqs "$small" | wc -l)
ok $([ "$n_small" -gt 0 ] && [ "$n_small" -lt 500 ] && echo 0 || echo 1) \
	"-m 8k keeps part of the 500 events ($n_small)"
is "$(seqs "$small" | tr '\n' ' ')" "$(seqs "$second" | tail -n "$n_small" | tr '\n' ' ')" \
	"... the newest ones: the tail of the second snapshot"
is "$(find "$small/kernel" -maxdepth 1 -name 'snapchan_*' -size +0 | wc -l)" 1 \
	"... one packet's file: CPU 0's newest packet (CPU 1 wrote nothing)"
is "$(stat -c %s "$small/kernel/snapchan_0" 2>/dev/null)" 4096 "... 4096 bytes: one packet"
is "$(kvm_file $s rec_tiny.rc)" 1 "-m 4k can't hold one packet of each of the 2 streams: refused"
like "$(kvm_file $s rec_tiny)" 'larger --max-size' "... saying what to do"
# 5000 more overwrite the buffer (16 x 4 KiB per CPU)
n_lap=$(seqs "$lapped" | wc -l)
ok $([ "$n_lap" -gt 500 ] && [ "$n_lap" -lt 5000 ] && echo 0 || echo 1) \
	"after 5000 more, the lapped buffer's snapshot holds the newest $n_lap events"
is "$(seqs "$lapped" | tr '\n' ' ')" "$(seq $((5000 - n_lap)) 4999 | tr '\n' ' ')" \
	"... seq $((5000 - n_lap))..4999: contiguous, the last one emitted included"
run babeltrace2 "$lapped/kernel"
is "$RC" 0 "babeltrace2 reads the lapped snapshot"
is "$(seqs "$stopped" | tr '\n' ' ')" "$(seqs "$lapped" | tr '\n' ' ')" \
	"a record after stop holds the same events"
is "$(kvm_file $s destroy.rc)" 0 "destroy succeeds"
# the consumer killed in a snapshot session
like "$(kvm_file $s kd_consumers)" '^[0-9]+' "kd: a consumer ran ($(kvm_file $s kd_consumers))"
is "$(kvm_file $s kd_waits):$(kvm_file $s kd_after_kill)" "0:" \
	"... killed, no new one: the snapshot trace waits for a command, the log says"
kd=$(find "$KVM_OUT/$s/kd" -mindepth 1 -maxdepth 1 -type d -name 'kd-*' | head -1)
is "$(kvm_file $s rec_kd.rc):$(seqs "$kd" | tr '\n' ' ')" "0:$(seq 0 49 | tr '\n' ' ')$(seq 0 59 | tr '\n' ' ')" \
	"... the next record had a new one take it over: the 50 events before the death and the 60 after, once each"
like "$(kvm_file $s kd_after_rec)" '^[0-9]+' "... which runs after the record"
both=$(find "$KVM_OUT/$s/both" -mindepth 1 -maxdepth 1 -type d -name 'both-*' | head -1)
is "$(kvm_file $s rec_both.rc)" 0 "a snapshot of a session with kernel and user channels"
is "$(seqs "$both" | tr '\n' ' ')" "$(seq 0 39 | tr '\n' ' ')" "... DIR/kernel holds the 40 kernel events"
run babeltrace2 "$both"
is "$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" 3 "... and DIR/ust the program's 3"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 40 "... read together"
kvm_kernel_clean $s
