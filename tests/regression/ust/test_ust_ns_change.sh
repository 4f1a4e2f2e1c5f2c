#!/bin/bash
# test_ust_ns_change.sh - the namespace contexts (uts_ns, ipc_ns, net_ns)
# follow a thread that enters new namespaces, as LTTng-UST's do: a
# program linked with libltt-ust calls unshare() (libltt-ust's wrapper),
# then setns() back into its first UTS namespace; its events carry the
# inode number of each namespace it was in when it emitted them, exactly
# (five events in each), and a second thread, which entered nothing,
# keeps its own.  Then the same program built with LTTng-UST's headers
# and its fork helper (liblttng-ust-fork.so: LTTng's wrappers, which
# call liblttng-ust.so.1's lttng_ust_after_unshare()), under ltt-run
# (lttng-tools' ust/namespaces/test_ns_contexts_change runs this way).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

cc_cmd=${LTT_TEST_CC:-cc}
command -v "${cc_cmd%% *}" >/dev/null || skip_all "no C compiler to build the program"
[ "$(id -u)" = 0 ] && unshare -u -i -n true 2>/dev/null ||
	skip_all "unshare(CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET) needs root (and a kernel that allows it here)"
ust_setup
plan 16

# The program: 5 events; unshare() of UTS, IPC and net; 5 events; the
# other thread's 5; setns() back into the first UTS namespace; 5 events.
# It prints each namespace's inode number as it goes.
src="$TEST_TMP/nsapp.c"
cat >"$src" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef AS_LTTNG
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "nstp.h"
#define HIT(phase, i) lttng_ust_tracepoint(nsapp, hit, phase, i)
#else
#include <ltt/tracepoint.h>
LTT_TRACEPOINT_EVENT(nsapp, hit, LTT_TP_ARGS(int phase, int i),
		     LTT_TP_FIELDS(ltt_field_integer(int, phase, phase) ltt_field_integer(int, i, i)))
#define HIT(phase, i) ltt_tracepoint(nsapp, hit, phase, i)
#endif

static pthread_barrier_t unshared;

static void hits(int phase)
{
	for (int i = 0; i < 5; i++)
		HIT(phase, i);
}

static void say(const char *when)
{
	static const char *const ns[] = { "uts", "ipc", "net" };
	struct stat st;
	char path[64];

	printf("%s", when);
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/proc/thread-self/ns/%s", ns[i]);
		printf(" %lu", stat(path, &st) ? 0ul : (unsigned long)st.st_ino);
	}
	printf("\n");
}

static void *other(void *arg)
{
	(void)arg;
	hits(9);	/* before: its values read, kept */
	pthread_barrier_wait(&unshared);
	hits(9);
	return NULL;
}

int main(void)
{
	int uts = open("/proc/thread-self/ns/uts", O_RDONLY | O_CLOEXEC);
	pthread_t t;

	pthread_barrier_init(&unshared, NULL, 2);
	if (uts < 0 || pthread_create(&t, NULL, other, NULL))
		return 1;
	say("before");
	hits(1);
	if (unshare(CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET)) {
		perror("unshare");
		return 1;
	}
	say("unshared");
	hits(2);
	pthread_barrier_wait(&unshared);
	pthread_join(t, NULL);
	if (setns(uts, CLONE_NEWUTS)) {
		perror("setns");
		return 1;
	}
	say("back");
	hits(3);
	return 0;
}
EOF
libdir="$LTT_TOP_BUILDDIR/src/ust/.libs"
app="$TEST_TMP/nsapp"
# shellcheck disable=SC2086
$cc_cmd ${LTT_TEST_CFLAGS:-} -o "$app" "$src" -I"$LTT_TOP_SRCDIR/include" -L"$libdir" \
	-lltt-ust -lpthread -Wl,-rpath,"$libdir" 2>"$TEST_TMP/cc.err"
ok $? "the program builds" || diag "$(cat "$TEST_TMP/cc.err")"

# count PHASE UTS IPC NET: the events of PHASE with those three ids.
count() {
	grep "phase = $1," "$TEST_TMP/bt.txt" | grep "uts_ns = $2[,} ]" | grep "ipc_ns = $3[,} ]" |
		grep -c "net_ns = $4[,} ]"
}

# check TRACE OUT WHAT: the checks of one run whose output is OUT.
check() {
	local trace=$1 out=$2 what=$3 b_uts b_ipc b_net u_uts u_ipc u_net k_uts k_ipc k_net
	read -r _ b_uts b_ipc b_net < <(grep '^before' "$out")
	read -r _ u_uts u_ipc u_net < <(grep '^unshared' "$out")
	read -r _ k_uts k_ipc k_net < <(grep '^back' "$out")
	ok "$([ -n "$k_net" ] && [ "$b_uts" != "$u_uts" ] && [ "$b_ipc" != "$u_ipc" ] &&
		[ "$b_net" != "$u_net" ] && [ "$k_uts" = "$b_uts" ] && [ "$k_ipc" = "$u_ipc" ] &&
		[ "$k_net" = "$u_net" ]; echo $?)" \
		"$what: the program entered new namespaces, then its first UTS one"
	bt "$trace" "$TEST_TMP/bt.txt"
	is "$(count 1 "$b_uts" "$b_ipc" "$b_net")" 5 "$what: the 5 events before: the first namespaces"
	is "$(count 2 "$u_uts" "$u_ipc" "$u_net")" 5 "$what: the 5 after unshare(): the new ones"
	is "$(count 3 "$b_uts" "$u_ipc" "$u_net")" 5 \
		"$what: the 5 after setns(): the first UTS, the new IPC and net"
	is "$(count 9 "$b_uts" "$b_ipc" "$b_net")" 10 \
		"$what: the other thread's 10: the first namespaces, before and after"
	is "$(grep -c 'nsapp:hit' "$TEST_TMP/bt.txt")" 25 "$what: 25 events in all"
}

# session NAME OUT: nsapp:hit with the three contexts, started.
session() {
	lttctl -q create "$1" -o "$2" && lttctl -q enable-channel -u c &&
		lttctl -q add-context -u -c c -t uts_ns -t ipc_ns -t net_ns &&
		lttctl -q enable-event -u nsapp:hit -c c && lttctl -q start
}

session s1 "$TEST_TMP/t1"
timeout "$TEST_TIMEOUT" "$app" >"$TEST_TMP/out1"
is $? 0 "the program runs"
lttctl -q stop && lttctl -q destroy
check "$TEST_TMP/t1" "$TEST_TMP/out1" "libltt-ust"

# The same through LTTng-UST's headers and its fork helper, under ltt-run.
# (Not in a sanitizer build: compat_require says why.)
if [[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") == *-fsanitize=* ]] ||
	! printf '#include <lttng/tracepoint.h>\n' | cc -E -x c - >/dev/null 2>&1 ||
	[ "$(cc -print-file-name=liblttng-ust-fork.so)" = liblttng-ust-fork.so ]; then
	skip 8 "a sanitizer build, or LTTng-UST's headers or liblttng-ust-fork.so are not here (Debian's liblttng-ust-dev)"
	done_testing
	exit
fi
cat >"$TEST_TMP/nstp.h" <<'EOF'
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER nsapp
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./nstp.h"
#if !defined(NSTP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define NSTP_H
#include <lttng/tracepoint.h>
LTTNG_UST_TRACEPOINT_EVENT(nsapp, hit, LTTNG_UST_TP_ARGS(int, phase, int, i),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, phase, phase)
			    lttng_ust_field_integer(int, i, i)))
#endif
#include <lttng/tracepoint-event.h>
EOF
(cd "$TEST_TMP" && cc -DAS_LTTNG -I. -o nsapp-lttng nsapp.c -llttng-ust -llttng-ust-fork \
	-lpthread -ldl) 2>"$TEST_TMP/cc.err"
ok $? "the program builds with LTTng-UST's headers, linked with its fork helper" ||
	diag "$(cat "$TEST_TMP/cc.err")"
session s2 "$TEST_TMP/t2"
compat_run -p "$TEST_TMP/nsapp-lttng" >"$TEST_TMP/out2"
is $? 0 "it runs under ltt-run" || diag "$(cat "$TEST_TMP/app.err")"
lttctl -q stop && lttctl -q destroy
check "$TEST_TMP/t2" "$TEST_TMP/out2" "LTTng-UST's"
done_testing
