#!/bin/bash
# test_lttng_ust_216.sh - programs built with LTTng-UST 2.16's headers
# (provider ABI 4, Debian sid's liblttng-ust-dev in a root made by
# scripts/debian-root.sh) record into ltt through its liblttng-ust.so.1,
# blob fields included: babeltrace2 2.1 prints the very text of ltt's CTF
# 2 trace and of LTTng 2.16's own trace of the same binary, run in the
# same test (its daemons in the root), and LTTng's blob metadata
# (static- and dynamic-length blobs with their media types); in CTF 1.8,
# which has no blob, ltt's trace and LTTng 2.16's show the bytes alike.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

ust_setup
unsanitized_or_skip
root_or_skip sid
plan 19
N=60

# ltt's LTTng-UST libraries, where the root's programs find them
ltt_ust_lib
A=$TEST_TMP/app
mkdir -p "$A"
cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{blob_app.c,blob_tp.h,compat_app.c,compat_tp.tp} "$A/"
in_root sh -c 'cd "$1" && cc -I. -o blob_app blob_app.c -llttng-ust -ldl &&
	lttng-gen-tp compat_tp.tp -o compat_tp.h -o compat_tp.c >/dev/null &&
	cc -I. -o compat_app compat_app.c compat_tp.c -llttng-ust -ldl' sh "$A" >"$A/build.log" 2>&1
ok $? "blob_app and compat_app built with LTTng-UST 2.16's headers (in the sid root)" ||
	sed 's/^/# /' "$A/build.log"

# A binary with LTTng's call sites and no provider (sid's lttng, for its
# own tracepoints) loads liblttng-ust-tracepoint.so.1 and -common.so.1:
# on ltt's, as on lttng-ust's, that is no program to register (it did:
# listed by lttng list -u, and each command waited for the daemon)
in_root_ltt env LTT_UST_DEBUG=1 lttng --version >"$TEST_TMP/lttng-v.out" 2>&1
like "$(cat "$TEST_TMP/lttng-v.out")" "LTTng Trace Control\) 2\.16" \
	"sid's lttng runs on ltt's LTTng-UST libraries"
unlike "$(cat "$TEST_TMP/lttng-v.out")" "libltt-ust.*registration" \
	"  it does not register with ltt's daemon (no provider)"

# ltt records the binaries: a CTF 2 and a CTF 1.8 session
for f in 1.8 2; do
	lttctl -q create "s$f" -F "ctf-$f" -o "$TEST_TMP/t$f" &&
		lttctl -q enable-event -u -s "s$f" 't16:*' && lttctl -q enable-event -u -s "s$f" 'compat:*' &&
		lttctl -q start "s$f" || break
done
ok $? "two ltt sessions, CTF 2 and CTF 1.8"
# as ltt-run runs a program: ltt's liblttng-ust.so.1 first
in_root_ltt sh -c '"$1/blob_app" "$2" && "$1/compat_app" 4' sh "$A" $N \
	>"$TEST_TMP/ltt-run.out" 2>&1
ok $? "the programs ran on ltt's liblttng-ust.so.1"
unlike "$(cat "$TEST_TMP/ltt-run.out")" "provider ABI" "no provider refused"
lttctl -q stop s2 && lttctl -q stop s1.8
bt21 "$TEST_TMP/t2" "$TEST_TMP/ltt2" && bt21 "$TEST_TMP/t1.8" "$TEST_TMP/ltt18"
ok $? "babeltrace2 2.1 reads both traces"
is "$(grep -c ' t16:blob: ' "$TEST_TMP/ltt2"):$(grep -c ' t16:ints: ' "$TEST_TMP/ltt2"):$(grep -c ' compat:basic: ' "$TEST_TMP/ltt2")" \
	"$N:$N:4" "every event of both programs (ABI 4 providers, with and without blobs)"
like "$(grep -m 2 ' t16:blob: ' "$TEST_TMP/ltt2" | tail -n 1)" \
	"\\{ i = 1, fixed = \\{ 01 02 fe ff \\}, _var_length = 1, var = \\{ 01 \\}, plain = \\{ 61 62 \\}, s = \"abcdefghi\" \\}" \
	"the blobs' bytes, as babeltrace2 2.1 shows a blob"
run python3 - "$TEST_TMP/t2/ust/uid/$(id -u)/64-bit/metadata" <<'EOF'
import json, sys
for f in open(sys.argv[1], 'rb').read().split(b'\x1e')[1:]:
    f = json.loads(f)
    if f.get('name') == 't16:blob':
        for m in f['payload-field-class']['member-classes']:
            c = m['field-class']
            if 'blob' in c['type']:
                print(m['name'], c['type'], c.get('media-type', '-'))
EOF
is "$STDOUT" "fixed static-length-blob application/octet-stream
var dynamic-length-blob text/plain
plain static-length-blob -" "the CTF 2 metadata: the blobs, with their media types"

# sid's own helper libraries (built with LTTng-UST 2.16's headers) on
# ltt's liblttng-ust.so.1: the libc wrapper records, and the fd helper's
# close_range() (2.16's, through liblttng-ust-common's
# lttng_ust_safe_close_range_fd) keeps the tracer's fds open
cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{helper_app.c,helper_lib.c} "$A/"
in_root sh -c 'cd "$1" && cc -o helper_app helper_app.c -ldl -lpthread &&
	cc -fPIC -shared -o helper_lib.so helper_lib.c' sh "$A" >"$A/helper-build.log" 2>&1
ok $? "helper_app built in the sid root" || sed 's/^/# /' "$A/helper-build.log"
lttctl -q create h -o "$TEST_TMP/h" && lttctl -q enable-event -u -s h 'lttng_ust_libc:*' &&
	lttctl -q start h
in_root_ltt LD_PRELOAD="liblttng-ust-libc-wrapper.so.1 liblttng-ust-fd.so.1" \
	"$A/helper_app" "$A/helper_lib.so" close_range >"$TEST_TMP/helpers.out" 2>&1
ok $? "helper_app ran with sid's libc wrapper and fd helper preloaded, on ltt's liblttng-ust.so.1, and closed its fds with close_range()" ||
	diag "$(cat "$TEST_TMP/helpers.out")"
like "$(cat "$TEST_TMP/helpers.out")" "kept sockets [1-9]" "... which left the tracer's sockets open"
lttctl -q stop h
bt "$TEST_TMP/h" "$TEST_TMP/helpers"
is "$(grep -cE ' lttng_ust_libc:malloc: .*size = 100[15]' "$TEST_TMP/helpers")" 2 \
	"sid's libc wrapper recorded the mallocs before and after the close_range"

# LTTng 2.16 records the same binary, in the root, with its own daemons
in_root sh -c 'export HOME="$1" LTTNG_UST_REGISTER_TIMEOUT=-1
	lttng-sessiond -b --no-kernel >/dev/null 2>&1 || exit 1
	for f in 1.8 2; do
		lttng create "l$f" -F "ctf-$f" -o "$1/l$f" >/dev/null &&
			lttng enable-event -u -s "l$f" "t16:*" >/dev/null && lttng start "l$f" >/dev/null ||
			exit 1
	done
	"$2/blob_app" "$3" >/dev/null && lttng destroy -a >/dev/null
	rc=$?
	kill "$(cat /run/lttng/lttng-sessiond.pid)" 2>/dev/null
	exit $rc' sh "$TEST_TMP" "$A" $N >"$TEST_TMP/lttng.log" 2>&1
ok $? "LTTng 2.16 recorded the same binary (CTF 2 and CTF 1.8)"
bt21 "$TEST_TMP/l2" "$TEST_TMP/lttng2" && bt21 "$TEST_TMP/l1.8" "$TEST_TMP/lttng18"
ok $? "babeltrace2 2.1 reads LTTng 2.16's traces"
# EVENT's lines in FILE, the time and the CPU (which differ between runs) taken off
payloads() { grep " $2: " "$1" | sed 's/^\[[^]]*\] ([^)]*) [^ ]* [^ ]* { cpu_id = [0-9]* }, //'; }
is "$(diff <(payloads "$TEST_TMP/lttng2" t16:blob) <(payloads "$TEST_TMP/ltt2" t16:blob) | head -n 4)$(payloads "$TEST_TMP/ltt2" t16:blob | wc -l)" \
	"$N" "CTF 2: ltt's t16:blob events read as LTTng 2.16's, all $N"
is "$(diff <(payloads "$TEST_TMP/lttng2" t16:ints) <(payloads "$TEST_TMP/ltt2" t16:ints) | head -n 4)" \
	"" "  and its t16:ints events"
is "$(diff <(payloads "$TEST_TMP/lttng18" t16:blob) <(payloads "$TEST_TMP/ltt18" t16:blob) | head -n 4)$(payloads "$TEST_TMP/ltt18" t16:blob | wc -l)" \
	"$N" "CTF 1.8: the blobs' bytes as LTTng 2.16 writes them there, all $N"
done_testing
