#!/bin/bash
# Kernel channels streamed to ltt-relayd in a real kernel (one boot): each
# rotation (manual under load, timer, size) has the relay archive the
# chunk that ended, every archive a trace babeltrace2 reads alone, every
# event of the test probe in one archive or counted discarded (exactly);
# a clear on the relay keeps only later events; snapshots of kernel
# channels sent to the relay; a session of both domains rotated, cleared
# and snapshotted on the relay.
# Rotations on the relay take a while under TCG.
KVM_SCENARIO_TIMEOUT=${KVM_SCENARIO_TIMEOUT:-300}
KVM_TIMEOUT=${KVM_TIMEOUT:-720}
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_net_rotate kernel_net_snapshot
plan 53

# relay_dir SCENARIO DIR: the directory DIR-* the relay wrote a session in
relay_dir() { ls -d "$KVM_OUT/$1"/relay/*/"$2"-* 2>/dev/null | head -n 1; }
# archives DIR: DIR/archives/*, in chunk order (by N, the name's last field)
archives() {
	find "$1/archives" -mindepth 1 -maxdepth 1 -type d 2>/dev/null |
		while read -r d; do echo "${d##*-} $d"; done | sort -n | cut -d' ' -f2
}
# rcs SCENARIO KEY...: the exit statuses the scenario recorded, "-" for one missing
rcs() {
	local sc=$1 k
	shift
	for k in "$@"; do
		echo "$(cat "$KVM_OUT/$sc/$k.rc" 2>/dev/null || echo -)"
	done | tr '\n' ' '
}
# seqs FILE: the test events' sequence numbers in babeltrace2's output FILE
seqs() { grep ' ltt_test_event: ' "$1" | grep -o 'seq = [0-9]*' | cut -d' ' -f3; }
# read_each DIR...: each read alone (BAD: how many failed; FULL: how many
# hold test events), all their events into $TEST_TMP/all
read_each() {
	local d
	BAD=0 FULL=0
	: >"$TEST_TMP/all"
	for d in "$@"; do
		if ! babeltrace2 "$d" >"$TEST_TMP/one" 2>"$TEST_TMP/one.err"; then
			BAD=$((BAD + 1))
			diag "$d: $(head -n 2 "$TEST_TMP/one.err")"
		fi
		grep -q ' ltt_test_event: ' "$TEST_TMP/one" && FULL=$((FULL + 1))
		cat "$TEST_TMP/one" >>"$TEST_TMP/all"
	done
}
# exact WHAT EMITTED DISCARDED: two tests on $TEST_TMP/all: no event (its
# sequence number and timestamp: a load may be emitted in batches, each
# from seq 0) twice, and the distinct ones (all below EMITTED) + DISCARDED
# == EMITTED
exact() {
	local what=$1 emitted=$2 lost=$3 distinct
	grep ' ltt_test_event: ' "$TEST_TMP/all" |
		sed -E -n 's/^(\[[^]]*\]).*seq = ([0-9]+).*/\2 \1/p' | sort >"$TEST_TMP/events"
	is "$(uniq -d "$TEST_TMP/events" | wc -l)" 0 "$what: no event is in two archives"
	distinct=$(awk -v max="$emitted" '$1 < max' "$TEST_TMP/events" | uniq | wc -l)
	is "$((distinct + lost)):$(wc -l <"$TEST_TMP/events")" "$emitted:$distinct" \
		"$what: recorded ($distinct) + discarded ($lost) == the $emitted emitted, none out of range"
}

# ---- kernel_net_rotate ----
s=kernel_net_rotate
kvm_scenario_ok $s
is "$(kvm_file $s load_rc)" 0 "the probe emitted 200000 events while lttctl rotated"
is "$(kvm_file $s rotate_failed)" "" "every rotation of the streamed kernel session succeeded"
diag "rotations: $(kvm_file $s rotations)"
like "$(kvm_file $s rotate_after)" 'now readable at .*/knr-[0-9-]*/archives/[0-9T+-]*' \
	"rotate prints the archive the relay made, in the session's relay directory"
is "$(kvm_file $s clear.rc)" 0 "clear of the streamed kernel session succeeds"
is "$(kvm_file $s destroy.rc)" 0 "destroy succeeds"
dir=$(relay_dir $s knr)
is "$(ls "$dir" 2>/dev/null | tr '\n' ' ')" "archives " \
	"after destroy the relay directory holds archives/ only (the cleared chunk deleted, the last archived)"
n=$(kvm_file $s rotations)
list=$(archives "$dir")
is "$(wc -l <<<"$list")" $((n + 2)) "one archive per chunk ($n rotations under load, one after, destroy)"
is "$(for d in $list; do ls "$d"; done | sort -u | tr '\n' ' ')" "kernel " \
	"each archive holds the kernel trace, archives/BEGIN-END-N/kernel"
last=$(tail -n 1 <<<"$list")
read_each $(head -n -1 <<<"$list")
is $BAD 0 "babeltrace2 reads each archive alone"
# Two archives with events prove a rotation fell while the probe emitted;
# how many more depends on how fast the guest emits (KVM or emulation).
ok "$([ $FULL -ge 2 ]; echo $?)" "events are in $FULL archives: rotations fell while the probe emitted"
exact "manual rotations" 200000 "$(kvm_discarded $s list)"
run babeltrace2 "$last"
is "$RC" 0 "babeltrace2 reads the last archive, the chunk begun by the clear"
seqs <(echo "$STDOUT") >"$TEST_TMP/last"
is "$(tr '\n' ' ' <"$TEST_TMP/last")" "$(seq 0 199 | tr '\n' ' ')" \
	"after the clear only the 200 later events remain, none of the 300 before it"

for p in t s; do
	case $p in t) what="timer rotation" sess=knt ;; s) what="size rotation" sess=kns ;; esac
	is "$(rcs $s ${p}_sched ${p}_start ${p}_stop ${p}_destroy)" "0 0 0 0 " \
		"$what: enable-rotation, start, stop, destroy succeed"
	is "$(kvm_file $s ${p}_chunks_rc)" 0 "$what: the session reached chunk 2 by itself"
	dir=$(relay_dir $s $sess)
	list=$(archives "$dir")
	ok "$([ "$(wc -l <<<"$list")" -ge 3 ]; echo $?)" \
		"$what: $(wc -l <<<"$list") archives on the relay (2 rotations at least, and destroy's)"
	read_each $list
	is $BAD 0 "$what: babeltrace2 reads each archive alone"
	case $p in t) emitted=100000 ;; s) emitted=300000 ;; esac
	is "$(kvm_file $s ${p}_load_rc)" 0 "$what: the probe emitted $emitted events"
	exact "$what" $emitted "$(kvm_discarded $s ${p}_list)"
done
like "$(kvm_file $s t_list)" 'Trace chunk: [1-9]' "list shows the chunk the timer rotations reached"
ok "$([ $FULL -ge 2 ]; echo $?)" "size rotation: events are in $FULL archives"
kvm_kernel_clean $s

# ---- kernel_net_snapshot ----
s=kernel_net_snapshot
kvm_scenario_ok $s
# snap SESSION NAME: the snapshot NAME-DATE-N the relay wrote in the
# session's directory, HOST/SESSION-DATE/, as LTTng's relay lays it out
snap() { ls -d "$KVM_OUT/$s"/relay/*/"$1"-*/"$2"-* 2>/dev/null | head -n 1; }
for r in first second net here both; do
	[ "$(kvm_file $s rec_$r.rc)" = 0 ] || diag "snapshot record -n $r: $(kvm_file $s rec_$r)"
done
is "$(rcs $s rec_first rec_second rec_net rec_here rec_both)" "0 0 0 0 0 " \
	"snapshot record of kernel channels succeeds each time, to the relay and to a directory"
like "$(kvm_file $s rec_first)" "relay/.*/ksn-[0-9]{8}-[0-9]{6}/first-" "record prints the snapshot's directory on the relay"
first=$(snap ksn first) second=$(snap ksn second)
ok "$([ -f "$first/kernel/metadata" ]; echo $?)" "the relay wrote HOST/ksn-DATE/first-DATE-0/kernel"
run babeltrace2 "$first"
is "$RC" 0 "babeltrace2 reads the first snapshot from the relay"
is "$(seqs <(echo "$STDOUT") | tr '\n' ' ')" "$(seq 0 299 | tr '\n' ' ')" \
	"the first holds the 300 events, seq 0..299, once each, in order"
babeltrace2 "$second" >"$TEST_TMP/second" 2>/dev/null
is "$(seqs "$TEST_TMP/second" | tr '\n' ' ')" "$(seq 0 299 | tr '\n' ' ')$(seq 0 199 | tr '\n' ' ')" \
	"the second holds the first's 300 and the 200 new ones: nothing was consumed"
net=$(snap ksl net)
here=$(find "$KVM_OUT/$s/snaps" -mindepth 1 -maxdepth 1 -type d -name 'here-*' | head -n 1)
babeltrace2 "$net" >"$TEST_TMP/net" 2>/dev/null
is "$(seqs "$TEST_TMP/net" | tr '\n' ' ')" "$(seq 0 99 | tr '\n' ' ')" \
	"a local snapshot session's record to a net:// URL: the relay has its 100 events"
babeltrace2 "$here" >"$TEST_TMP/here" 2>/dev/null
is "$(seqs "$TEST_TMP/here" | tr '\n' ' ')" "$(seq 0 99 | tr '\n' ' ')" \
	"... and its next record to its directory the same 100"
both=$(snap kbs both)
is "$(ls "$both" 2>/dev/null | tr '\n' ' ')" "kernel ust " "a snapshot of both domains to the relay: kernel/ and ust/"
run babeltrace2 "$both"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT"):$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" \
	"40:3" "... the 40 kernel events and the program's 3, read together"

# both domains streamed: rotate, rotate, clear, destroy
is "$(rcs $s b_start b_rotate1 b_rotate2 b_clear b_stop b_destroy)" "0 0 0 0 0 0 " \
	"a session of kernel and user channels streamed: rotate, clear, destroy succeed"
dir=$(relay_dir $s kb)
list=$(archives "$dir")
is "$(wc -l <<<"$list")" 3 "three archives: two rotations and destroy's (the cleared chunk deleted)"
is "$(for d in $list; do ls "$d" | tr '\n' ' '; echo; done | sort -u)" "kernel ust " \
	"each archive holds both domains' parts, kernel/ and ust/, under one name"
i=0
for want in 100:3 50:2 20:4; do
	i=$((i + 1))
	d=$(sed -n ${i}p <<<"$list")
	run babeltrace2 "$d"
	is "$RC:$(grep -c ' ltt_test_event: ' <<<"$STDOUT"):$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" \
		"0:$want" "archive $i read alone: exactly $want (kernel:user) events"
	last_seq=$(seqs <(echo "$STDOUT") | tr '\n' ' ')
	is "$last_seq" "$(seq 0 $((${want%:*} - 1)) | tr '\n' ' ')" "... the kernel ones seq 0..$((${want%:*} - 1)), once each"
done
kvm_kernel_clean $s
