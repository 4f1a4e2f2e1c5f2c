# tests/regression/export/export-lib.sh - shared by the export tests
# (sourced after lib.sh): ltt-export from the build tree, SQLite's and
# ClickHouse's answers, and a ClickHouse server of the test's own.

EXPORT_BIN="$LTT_TOP_BUILDDIR/src/export/ltt-export"
export LTT_EXPORT_PATH="$EXPORT_BIN"

# export_or_skip: skip the test where ltt-export is not built (configure
# says why: no libbabeltrace2-dev or libsqlite3-dev).
export_or_skip() {
	[ -x "$EXPORT_BIN" ] || skip_all "ltt-export is not built (configure: no libbabeltrace2-dev or libsqlite3-dev)"
	command -v sqlite3 >/dev/null || skip_all "sqlite3 is not installed"
}

# sq DB SQL: SQLite's answer, '|' between columns.
sq() {
	sqlite3 -batch "$1" "$2"
}

# free_port: a TCP port of 127.0.0.1 no one listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ch_start: a clickhouse-server of the test's own in $TEST_TMP/ch, on
# loopback ports of its own (HTTP: $CH_PORT), as root or not; skips the
# test where Debian's clickhouse-server is not installed.  Stopped by
# ch_stop, and by the test's exit.
ch_start() {
	local dir="$TEST_TMP/ch" try
	command -v clickhouse-server >/dev/null || [ -x /usr/sbin/clickhouse-server ] ||
		skip_all "clickhouse-server is not installed (Debian's clickhouse-server)"
	for try in 1 2 3; do
		CH_PORT=$(free_port)
		"$LTT_TOP_SRCDIR/tests/regression/export/ch-config.sh" "$dir" "$CH_PORT" "$(free_port)" ||
			{ echo "Bail out! no ClickHouse configuration in $dir"; exit 1; }
		: >"$dir/server.log"
		PATH=$PATH:/usr/sbin clickhouse-server --config-file="$dir/config.xml" \
			</dev/null >"$dir/out" 2>&1 &
		CH_PID=$!
		TEST_TIMEOUT=60 wait_for "$dir/server.log" "Ready for connections|Address already in use|Application: .*[Ee]xception"
		if grep -q "Ready for connections" "$dir/server.log"; then
			trap 'ch_stop; _cleanup' EXIT
			return 0
		fi
		kill "$CH_PID" 2>/dev/null
		wait "$CH_PID" 2>/dev/null
	done
	echo "Bail out! clickhouse-server did not start: $(tail -3 "$dir/server.err.log" 2>/dev/null)"
	exit 1
}

ch_stop() {
	[ -n "${CH_PID:-}" ] || return 0
	kill "$CH_PID" 2>/dev/null
	timeout "$TEST_TIMEOUT" tail --pid="$CH_PID" -f /dev/null
	CH_PID=
}

# chq SQL: ClickHouse's answer (TabSeparated), through its HTTP interface,
# in database $CH_DB (default: default).
chq() {
	python3 - "$CH_PORT" "$1" "${CH_DB:-default}" <<'PY'
import sys, urllib.request, urllib.error
try:
    sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s/?database=%s" % (sys.argv[1], sys.argv[3]),
                                            data=sys.argv[2].encode()).read().decode())
except urllib.error.HTTPError as e:
    sys.stdout.write("ERROR " + e.read().decode())
PY
}

# ch_settle SQL WANT: until ClickHouse answers SQL with WANT (a mutation
# is applied in the background), bounded; the last answer in CH_GOT.
ch_settle() {
	local end=$((SECONDS + TEST_TIMEOUT))
	while :; do
		CH_GOT=$(chq "$1")
		[ "$CH_GOT" = "$2" ] && return 0
		[ $SECONDS -lt $end ] || return 1
		chq "SELECT sleep(0.2)" >/dev/null
	done
}

# bt_counts FILE: "NAME COUNT" per event name of babeltrace2's text, sorted.
bt_counts() {
	sed -n 's/^\[[^]]*\] ([^)]*) [^ ]* \([^ ]*\): .*/\1/p' "$1" | sort | uniq -c |
		awk '{ print $2, $1 }'
}

# types_trace N: session s in $TEST_TMP/s records ust_app -t 2 -T -n N
# (ltt_test:seq and ltt_test:types, every common field type) with vpid,
# vtid and procname, its threads on two CPUs (two streams written at once),
# in a blocking channel (every event in the trace, on
# a loaded machine or under a sanitizer too); babeltrace2's text in
# $TEST_TMP/bt, its lines in total.
types_trace() {
	lttctl -q create s -o "$TEST_TMP/s"
	lttctl -q enable-channel -u chan -s s --subbuf-size 256k --num-subbuf 4 --blocking-timeout=inf
	lttctl -q enable-event -u 'ltt_test:seq,ltt_test:types' -c chan -s s
	lttctl -q add-context -u -t vpid -t vtid -t procname -c chan -s s
	lttctl -q start s
	LTT_UST_ALLOW_BLOCKING=1 ust_app -n "$1" -t 2 -T -C
	lttctl -q stop s
	bt "$TEST_TMP/s" "$TEST_TMP/bt"
	total=$(wc -l <"$TEST_TMP/bt")
}

# stopped PID: until process PID is stopped (a fault point's SIGSTOP), bounded.
stopped() {
	timeout "$TEST_TIMEOUT" bash -c \
		'until [ "$(cut -d" " -f3 /proc/$0/stat 2>/dev/null)" = T ]; do :; done' "$1"
}
