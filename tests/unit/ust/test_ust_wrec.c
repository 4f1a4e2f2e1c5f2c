// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ust_wrec.c - a thread's writer record index (channel.c) when a
 * signal handler's probe records in the middle of the thread's first
 * event, as the index is being taken: both events are recorded, and the
 * thread holds one index, which its exit gives back.  (A handler that ran
 * there took a second index, which was never given back: one more thread
 * untracked for the life of the process, each time.)
 *
 * The program defines pthread_setspecific() itself, so the library linked
 * into it (its convenience archive) calls this one: armed, it raises
 * SIGUSR1 the first time an index is kept (the call that stores a small
 * integer: the other keys store pointers), then calls glibc's.  As
 * test_tracepoint_ser.c, it plays the session daemon in-process
 * (ust-rings.h) and never contacts a real one.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "tests/unit/tap.h"
#include "tests/unit/ust-rings.h"
#include "ust/ust-internal.h"

LTT_TRACEPOINT_EVENT(wrec, tick,
	LTT_TP_ARGS(int n),
	LTT_TP_FIELDS(
		ltt_field_integer(int, n, n)))

static uint8_t events[1 << 16];
static int armed, handled;
static int (*real_setspecific)(pthread_key_t, const void *);

int pthread_setspecific(pthread_key_t key, const void *value)
{
	if (!real_setspecific)
		*(void **)&real_setspecific = dlsym(RTLD_NEXT, "pthread_setspecific");
	if ((uintptr_t)value >= 1 && (uintptr_t)value <= LTT_RB_WRECS &&
	    __atomic_exchange_n(&armed, 0, __ATOMIC_SEQ_CST))
		raise(SIGUSR1);
	return real_setspecific(key, value);
}

static void on_usr1(int sig)
{
	(void)sig;
	ltt_tracepoint(wrec, tick, 2);
	handled = 1;
}

static void *first_event(void *arg)
{
	(void)arg;
	__atomic_store_n(&armed, 1, __ATOMIC_SEQ_CST);
	ltt_tracepoint(wrec, tick, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct region r;
	struct cursor c;
	unsigned int before;
	uint32_t id;
	bool compact;
	uint64_t ts;
	int32_t v, sum = 0;
	int n = 0;
	pthread_t t;

	(void)argc;
	ust_rings_isolate(argv);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	region_new(&r, 4096, 4);
	if (ltt_ust_test_add_channel(1, 1, &r.mem, &r.len) ||
	    ltt_ust_test_enable_event(1, "wrec:tick", 1)) {
		tap_diag("cannot add the channel");
		return 1;
	}
	before = ltt_ust_test_wrecs_in_use();
	pthread_create(&t, NULL, first_event, NULL);
	pthread_join(t, NULL);
	tap_ok(handled && !armed, "the handler recorded as the thread's index was being kept");
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	while (next_header(&c, &id, &compact, &ts) && id == 1 && c.end - c.p >= 4) {
		memcpy(&v, c.p, 4);
		c.p += 4;
		sum += v;
		n++;
	}
	tap_ok(n == 2 && sum == 3, "both events are recorded, the thread's and its handler's (%d)", n);
	tap_is_int(ltt_ust_test_wrecs_in_use(), before,
		   "the thread's exit gave back every record index it held");
	ltt_ust_test_remove_channel(1);
	region_free(&r);
	rmdir(getenv("LTT_RUNDIR"));
	return tap_done();
}
