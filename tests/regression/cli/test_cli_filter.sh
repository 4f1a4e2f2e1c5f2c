#!/bin/bash
# test_cli_filter.sh - event rule filters and exclusions, the control half
# (issue 10): lttctl enable-event --filter refused at once with a caret
# under the bad token, -k refused, --exclude with LTTng's rules and exact
# counts recorded, a rule's identity (pattern, log level, filter,
# exclusions), list (text and --mi xml), save/load round trip, and the
# client protocol from the wire: a minor-6 client still works, a minor-7
# client's filter is parsed again by the daemon.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --no-kernel	# the -k cases below are those of a daemon without a kernel tracer
need_proto_client
plan 66

N=100
OUT1="$TEST_TMP/t1"
OUT2="$TEST_TMP/t2"
sock="$LTT_RUNDIR/client.sock"

# rules SESSION: the event rule lines of `lttctl list SESSION`.
rules() {
	lttctl list "$1" | sed -n 's/^      \(ltt_test:.*\)$/\1/p'
}

ok_cmd "create s1" lttctl create s1 -o "$OUT1"

# ---- filters refused before anything is sent ----
run lttctl enable-event -u 'ltt_test:seq' --filter 'seq >= 10 &&'
is "$RC" 1 "a filter syntax error: exit 1"
is "$ERR" "Error: invalid filter: a field, a context field or a literal expected at the end
  seq >= 10 &&
              ^" "the error: the message, the expression, a caret under the end"
run lttctl enable-event -u 'ltt_test:seq' --filter 'seq == "a" + 1'
is "$RC" 1 "arithmetic: exit 1"
is "$(printf '%s\n' "$ERR" | tail -n 2)" '  seq == "a" + 1
             ^' "arithmetic: the caret under the '+'"
run lttctl enable-event -u 'ltt_test:seq' --filter "$(printf 'x%.0s' {1..4097})"
is "$RC" 1 "a filter over 4096 bytes: exit 1"
like "$ERR" "at most 4096 bytes" "a filter over 4096 bytes: said so"
# The kernel domain takes filters and exclusions (tests/kernel/test_kernel_filter.sh);
# here the daemon has no kernel tracer, and says that, not "unsupported".
run lttctl enable-event -k 'sched_switch' --filter 'prev_tid == 1'
is "$RC" 1 "-k --filter without a kernel tracer: exit 1"
unlike "$ERR" "not supported in the kernel domain" "-k --filter: the daemon's reason, not a refusal of filters"
run lttctl enable-event -k 'sched_*' -x 'sched_switch'
is "$RC" 1 "-k --exclude without a kernel tracer: exit 1"
unlike "$ERR" "not supported in the kernel domain" "-k --exclude: the same"
run lttctl enable-event -k 'sched_switch' --filter 'prev_tid =='
like "$ERR" "invalid filter" "-k: a syntax error is still caught by lttctl, with its caret"

# ---- exclusions refused ----
run lttctl enable-event -u 'ltt_test:seq' -x 'ltt_test:seq'
is "$RC" 1 "an exclusion with a pattern without '*': exit 1"
like "$ERR" "exclusions need a pattern with an unescaped '\*'" "said so"
run lttctl enable-event -u 'ltt_test:seq\*' -x 'ltt_test:seq'
is "$RC" 1 "an exclusion with a pattern whose only star is escaped: exit 1"
like "$ERR" "exclusions need a pattern with an unescaped '\*'" "said so"
run lttctl enable-event -u 'ltt_test:s*' -x 'ltt_*'
is "$RC" 1 "an exclusion that takes every name the pattern takes: exit 1"
like "$ERR" "--exclude 'ltt_\*' for event rule 'ltt_test:s\*' of session 's1': each exclusion, separated by commas, must be an event name or pattern that does not take all the names the rule's pattern takes" \
	"said so, naming the exclusion and the rule"
run lttctl enable-event -u 'ltt_test:*' -x 'ltt_test:a,,ltt_test:b'
is "$RC" 1 "an empty exclusion: exit 1"
run lttctl enable-event -u 'ltt_test:*,ltt_test:s*' -x 'ltt_*'
is "$RC" 1 "two patterns, the exclusion taking all of one's names: exit 1"
is "$(rules s1)" "" "none of the refused commands added a rule"

# ---- an exclusion that excludes nothing: kept, with a warning, as LTTng
# (its client warns, its daemon keeps it) ----
lttctl -q create sx -o "$TEST_TMP/sx"
run lttctl enable-event -s sx -u 'ltt_test:s*' -x 'ltt_test:crit'
is "$RC" 0 "an exclusion the pattern does not match: taken"
like "$ERR" "^Warning: the exclusion 'ltt_test:crit' excludes no event of the pattern 'ltt_test:s\*': check its spelling" \
	"... with a warning that names it"
is "$(rules sx)" "ltt_test:s* (loglevel: any) (excludes: ltt_test:crit) [enabled]" "... and listed with its rule"
lttctl -q destroy sx && lttctl -q set-session s1

# ---- exclusions, log levels: exact counts, two sessions at once ----
ok_cmd "s1: every ltt_test event but debug (de*) and crit" \
	lttctl enable-event -u 'ltt_test:*' -x 'ltt_test:de*,ltt_test:crit'
ok_cmd "create s2" lttctl create s2 -o "$OUT2"
ok_cmd "s2: WARNING or more severe, excluding crit" \
	lttctl enable-event -s s2 -u 'ltt_test:*' --loglevel WARNING -x 'ltt_test:crit'
ok_cmd "start s1" lttctl start s1
ok_cmd "start s2" lttctl start s2
ust_app -n $N -T -L
is $? 0 "the program ran"
ok_cmd "stop s1" lttctl stop s1
ok_cmd "stop s2" lttctl stop s2
bt "$OUT1" "$TEST_TMP/o1"
is "$(count_events "$TEST_TMP/o1" ltt_test:seq) $(count_events "$TEST_TMP/o1" ltt_test:types) $(count_events "$TEST_TMP/o1" ltt_test:crit) $(count_events "$TEST_TMP/o1" ltt_test:debug)" \
	"$N $N 0 0" "s1: seq and types $N each, crit and debug excluded"
is "$(wc -l <"$TEST_TMP/o1")" $((2 * N)) "s1: nothing else"
bt "$OUT2" "$TEST_TMP/o2"
is "$(count_events "$TEST_TMP/o2" ltt_test:types) $(wc -l <"$TEST_TMP/o2")" "$N $N" \
	"s2: types only (seq DEBUG_LINE and debug too verbose, crit excluded)"

# ---- a rule's identity ----
run lttctl enable-event -s s1 -u 'ltt_test:*' -x 'ltt_test:crit,ltt_test:de*'
is "$RC" 1 "the same exclusions in another order: the same rule"
like "$ERR" "an identical event rule is already enabled" "EVENT_EXISTS"
run lttctl enable-event -s s1 -u 'ltt_test:*' -x 'ltt_test:crit'
is "$RC" 0 "other exclusions: another rule"
ok_cmd "a filter on seq" lttctl enable-event -s s1 -u 'ltt_test:seq' --filter 'seq < 10'
run lttctl enable-event -s s1 -u 'ltt_test:seq' --filter 'seq < 10'
is "$RC" 1 "the same filter again: EVENT_EXISTS"
ok_cmd "another filter: another rule" \
	lttctl enable-event -s s1 -u 'ltt_test:seq' --filter 'role == "ma*" || !(thread >= 1)'
ok_cmd "a filter and a log level" \
	lttctl enable-event -s s1 -u 'ltt_test:seq' --filter 'seq < 10' --loglevel-only DEBUG_LINE
ok_cmd "no filter: another rule" lttctl enable-event -s s1 -u 'ltt_test:seq'
is "$(rules s1)" "ltt_test:* (loglevel: any) (excludes: ltt_test:crit,ltt_test:de*) [enabled]
ltt_test:* (loglevel: any) (excludes: ltt_test:crit) [enabled]
ltt_test:seq (loglevel: any) [enabled] [filter: seq < 10]
ltt_test:seq (loglevel: any) [enabled] [filter: role == \"ma*\" || !(thread >= 1)]
ltt_test:seq (loglevel: DEBUG_LINE only) [enabled] [filter: seq < 10]
ltt_test:seq (loglevel: any) [enabled]" "list: each rule with its exclusions and filter"

# --mi xml: the same, and valid against the schema
run lttctl --mi xml list s1
is "$RC" 0 "list --mi xml"
printf '%s\n' "$STDOUT" >"$TEST_TMP/list.xml"
is "$(mi_valid "$TEST_TMP/list.xml")" "$TEST_TMP/list.xml validates" \
	"list --mi xml validates against LTTng's mi-lttng-4.1.xsd"
is "$(grep -c '<filter_expression>' "$TEST_TMP/list.xml") $(grep -c '<exclusions>' "$TEST_TMP/list.xml")" "3 2" \
	"list --mi xml: three filters, two exclusion lists"
like "$STDOUT" "<filter_expression>role == &quot;ma\\*&quot; \\|\\| !\\(thread &gt;= 1\\)</filter_expression>" \
	"list --mi xml: the filter's text, escaped"
like "$(tr -d ' \n' <<<"$STDOUT")" "<exclusions><exclusion>ltt_test:crit</exclusion><exclusion>ltt_test:de\\*</exclusion></exclusions>" \
	"list --mi xml: the exclusions"

# disable-event PATTERN disables every rule of the pattern, filtered or not
ok_cmd "disable-event ltt_test:seq" lttctl disable-event -s s1 -u 'ltt_test:seq'
is "$(rules s1 | grep -c '^ltt_test:seq.*\[disabled\]')" 4 "its four rules are disabled"
ok_cmd "enable one of them again" lttctl enable-event -s s1 -u 'ltt_test:seq' --filter 'seq < 10'
is "$(rules s1 | grep -c '^ltt_test:seq.*\[enabled\]')" 1 "that one only"

# ---- save / load: the same rules, enabled or not ----
lttctl list s1 >"$TEST_TMP/before"
ok_cmd "save s1" lttctl save s1 -o "$TEST_TMP/saved.ltt"
xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$TEST_TMP/saved.ltt" 2>/dev/null
is $? 0 "the saved file validates against session.xsd"
is "$(grep -c '<filter>' "$TEST_TMP/saved.ltt") $(grep -c '<exclusion>' "$TEST_TMP/saved.ltt")" "3 3" \
	"saved: three filters, three exclusions"
ok_cmd "destroy s1" lttctl destroy s1
ok_cmd "load it" lttctl load -i "$TEST_TMP/saved.ltt" s1
lttctl list s1 >"$TEST_TMP/after"
is "$(diff "$TEST_TMP/before" "$TEST_TMP/after")" "" "list after load: identical"
sed 's|<filter>seq &lt; 10</filter>|<filter>seq \&lt;</filter>|' "$TEST_TMP/saved.ltt" >"$TEST_TMP/bad.ltt"
run lttctl load -f -i "$TEST_TMP/bad.ltt" s1
is "$RC" 1 "load: a saved filter that does not parse is refused"
like "$ERR" "filter expression is not valid" "load: said so"
is "$(lttctl list s1)" "$(cat "$TEST_TMP/before")" "load: the refusal changed nothing"

# ---- the client protocol from the wire ----
minor=$(sed -n 's/^#define LTT_CLIENT_MINOR[[:space:]]*\([0-9]*\).*/\1/p' "$LTT_TOP_SRCDIR/src/common/proto/client-proto.h" | head -1)
# rule7 PATTERN FILTER EXCLUSIONS: ENABLE_EVENT of minor 7 in s1's channel0
# (its shape until minor 21 added a probe's location: sent as minor 20)
rule7() {
	echo "req ENABLE_EVENT str:s1 u32:2 str:channel0 str:$1 u32:0 u32:0 u32:0 str:$2 str:$3"
}
run "$PROTO_CLIENT" "$sock" "hello 1 6" \
	"req ENABLE_EVENT str:s1 u32:2 str:channel0 str:ltt_test:crit u32:0 u32:0 u32:0" \
	"req DISABLE_EVENT str:s1 u32:2 str:channel0 u8:0 str:ltt_test:crit"
version=$("$LTTCTL_BIN" --version | sed 's/^lttctl //')
is "$OUT" "HELLO OK len=18 major=1 minor=$minor version=$version
ENABLE_EVENT OK len=0
DISABLE_EVENT OK len=0" "a minor-6 client enables and disables rules as before"
run "$PROTO_CLIENT" "$sock" "hello 1 20" "$(rule7 'ltt_test:types' 's8<' '')" \
	"$(rule7 'ltt_test:*' '' 'ltt_test:z,ltt_test:a')" \
	"$(rule7 'ltt_test:*' '' 'ltt_*')"
is "$OUT" "HELLO OK len=18 major=1 minor=$minor version=$version
ENABLE_EVENT FILTER len=0
ENABLE_EVENT EXCLUSION len=0
ENABLE_EVENT EXCLUSION len=0" \
	"minor 7: the daemon parses the filter again, checks exclusions (sorted, none taking all)"
run "$PROTO_CLIENT" "$sock" "hello 1 20" "$(rule7 'ltt_test:types' 's8<-5' '')" \
	"req DISABLE_EVENT str:s1 u32:2 str:channel0 u8:0 str: u8:1 str:ltt_test:types u32:0 u32:0 u32:0 str:s8<-6 str:" \
	"req DISABLE_EVENT str:s1 u32:2 str:channel0 u8:0 str: u8:1 str:ltt_test:types u32:0 u32:0 u32:0 str:s8<-5 str:"
is "$OUT" "HELLO OK len=18 major=1 minor=$minor version=$version
ENABLE_EVENT OK len=0
DISABLE_EVENT EVENT_NOT_FOUND len=0
DISABLE_EVENT OK len=0" "minor 7: DISABLE_EVENT of one rule exactly"
is "$(rules s1 | grep '^ltt_test:types')" "ltt_test:types (loglevel: any) [disabled] [filter: s8<-5]" \
	"that rule is disabled"
