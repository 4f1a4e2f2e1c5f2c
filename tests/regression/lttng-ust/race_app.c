/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * race_app.c - RCU stress of a program built with _LGPL_SOURCE (LTTng's
 * read side inlined here): THREADS threads fire race:fire in a loop while
 * the main thread dlopen()s and dlclose()s the provider library
 * (race_probe.so) and the session daemon enables and disables the event.
 *
 *   race_app PROBE_SO THREADS READY_FILE STOP_FILE
 *
 * Writes "ready" into READY_FILE once running, loops until STOP_FILE exists (and at
 * least MIN_CYCLES loads), then prints
 *   committed C late L cycles N membarrier M
 * C: events the probe reserved and wrote (race_probe_check() runs in the
 * write), L: probes that ran while the library was unregistered (must be
 * 0: a probe running after dlclose() returns would also crash on unmapped
 * code), M: lttng_ust_urcu_has_sys_membarrier, which the inlined readers
 * read (1: they need no fence, the grace periods use membarrier()).
 */
#define _LGPL_SOURCE
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "race_tp.h"

#define MIN_CYCLES 20
#define MAX_THREADS 16

static int gone = 1;
static int stop;
static unsigned long committed, late;

unsigned long race_probe_check(void)
{
	__atomic_add_fetch(&committed, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&gone, __ATOMIC_ACQUIRE)) {
		__atomic_add_fetch(&late, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return 0;
}

void race_provider_here(void)
{
	__atomic_store_n(&gone, 0, __ATOMIC_RELEASE);
}

void race_provider_gone(void)
{
	__atomic_store_n(&gone, 1, __ATOMIC_RELEASE);
}

static void *fire(void *arg)
{
	int id = (int)(long)arg;
	unsigned long seq = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		lttng_ust_tracepoint(race, fire, id, seq);
		seq++;
		if (!(seq & 255))
			sched_yield();	/* share 2 CPUs with the daemons */
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	int threads, i, cycles = 0;
	FILE *f;

	if (argc != 5 || (threads = atoi(argv[2])) < 1 || threads > MAX_THREADS) {
		fprintf(stderr, "usage: race_app PROBE_SO THREADS(1-%d) READY_FILE STOP_FILE\n",
			MAX_THREADS);
		return 2;
	}
	for (i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, fire, (void *)(long)i))
			return 1;
	f = fopen(argv[3], "w");
	if (!f || fputs("ready\n", f) < 0 || fclose(f))
		return 1;
	while (cycles < MIN_CYCLES || access(argv[4], F_OK)) {
		void *h = dlopen(argv[1], RTLD_NOW);

		if (!h) {
			fprintf(stderr, "race_app: %s\n", dlerror());
			return 1;
		}
		dlclose(h);
		if (!__atomic_load_n(&gone, __ATOMIC_ACQUIRE)) {
			fprintf(stderr, "race_app: the provider's destructor did not run\n");
			return 1;
		}
		cycles++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	printf("committed %lu late %lu cycles %d membarrier %d\n", committed, late, cycles,
	       lttng_ust_urcu_has_sys_membarrier);
	return 0;
}
