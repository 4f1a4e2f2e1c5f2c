#!/bin/bash
# test_ust_time_ns.sh - a program whose CLOCK_MONOTONIC is not the
# daemon's, in a time namespace of another monotonic offset, is not
# traced: its timestamps would not fit the traces (doc/clock.md), so the
# daemon refuses its registration and says so in its log.  Programs in
# time namespaces of the daemon's monotonic offset (none; another
# CLOCK_BOOTTIME only) see the same clock and are traced whole, as is one
# beside the daemon.  Each way the daemon finds out: one that dropped
# root's rights (the default) reads the programs' /proc/PID/timens_offsets
# itself, any user's to read; the same where /proc hides root's processes
# from it (hidepid=2, "invisible", in the daemon's own mount namespace) asks
# its privileged part (TIME_NS); one that keeps root's rights
# (--privsep-user=root) reads them itself.  The refused program comes
# first: each program is checked on its own (the daemon keeps only its own
# offset), so those after it are traced after a refusal.  The daemons log
# without a rate limit (--log-ratelimit=0): a refused program tries again
# while it runs, and every refusal must be in the log.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

[ "$(id -u)" = 0 ] || skip_all "a time namespace needs root"
unshare --fork --time --monotonic 86400 true 2>/dev/null ||
	skip_all "unshare --time does not work here (util-linux or the kernel's CONFIG_TIME_NS)"
[ "$(unshare --fork --time sh -c 'stat -L -c %i /proc/self/ns/time')" != \
	"$(stat -L -c %i /proc/self/ns/time)" ] || skip_all "unshare --time left the time namespace as it was"

N=20
# round NAME: with the daemon running, a session with a program a day
# ahead, two in time namespaces of the daemon's monotonic clock and one
# beside the daemon; checks what was recorded and what the daemon
# logged; stops the daemon.
round() {
	local name=$1 out=$TEST_TMP/$1
	ok_cmd "$name: create" lttctl create "$name" -o "$out"
	ok_cmd "$name: enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
	ok_cmd "$name: start" lttctl start
	(close_fifos; exec timeout "$TEST_TIMEOUT" unshare --fork --time --monotonic 86400 \
		"$UST_APP" -n $N -r ahead)
	ok $? "$name: the program a day ahead runs to its end, untraced"
	(close_fifos; exec timeout "$TEST_TIMEOUT" unshare --fork --time "$UST_APP" -n $N -r other)
	ok $? "$name: the program in a namespace of no offset runs"
	(close_fifos; exec timeout "$TEST_TIMEOUT" unshare --fork --time --boottime 86400 \
		"$UST_APP" -n $N -r boot)
	ok $? "$name: the program whose CLOCK_BOOTTIME only is a day ahead runs"
	(close_fifos; exec timeout "$TEST_TIMEOUT" "$UST_APP" -n $N -r here)
	ok $? "$name: the program beside the daemon runs"
	ok_cmd "$name: stop" lttctl stop
	bt "$out" "$out.txt"
	is "$(grep -c 'role = "ahead"' "$out.txt")" 0 "$name: the program a day ahead: none of its events"
	is "$(grep -c 'role = "other"' "$out.txt"):$(grep -c 'role = "boot"' "$out.txt"):$(grep -c 'role = "here"' "$out.txt")" \
		"$N:$N:$N" "$name: the programs of the daemon's clock (no offset, CLOCK_BOOTTIME ahead, beside it): their $N events each"
	# (a refused program tries again while it runs: one line or more)
	is "$(grep 'runs in another time namespace' "$SESSIOND_LOG" | grep -o 'pid [0-9]*' |
		sort -u | wc -l)" 1 "$name: the daemon's log says so of the one refused"
	term_sessiond
}

ust_setup --log --log-ratelimit=0
# $TEST_TMP/hidden-sessiond ARGS...: the daemon in a mount namespace of its own whose
# /proc hides other users' processes from it once it dropped root's rights
cat >"$TEST_TMP/hidden-sessiond" <<EOS
#!/bin/sh
exec unshare --mount --propagation private sh -c \
	'mount -t proc -o hidepid=2 proc /proc && exec "\$0" "\$@"' "$SESSIOND" "\$@"
EOS
chmod +x "$TEST_TMP/hidden-sessiond"

plan 34
round dropped
SESSIOND=$TEST_TMP/hidden-sessiond logged_sessiond --log-ratelimit=0 ||
	{ echo "Bail out! the session daemon did not start in its own mount namespace"; exit 1; }
like "$(awk '$5 == "/proc" { l = $0 } END { print l }' "/proc/$(sessiond_pid)/mountinfo")" "hidepid=(2|invisible)" \
	"hidden: the daemon's /proc hides other users' processes"
round hidden
logged_sessiond --privsep-user=root --log-ratelimit=0 || { echo "Bail out! the session daemon did not start"; exit 1; }
round kept
done_testing
