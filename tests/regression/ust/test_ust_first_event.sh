#!/bin/bash
# test_ust_first_event.sh - a program's constructor connects to the
# session daemon and sends REGISTER and the first TRACEPOINTS in one
# write, then serves the daemon's answers itself until REGISTER_DONE
# (its channels mapped: src/ust/comm.c, serve_registrations()), while the
# library's thread, started meanwhile, waits without allocating (no
# malloc() arena of its own at start-up): the events a program records
# at the start of main() are all in the trace, start after start, the
# state dump before them; and the thread serves what comes later (a rule
# enabled while the program runs).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 17

RUNS=20
ok_cmd "create" lttctl create s1 -o "$TEST_TMP/trace"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "enable lttng_ust_statedump:*" lttctl enable-event -u 'lttng_ust_statedump:*'
ok_cmd "start" lttctl start

# first_write FILE: "TYPE TYPE WHO" of the first two messages in the
# first write of strace -xx output FILE on the connection to app.sock,
# and who made the connection: "main" (the program's first thread, its
# constructor) or "thread" (another)
first_write() {
	python3 - "$1" <<'PY'
import re, struct, sys
fd = main = None
for line in open(sys.argv[1]):
    if main is None and re.match(r'\d+ +execve\(', line):
        main = line.split()[0]
    m = re.match(r'(\d+) +connect\((\d+), \{sa_family=AF_UNIX, sun_path="((?:\\x[0-9a-f]{2})*)"\}.*= 0$', line)
    if m and fd is None and bytes.fromhex(m.group(3).replace('\\x', '')).endswith(b'/app.sock'):
        pid, fd = m.group(1), m.group(2)
        continue
    m = fd and re.match(pid + r' +(sendto|sendmsg)\(' + fd + r', (?:\{msg_name=NULL, msg_namelen=0, msg_iov=\[\{iov_base=)?"((?:\\x[0-9a-f]{2})*)"', line)
    if m:
        b = bytes.fromhex(m.group(2).replace('\\x', ''))
        t1, = struct.unpack_from('<H', b, 4)
        n, = struct.unpack_from('<I', b, 12)
        t2 = struct.unpack_from('<H', b, 16 + n + 4)[0] if len(b) >= 16 + n + 16 else 0
        print(t1, t2, 'main' if pid == main else 'thread')
        break
PY
}

# who_read FILE TYPE: "main" or "thread": who of the program (strace -f
# -xx output FILE) read the first message of TYPE from the daemon
who_read() {
	python3 - "$1" "$2" <<'PY'
import re, struct, sys
main = None
for line in open(sys.argv[1]):
    if main is None and re.match(r'\d+ +execve\(', line):
        main = line.split()[0]
    m = re.match(r'(\d+) +recvmsg\(\d+, \{msg_name=NULL, msg_namelen=0, msg_iov=\[\{iov_base="((?:\\x[0-9a-f]{2})*)"', line)
    if m:
        b = bytes.fromhex(m.group(2).replace('\\x', ''))
        if len(b) >= 6 and b[:4] == b'ATTL' and struct.unpack_from('<H', b, 4)[0] == int(sys.argv[2]):
            print('main' if m.group(1) == main else 'thread')
            break
PY
}

# The last under strace: REGISTER (type 1) and the first TRACEPOINTS
# (type 3) go in one write, which wakes the daemon once, made by the
# constructor, which reads the answers up to REGISTER_DONE (type 4).
fails=0
for i in $(seq $RUNS); do
	if [ "$i" = "$RUNS" ] && command -v strace >/dev/null; then
		# (LeakSanitizer does not work under ptrace: no leak check there)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" timeout "$TEST_TIMEOUT" \
			strace -f -qq -xx -s 65536 -e trace=execve,connect,sendto,sendmsg,recvmsg,mmap \
			-o "$TEST_TMP/reg.strace" "$UST_APP" -n 1 -r "run$i" || fails=$((fails + 1))
	else
		ust_app -n 1 -r "run$i" || fails=$((fails + 1))
	fi
done
is $fails 0 "$RUNS programs, one event each at the start of main(), ran"
if command -v strace >/dev/null; then
	is "$(first_write "$TEST_TMP/reg.strace")" "1 3 main" \
		"REGISTER and the first TRACEPOINTS went in one write, by the constructor"
	is "$(who_read "$TEST_TMP/reg.strace" 4)" main "the constructor read REGISTER_DONE itself"
	# glibc reserves 128 MiB for each arena it makes (HEAP_MAX_SIZE, twice)
	is "$(grep -c 'mmap(NULL, 134217728, PROT_NONE' "$TEST_TMP/reg.strace")" 0 \
		"no malloc() arena made at start-up (the library's thread allocated nothing)"
else
	skip 3 "strace is not installed"
fi
# A program that is not instrumented, the library preloaded: no module
# registers, so it never connects (the library connects ahead of the
# program's module only in a program that has one).
if command -v strace >/dev/null; then
	asan_runtime_env
	env "${SAN_ENV[@]}" LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$LTT_TOP_BUILDDIR/src/ust/.libs/libltt-ust.so" \
		timeout "$TEST_TIMEOUT" strace -f -qq -e trace=connect -o "$TEST_TMP/plain.strace" true
	is "$(grep -c 'app\.sock' "$TEST_TMP/plain.strace")" 0 \
		"a program without tracepoints, the library preloaded, does not connect"
else
	skip 1 "strace is not installed"
fi

# A registered program, waiting: a rule enabled now reaches it through
# the connection its constructor handed to the library's thread.
open_fifo ready "$TEST_TMP/ready"
open_fifo go "$TEST_TMP/go"
ust_app_bg -w "$TEST_TMP/ready" -s "$TEST_TMP/go" -n 5 -L -r live
wait_ready $ready
ok $? "a program registered and waiting"
ok_cmd "enable ltt_test:crit while it waits" lttctl enable-event -u ltt_test:crit
echo go >&$go
wait $BG_PID
is $? 0 "the waiting program, released, ran"
ok_cmd "stop" lttctl stop

bt "$TEST_TMP/trace" "$TEST_TMP/out"
is "$(cat "$TEST_TMP/out.err")" "" "babeltrace2 reads the trace, no warning"
missing=
for i in $(seq $RUNS); do
	[ "$(grep -c "role = \"run$i\"" "$TEST_TMP/out")" = 1 ] || missing="$missing run$i"
done
is "$missing" "" "every program's first event recorded, once"
# each start's dump (start, its objects, end) precedes its program's event
order=$(awk '/ lttng_ust_statedump:end: / { ended++ }
	/ ltt_test:seq: .*role = "run/ { if (ended < ++seq) bad++ }
	END { print ended + 0, seq + 0, bad + 0 }' "$TEST_TMP/out")
is "$order" "$((RUNS + 1)) $RUNS 0" \
	"$((RUNS + 1)) state dumps, each ended before its program's first event"
is "$(count_events "$TEST_TMP/out" ltt_test:crit)" 5 \
	"the rule enabled while the program waited: its 5 ltt_test:crit"
done_testing
