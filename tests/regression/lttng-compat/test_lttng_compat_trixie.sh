#!/bin/bash
# test_lttng_compat_trixie.sh - Debian 13's own LTTng tools and readers on
# ltt: trixie's lttng (lttng-tools 2.13.15, in the trixie root that builds
# ltt, scripts/debian-root.sh) drives ltt-sessiond --lttng-compat as it
# drives LTTng: user-space and kernel (tracefs) sessions, contexts,
# snapshots, rotations, lists; `lttng view` and trixie's babeltrace2
# 2.1.1 read what ltt wrote, CTF 1.8 and CTF 2, event for event.  As root
# in its own mount namespace (/var/run/lttng), the root's /run the test's.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
root_or_skip trixie "$ROOT_BUILD_PKGS"
plan 24
N=300

lttng_client
ROOT_RUN=/run
# trixie's lttng, as root: /var/run/lttng, the daemon's
lttng13() { in_root env LTTNG_HOME="$LTTNG_HOME" timeout "$TEST_TIMEOUT" lttng "$@"; }

like "$(lttng13 --version)" "2\\.13\\.1[5-9]" "the root's lttng is Debian 13's (lttng-tools 2.13.15)"

# --- a user-space session, with a context, read by lttng view and babeltrace2 2.1
ok_cmd "trixie's lttng create u" lttng13 create u -o "$TEST_TMP/u"
ok_cmd "trixie's lttng enable-channel -u c1 --subbuf-size 64k" \
	lttng13 enable-channel -u c1 -s u --subbuf-size 64k
ok_cmd "trixie's lttng enable-event -u 'ltt_test:*' -c c1" lttng13 enable-event -u 'ltt_test:*' -c c1 -s u
ok_cmd "trixie's lttng add-context -u -t vpid -t procname" \
	lttng13 add-context -u -t vpid -t procname -c c1 -s u
ok_cmd "trixie's lttng start u" lttng13 start u
ust_app -n "$N" -r r13 >/dev/null
ok $? "a program records $N events"
run lttng13 list u
like "$OUT" "ltt_test:\\* \\(type: tracepoint\\) \\[enabled\\]" "trixie's lttng list u: its event rule" ||
	diag "$OUT"
like "$OUT" "c1: \\[enabled\\]" "... in its channel c1"
ok_cmd "trixie's lttng stop u" lttng13 stop u
run lttng13 view u
is "$(grep -c ' ltt_test:seq: .*vpid = [0-9]*, procname = ' <<<"$OUT")" "$N" \
	"trixie's lttng view (its babeltrace2 2.1): the $N events, each with vpid and procname" ||
	diag "$(head -n 3 <<<"$OUT") $ERR"
bt21 "$TEST_TMP/u" "$TEST_TMP/u21"
bt "$TEST_TMP/u" "$TEST_TMP/u20"
is "$(cut -d' ' -f2- "$TEST_TMP/u21" | md5sum)" "$(cut -d' ' -f2- "$TEST_TMP/u20" | md5sum)" \
	"trixie's babeltrace2 2.1.1 reads the trace as the host's 2.0 does, line for line"

ok_cmd "trixie's lttng destroy u" lttng13 destroy u

# --- a snapshot session, and a rotation
ok_cmd "trixie's lttng create snap --snapshot" lttng13 create snap --snapshot -o "$TEST_TMP/snap"
lttng13 enable-event -u 'ltt_test:*' -s snap >/dev/null && lttng13 start snap >/dev/null &&
	ust_app -n 50 -r snap >/dev/null && lttng13 snapshot record -s snap >/dev/null
ok $? "trixie's lttng snapshot record, after 50 events"
bt21 "$TEST_TMP/snap" "$TEST_TMP/snap21"
is "$(count_events "$TEST_TMP/snap21" ltt_test:seq)" 50 "trixie's babeltrace2 reads the snapshot's 50 events"
lttng13 destroy snap >/dev/null
ok_cmd "trixie's lttng create rot" lttng13 create rot -o "$TEST_TMP/rot"
lttng13 enable-event -u 'ltt_test:*' -s rot >/dev/null && lttng13 start rot >/dev/null &&
	ust_app -n 40 -r rot >/dev/null
run lttng13 rotate rot
like "$RC:$(tail -n 1 <<<"$OUT")" "^0:Trace chunk archive for session rot is now readable at $TEST_TMP/rot/archives/" \
	"trixie's lttng rotate: the archive's location" || diag "$OUT $ERR"
ust_app -n 40 -r rot >/dev/null && lttng13 stop rot >/dev/null && lttng13 destroy rot >/dev/null
bt21 "$TEST_TMP/rot" "$TEST_TMP/rot21"
is "$(count_events "$TEST_TMP/rot21" ltt_test:seq)" 80 "trixie's babeltrace2 reads the 80 events across the chunks"

# --- CTF 2 (lttctl's; 2.13's lttng has no trace format), read by trixie's babeltrace2
lttctl create c2 --trace-format=ctf-2 -o "$TEST_TMP/c2" >/dev/null &&
	lttctl enable-event -u 'ltt_test:*' -s c2 >/dev/null && lttctl start c2 >/dev/null &&
	ust_app -n 30 -r c2 >/dev/null && lttctl stop c2 >/dev/null
ok $? "lttctl records 30 events in a CTF 2 session"
like "$(lttng13 list c2)" "ltt_test:\\*" "trixie's lttng lists lttctl's CTF 2 session"
bt21 "$TEST_TMP/c2" "$TEST_TMP/c2-21"
is "$(count_events "$TEST_TMP/c2-21" ltt_test:seq)" 30 "trixie's babeltrace2 2.1.1 reads its 30 events"
lttctl destroy c2 >/dev/null

# --- the kernel (tracefs here), from trixie's lttng
lttng13 create k -o "$TEST_TMP/k" >/dev/null && lttng13 enable-event -k sched_switch -s k >/dev/null &&
	lttng13 start k >/dev/null && ust_app -n 20 -r k >/dev/null && lttng13 stop k >/dev/null
ok $? "trixie's lttng records sched_switch in a kernel session"
lttng13 destroy k >/dev/null
bt21 "$TEST_TMP/k" "$TEST_TMP/k21"
ok $(($(grep -c ' sched_switch: ' "$TEST_TMP/k21") == 0)) "trixie's babeltrace2 reads its sched_switch events"
