#!/bin/bash
# lttctl regenerate in a real kernel (scenario kernel_regen): the wall
# clock jumps a day, regenerate metadata writes the kernel trace's
# metadata again whole with the new clock offset (babeltrace2 reads every
# event); regenerate statedump records the tracer's state dump a second
# time, each thread alive across it once, and of a user-space-only
# session asks its programs; the refusals.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_regen kernel_regen_relay
plan 27

s=kernel_regen
kvm_scenario_ok $s
trace=$KVM_OUT/$s/trace/kernel

# clock_offset FILE: the trace clock's offset in seconds (offset_s + offset / freq).
clock_offset() {
	local d
	d=$(mktemp -d "$TEST_TMP/meta.XXXXXX")
	cp "$1" "$d/metadata"
	babeltrace2 --output-format=ctf-metadata "$d" |
		awk '/^clock \{/ { c = 1 } c && /freq =/ { gsub(/[^0-9]/, "", $3); f = $3 }
		     c && /offset_s =/ { gsub(/[^0-9-]/, "", $3); s = $3 }
		     c && /offset =/ { gsub(/[^0-9-]/, "", $3); o = $3 }
		     c && /^\};/ { c = 0 } END { printf "%d\n", s + o / f }'
}

# --- regenerate metadata
is "$(kvm_file $s date_ahead.rc)" 0 "the guest's wall clock jumped a day ahead"
is "$(kvm_file $s regen_meta.rc):$(kvm_file $s regen_meta)" \
	"0:Metadata regenerated for session kregen." "regenerate metadata of a kernel session succeeds"
before=$(clock_offset "$KVM_OUT/$s/meta_before")
after=$(clock_offset "$KVM_OUT/$s/meta_after")
delta=$((after - before))
ok "$([ $delta -ge 86390 ] && [ $delta -le 86410 ] && echo 0 || echo 1)" \
	"the new metadata's clock offset is a day later ($delta s)"
is "$(clock_offset "$trace/metadata")" "$after" "the trace holds the new metadata"
run babeltrace2 --output-format=ctf-metadata "$trace"
is "$(grep -c '^trace {' <<<"$STDOUT"):$(grep -c 'name = "ltt_test_event"' <<<"$STDOUT")" "1:1" \
	"written again whole, not appended: one trace block, the event described once"
run babeltrace2 "$trace"
is "$RC" 0 "babeltrace2 reads the kernel trace"
is "$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" 2000 "every event: 1000 before the regeneration, 1000 after"
events=$STDOUT

# --- regenerate statedump
is "$(kvm_file $s regen_sd.rc):$(kvm_file $s regen_sd)" \
	"0:State dump regenerated for session kregen." "regenerate statedump of a kernel session succeeds"
is "$(grep -c ' lttng_statedump_start: ' <<<"$events"):$(grep -c ' lttng_statedump_end: ' <<<"$events")" "2:2" \
	"two state dumps: the one at start and the regenerated one"
# the regenerated dump: the process_state events after the second start
awk '/ lttng_statedump_start: / { n++ } n == 2 && / lttng_statedump_process_state: /' <<<"$events" |
	sed 's/.* tid = \([0-9]*\),.*/\1/' | sort -n >"$TEST_TMP/dump2"
is "$(uniq -d "$TEST_TMP/dump2" | wc -l)" 0 "no thread twice in the regenerated dump"
comm -12 "$KVM_OUT/$s/tids_before" "$KVM_OUT/$s/tids_after" >"$TEST_TMP/stable"
is "$(comm -23 "$TEST_TMP/stable" "$TEST_TMP/dump2" | tr '\n' ' ')" "" \
	"each of the $(wc -l <"$TEST_TMP/stable") threads alive before and after it is in it"
tid_count() {
	grep ' lttng_statedump_process_state: ' <<<"$events" | grep -c "{ tid = $1, "
}
is "$(tid_count 1):$(tid_count "$(kvm_file $s both_pid)")" "2:2" \
	"init and a process alive throughout: once in each dump"
is "$(tid_count "$(kvm_file $s gone_pid)")" 1 "a process gone before the regeneration: in the first dump only"
is "$(tid_count "$(kvm_file $s late_pid)")" 1 "a process started after start: in the regenerated dump only"

# --- refusals
is "$(kvm_file $s regen_bad.rc)" 2 "regenerate of something else is a usage error"
like "$(kvm_file $s regen_sd_stopped.rc):$(kvm_file $s regen_sd_stopped)" "^1:.*not started" \
	"regenerate statedump of a stopped session is refused"
# a user-space-only session: its programs asked (none runs), no kernel dump
is "$(kvm_file $s start_u.rc):$(kvm_file $s regen_sd_u.rc):$(kvm_file $s regen_sd_u)" \
	"0:0:State dump regenerated for session uonly." \
	"regenerate statedump of a started user-space-only session succeeds"
is "$(grep -c "session 'uonly': 0 user-space channels of programs asked for their state dump" \
	"$KVM_OUT/$s/sessiond.log")" 1 "  the daemon asked no program: none runs"
is "$(kvm_file $s regen_sd_n.rc):$(kvm_file $s regen_sd_n)" \
	"1:Error: session 'nochan': regenerate statedump records the state dump of the kernel tracer and of the traced programs into the session's channels, and this session has none: add a channel first" \
	"regenerate statedump of a session without channels is refused with the reason"
kvm_kernel_clean $s

# --- a streamed kernel session: the relay writes the metadata again
s=kernel_regen_relay
kvm_scenario_ok $s
is "$(kvm_file $s regen_meta.rc):$(kvm_file $s regen_meta)" \
	"0:Metadata regenerated for session krr." "regenerate metadata of a streamed kernel session succeeds"
is "$(grep -c 'kernel/metadata written again (version 1)' "$KVM_OUT/$s/relayd.log")" 1 \
	"the relay wrote the kernel trace's metadata again"
trace=$(ls -d "$KVM_OUT/$s"/relay/*/krr-*/kernel 2>/dev/null | head -n 1)
run babeltrace2 --output-format=ctf-metadata "$trace"
is "$(grep -c '^trace {' <<<"$STDOUT")" 1 "its metadata is the new text alone: one trace block"
run babeltrace2 "$trace"
is "$RC:$(grep -c ' ltt_test_event: ' <<<"$STDOUT")" "0:1000" \
	"babeltrace2 reads the relay's trace: 700 events before, 300 after"
kvm_kernel_clean $s
