#!/bin/bash
# lttng-test.ko: LTTng's test module's /proc/lttng-test-filter-event on
# ltt's tracer, which LTTng's kernel tests of filters, wildcards and
# trackers write (scenario kernel_lttng_test).  Its event,
# lttng_test_filter_event, is there only while the module is loaded, as
# LTTng's (the running daemon's catalog follows), and has lttng-modules
# 2.13's 24 fields: each one checked as babeltrace2 shows LTTng's
# (network byte order, text arrays and sequences, bit arrays, the
# enumeration's values, ranges and -1), and filters read the network
# fields' values as LTTng's do.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_lttng_test
plan 42

s=kernel_lttng_test
kvm_scenario_ok $s
unlike "$(kvm_file $s list_before)" lttng_test_filter_event "before lttng-test is loaded, list -k has no lttng_test_filter_event"
ok $([ "$(kvm_file $s enable_early.rc)" != 0 ] && echo 0 || echo 1) "... and enabling it is refused"
like "$(kvm_file $s enable_early)" "lttng_test_filter_event" "... naming it"
is "$(kvm_file $s modprobe.rc)" 0 "modprobe lttng-test loads it (ltt-tracer loaded, the daemon running)"
is "$(kvm_file $s enable_lazy.rc)$(kvm_file $s start_lazy.rc)" 00 \
	"before it, a session with the rule 'lttng_test_*' started"
is "$(kvm_file $s lazy_followed)" yes "the daemon follows the module's load on its own (its uevent)"
like "$(kvm_file $s modules)" '(^|
)ltt_tracer [0-9]+ [0-9]+ lttng_test,' "lttng_test is loaded, using ltt_tracer"
is "$(kvm_file $s proc_mode)" 666 "/proc/lttng-test-filter-event is writable by anyone, as LTTng's"
like "$(kvm_file $s list_kf)" 'lttng_test_filter_event \(type: tracepoint\)' "the running daemon's list -k shows the event now"
is "$(cat "$KVM_OUT/$s"/enable_{all,net,arr,str,neg,bits,glob}.rc | tr -d '\n')" 0000000 \
	"the event, and a glob naming it, enabled in 7 sessions"
is "$(kvm_file $s start_failed)$(kvm_file $s stop_failed)$(kvm_file $s destroy_failed)" "" \
	"each session started, stopped and destroyed"
like "$(kvm_file $s list_kf)" 'field: netintfield \(integer\)' "... its network integer"
like "$(kvm_file $s list_kf)" 'field: bitfield_array \(bit array\)' "... its bit array"
like "$(kvm_file $s list_kf)" 'field: enumnegative \(enum\)' "... its enumeration"
is "$(kvm_file $s emit.rc)" 0 "writing 10 records"
is "$(kvm_file $s emit_user.rc)" 0 "a user other than root writes 2 more"
ok $([ "$(kvm_file $s emit_bad.rc)" != 0 ] && echo 0 || echo 1) "writing a word is refused"
like "$(kvm_file $s emit_big)" "Invalid argument" "writing more than 100,000,000 is refused (EINVAL)"

# events SESSION: the session's events as babeltrace2 prints them
events() {
	babeltrace2 "$KVM_OUT/$s/$1/kernel" 2>/dev/null | grep ' lttng_test_filter_event: '
}
# ints [SESSION]: the intfield of each event of stdin
ints() {
	grep -o '{ intfield = [0-9]*' | cut -d' ' -f4 | tr '\n' ' '
}
# bits NAME: the elements of bit array NAME in the event on stdin, one a line
bits() {
	sed "s/.* $1 = \[ \([^a-z]*\) \],.*/\1/" | grep -o '\[[0-9]*\] = [01]'
}
all=$(events all)
is "$(grep -c . <<<"$all")" 12 "12 events recorded"
is "$(ints <<<"$all")" "0 1 2 3 4 5 6 7 8 9 0 1 " \
	"intfield 0 to 9, then the other user's 0 and 1, in order"
is "$(events glob | ints)" "0 1 2 3 4 5 6 7 8 9 0 1 " "'lttng_test_fil*': the same 12"
is "$(events lazy | ints)" "0 1 2 " \
	"the session started before the load records the event with no command since (LTTng's lazy enablers)"
e7=$(grep '{ intfield = 7,' <<<"$all")
like "$e7" 'intfield = 7, intfield2 = 0x7, longfield = 7, signedfield = -1, netintfield = 7, netintfieldhex = 0x7,' \
	"event 7's integers; the network ones declared big endian read 7"
like "$e7" 'arrfield1 = \[ \[0\] = 1, \[1\] = 2, \[2\] = 3 \], arrfield2 = "test", arrfield3 = \[ \[0\] = 1, \[1\] = 2, \[2\] = 3 \],' \
	"its arrays: long, text, big-endian u32"
like "$e7" '_seqfield1_length = 4, seqfield1 = \[ \[0\] = 116, \[1\] = 101, \[2\] = 115, \[3\] = 116 \], _seqfield2_length = 4, seqfield2 = "test", _seqfield3_length = 3, seqfield3 = \[ \[0\] = 1, \[1\] = 2, \[2\] = 3 \], _seqfield4_length = 3, seqfield4 = \[ \[0\] = 1, \[1\] = 2, \[2\] = 3 \],' \
	"its sequences"
like "$e7" 'stringfield = "test", stringfield2 = "\\\\\*",' "its strings"
# { 1, 2, 3 } as 192 bits: bit 0 (1), bit 65 (2), bits 128 and 129 (3)
is "$(bits bitfield_array <<<"$e7" | grep ' = 1$' | tr '\n' ' ')" "[0] = 1 [65] = 1 [128] = 1 [129] = 1 " \
	"bitfield_array: the bits of { 1, 2, 3 }"
is "$(bits bitfield_array <<<"$e7" | wc -l)" 192 "bitfield_array: 192 elements"
like "$e7" '_bitfield_seq_length = 192, bitfield_seq = \[ \[0\] = 1, \[1\] = 0,' "bitfield_seq: 192 bits counted"
is "$(bits bitfield_seq <<<"$e7" | tr '\n' ' ')" "$(bits bitfield_array <<<"$e7" | tr '\n' ' ')" \
	"bitfield_seq: the same bits"
like "$e7" 'enum0 = \( "AUTO: EXPECT 0" : container = 0 \), enum23 = \( "VALUE: 23" : container = 23 \), enum27 = \( "VALUE: 27" : container = 27 \), enum28 = \( "AUTO: EXPECT 28" : container = 28 \), enum202 = \( "RANGE: 101 TO 303" : container = 202 \), enum304 = \( "AUTO: EXPECT 304" : container = 304 \), enumnegative = \( "VALUE: -1" : container = -1 \)' \
	"its enumeration: values, the range, -1"

is "$(events net | ints)" "7 8 " \
	"netintfield == 7 || netintfieldhex == 8: the filter reads the network fields' values"
is "$(events arr | ints)" "0 1 2 3 0 1 " \
	"arrfield3[1] == 2 && seqfield3[2] == 3 && intfield < 4: big-endian elements read"
is "$(events str | ints)" "9 " \
	"strings, a text array's glob and a text sequence compared"
is "$(events neg | ints)" "5 " "signedfield == -1, the hex and long fields"
is "$(events bits | grep -c .)" 0 \
	"bitfield_array[0] == 1 || intfield == 3: no event (a bit array is no field of a filter's: as a field the event lacks)"
is "$(kvm_file $s rmmod.rc)" 0 "modprobe --remove lttng-test removes it"
is "$(kvm_file $s proc_gone)" yes "... and its /proc file"
unlike "$(kvm_file $s modules_after)" '(^|
)lttng_test ' "... and it is no longer loaded"
unlike "$(kvm_file $s list_after)" lttng_test_filter_event "... nor its event listed"
like "$(kvm_file $s modules_after)" '(^|
)ltt_tracer ' "ltt-tracer stays loaded: the running daemon holds it (not taken as an unused dependency)"
