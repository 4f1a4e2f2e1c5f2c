#!/bin/bash
# test_ust_time_ns.sh - a program in another time namespace is not traced:
# its CLOCK_MONOTONIC is not the trace's (doc/clock.md), so the daemon
# refuses its registration and says so in its log; a program beside it,
# in the daemon's time namespace, is traced whole.  Both ways the daemon
# finds out: a root daemon that dropped root's rights (the default) asks
# its privileged part (TIME_NS), one that keeps them (--privsep-user=root)
# looks itself.  The programs come in turn, the two refused ones first:
# each is checked on its own (the daemon keeps its own namespace only),
# so the third, beside the daemon, is traced after two refusals.  The
# daemons log without a rate limit (--log-ratelimit=0): a refused program
# tries again while it runs, and every refusal must be in the log.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

[ "$(id -u)" = 0 ] || skip_all "a time namespace needs root"
unshare --fork --time --monotonic 86400 true 2>/dev/null ||
	skip_all "unshare --time does not work here (util-linux or the kernel's CONFIG_TIME_NS)"
[ "$(unshare --fork --time sh -c 'stat -L -c %i /proc/self/ns/time')" != \
	"$(stat -L -c %i /proc/self/ns/time)" ] || skip_all "unshare --time left the time namespace as it was"

N=20
# round NAME: with the daemon running, a session with two programs in
# another time namespace (a day ahead, then none ahead: the namespace is
# what counts) and one beside the daemon; checks what was recorded and
# what the daemon logged; stops the daemon.
round() {
	local name=$1 out=$TEST_TMP/$1
	ok_cmd "$name: create" lttctl create "$name" -o "$out"
	ok_cmd "$name: enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
	ok_cmd "$name: start" lttctl start
	(close_fifos; exec timeout "$TEST_TIMEOUT" unshare --fork --time --monotonic 86400 \
		"$UST_APP" -n $N -r ahead)
	ok $? "$name: the program a day ahead runs to its end, untraced"
	(close_fifos; exec timeout "$TEST_TIMEOUT" unshare --fork --time "$UST_APP" -n $N -r other)
	ok $? "$name: the program in a namespace of no offset runs to its end, untraced"
	(close_fifos; exec timeout "$TEST_TIMEOUT" "$UST_APP" -n $N -r here)
	ok $? "$name: the program beside the daemon runs"
	ok_cmd "$name: stop" lttctl stop
	bt "$out" "$out.txt"
	is "$(grep -c 'role = "here"' "$out.txt")" $N "$name: the program beside the daemon: its $N events"
	is "$(grep -c -E 'role = "(ahead|other)"' "$out.txt")" 0 \
		"$name: the programs in other time namespaces: none"
	# (a refused program tries again while it runs: one line or more each)
	is "$(grep 'runs in another time namespace' "$SESSIOND_LOG" | grep -o 'pid [0-9]*' |
		sort -u | wc -l)" 2 "$name: the daemon's log says so of each of the two"
	term_sessiond
}

ust_setup --log --log-ratelimit=0
plan 20
round dropped
logged_sessiond --privsep-user=root --log-ratelimit=0 || { echo "Bail out! the session daemon did not start"; exit 1; }
round kept
done_testing
