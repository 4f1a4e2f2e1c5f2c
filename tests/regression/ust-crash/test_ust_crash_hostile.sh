#!/bin/bash
# test_ust_crash_hostile.sh - ltt-crash takes its input as another's
# word (doc/reliability.md): a directory of a session's --shm-path files,
# copied, then made hostile as its owner could: a symbolic link to / and
# one named metadata to a file the owner may not read, a FIFO for
# metadata, a stream whose header says its write position is far past
# its sub-buffers, a stream cut short, a file of another file system
# (/proc), and, run by root on another user's copy, a hard link to a file
# only root reads.  Each run ends (bounded), follows no link, reads no
# FIFO, copies nothing the owner could not read, keeps the events it can,
# and says what it left out (exit 1).
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

CRASH="$LTT_TOP_BUILDDIR/src/crash/ltt-crash"
ust_setup
[ -x "$CRASH" ] || { echo "Bail out! $CRASH not built"; exit 1; }
plan 23
N=100

lttctl -q create h --shm-path "$TEST_TMP/shm" -o "$TEST_TMP/out" &&
	lttctl -q enable-event -u ltt_test:seq && lttctl -q start && ust_app -t 1 -n $N -r h &&
	lttctl -q stop
ok $? "a session in files (--shm-path): $N events recorded, stopped"
BASE=$TEST_TMP/base
cp -a "$TEST_TMP/shm" "$BASE"
lttctl -q destroy h
TDIR=$(cd "$BASE" && echo h-*/ust/uid/"$(id -u)"/64-bit)
[ -f "$BASE/$TDIR/metadata" ]
ok $? "its copy: the trace $TDIR"

# variant NAME: a fresh copy of the base in $TEST_TMP/NAME (V), its trace in T
variant() {
	V=$TEST_TMP/$1
	cp -a "$BASE" "$V"
	T=$V/$TDIR
}
# crash NAME ARGS...: ltt-crash -v -x $TEST_TMP/x.NAME ARGS, bounded; RC, ERR, X
crash() {
	X=$TEST_TMP/x.$1
	shift
	run timeout 60 "$CRASH" -v -x "$X" "$@"
}

crash plain "$BASE"
is "$RC" 0 "the untouched copy: extracted, exit 0"
like "$ERR" "1 traces, [0-9]+ streams: [0-9]+ packets, $N events recovered, 0 lost" "  every event"

# a symbolic link to /, beside the trace
variant rootlink
ln -s / "$V/$(dirname "$TDIR")/root"
ln -s /proc/self "$V/self"
crash rootlink "$V"
is "$RC" 1 "links to / and /proc/self: exit 1 (said)"
like "$ERR" "/root: a symbolic link, not followed" "  the link to / is not followed"
is "$(find "$X" | wc -l):$(du -sk "$X" | cut -f1)" \
	"$(find "$TEST_TMP/x.plain" | wc -l):$(du -sk "$TEST_TMP/x.plain" | cut -f1)" \
	"  the output is the untouched copy's, nothing of / nor /proc"
like "$ERR" "$N events recovered" "  every event of the trace"

# metadata: a link to a file its owner may not read, then a FIFO
variant metalink
install -m 600 /dev/null "$TEST_TMP/secret" && echo "root's secret" >"$TEST_TMP/secret"
rm "$T/metadata" && ln -s "$TEST_TMP/secret" "$T/metadata"
crash metalink "$V"
is "$RC" 1 "metadata, a link to another file: exit 1"
like "$ERR" "metadata: can't be copied: a symbolic link, not followed; trace left out" "  the trace left out, saying why"
is "$(grep -rl "root's secret" "$X" 2>/dev/null | wc -l)" 0 "  nothing of the linked file is copied"
variant fifo
rm "$T/metadata" && mkfifo "$T/metadata"
crash fifo "$V"
is "$RC" 1 "metadata, a FIFO: ltt-crash ends (it is not read), exit 1"
like "$ERR" "metadata: can't be copied: not a regular file" "  saying it is not a regular file"

# a stream whose header's write position is far past its sub-buffers
variant offset
S=$(cd "$T" && ls channel0_* | head -n 1)
printf '\207' | dd of="$T/$S" bs=1 seek=69 conv=notrunc 2>/dev/null
crash offset "$V"
ok "$([ "$RC" != 124 ]; echo $?)" "a header byte set to 0x87 (a write offset past the buffer): ltt-crash ends ($RC)"
unlike "$ERR" "18446744073709551" "  no count wraps"

# a stream cut short (its owner truncated it)
variant cut
S=$(cd "$T" && ls channel0_* | head -n 1)
truncate -s $(($(stat -c %s "$T/$S") / 2)) "$T/$S"
crash cut "$V"
is "$RC" 1 "a stream file cut to half its size: exit 1, no crash"
like "$ERR" "$S: not an ltt ring buffer of this version \\(its header is not one, or the file was cut while read\\): left out" \
	"  that stream left out, saying so"

# root on another user's directory: that user's rights
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	variant other
	chown -R nobody "$V"
	ln "$TEST_TMP/secret" "$T/channel0_99" 2>/dev/null ||
		cp --preserve=mode "$TEST_TMP/secret" "$T/channel0_99"
	chown root "$T/channel0_99"
	crash other "$V"
	is "$RC" 1 "root on nobody's copy with root's 0600 file in it: exit 1"
	like "$ERR" "channel0_99: Permission denied" \
		"  the file is opened with nobody's rights: refused"
	is "$(grep -rl "root's secret" "$X" 2>/dev/null | wc -l)" 0 "  nothing of it is copied"
	like "$ERR" "$N events recovered" "  nobody's trace is extracted whole"
else
	skip 4 "needs root and the user nobody"
fi

# the input's file system only: /proc below a bind mount is another one
if [ "$(id -u)" = 0 ]; then
	variant mount
	mkdir "$V/proc"
	unshare -m sh -c 'mount --bind /proc "$1/proc" && exec timeout 60 "$2" -x "$3" "$1"' \
		sh "$V" "$CRASH" "$TEST_TMP/x.mount" >/dev/null 2>"$TEST_TMP/mount.err"
	like "$(cat "$TEST_TMP/mount.err")" "/proc: on another file system" \
		"/proc mounted inside: not entered, said"
	is "$(find "$TEST_TMP/x.mount" -path '*proc/*' 2>/dev/null | wc -l)" 0 "  nothing of /proc copied"
else
	skip 2 "needs root (a mount namespace)"
fi
done_testing
