#!/bin/bash
# /ltt/check.sh of test_lttng_tools_kernel.sh: lttng-tools' own tests, as
# tests/lttng-tools/run.sh --prepare made them on the host (at the same
# path here, /ltt/lttng-tools-dir names it), run by run.sh --prepared in
# this guest, whose kernel loads ltt-tracer.ko and lttng-test.ko.  Each
# test starts its own daemons in its own namespaces, as run.sh does on a
# host, but in this machine's PID namespace (LTT_LTTNG_NO_PIDNS: the
# kernel's pids are the ones the tracker test sees and tracks): the
# unit's root daemon is stopped first.  run.sh's output and
# each test's TAP log go back to the host.
. /ltt/sysd-lib.sh

say() {
	echo "lttng-tools-check: $*" >/dev/console
}
say "stopping $UNIT"
systemctl stop "$UNIT"
dir=$(cat /ltt/lttng-tools-dir)
read -ra tests </ltt/lttng-tools-tests
capture modprobe_dry modprobe -n lttng-test
say "running ${tests[*]}"
# the console shows each test's line as it ends (the host's log keeps it)
LTT_LTTNG_NO_PIDNS=1 /ltt/run.sh -t "$(cat /ltt/lttng-tools-limit)" --prepared "$dir" "${tests[@]}" 2>&1 |
	tee "$OUT/run" >/dev/console
say "done"
mkdir -p "$OUT/logs"
cp "$dir"/*.log "$OUT/logs/" 2>/dev/null
sysd_finish
