#!/bin/sh
# tests/wall-limit.sh TEST [ARG...]: run one test of the suite with a
# bound on its wall-clock time, LTT_TEST_WALL seconds (default 1200).
# Every wait inside a test is bounded already; this bound is for what
# escapes them (a process stuck in the kernel, a wait that was never
# written), so that one hang shows as that test's failure, with its log,
# instead of holding the whole suite until CI gives up on it.  The test
# is sent SIGTERM (its traps clean up its daemons), then SIGKILL 30 s on.
limit=${LTT_TEST_WALL:-1200}
timeout -k 30 "$limit" "$@"
rc=$?
case $rc in
124 | 137)
	echo "Bail out! $1 ran past its wall-clock bound of $limit s (LTT_TEST_WALL) and was stopped: something in it waited without a bound; its log above shows the last step it took"
	exit 1
	;;
esac
exit "$rc"
