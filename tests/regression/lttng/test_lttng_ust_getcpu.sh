#!/bin/bash
# test_lttng_ust_getcpu.sh - LTTng-UST's getcpu plugin: a program built
# for LTTng-UST, run with LTTNG_UST_GETCPU_PLUGIN naming a shared object
# whose lttng_ust_getcpu_plugin_init() calls lttng_ust_getcpu_override(),
# records each event in the per-CPU buffer of the number the plugin gives,
# asked once per event (here 0, 1, ... modulo the configured CPUs, in the
# events' order), as LTTng-UST does; a path that can't be loaded is said
# in one sentence and the events carry the CPU they ran on.  (Before,
# ltt refused the variable and the override: events carried the real CPU.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
ust_setup
plan 8

N=40
compat_build
NCPU=$(getconf _NPROCESSORS_CONF)
cat >"$TEST_TMP/build/getcpu.c" <<'EOF'
#include <unistd.h>

int lttng_ust_getcpu_override(int (*getcpu)(void));
void lttng_ust_getcpu_plugin_init(void);

static long ncpu;
static int next;

static int sequence(void)
{
	return (int)(next++ % ncpu);
}

void lttng_ust_getcpu_plugin_init(void)
{
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	lttng_ust_getcpu_override(sequence);
}
EOF
cc -fPIC -shared -o "$TEST_TMP/build/getcpu.so" "$TEST_TMP/build/getcpu.c" 2>"$TEST_TMP/cc.err"
ok $? "the plugin builds" || diag "$(cat "$TEST_TMP/cc.err")"

# cpu_ids OUT: the cpu_id of each compat:basic event of OUT, in order, one line.
cpu_ids() {
	sed -n 's/.* compat:basic: { cpu_id = \([0-9]*\) }.*/\1/p' "$1" | tr '\n' ' '
}

ok_cmd "create" lttctl create g -o "$TEST_TMP/g"
ok_cmd "enable compat:basic" lttctl enable-event -u compat:basic
ok_cmd "start" lttctl start
(export LTTNG_UST_GETCPU_PLUGIN="$TEST_TMP/build/getcpu.so" && compat_run $N)
# then a path that is no plugin: said, and recorded all the same
(export LTTNG_UST_GETCPU_PLUGIN="$TEST_TMP/nosuch.so" && compat_run -p "$APP" 1)
like "$(cat "$TEST_TMP/app.err")" "^ltt: LTTNG_UST_GETCPU_PLUGIN: .*nosuch\.so.*events carry the CPU they ran on" \
	"a plugin that can't be loaded: said in one sentence"
lttctl stop >/dev/null
bt "$TEST_TMP/g" "$TEST_TMP/g.txt"
want=
for ((i = 0; i < N; i++)); do
	want+="$((i % NCPU)) "
done
got=$(cpu_ids "$TEST_TMP/g.txt")
is "${got:0:${#want}}" "$want" "the $N events with the plugin: in the buffers of CPU 0, 1, ... ($NCPU configured), in order"
is "$(count_events "$TEST_TMP/g.txt" compat:basic)" $((N + 1)) "and the event without it: $((N + 1)) in all"

term_sessiond
done_testing
