#!/bin/bash
# test_ust_statedump.sh - lttng_ust_statedump:* as lttng-ust writes them:
# at each start (a program's first one too when it registered before),
# before the program's events, start, then bin_info (the program's path,
# base address, size, PIC), build_id (the id readelf reads), debug_link
# (name and CRC-32 of the separate debug file) for each loaded object,
# procname, end; only into channels that enable them,
# through their filters; again at each regenerate statedump, recorded
# when the command returns.  Then the users' tool: babeltrace2 --debug-info
# turns the ip context into the function and the source line of the
# tracepoint call, from the program's own DWARF and from a separate
# debug file found through the debug link.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
cc_cmd=${LTT_TEST_CC:-cc}
command -v "${cc_cmd%% *}" >/dev/null || skip_all "no C compiler to build the program"
command -v objcopy >/dev/null || skip_all "no objcopy to split the debug information"
plan 38

# The program: three hits from one known line of known_call().
src="$TEST_TMP/sdapp.c"
cat >"$src" <<'EOF'
#include <ltt/tracepoint.h>
LTT_TRACEPOINT_EVENT(sdapp, hit, LTT_TP_ARGS(int n), LTT_TP_FIELDS(ltt_field_integer(int, n, n)))
static volatile int sink;
static void __attribute__((noinline)) known_call(int i)
{
	ltt_tracepoint(sdapp, hit, i); sink = i; /* THE LINE */
	sink++;
}
int main(void)
{
	for (int i = 0; i < 3; i++)
		known_call(i);
	return 0;
}
EOF
line=$(grep -n 'THE LINE' "$src" | cut -d: -f1)
libdir="$LTT_TOP_BUILDDIR/src/ust/.libs"
mkdir -p "$TEST_TMP/bin" "$TEST_TMP/split"
app="$TEST_TMP/bin/sdapp"
# the build's compiler and flags (a sanitizer build's library needs its
# runtime), with DWARF and a build id whatever they say; unoptimized, as
# babeltrace2 2.0 finds no line for an address that has a discriminator
# (the call in an optimizer's out-of-line branch)
# shellcheck disable=SC2086
$cc_cmd ${LTT_TEST_CFLAGS:-} -g -O0 -Wl,--build-id=sha1 -o "$app" "$src" \
	-I"$LTT_TOP_SRCDIR/include" -L"$libdir" -lltt-ust -Wl,-rpath,"$libdir"
ok $? "a program with debug information and a build id builds"
# the same, its debug information in a file of its own, found by the link
split="$TEST_TMP/split/sdapp"
cp "$app" "$split" && objcopy --only-keep-debug "$split" "$split.debug" &&
	objcopy --strip-debug --add-gnu-debuglink="$split.debug" "$split"
ok $? "a stripped copy with a .gnu_debuglink to sdapp.debug"

# session SESSION OUT [ENABLE-EVENT ARGS...]: a session on channel c with
# the ip and vpid contexts, sdapp:hit and the given rules, started.
session() {
	local name=$1 out=$2
	shift 2
	lttctl -q create "$name" -o "$out" &&
		lttctl -q enable-channel -u c &&
		lttctl -q enable-event -u sdapp:hit -c c &&
		{ [ $# -eq 0 ] || lttctl -q enable-event -u "$@" -c c; } &&
		lttctl -q add-context -u -c c -t ip -t vpid &&
		lttctl -q start
}

session s1 "$TEST_TMP/t1" 'lttng_ust_statedump:*'
ok $? "a session recording sdapp:hit and lttng_ust_statedump:*"
"$app"
is $? 0 "the program runs"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t1" "$TEST_TMP/o1"
pid=$(grep -m1 -o 'vpid = [0-9]*' "$TEST_TMP/o1" | cut -d' ' -f3)
events=$(sed -n 's/.* \(lttng_ust_statedump:[a-z_]*\|sdapp:hit\): .*/\1/p' "$TEST_TMP/o1" |
	uniq | tr '\n' ' ')
like "$events" '^lttng_ust_statedump:start (lttng_ust_statedump:(bin_info|build_id|debug_link) )+lttng_ust_statedump:procname lttng_ust_statedump:end sdapp:hit $' \
	"in order: start, the objects, procname, end, then the program's events"
is "$(grep -c 'lttng_ust_statedump:start: ' "$TEST_TMP/o1")" 1 "one dump"
mine=$(grep "lttng_ust_statedump:bin_info: .*path = \"$app\"" "$TEST_TMP/o1")
like "$mine" "vpid = $pid }.*memsz = [1-9][0-9]*, .*is_pic = 1, has_build_id = 1, has_debug_link = 0" \
	"bin_info of the program: its path, a size, PIC, a build id, no debug link"
baddr=$(grep -o 'baddr = 0x[0-9A-F]*' <<<"$mine" | cut -d' ' -f3)
ip=$(grep -m1 'sdapp:hit' "$TEST_TMP/o1" | grep -o 'ip = 0x[0-9A-F]*' | cut -d' ' -f3)
memsz=$(grep -o 'memsz = [0-9]*' <<<"$mine" | cut -d' ' -f3)
ok "$([ -n "$ip" ] && ((ip >= baddr && ip < baddr + memsz)); echo $?)" \
	"the tracepoint's ip lies in the program's range ($ip in $baddr + $memsz)"
want=$(readelf -n "$app" | sed -n 's/.*Build ID: //p')
got=$(grep "lttng_ust_statedump:build_id: .*baddr = $baddr," "$TEST_TMP/o1" |
	grep -o '\] = 0x[0-9A-F]*' | sed 's/.*0x//' | while read -r b; do printf '%02x' "0x$b"; done)
is "$got" "$want" "build_id: the program's, as readelf reads it"
like "$(grep -c 'lttng_ust_statedump:bin_info: .*path = "[^"]*libltt-ust[^"]*"' "$TEST_TMP/o1")" '^1$' \
	"bin_info of libltt-ust too"
like "$(grep 'lttng_ust_statedump:procname: ' "$TEST_TMP/o1")" 'procname = "sdapp"' \
	"procname: the program's name"
ok "$(! grep -q 'bin_info: .*path = "[^/]' "$TEST_TMP/o1"; echo $?)" "no object without a file (the vDSO)"

# babeltrace2's debug-info filter: function and line of the call.
timeout "$BT_TIMEOUT" babeltrace2 --debug-info "$TEST_TMP/t1" >"$TEST_TMP/d1" 2>"$TEST_TMP/d1.err"
is $? 0 "babeltrace2 --debug-info reads the trace"
hits=$(grep -c "sdapp:hit: .*debug_info = { bin = \"sdapp+0x[0-9a-f]*\", func = \"known_call+0x[0-9a-f]*\", src = \"sdapp.c:$line\" }" "$TEST_TMP/d1")
is "$hits" 3 "each hit: bin sdapp, func known_call, src sdapp.c:$line"

# The stripped copy: its debug information through the debug link.
session s2 "$TEST_TMP/t2" 'lttng_ust_statedump:*'
"$split"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t2" "$TEST_TMP/o2"
mine=$(grep "lttng_ust_statedump:bin_info: .*path = \"$split\"" "$TEST_TMP/o2")
like "$mine" "has_build_id = 1, has_debug_link = 1" "the stripped copy: a build id and a debug link"
baddr=$(grep -o 'baddr = 0x[0-9A-F]*' <<<"$mine" | cut -d' ' -f3)
crc=$(/usr/bin/python3 -c 'import sys, zlib; print(zlib.crc32(open(sys.argv[1], "rb").read()))' "$split.debug")
like "$(grep "lttng_ust_statedump:debug_link: .*baddr = $baddr," "$TEST_TMP/o2")" \
	"crc = $crc, filename = \"sdapp.debug\"" "debug_link: the file's name and its CRC-32 ($crc)"
timeout "$BT_TIMEOUT" babeltrace2 --debug-info "$TEST_TMP/t2" >"$TEST_TMP/d2" 2>"$TEST_TMP/d2.err"
is "$(grep -c "sdapp:hit: .*func = \"known_call+0x[0-9a-f]*\", src = \"sdapp.c:$line\"" "$TEST_TMP/d2")" 3 \
	"through the debug link too: known_call, sdapp.c:$line"

# Each start dumps again; a stop does not.
session s3 "$TEST_TMP/t3" 'lttng_ust_statedump:*'
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -n 1 -w "$TEST_TMP/ready" -s "$TEST_TMP/go"
wait_ready "$ready"
lttctl -q stop && lttctl -q start
echo go >&"$go"
wait "$BG_PID"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t3" "$TEST_TMP/o3"
upid=$READY_PIDS
is "$(grep -c "lttng_ust_statedump:start: .*vpid = $upid }" "$TEST_TMP/o3")" 2 \
	"a program registered in a started session, stopped and started again: two dumps"
is "$(grep -c "lttng_ust_statedump:end: .*vpid = $upid }" "$TEST_TMP/o3")" 2 "  each ended"

# A program registered before the session starts has no channel of it
# then: its dump comes at the session's first start, whole, before its
# events, as LTTng-UST's (lttng-tools' regen-statedump/test_ust counts
# it); a stop and a start make the second.
lttctl -q create s8 -o "$TEST_TMP/t8" && lttctl -q enable-channel -u c &&
	lttctl -q enable-event -u 'lttng_ust_statedump:*,ltt_test:seq' -c c &&
	lttctl -q add-context -u -c c -t vpid
ust_app_bg -n 1 -w "$TEST_TMP/ready" -s "$TEST_TMP/go"
wait_ready "$ready"
fpid=$READY_PIDS
lttctl -q start s8
ok $? "a program registered, then its session started"
lttctl -q stop s8 && lttctl -q start s8
echo go >&"$go"
wait "$BG_PID"
lttctl -q stop s8 && lttctl -q destroy s8
bt "$TEST_TMP/t8" "$TEST_TMP/o8"
for e in start procname end; do
	is "$(grep -c "lttng_ust_statedump:$e: .*vpid = $fpid }" "$TEST_TMP/o8")" 2 \
		"  $e: once at the first start, once at the second"
done
is "$(grep -c "lttng_ust_statedump:bin_info: .*vpid = $fpid }.*path = \"[^\"]*libltt-ust[^\"]*\"" "$TEST_TMP/o8")" 2 \
	"  bin_info of libltt-ust in each"
like "$(sed -n 's/.* \(lttng_ust_statedump:[a-z_]*\|ltt_test:seq\): .*/\1/p' "$TEST_TMP/o8" | uniq | tr '\n' ' ')" \
	"^lttng_ust_statedump:start (lttng_ust_statedump:[a-z_]+ )+lttng_ust_statedump:end lttng_ust_statedump:start (lttng_ust_statedump:[a-z_]+ )+lttng_ust_statedump:end ltt_test:seq \$" \
	"  two dumps, then the program's event"

# regenerate statedump: each program records its dump again, now, in
# the session's channels (once at registration, then once per regenerate).
session s6 "$TEST_TMP/t6" 'lttng_ust_statedump:*,ltt_test:seq'
ust_app_bg -n 1 -w "$TEST_TMP/ready" -s "$TEST_TMP/go"
wait_ready "$ready"
run lttctl regenerate statedump
is "$RC:$OUT" "0:State dump regenerated for session s6." "regenerate statedump of a user-space session"
lttctl -q regenerate statedump
echo go >&"$go"
wait "$BG_PID"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t6" "$TEST_TMP/o6"
rpid=$READY_PIDS
is "$(grep -c "lttng_ust_statedump:start: .*vpid = $rpid }" "$TEST_TMP/o6")" 3 \
	"  the program's dump at registration, then at each of two regenerates"
is "$(grep -c "lttng_ust_statedump:procname: .*vpid = $rpid }" "$TEST_TMP/o6")" 3 "  each whole (procname)"
like "$(sed -n 's/.* \(lttng_ust_statedump:[a-z_]*\|ltt_test:seq\): .*/\1/p' "$TEST_TMP/o6" | uniq | tail -n 2 | tr '\n' ' ')" \
	"^lttng_ust_statedump:end ltt_test:seq $" "  before the event the program emitted after them"

# The command returns once each program has recorded its dump: one killed
# as soon as it returns still has it in the trace.  (The daemon used not
# to wait: a program that exited right after, before reading the command,
# never dumped, which a loaded machine showed.)
session s7 "$TEST_TMP/t7" 'lttng_ust_statedump:*'
ust_app_bg -n 1 -w "$TEST_TMP/ready" -s "$TEST_TMP/go"
wait_ready "$ready"
kpid=$READY_PIDS
lttctl -q regenerate statedump && kill -KILL "$kpid"
ok $? "regenerate statedump, then the program killed at once"
wait "$BG_PID"
lttctl -q stop && lttctl -q destroy
bt "$TEST_TMP/t7" "$TEST_TMP/o7"
is "$(grep -c "lttng_ust_statedump:end: .*vpid = $kpid }" "$TEST_TMP/o7")" 2 \
	"  its dump at registration and the regenerate's, each whole"

# Only channels that enable them, through their filters.
session s4 "$TEST_TMP/t4"
ok $? "a session without the state dump events"
lttctl -q create s5 -o "$TEST_TMP/t5" && lttctl -q enable-channel -u c &&
	lttctl -q enable-event -u lttng_ust_statedump:bin_info -c c --filter 'path == "*sdapp"' &&
	lttctl -q start
ok $? "and one recording bin_info of objects whose path ends in sdapp only"
"$app"
lttctl -q stop s4 && lttctl -q destroy s4
lttctl -q stop s5 && lttctl -q destroy s5
bt "$TEST_TMP/t4" "$TEST_TMP/o4"
is "$(grep -c 'lttng_ust_statedump' "$TEST_TMP/o4")" 0 "the first has none"
is "$(grep -c 'sdapp:hit' "$TEST_TMP/o4")" 3 "  and the program's 3 hits"
bt "$TEST_TMP/t5" "$TEST_TMP/o5"
is "$(grep -c 'lttng_ust_statedump' "$TEST_TMP/o5")" 1 "the filtered one: one event"
like "$(grep 'lttng_ust_statedump' "$TEST_TMP/o5")" "bin_info: .*path = \"$app\"" "  the program's bin_info"
is "$(lttctl list 2>&1 | grep -c 's[45]')" 0 "both destroyed"
done_testing
