#!/bin/bash
# The client protocol from the wire: HELLO first, versions, framing errors
# that drop the connection, unknown commands, and payloads that are
# truncated, unterminated, out of range or invalid, each answered with the
# right status and changing nothing.  Each malformed request has a
# well-formed twin that succeeds, so a failure is the defect's doing.
# Through all of it the daemon keeps serving lttctl.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client

sock="$LTT_RUNDIR/client.sock"
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
pid=$(sessiond_pid)
version=$("$LTTCTL_BIN" --version | sed 's/^lttctl //')
minor=$(sed -n 's/^#define LTT_CLIENT_MINOR[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$LTT_TOP_SRCDIR/src/common/proto/client-proto.h")
hello_ok="HELLO OK len=18 major=1 minor=$minor version=$version"
MAGIC=0x4c54544c

# wire DESC WANT STEP...: a new connection runs the steps; its output is WANT.
wire() {
	local desc=$1 want=$2
	shift 2
	run "$PROTO_CLIENT" "$sock" "$@"
	is "$OUT" "$want" "$desc"
}
# bad DESC STATUS REQ...: after HELLO, the request REQ ("CMD TOKEN...") gets
# STATUS and the connection still serves (a LIST_SESSIONS follows).
bad() {
	local desc=$1 status=$2 req=$3 cmd=${3%% *}
	wire "$desc" "$hello_ok
$cmd $status len=0
LIST_SESSIONS OK len=$list_len count=$count sessions=$names" "hello" "req $req" "req LIST_SESSIONS"
}
refresh() {
	local line
	line=$("$PROTO_CLIENT" "$sock" hello "req LIST_SESSIONS" | tail -n 1)
	list_len=$(sed 's/.* len=\([0-9]*\) .*/\1/' <<<"$line")
	count=$(sed 's/.* count=\([0-9]*\) .*/\1/' <<<"$line")
	names=$(sed 's/.* sessions=//' <<<"$line")
}
state() { "$PROTO_CLIENT" "$sock" dump; }

# Payloads.  session NAME TYPE OUTPUT SNAPSHOT LIVE
session() { echo "str:$1 u32:$2 str:$3 u8:$4 u32:$5"; }
# channel SESSION DOMAIN NAME SUBBUF NUM OVERWRITE SWITCH READ TFSIZE TFCOUNT BUFTYPE
channel() { echo "str:$1 u32:$2 str:$3 u64:$4 u64:$5 u8:$6 u32:$7 u32:$8 u64:$9 u64:${10} u32:${11}"; }
# rule SESSION DOMAIN CHANNEL PATTERN LLTYPE LEVEL
rule() { echo "str:$1 u32:$2 str:$3 str:$4 u32:$5 u32:$6"; }

# --- HELLO first
wire "a command before HELLO: PROTOCOL, then the connection is closed" \
	"LIST_SESSIONS PROTOCOL len=0
EOF" "req LIST_SESSIONS" "expect-eof"
wire "an unknown command before HELLO: PROTOCOL, closed" \
	"cmd=999 PROTOCOL len=0
EOF" "req 999" "expect-eof"
wire "CREATE_SESSION before HELLO: PROTOCOL, closed" \
	"CREATE_SESSION PROTOCOL len=0
EOF" "req CREATE_SESSION $(session early 1 /tmp/early 0 0)" "expect-eof"
wire "HELLO: the daemon's version; the connection serves" \
	"$hello_ok
LIST_SESSIONS OK len=4 count=0 sessions=" "hello" "req LIST_SESSIONS"
wire "HELLO 2.0: VERSION_MISMATCH, closed" \
	"HELLO VERSION_MISMATCH len=0
EOF" "hello 2 0" "expect-eof"
wire "HELLO 0.0: VERSION_MISMATCH, closed" \
	"HELLO VERSION_MISMATCH len=0
EOF" "hello 0 0" "expect-eof"
wire "HELLO 1.99: accepted, the daemon says its minor ($minor)" \
	"$hello_ok
LIST_SESSIONS OK len=4 count=0 sessions=" "hello 1 99" "req LIST_SESSIONS"
wire "HELLO with 4 bytes: PROTOCOL, closed" \
	"HELLO PROTOCOL len=0
EOF" "req HELLO u32:1" "expect-eof"
wire "HELLO with 9 bytes: PROTOCOL, closed" \
	"HELLO PROTOCOL len=0
EOF" "req HELLO u32:1 u32:0 u8:0" "expect-eof"
run lttctl list
is "$OUT" "No sessions." "nothing was created before HELLO"

# --- framing errors drop the connection without a reply
wire "bad magic before HELLO: dropped" "EOF" "hdr 0x12345678 1 0 0 8" "expect-eof"
wire "bad magic after HELLO: dropped" "$hello_ok
EOF" "hello" "hdr 0x4c54544d 6 0 0 0" "expect-eof"
wire "non-zero reserved field: dropped" "$hello_ok
EOF" "hello" "hdr $MAGIC 6 1 0 0" "expect-eof"
wire "payload over 8 MiB - 16: dropped" "$hello_ok
EOF" "hello" "hdr $MAGIC 6 0 0 8388593" "expect-eof"
wire "payload length 0xffffffff: dropped" "$hello_ok
EOF" "hello" "hdr $MAGIC 2 0 0 0xffffffff" "expect-eof"
wire "a header cut short, then the client leaves" "$hello_ok" "hello" "split 8 LIST_SESSIONS"
wire "the largest message (8 MiB): read whole, PROTOCOL for its junk, connection kept" \
	"$hello_ok
LIST_SESSIONS PROTOCOL len=0
LIST_SESSIONS OK len=4 count=0 sessions=" "hello" "req LIST_SESSIONS zeros:8388592" "req LIST_SESSIONS"
wire "a request in pieces (3 bytes, then the rest)" "$hello_ok
LIST_SESSIONS OK len=4 count=0 sessions=" "hello" "split 3 LIST_SESSIONS" "rest" "reply"
wire "pipelined requests: HELLO and two LIST_SESSIONS in one go, answered in order" \
	"$hello_ok
LIST_SESSIONS OK len=4 count=0 sessions=
LIST_SESSIONS OK len=4 count=0 sessions=" \
	"send HELLO u32:1 u32:0" "send LIST_SESSIONS" "send LIST_SESSIONS" "reply" "reply" "reply"
ok "$(proc_alive "$pid"; echo $?)" "the daemon runs after the framing errors"

# --- unknown commands: NOT_SUPPORTED, the connection stays
for cmd in 0 999 4096 65535; do
	wire "command $cmd: NOT_SUPPORTED, the connection still serves" "$hello_ok
cmd=$cmd NOT_SUPPORTED len=0
LIST_SESSIONS OK len=4 count=0 sessions=" "hello" "req $cmd" "req LIST_SESSIONS"
done
wire "command 999 with a payload: NOT_SUPPORTED, payload skipped" "$hello_ok
cmd=999 NOT_SUPPORTED len=0
LIST_SESSIONS OK len=4 count=0 sessions=" "hello" "req 999 str:whatever u64:1" "req LIST_SESSIONS"

# --- well-formed twins: the encodings below are right
# The reply is the session's info: name, id, uuid, uid, flags, output, time.
run "$PROTO_CLIENT" "$sock" "hello" "req CREATE_SESSION $(session p1 1 "$TEST_TMP/out/p1" 0 0)"
is "$OUT" "$hello_ok
CREATE_SESSION OK len=$((4 + 3 + 8 + 4 + 37 + 4 + 1 + 1 + 4 + 4 + 4 + ${#TEST_TMP} + 8 + 8))" \
	"CREATE_SESSION well-formed: OK, with the session's info"
wire "ENABLE_EVENT with the default channel (empty name), the domain's first: OK" "$hello_ok
ENABLE_EVENT OK len=0" "hello" "req ENABLE_EVENT $(rule p1 2 '' uev 0 0)"
wire "ENABLE_CHANNEL well-formed: OK" "$hello_ok
ENABLE_CHANNEL OK len=0" "hello" "req ENABLE_CHANNEL $(channel p1 2 c1 8192 4 0 0 0 0 0 1)"
wire "ENABLE_EVENT well-formed: OK" "$hello_ok
ENABLE_EVENT OK len=0" "hello" "req ENABLE_EVENT $(rule p1 2 c1 ev1 1 4)"
wire "DISABLE_EVENT well-formed: OK" "$hello_ok
DISABLE_EVENT OK len=0" "hello" "req DISABLE_EVENT str:p1 u32:2 str:c1 u8:0 str:ev1"
# A streamed session is created without asking its relay (as LTTng): its
# start reaches the relay, refused below.
run "$PROTO_CLIENT" "$sock" "hello" "req CREATE_SESSION $(session n1 2 net://127.0.0.1:1:2 0 0)" \
	"req ENABLE_EVENT $(rule n1 2 '' uev 0 0)"
is "$(sed 's/ len=.*//' <<<"$OUT")" "HELLO OK
CREATE_SESSION OK
ENABLE_EVENT OK" "CREATE_SESSION of a relay where nothing listens: OK, the relay not asked"
run_noclock lttctl list p1
is "$STDOUT" "Session p1 ($TEST_TMP/out/p1) [inactive]

=== Domain: User space ===

Buffering scheme: per-uid

$(listed_channel channel0)
      uev (loglevel: any) [enabled]

$(listed_channel c1 enabled '8 KiB')
      ev1 (loglevel: WARNING or more severe) [disabled]" \
	"lttctl list shows what the raw requests made"

refresh
STATE=$(state)

# --- malformed payloads: PROTOCOL, connection kept, nothing changed
bad "CREATE_SESSION without payload" PROTOCOL "CREATE_SESSION"
bad "CREATE_SESSION below its minimum size" PROTOCOL "CREATE_SESSION str:p2"
bad "CREATE_SESSION without its last field" PROTOCOL "CREATE_SESSION str:p2 u32:1 str:/tmp/p2 u8:0"
bad "CREATE_SESSION with a byte too many" PROTOCOL "CREATE_SESSION $(session p2 1 /tmp/p2 0 0) u8:0"
bad "a string without its NUL" PROTOCOL "CREATE_SESSION rawstr:2:p2 u32:1 str:/tmp/p2 u8:0 u32:0"
bad "a string with a NUL inside" PROTOCOL "CREATE_SESSION u32:4 u8:112 nul u8:120 nul u32:1 str:/tmp/p2 u8:0 u32:0"
bad "a string of length 0" PROTOCOL "CREATE_SESSION u32:0 u32:1 str:/tmp/p2 u8:0 u32:0"
bad "a string longer than the message" PROTOCOL "CREATE_SESSION rawstr:200:p2 u32:1 str:/tmp/p2 u8:0 u32:0"
bad "a name of 300 bytes (over 256)" PROTOCOL "CREATE_SESSION rep:300:n u32:1 str:/tmp/p2 u8:0 u32:0"
bad "an output of 5000 bytes (over 4096)" PROTOCOL "CREATE_SESSION str:p2 u32:1 rep:5000:o u8:0 u32:0"
bad "output type 3" PROTOCOL "CREATE_SESSION $(session p2 3 /tmp/p2 0 0)"
bad "snapshot flag 2" PROTOCOL "CREATE_SESSION $(session p2 1 /tmp/p2 2 0)"
bad "a session name without NUL" PROTOCOL "START_SESSION rawstr:2:p1"
bad "START_SESSION with a byte too many" PROTOCOL "START_SESSION str:p1 u8:0"
bad "STOP_SESSION without its wait flag" PROTOCOL "STOP_SESSION str:p1"
bad "STOP_SESSION wait flag 2" PROTOCOL "STOP_SESSION str:p1 u8:2"
bad "DESTROY_SESSION with a byte too many" PROTOCOL "DESTROY_SESSION str:p1 u8:0"
bad "LIST_SESSIONS with a payload" PROTOCOL "LIST_SESSIONS u32:0"
bad "GET_SESSION with a byte too many" PROTOCOL "GET_SESSION str:p1 u8:0"
bad "ENABLE_CHANNEL domain 0" PROTOCOL "ENABLE_CHANNEL $(channel p1 0 c2 8192 4 0 0 0 0 0 1)"
bad "ENABLE_CHANNEL domain 6" PROTOCOL "ENABLE_CHANNEL $(channel p1 6 c2 8192 4 0 0 0 0 0 1)"
bad "ENABLE_CHANNEL domain 99" PROTOCOL "ENABLE_CHANNEL $(channel p1 99 c2 8192 4 0 0 0 0 0 1)"
bad "ENABLE_CHANNEL domain 3 (JUL: an agent domain has no channels of its own)" DOMAIN \
	"ENABLE_CHANNEL $(channel p1 3 c2 8192 4 0 0 0 0 0 1)"
bad "ENABLE_CHANNEL buffer type 4" PROTOCOL "ENABLE_CHANNEL $(channel p1 2 c2 8192 4 0 0 0 0 0 4)"
bad "ENABLE_CHANNEL overwrite flag 7" PROTOCOL "ENABLE_CHANNEL $(channel p1 2 c2 8192 4 7 0 0 0 0 1)"
bad "ENABLE_CHANNEL without its buffer type" PROTOCOL "ENABLE_CHANNEL str:p1 u32:2 str:c2 u64:8192 u64:4 u8:0 u32:0 u32:0 u64:0 u64:0"
bad "DISABLE_CHANNEL domain 7" PROTOCOL "DISABLE_CHANNEL str:p1 u32:7 str:c1"
bad "ENABLE_EVENT log level type 3" PROTOCOL "ENABLE_EVENT $(rule p1 2 c1 ev2 3 0)"
bad "ENABLE_EVENT log level 15 (user space's end at 14)" LOGLEVEL "ENABLE_EVENT $(rule p1 2 c1 ev2 1 15)"
bad "ENABLE_EVENT log level -1 (levels are signed; user space's start at 0)" LOGLEVEL \
	"ENABLE_EVENT $(rule p1 2 c1 ev2 1 0xffffffff)"
bad "ENABLE_EVENT python level 1000001 (python's end at 1000000)" LOGLEVEL "ENABLE_EVENT $(rule p1 5 '' qa.app 1 1000001)"
bad "ENABLE_EVENT JUL rule in channel c1 (domain 3 is JUL)" PYTHON_CHANNEL "ENABLE_EVENT $(rule p1 3 c1 jul.app 0 0)"
bad "ENABLE_EVENT python rule in channel c1" PYTHON_CHANNEL "ENABLE_EVENT $(rule p1 5 c1 qa.app 1 30)"
bad "ENABLE_EVENT a pattern of 300 bytes" PROTOCOL "ENABLE_EVENT str:p1 u32:2 str:c1 rep:300:e u32:0 u32:0"
bad "DISABLE_EVENT all flag 2" PROTOCOL "DISABLE_EVENT str:p1 u32:2 str:c1 u8:2 str:ev1"
bad "DISABLE_EVENT domain 0" PROTOCOL "DISABLE_EVENT str:p1 u32:0 str:c1 u8:1 str:"

# --- well-formed but invalid values: the daemon checks them itself
m="SESSION_NAME"
bad "a session name with '/'" $m "CREATE_SESSION $(session a/b 1 /tmp/p2 0 0)"
bad "an empty session name" $m "CREATE_SESSION $(session '' 1 /tmp/p2 0 0)"
bad "a session name starting with '.'" $m "CREATE_SESSION $(session .p 1 /tmp/p2 0 0)"
bad "a session name holding U+202E (right-to-left override)" $m \
	"CREATE_SESSION $(session $'p\xe2\x80\xae2' 1 /tmp/p2 0 0)"
bad "a session name holding U+200B (zero width space)" $m \
	"CREATE_SESSION $(session $'\xe2\x80\x8bp2' 1 /tmp/p2 0 0)"
bad "a relative output directory" OUTPUT_PATH "CREATE_SESSION $(session p2 1 rel/dir 0 0)"
bad "an empty local output (the library's to fill)" OUTPUT_PATH "CREATE_SESSION $(session p2 1 '' 0 0)"
bad "no output, yet a path" OUTPUT_CONFLICT "CREATE_SESSION $(session p2 0 /tmp/p2 0 0)"
bad "a network output that is a file:// URL" URL "CREATE_SESSION $(session p2 2 file:///tmp/p2 0 0)"
bad "a network output that is tcp://" URL "CREATE_SESSION $(session p2 2 tcp://h 0 0)"
bad "a network output that is no URL" URL "CREATE_SESSION $(session p2 2 /tmp/p2 0 0)"
bad "snapshot and live" SNAPSHOT_LIVE "CREATE_SESSION $(session p2 2 net://h 1 100)"
bad "live with a local output" LIVE_NEEDS_NET "CREATE_SESSION $(session p2 1 /tmp/p2 0 100)"
bad "a live timer under 1000 us" LIVE_TIMER "CREATE_SESSION $(session p2 2 net://127.0.0.1:1:2 0 999)"
bad "START of a session whose relay is not there" RELAY_REFUSED "START_SESSION str:n1"
bad "a session that exists" SESSION_EXISTS "CREATE_SESSION $(session p1 1 /tmp/p2 0 0)"
bad "a streamed session that exists" SESSION_EXISTS "CREATE_SESSION $(session n1 2 net://127.0.0.1:1:2 0 0)"
# Minor 6: the daemon fills an empty name and local output, from the home
# the client sends after the attributes (older minors: refused above).
# (The daemon answers HELLO with its own minor, whatever the client's.)
wire "minor 6: CREATE_SESSION without the client's home: PROTOCOL" "$hello_ok
CREATE_SESSION PROTOCOL len=0
LIST_SESSIONS OK len=$list_len count=$count sessions=$names" \
	"hello 1 6" "req CREATE_SESSION $(session p2 1 '' 0 0)" "req LIST_SESSIONS"
wire "minor 6: a relative home for the default output: OUTPUT_PATH" "$hello_ok
CREATE_SESSION OUTPUT_PATH len=0
LIST_SESSIONS OK len=$list_len count=$count sessions=$names" \
	"hello 1 6" "req CREATE_SESSION $(session p2 1 '' 0 0) str:rel/home" "req LIST_SESSIONS"
bad "DATA_PENDING of an unknown session" SESSION_NOT_FOUND "DATA_PENDING str:nope"
bad "DATA_PENDING with trailing bytes" PROTOCOL "DATA_PENDING str:p1 u8:0"
bad "RELAY_STATUS of an unknown session" SESSION_NOT_FOUND "RELAY_STATUS str:nope"
wire "DATA_PENDING of a local session: nothing pending (one byte)" "$hello_ok
DATA_PENDING OK len=1" "hello 1 2" "req DATA_PENDING str:p1"
wire "RELAY_STATUS of a local session: no relay (a zero count)" "$hello_ok
RELAY_STATUS OK len=4" "hello 1 2" "req RELAY_STATUS str:p1"
bad "channel name 'metadata'" CHANNEL_NAME "ENABLE_CHANNEL $(channel p1 2 metadata 8192 4 0 0 0 0 0 1)"
bad "an empty channel name" CHANNEL_NAME "ENABLE_CHANNEL $(channel p1 2 '' 8192 4 0 0 0 0 0 1)"
bad "a 220-byte channel name (over LTT_CHANNEL_NAME_MAX)" CHANNEL_NAME \
	"ENABLE_CHANNEL $(channel p1 2 "$(printf 'c%.0s' $(seq 220))" 8192 4 0 0 0 0 0 1)"
bad "sub-buffer size 3000" SUBBUF_SIZE "ENABLE_CHANNEL $(channel p1 2 c2 3000 4 0 0 0 0 0 1)"
bad "sub-buffer size 8 GiB" SUBBUF_SIZE "ENABLE_CHANNEL $(channel p1 2 c2 8589934592 4 0 0 0 0 0 1)"
bad "sub-buffer count 3" SUBBUF_COUNT "ENABLE_CHANNEL $(channel p1 2 c2 8192 3 0 0 0 0 0 1)"
bad "global buffers for a user channel" BUFFER_TYPE "ENABLE_CHANNEL $(channel p1 2 c2 8192 4 0 0 0 0 0 3)"
bad "per-pid buffers next to per-uid ones" BUFFER_TYPE_MISMATCH "ENABLE_CHANNEL $(channel p1 2 c2 8192 4 0 0 0 0 0 2)"
bad "tracefile size below the sub-buffer size" TRACEFILE_SIZE "ENABLE_CHANNEL $(channel p1 2 c2 8192 4 0 0 0 4096 0 1)"
bad "an enabled channel, same attributes" CHANNEL_ENABLED "ENABLE_CHANNEL $(channel p1 2 c1 8192 4 0 0 0 0 0 1)"
bad "changed attributes of an existing channel" CHANNEL_ATTR "ENABLE_CHANNEL $(channel p1 2 c1 16384 4 0 0 0 0 0 1)"
bad "an unknown channel" CHANNEL_NOT_FOUND "DISABLE_CHANNEL str:p1 u32:2 str:nope"
bad "an event pattern with a space" EVENT_NAME "ENABLE_EVENT str:p1 u32:2 str:c1 u32:4 u8:97 u8:32 u8:98 nul u32:0 u32:0"
bad "an empty event pattern" EVENT_NAME "ENABLE_EVENT $(rule p1 2 c1 '' 0 0)"
# (a rule in a channel the session lacks makes it, as LTTng's: G1; one
# whose name can't be a channel's makes nothing)
bad "a rule in a channel named with a '/'" CHANNEL_NAME "ENABLE_EVENT $(rule p1 2 no/pe ev 0 0)"
bad "the identical rule twice" EVENT_EXISTS "ENABLE_EVENT $(rule p1 2 channel0 uev 0 0)"
bad "the default channel (empty name) next to c1" NEED_CHANNEL_NAME "ENABLE_EVENT $(rule p1 2 '' uev 0 0)"
bad "disable in the default channel (empty name) next to c1" NEED_CHANNEL_NAME \
	"DISABLE_EVENT str:p1 u32:2 str: u8:0 str:uev"
bad "disable an unknown rule" EVENT_NOT_FOUND "DISABLE_EVENT str:p1 u32:2 str:c1 u8:0 str:nope"
bad "an unknown session" SESSION_NOT_FOUND "START_SESSION str:nope"
bad "stop a session not started" SESSION_NOT_STARTED "STOP_SESSION str:p1 u8:1"

now=$(state)
is "$now" "$STATE" "none of the rejected requests changed anything"

# --- the daemon keeps serving lttctl
ok "$(proc_alive "$pid"; echo $?)" "the daemon still runs (same pid)"
is "$(sessiond_pid)" "$pid" "the pid file still names it"
run lttctl create after --no-output
is "$RC" 0 "lttctl create works after all of it"
run lttctl list
is "$OUT" "  1) p1 ($TEST_TMP/out/p1) [inactive]
  2) n1 (net://127.0.0.1:1:2) [inactive]
  3) after (no output) [inactive]" "list: only the sessions of well-formed requests"

term_sessiond
done_testing
