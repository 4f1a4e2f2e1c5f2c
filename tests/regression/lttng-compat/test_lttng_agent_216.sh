#!/bin/bash
# test_lttng_agent_216.sh - LTTng 2.16's Python agent as Debian sid ships
# it (python3-lttngust and liblttng-ust-python-agent1t64, installed in an
# overlay of the sid root made by scripts/debian-root.sh) records into
# ltt: a program of the root logs N messages, the agent registers with
# ltt-sessiond --lttng-compat on LTTng's agent port, takes the session's
# python rule, and its events reach ltt's trace through ltt's
# liblttng-ust.so.1; LTTng 2.16's own daemons in the same root record the
# same program, and babeltrace2 2.1 shows the same payloads.  As root in
# its own mount namespace (/var/run/lttng), as test_lttng_compat_216.sh.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
unsanitized_or_skip
root_or_skip sid
plan 6
N=40

# sid's agent in an overlay: the cached root stays as it is
ROOT_OVERLAY=$TEST_TMP/overlay
root_apt_install "$TEST_TMP/install.log" python3-lttngust
ok $? "sid's python3-lttngust (LTTng-UST 2.16's agent) installed in an overlay of the root" ||
	{ tail -n 20 "$TEST_TMP/install.log" | sed 's/^/# /'; echo "Bail out! no agent"; exit 1; }

ltt_ust_lib
cat >"$TEST_TMP/app.py" <<'EOF'
# app.py N: N messages of the logger sid.app, once LTTng's agent registered
import logging
import sys
import lttngust  # noqa: F401  (registers with the session daemon before it returns)

log = logging.getLogger("sid.app")
for i in range(int(sys.argv[1])):
    log.warning("message %d of the agent", i)
EOF

# --- ltt: the daemon in LTTng's place, the root's program on ltt's library
ROOT_RUN=/run
lttctl -q create py -o "$TEST_TMP/ltt" && lttctl -q enable-event -p 'sid.*' -s py && lttctl -q start py
in_root_ltt python3 "$TEST_TMP/app.py" $N >"$TEST_TMP/ltt.out" 2>&1
ok $? "the program logged through sid's agent, on ltt's liblttng-ust.so.1" || diag "$(cat "$TEST_TMP/ltt.out")"
lttctl -q stop py && lttctl -q destroy py

# --- LTTng 2.16, its own daemons in the root
ROOT_RUN=$TEST_TMP/lttng-run in_root bash -c 'export HOME="$1" LTTNG_UST_REGISTER_TIMEOUT=-1
	lttng-sessiond -b --no-kernel >/dev/null 2>&1 || exit 1
	lttng create py -o "$1/lttng" >/dev/null && lttng enable-event -p "sid.*" -s py >/dev/null &&
		lttng start py >/dev/null && python3 "$1/app.py" "$2" && lttng stop py >/dev/null &&
		lttng destroy py >/dev/null
	rc=$?
	kill "$(cat /run/lttng/lttng-sessiond.pid)" 2>/dev/null
	exit $rc' sh "$TEST_TMP" $N >"$TEST_TMP/lttng.log" 2>&1
ok $? "LTTng 2.16 recorded the same program with its own daemons" || diag "$(cat "$TEST_TMP/lttng.log")"

# each python event's payload, the fields that differ from run to run
# (the time, the thread) left out
payloads() {
	norm "$1" | grep '^lttng_python:event: ' |
		sed -e 's/asctime = "[^"]*", //' -e 's/, thread = [0-9]*//' -e 's/, threadName = "[^"]*"//'
}
for t in ltt lttng; do
	bt21 "$TEST_TMP/$t" "$TEST_TMP/$t.raw"
	payloads "$TEST_TMP/$t.raw" >"$TEST_TMP/$t.ev"
done
is "$(grep -c 'logger_name = "sid.app"' "$TEST_TMP/ltt.ev")" $N "ltt's trace: the program's $N events"
is "$(grep -c 'msg = "message [0-9]* of the agent"' "$TEST_TMP/ltt.ev")" $N "... each with its message"
diff "$TEST_TMP/lttng.ev" "$TEST_TMP/ltt.ev" >"$TEST_TMP/diff"
ok $? "the events read as LTTng 2.16's (babeltrace2 2.1)" || diag "$(head -n 10 "$TEST_TMP/diff")"
done_testing
