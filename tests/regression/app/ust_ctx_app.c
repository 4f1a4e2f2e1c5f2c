// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust_ctx_app.c - a program for the context tests (test_ust_context.sh):
 *
 *   ust_ctx_app THREADS EVENTS
 *
 * Prints "pid PID", "code ADDR" (where worker(), which calls the
 * tracepoint, starts: the ip context is a little after it) and, for each of THREADS threads (named "ctxw0",
 * "ctxw1", ...), "thread I TID PTHREAD_ID" once the thread runs, then
 * each thread emits EVENTS ltt_test:seq events (role "ctx", thread I,
 * seq 0..EVENTS-1), doing a little work between them (so that a perf
 * counter moves).  The tests compare what the trace's context fields say
 * with these lines.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test_tp.h"

static unsigned long nr_events;
/* work between events (task-clock must grow), kept by the compiler */
static volatile unsigned long sink;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;
	char name[16];
	unsigned long e, k;

	snprintf(name, sizeof(name), "ctxw%d", i);
	pthread_setname_np(pthread_self(), name);
	pthread_mutex_lock(&print_lock);
	printf("thread %d %ld %lu\n", i, (long)syscall(SYS_gettid),
	       (unsigned long)pthread_self());
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
	for (e = 0; e < nr_events; e++) {
		for (k = 0; k < 10000; k++)
			sink += k;
		ltt_tracepoint(ltt_test, seq, "ctx", i, e);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *tids;
	int n, i;

	if (argc != 3)
		return 2;
	n = atoi(argv[1]);
	nr_events = strtoul(argv[2], NULL, 10);
	if (n < 1 || n > 64)
		return 2;
	printf("pid %ld\n", (long)getpid());
	printf("code %#lx\n", (unsigned long)(uintptr_t)worker);
	fflush(stdout);
	tids = calloc((size_t)n, sizeof(*tids));
	if (!tids)
		return 1;
	/* One thread at a time: each thread's name is set before it emits. */
	for (i = 0; i < n; i++) {
		if (pthread_create(&tids[i], NULL, worker, (void *)(intptr_t)i))
			return 1;
		pthread_join(tids[i], NULL);
	}
	free(tids);
	return 0;
}
