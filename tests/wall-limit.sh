#!/bin/sh
# tests/wall-limit.sh TEST [ARG...]: run one test of the suite with a
# bound on its wall-clock time, LTT_TEST_WALL seconds (default 1200).
# Every wait inside a test is bounded already; this bound is for what
# escapes them (a process stuck in the kernel, a wait that was never
# written), so that one hang shows as that test's failure, with its log,
# instead of holding the whole suite until CI gives up on it.  The test
# is sent SIGTERM (its traps clean up its daemons), then SIGKILL 30 s on.
#
# Whatever the test started and left running when it ended (its traps
# never ran: it was killed; or they missed one) is killed after it, said
# in a TAP comment: every process of the test inherits LTT_TEST_MARK,
# this run's own, and keeps it (daemons, their privileged part and
# consumers included).  A daemon left so had run on for 100 minutes.
#
# The time the test took ends its log, as a TAP comment
# ("# wall-limit.sh: TEST took N s"): scripts/slowest.sh lists the suite's
# slowest tests from them, so that CI's log says where its time went.
limit=${LTT_TEST_WALL:-1200}
LTT_TEST_MARK="$$.$(date +%s%N)"
export LTT_TEST_MARK
begin=$(date +%s)
timeout -k 30 "$limit" "$@"
rc=$?
mark=$LTT_TEST_MARK
unset LTT_TEST_MARK	# the search's own processes have it not
left=$(grep -lsxzF "LTT_TEST_MARK=$mark" /proc/[0-9]*/environ |
	sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$")
if [ -n "$left" ]; then
	names=
	for p in $left; do
		names="$names $p ($(cat "/proc/$p/comm" 2>/dev/null))"
	done
	# shellcheck disable=SC2086 # a list of pids
	kill -KILL $left 2>/dev/null
	echo "# wall-limit.sh: killed what $1 left running:$names"
fi
echo "# wall-limit.sh: $1 took $(($(date +%s) - begin)) s"
case $rc in
124 | 137)
	echo "Bail out! $1 ran past its wall-clock bound of $limit s (LTT_TEST_WALL) and was stopped: something in it waited without a bound; its log above shows the last step it took"
	exit 1
	;;
esac
exit "$rc"
