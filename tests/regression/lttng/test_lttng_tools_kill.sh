#!/bin/bash
# test_lttng_tools_kill.sh - tests/lttng-tools/run.sh killed (SIGKILL,
# no trap runs) while an LTTng test runs leaves none of that test's
# processes behind: not its script, not its lttng-sessiond (ltt-sessiond),
# privileged part or consumers.  run.sh's unshare dies with it
# (setpriv --pdeathsig) and takes the namespace's first process with it
# (--kill-child): the kernel kills the rest.  Before, the test ran on in
# its namespace, its daemons with it, up to run.sh's -t (900 s by
# default); an ltt-sessiond left so was found at 14 GB.
#
# The test's processes are told by their environment: HOME in run.sh's
# scratch directory, under this test's TMPDIR.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

test_init
lttng_tools_src_or_skip
plan 3

rs="$TEST_TMP/rs"
mkdir -p "$rs"
# procs [COMM-REGEX]: the pids of the processes of run.sh's test (HOME under $rs)
procs() {
	local d comm
	for d in /proc/[0-9]*; do
		comm=$(cat "$d/comm" 2>/dev/null) && [[ $comm =~ ^(${1:-.*})$ ]] &&
			grep -qz "^HOME=$rs/" "$d/environ" 2>/dev/null && echo "${d#/proc/}"
	done
}
LTT_BUILDDIR=$LTT_TOP_BUILDDIR TMPDIR=$rs \
	bash "$LTT_TOP_SRCDIR/tests/lttng-tools/run.sh" -t 120 "$src" tools/trigger/test_add_trigger_cli \
	>"$TEST_TMP/run.out" 2>&1 &
runsh=$!
# its test's daemon is up (bounded: run.sh first compiles some twenty of
# LTTng's test programs, a minute or more on a loaded 2-CPU machine, where
# TEST_TIMEOUT's 20 s ran out before the daemon came)
# (wait_fs: woken as the test's log grows, the daemon's start said there,
# and as run.sh's output closes at its exit, a zombie until reaped)
export -f procs
export rs
WAIT_TIMEOUT=$((15 * TEST_TIMEOUT)) wait_fs "$rs/ltt-lttng-tools.*/tools_trigger_test_add_trigger_cli.log" \
	"$TEST_TMP/run.out" -- bash -c '[ -n "$(procs "lttng-sessiond|ltt-sessiond")" ] ||
	! grep -q "^State:[[:space:]]*[^Z]" "/proc/$0/status" 2>/dev/null' "$runsh"
daemons=$(procs 'lttng-sessiond|ltt-sessiond|ltt-priv|ltt-consumerd' | tr '\n' ' ')
ok "$([ -n "$daemons" ]; echo $?)" "run.sh's test started its daemons (pids: ${daemons:-none})"
kill -KILL $runsh
wait $runsh 2>/dev/null
# the kernel kills a namespace's processes at once: 5 s is plenty
deadline=$((SECONDS + 5))
until [ -z "$(procs)" ] || [ $SECONDS -ge $deadline ]; do :; done
left=$(procs | tr '\n' ' ')
is "$left" "" "run.sh killed: no process of its test is left (within 5 s)"
left=$(for p in $daemons; do [ -d "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" && echo "$p"; done | tr '\n' ' ')
is "$left" "" "... its daemons are gone"
