#!/bin/bash
# test_lttng_ust_filter.sh - filters (enable-event --filter) on the events
# of a program built for LTTng-UST (lttng-ust/compat_app.c, Debian's
# headers) recorded through ltt's liblttng-ust.so.1 select exactly the
# events Debian's LTTng selects with the same filter from the same
# binary: integers (network ones too), strings (empty and NULL), floats,
# arrays and sequences (indexed and as text), enumerations and nowrite
# fields; LTTng's order of operators (bitwise before comparisons), its
# negation of fields, shifts, floats as truth values and two string
# literals compared.  One session per filter in each tracer, one run of
# the program.
# A network integer's filter value is the integer as the program passed
# it, byte-swapped (as LTTng puts it on its interpreter stack).  No index
# goes past a sequence's length: there LTTng 2.13 reads the program's
# memory past the sequence, ltt rejects the event.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
command -v babeltrace >/dev/null || skip_all "babeltrace (1) is not installed"
lttng_can_run || skip_all "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
ust_setup

# EVENT|FILTER, one session each (fN in both tracers)
FILTERS=(
	'compat:ints|s8 < -50 && u16 > 60000'
	'compat:ints|ns16 == -22275 || nu32 == 117637633 || nh64 == 0x1007060504030201'
	'compat:basic|text == "gamma*" || i == 5'
	'compat:floats|d < -1e101 && f > 20.0'
	'compat:floats|fsmall < 0.1 || dneg == -0.125'
	'compat:strings|first == "" && after > 20 || second == "(null)"'
	'compat:strings|second == "" || first == "b*"'
	'compat:seqs|qtext == "al*" || qtext != "" && q32[0] > 30'
	'compat:arrays|a32[1] < -20000000 && atext == "b"'
	'compat:enums|c8 == 5 || s64 == -150'
	'compat:nowrite|nw_int == 8 || nw_str == "b" || nw_double > 18.0'
	'compat:nowrite|nw_seq[1] == -3000009 || nw_atext == "g*" || nw_enum == 33'
	'compat:arrays|anet[0] == 0x07000000 || anet[0] == 0x03000000'
	'compat:basic|i & 3 == 1 || -i == -6 || ~0>>4 == 0x0fffffffffffffff && i > 36'
	'compat:basic|0.0 || i == 2 && "salut*" == "salut vous*"'
)
plan $((4 + 2 * ${#FILTERS[@]}))

N=40
compat_build

script= stops=
for k in "${!FILTERS[@]}"; do
	ev=${FILTERS[$k]%%|*} expr=${FILTERS[$k]#*|}
	lttctl create f$k -o "$TEST_TMP/ltt/f$k" >/dev/null &&
		lttctl enable-event -u "$ev" -s f$k --filter "$expr" >/dev/null &&
		lttctl start f$k >/dev/null || break
	script+="lttng create f$k -o \"\$TEST_TMP/lttng/f$k\" >/dev/null &&
	lttng enable-event -u '$ev' -s f$k --filter '$expr' >/dev/null &&
	lttng start f$k >/dev/null || exit 1
"
	stops+="lttng stop f$k >/dev/null || exit 1
"
done
is "$k" $((${#FILTERS[@]} - 1)) "ltt: one session per filter, started"
compat_run $N
is $? 0 "the program runs under ltt-run"
for k in "${!FILTERS[@]}"; do
	lttctl stop f$k >/dev/null
done
lttng_run "$script"'timeout "$TEST_TIMEOUT" "$APP" $N || exit 1
'"$stops"
ok $? "LTTng records the same binary with the same filters" || diag "$(cat "$TEST_TMP/lttng.log")"

for k in "${!FILTERS[@]}"; do
	bt1 "$TEST_TMP/ltt/f$k" "$TEST_TMP/ltt.f$k"
	bt1 "$TEST_TMP/lttng/f$k" "$TEST_TMP/lttng.f$k"
	n=$(grep -c . "$TEST_TMP/ltt.f$k")
	ok "$([ "$n" -gt 0 ] && [ "$n" -lt $N ] && echo 0 || echo 1)" \
		"'${FILTERS[$k]#*|}' selects some ${FILTERS[$k]%%|*} events, not all ($n of $N)"
	diff "$TEST_TMP/lttng.f$k" "$TEST_TMP/ltt.f$k" >"$TEST_TMP/diff.f$k"
	ok $? "... exactly the events LTTng records, field by field" ||
		diag "$(head -6 "$TEST_TMP/diff.f$k")"
done
done_testing
