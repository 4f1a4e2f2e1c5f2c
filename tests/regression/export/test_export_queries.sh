#!/bin/bash
# test_export_queries.sh - doc/sql.md's queries, each as the page prints
# it, on a kernel trace (system calls with tid, pid and procname: kload's
# openat and getppid calls among the machine's, some made under a name
# babeltrace2's text escapes, q'"\?x) and a user-space trace
# (ust_app's requests, ltt_test:seq then ltt_test:types) that the test
# makes and exports into SQLite and ClickHouse: each answer equals what
# bt_expect.py computes from babeltrace2's text of the same traces.  The
# ClickHouse half skips where clickhouse-server is not installed, the
# kernel trace where there is no tracefs to record it.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/export/export-lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
export_or_skip
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 is not installed"
DOC="$LTT_TOP_SRCDIR/doc/sql.md"
EXPECT="$LTT_TOP_SRCDIR/tests/regression/export/bt_expect.py"
plan 12

# The kernel trace, where this machine has tracefs (root).
kernel=0
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
if [ "$(id -u)" = 0 ] && [ -d "${tfs:-/sys/kernel/tracing}/events" ]; then
	kernel_lock
	tracefs_sessiond "$TEST_TMP/sessiond.log" &&
		lttctl -q create k -o "$TEST_TMP/k" &&
		lttctl -q enable-event -k --syscall openat,getppid -s k &&
		lttctl -q add-context -k -t tid -t pid -t procname -s k &&
		lttctl -q start k &&
		"$LTT_TOP_BUILDDIR/tests/regression/kload" openat /dev/null 2000 >/dev/null &&
		"$LTT_TOP_BUILDDIR/tests/regression/kload" getppid 3000 >/dev/null &&
		"$LTT_TOP_BUILDDIR/tests/regression/kload" rename 700 "q'\"\\?x" </dev/null >/dev/null &&
		lttctl -q stop k && kernel=1
	stop_sessiond
	wait_unlocked
fi
# The user-space trace: ust_app's requests, two threads.
start_sessiond || { echo "Bail out! no session daemon"; exit 1; }
lttctl -q create u -o "$TEST_TMP/u"
lttctl -q enable-event -u 'ltt_test:seq,ltt_test:types' -s u
lttctl -q add-context -u -t vtid -s u
lttctl -q start u
ust_app -n 3000 -t 2 -T
lttctl -q stop u

traces=("$TEST_TMP/u")
[ $kernel = 1 ] && traces+=("$TEST_TMP/k")
for t in "${traces[@]}"; do
	timeout "$BT_TIMEOUT" babeltrace2 --clock-seconds "$t" >"$t.bt"
done
DB="$TEST_TMP/q.db"
"$EXPORT_BIN" --quiet --to="sqlite:$DB" "${traces[@]}"
is "$?" 0 "the traces into SQLite"

# query ENGINE TITLE: doc/sql.md's query, run by ENGINE, '|' between columns.
query() {
	local sql
	sql=$(python3 "$LTT_TOP_SRCDIR/tests/regression/export/doc_query.py" "$DOC" "$1: $2") ||
		{ echo "doc/sql.md has no query '$1: $2'"; return; }
	if [ "$1" = sqlite ]; then
		sq "$DB" "$sql"
	else
		CH_DB=q chq "$sql FORMAT TabSeparatedRaw" | tr '\t' '|'
	fi
}

# check ENGINE: each query's answer against babeltrace2's text.
check() {
	is "$(query "$1" "events per second per host")" \
		"$("$EXPECT" per-second "${traces[@]/%/.bt}")" "$1: events per second per host"
	is "$(query "$1" "slowest requests")" "$("$EXPECT" slowest "$TEST_TMP/u.bt")" \
		"$1: the slowest requests, ltt_test:seq to ltt_test:types"
	if [ $kernel = 1 ]; then
		is "$(query "$1" "top system calls by process")" "$("$EXPECT" top-syscalls "$TEST_TMP/k.bt")" \
			"$1: top system calls by process"
		is "$(query "$1" "openat latency percentiles")" "$("$EXPECT" latency "$TEST_TMP/k.bt")" \
			"$1: openat's latency: calls, p50, p90, p99, longest"
	else
		skip 2 "no kernel trace here (root and tracefs needed)"
	fi
}
check sqlite
if [ $kernel = 1 ]; then
	like "$("$EXPECT" latency "$TEST_TMP/k.bt")" "^([2-9][0-9]{3}|[1-9][0-9]{4,})\\|" \
		"the kernel trace holds kload's 2000 openat calls, and more"
else
	skip 1 "no kernel trace here"
fi
is "$(query sqlite "lost events per stream" | wc -l)" 0 "lost events per stream: none lost here"

if command -v clickhouse-server >/dev/null || [ -x /usr/sbin/clickhouse-server ]; then
	ch_start
	"$EXPORT_BIN" --quiet --to="clickhouse://127.0.0.1:$CH_PORT/q" "${traces[@]}"
	is "$?" 0 "the traces into ClickHouse"
	check clickhouse
else
	skip 5 "clickhouse-server is not installed"
fi

done_testing
