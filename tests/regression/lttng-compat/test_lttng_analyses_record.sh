#!/bin/bash
# test_lttng_analyses_record.sh - Debian's lttng-analyses-record (the
# script of python3-lttnganalyses that sets up LTTng's kernel session for
# the analyses), unchanged, drives ltt with ltt's programs under LTTng's
# names, as ltt-lttng-compat installs them:
# - it looks for root's daemon with `pgrep -u root lttng-sessiond`: run
#   as lttng-sessiond, the daemon's part that keeps root's rights is named
#   lttng-sessiond too (by its own name it is ltt-priv), so the script
#   finds it and starts none;
# - of its list of kernel events, every one this kernel has is enabled and
#   each one it lacks is named in an error, as with LTTng's lttng (the
#   list goes on after an error), and the status says some failed, which
#   the script takes as a warning;
# - the session records; on SIGTERM the script destroys it and names the
#   trace, where babeltrace2 finds the load's N getcpu system calls, and
#   lttng-cputop and lttng-syscallstats read it without an error.
# As root with tracefs, in a mount namespace with its own /run and a PID
# namespace with its own /proc: the script's pgrep, and this test's, see
# this test's daemons only.  (So the daemon's state dump, read from that
# /proc, holds the namespace's threads with its ids: doc/kernel-tracefs.md,
# "State dump"; the analyses' names of tasks are not checked here.)
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run --pid "$0" "$@"
test_init
command -v lttng-analyses-record >/dev/null ||
	skip_all "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
plan 11
kernel_lock

N=3000
mkdir -p "$TEST_TMP/bin"
ln -s "$SESSIOND" "$TEST_TMP/bin/lttng-sessiond"
ln -s "$LTTCTL_BIN" "$TEST_TMP/bin/lttng"
# root runs sudo's command as it is (the script asks for sudo unless
# its user is in the tracing group)
printf '#!/bin/sh\nexec "$@"\n' >"$TEST_TMP/bin/sudo"
chmod +x "$TEST_TMP/bin/sudo"
export PATH="$TEST_TMP/bin:$PATH"
unset LTTNG_HOME LTT_PRIVSEP_USER	# (the daemon drops root: its default)

# --- by its own name, root's part is ltt-priv: no root lttng-sessiond
tracefs_sessiond "$LOG"
pid=$(sessiond_pid)
is "$(pgrep -u root -x lttng-sessiond)/$(pgrep -u root -x -P "${pid:-1}" ltt-priv | wc -l)" "/1" \
	"run as ltt-sessiond: its privileged part is ltt-priv, and root has no lttng-sessiond"
stop_sessiond

# --- run as lttng-sessiond (the package's link)
timeout "$TEST_TIMEOUT" "$TEST_TMP/bin/lttng-sessiond" --background --rundir "$LTT_RUNDIR" -vv \
	--kernel-backend=tracefs </dev/null >/dev/null 2>"$LOG" ||
	{ echo "Bail out! lttng-sessiond (ltt-sessiond) did not start"; cat "$LOG"; exit 1; }
pid=$(sessiond_pid)
priv=$(pgrep -u root -x -P "${pid:-1}" lttng-sessiond)
ok "$([ -n "$priv" ] && [ "$(pgrep -u root -x lttng-sessiond)" = "$priv" ]; echo $?)" \
	"run as lttng-sessiond: root's lttng-sessiond is the daemon's privileged part (${priv:-none}), its child"

# The script's list of kernel events, and those this kernel has.
script=$(command -v lttng-analyses-record)
list=$(grep -m1 -o -- '-k sched_switch,[a-z_,]*' "$script" | cut -c4- | tr , '\n' | sort)
kernel=$(lttctl list -k | sed -n 's/^    \([^ ]*\) (type: tracepoint)$/\1/p' | sort)
# and its optional one (writeback_pages_written), enabled alone
optional=$(grep -o -- '-k [a-z_]* -c chan1 >/dev/null 2>&1' "$script" | cut -d' ' -f2)
have=$(comm -12 <(printf '%s\n' $list $optional | sort) <(echo "$kernel"))
lack=$(comm -23 <(echo "$list") <(echo "$kernel"))
diag "the script's list: $(wc -l <<<"$list") events, this kernel lacks $(grep -c . <<<"$lack")"

(cd "$TEST_TMP" && exec lttng-analyses-record) >"$TEST_TMP/rec.out" 2>&1 &
rp=$!
# its line ends with no newline, then a dot a second: each dot ends one here
if ! timeout "$TEST_TIMEOUT" bash -c 'tail -n +1 -F "$1" 2>/dev/null | stdbuf -o0 tr . "\n" |
	grep -q -m1 "now recording"' _ "$TEST_TMP/rec.out"; then
	kill -KILL "$rp"
	echo "Bail out! lttng-analyses-record did not start recording"
	cat "$TEST_TMP/rec.out"
	exit 1
fi
unlike "$(cat "$TEST_TMP/rec.out")" "Starting lttng-sessiond" \
	"lttng-analyses-record found root's daemon: it started none"
session=$(lttctl list | sed -n 's/^ *[0-9]*) \(lttng-analysis-[0-9-]*\) .*/\1/p')
rules=$(lttctl list "$session" | sed -n 's/^      \([^ ]*\) (type: tracepoint) \[enabled\]$/\1/p' | sort -u)
is "$rules" "$have" "its session ($session) has each event of its list that this kernel has" ||
	diag "$(lttctl list "$session")"
errs=$(sed -n "s/^Error: event rule '\\([^']*\\)' in channel 'chan1' .*no event.*/\\1/p" "$TEST_TMP/rec.out" | sort)
is "$errs" "$lack" "... and an error for each it lacks, after which the list went on"
if [ -n "$lack" ]; then
	like "$(cat "$TEST_TMP/rec.out")" "Warning: some events were not enabled" \
		"... whose status made the script warn, and go on"
else
	unlike "$(cat "$TEST_TMP/rec.out")" "Warning: some events were not enabled" \
		"... none lacking, no warning"
fi
"$KLOAD" getcpu $N >/dev/null
kill -TERM "$rp"
timeout "$TEST_TIMEOUT" tail --pid="$rp" -f /dev/null
wait "$rp"
is "$?" 0 "on SIGTERM the script ended, status 0"
trace=$(sed -n 's/^You can now launch the analyses scripts on \(.*\)$/\1/p' "$TEST_TMP/rec.out")
run lttctl list
is "$OUT" "No sessions." "... having destroyed its session"
bt "$trace" "$TEST_TMP/bt.out"
is "$(count_events "$TEST_TMP/bt.out" syscall_entry_getcpu)" $N \
	"the trace it named ($trace) holds the load's $N getcpu calls"
timeout "$LA_TIMEOUT" lttng-cputop --no-progress "$trace" >"$TEST_TMP/cputop.txt" 2>&1
rc=$?
is "$rc:$(grep -c '^Total CPU Usage: ' "$TEST_TMP/cputop.txt")" 0:1 "lttng-cputop reads it" ||
	diag "$(tail -5 "$TEST_TMP/cputop.txt")"
timeout "$LA_TIMEOUT" lttng-syscallstats --no-progress "$trace" >"$TEST_TMP/sc.txt" 2>&1
rc=$?
# (which task made a call it knows by the switches into it: the load's
# short life may show none, test_kernel_tracefs_analyses.sh)
is "$rc:$(grep -c '^Total syscalls: [1-9]' "$TEST_TMP/sc.txt"):$(grep -c Error "$TEST_TMP/sc.txt")" 0:1:0 \
	"lttng-syscallstats reads it" || diag "$(tail -5 "$TEST_TMP/sc.txt")"
stop_sessiond
