#!/bin/bash
# test_lttng_ust_clock_plugin.sh - LTTng-UST's clock plugin: with
# LTTNG_UST_CLOCK_PLUGIN naming a shared object whose
# lttng_ust_clock_plugin_init() gives its callbacks
# (lttng_ust_trace_clock_set_*_cb) and enables them, the session
# daemon's metadata describes that clock (its name, UUID, description and
# frequency, and the timestamps mapped to it) and a program run with it
# timestamps each event with the plugin's read64(), as LTTng-UST does
# (here a count of 5000, 5010, 5020, ... at 1 kHz); a path that can't be
# loaded is said in one sentence.  (Before, ltt refused the variable:
# the metadata named ltt's monotonic clock and the events were counted
# by it.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
test_init
mkdir -p "$TEST_TMP/build"
cat >"$TEST_TMP/build/clock.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lttng_ust_trace_clock_set_read64_cb(uint64_t (*cb)(void));
int lttng_ust_trace_clock_set_freq_cb(uint64_t (*cb)(void));
int lttng_ust_trace_clock_set_uuid_cb(int (*cb)(char *uuid));
int lttng_ust_trace_clock_set_name_cb(const char *(*cb)(void));
int lttng_ust_trace_clock_set_description_cb(const char *(*cb)(void));
int lttng_ust_enable_trace_clock_override(void);
void lttng_ust_clock_plugin_init(void);

static uint64_t next = 5000, reads;
static int back;	/* LTT_TEST_CLOCK_BACK set: every 7th read is 45 back */

static uint64_t count(void)
{
	uint64_t v = __atomic_fetch_add(&next, 10, __ATOMIC_RELAXED);

	return back && ++reads % 7 == 0 ? v - 45 : v;
}

static uint64_t freq(void)
{
	return 1000;
}

static int uuid(char *u)
{
	memcpy(u, "5c3c1a52-0b6e-4f0e-9d43-2a4f8e1b7c90", 37);
	return 0;
}

static const char *name(void)
{
	return "ltt_test_clock";
}

static const char *description(void)
{
	return "counts by ten from 5000";
}

void lttng_ust_clock_plugin_init(void)
{
	back = getenv("LTT_TEST_CLOCK_BACK") != NULL;
	if (lttng_ust_trace_clock_set_read64_cb(count) || lttng_ust_trace_clock_set_freq_cb(freq) ||
	    lttng_ust_trace_clock_set_uuid_cb(uuid) || lttng_ust_trace_clock_set_name_cb(name) ||
	    lttng_ust_trace_clock_set_description_cb(description) ||
	    lttng_ust_enable_trace_clock_override())
		_exit(3);
}
EOF
PLUGIN="$TEST_TMP/build/clock.so"
cc -fPIC -shared -o "$PLUGIN" "$TEST_TMP/build/clock.c" 2>"$TEST_TMP/cc.err"
[ $? = 0 ] || { echo "Bail out! the plugin does not build: $(cat "$TEST_TMP/cc.err")"; exit 1; }
# the daemon loads it too, as LTTng's: its metadata describes the clock
LTTNG_UST_CLOCK_PLUGIN=$PLUGIN ust_setup
plan 13

N=30
compat_build
ok_cmd "create" lttctl create c -o "$TEST_TMP/c"
like "$(lttctl list c)" "User-space clock: plugin, read with read64\(\) \(LTTNG_UST_CLOCK_PLUGIN: [^ ]*clock\.so's clock ltt_test_clock\)" \
	"list: the session counts the plugin's clock"
ok_cmd "enable compat:basic" lttctl enable-event -u compat:basic
# (before start: its CLOCK_MONOTONIC ns at 1 kHz would be past what readers convert)
(export LTTNG_UST_CLOCK_PLUGIN="$TEST_TMP/nosuch.so" && compat_run 1)
like "$(cat "$TEST_TMP/app.err")" "^ltt: LTTNG_UST_CLOCK_PLUGIN: .*nosuch\.so.*ltt's own clock counts the events" \
	"a plugin that can't be loaded: said in one sentence"
ok_cmd "start" lttctl start
(export LTTNG_UST_CLOCK_PLUGIN="$PLUGIN" && compat_run $N)
lttctl stop >/dev/null

meta=$(dirname "$(find "$TEST_TMP/c" -name metadata -type f | head -1)")
timeout "$BT_TIMEOUT" babeltrace2 -o ctf-metadata "$meta" >"$TEST_TMP/meta.txt" 2>&1
clock=$(sed -n '/^clock {/,/^};/p' "$TEST_TMP/meta.txt" | tr -d '\t\n')
like "$clock" '^clock \{name = "ltt_test_clock";uuid = "5c3c1a52-0b6e-4f0e-9d43-2a4f8e1b7c90";description = "counts by ten from 5000";freq = 1000;offset_s = [0-9]+;offset = [0-9]+;\};$' \
	"the metadata's clock is the plugin's: its name, UUID, description and frequency"
is "$(grep -c 'map = clock.ltt_test_clock.value;' "$TEST_TMP/meta.txt")" 3 \
	"the timestamps' types map to it"

# the events' timestamps in cycles: the plugin's counts, in order
timeout "$BT_TIMEOUT" babeltrace2 --clock-cycles "$TEST_TMP/c" >"$TEST_TMP/c.txt" 2>"$TEST_TMP/c.err"
is "$(count_events "$TEST_TMP/c.txt" compat:basic)" $N "the $N events recorded"
got=$(sed -n 's/^\[\([0-9]*\)\] .* compat:basic: .*/\1/p' "$TEST_TMP/c.txt" |
	awk 'BEGIN { bad = 0 } { if ($1 < 5000 || $1 % 10 || (NR > 1 && $1 <= prev)) bad++;
		prev = $1 } END { print NR, bad }')
is "$got" "$N 0" "their timestamps: counts of the plugin's read64() (5000 + 10k), increasing"

# A plugin whose clock steps back (every 7th read 45 counts before the
# one ahead): each event's timestamp is at least the one before it in
# its buffer (doc/clock.md, "A clock plugin"), so the trace's time never
# goes back; the events read at a step back have the timestamp before
# them.  Before, they kept the lower count: the trace went backwards.
ok_cmd "a second session" lttctl create b -o "$TEST_TMP/b"
lttctl -q enable-event -u compat:basic -s b
lttctl -q start b
(export LTTNG_UST_CLOCK_PLUGIN="$PLUGIN" LTT_TEST_CLOCK_BACK=1 && compat_run $N)
lttctl -q stop b
timeout "$BT_TIMEOUT" babeltrace2 --clock-cycles "$TEST_TMP/b" >"$TEST_TMP/b.txt" 2>"$TEST_TMP/b.err"
is "$(count_events "$TEST_TMP/b.txt" compat:basic)" $N "a clock stepping back: the $N events recorded"
got=$(sed -n 's/^\[\([0-9]*\)\] .* compat:basic: .*/\1/p' "$TEST_TMP/b.txt" |
	awk 'BEGIN { back = 0; same = 0 } { if (NR > 1 && $1 < prev) back++;
		if (NR > 1 && $1 == prev) same++; prev = $1 } END { print back, (same > 0) }')
is "$got" "0 1" "... their timestamps never go back; those read at a step back repeat the one before"

term_sessiond
done_testing
