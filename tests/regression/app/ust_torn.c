// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust_torn.c - a program that dies while it records (test_ust_torn.sh).
 *
 *   ust_torn -m MODE -r ROLE [-t THREADS] [-n N] [-p CPU] [-c COUNTS] [-w READY]
 *
 * Every thread records ltt_test:seq events (ROLE, thread, seq = 0, 1, ...),
 * all pinned to CPU when -p is given, so that programs run one after the
 * other share that CPU's per-UID stream.  MODE:
 *
 *   plain  each thread records N events; exit 0.
 *   tear   each thread records N events and is joined; then the main
 *          thread reserves one more (thread THREADS, seq 0), writes half of
 *          it and raises SIGKILL: the committed events are exactly
 *          THREADS x N, the torn one is the next.
 *   tearcrit  the same, the torn event an ltt_test:crit (12 bytes).
 *   untracked  each of 32 threads records N events and stays, holding
 *          one of the 32 writer records each; then the main thread, a
 *          writer without a record (thread THREADS), records N events,
 *          reserves one more, writes half of it and raises SIGKILL: the
 *          packet can't be repaired (which slots an untracked writer held
 *          is unknown), only given up, its committed events counted.
 *   exit   the threads record without end; once each has N, main calls
 *          exit(0) while they still record.
 *   flat   the same, but main writes "ready PID" to the FIFO READY and
 *          waits to be killed.
 *
 * With -c, thread t stores in the file COUNTS (2 x THREADS u64 slots,
 * made here) how many of its calls returned, after each call: the events it
 * committed are those, and possibly the one after (killed between its
 * commit and the store).  In exit mode, slots THREADS.. get the counts as
 * exit() starts (our atexit handler runs before the library's): every
 * event those calls committed must be in the trace.
 */

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_tp.h"

static const char *role = "torn";
static unsigned int nthreads = 1;
static uint64_t n = 1000;
static int cpu = -1;
static volatile uint64_t *counts;	/* shared, per thread */
static bool endless;
static bool hold;			/* untracked: the threads stay */
static pthread_barrier_t recorded;

static void pin(void)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("ust_torn: sched_setaffinity");
		exit(2);
	}
}

static void *thread_main(void *arg)
{
	int t = (int)(intptr_t)arg;
	uint64_t i;

	pin();
	for (i = 0; endless || i < n; i++) {
		ltt_tracepoint(ltt_test, seq, role, t, i);
		if (counts)
			__atomic_store_n(&counts[t], i + 1, __ATOMIC_RELAXED);
	}
	if (hold) {
		pthread_barrier_wait(&recorded);
		for (;;)
			pause();
	}
	return NULL;
}

/*
 * One more ltt_test:seq event (or, with @crit, an ltt_test:crit: 12 bytes
 * with its compact header), reserved, half written: then SIGKILL.
 */
static void tear(bool crit)
{
	size_t rlen = strlen(role) + 1, len = crit ? 8 : rlen + 4 + 8;
	struct ltt_ust_ctx ctx;
	int32_t thread = (int32_t)nthreads;
	char *p;

	pin();
	p = ltt_ust_probe_reserve(&ctx, crit ? &LTT_TP_DESC(ltt_test, crit) :
					       &LTT_TP_DESC(ltt_test, seq), len);
	if (!p) {
		fprintf(stderr, "ust_torn: the torn event was not reserved\n");
		exit(3);
	}
	if (crit) {
		memcpy(p, &thread, 4);
	} else {
		memcpy(p, role, rlen);
		memcpy(p + rlen, &thread, 2);	/* half of the payload */
	}
	raise(SIGKILL);
}

/* Wait until every thread has called N times. */
static void wait_counts(void)
{
	unsigned int t;

	for (t = 0; t < nthreads; t++)
		while (__atomic_load_n(&counts[t], __ATOMIC_RELAXED) < n)
			sched_yield();
}

static void snapshot(void)
{
	unsigned int t;

	for (t = 0; t < nthreads; t++)
		counts[nthreads + t] = __atomic_load_n(&counts[t], __ATOMIC_RELAXED);
}

static int map_counts(const char *path)
{
	size_t len = 2 * nthreads * sizeof(uint64_t);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || ftruncate(fd, (off_t)len))
		return -1;
	counts = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return counts == MAP_FAILED ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = "plain", *ready = NULL, *counts_path = NULL;
	pthread_t tids[64];
	unsigned int t;
	uint64_t i;
	FILE *f;
	int c;

	while ((c = getopt(argc, argv, "m:r:t:n:p:c:w:")) != -1) {
		switch (c) {
		case 'm': mode = optarg; break;
		case 'r': role = optarg; break;
		case 't': nthreads = (unsigned int)atoi(optarg); break;
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 'p': cpu = atoi(optarg); break;
		case 'c': counts_path = optarg; break;
		case 'w': ready = optarg; break;
		default: goto usage;
		}
	}
	if (!nthreads || nthreads > 64 || (strcmp(mode, "plain") && strcmp(mode, "tear") &&
					    strcmp(mode, "tearcrit") && strcmp(mode, "exit") &&
					    strcmp(mode, "flat") && strcmp(mode, "untracked")))
		goto usage;
	hold = !strcmp(mode, "untracked");
	if (hold && (nthreads != 32 || pthread_barrier_init(&recorded, NULL, nthreads + 1))) {
		fprintf(stderr, "ust_torn: untracked takes -t 32: every writer record\n");
		return 2;
	}
	endless = !strcmp(mode, "exit") || !strcmp(mode, "flat");
	if ((endless && !counts_path) || (counts_path && map_counts(counts_path))) {
		fprintf(stderr, "ust_torn: -c COUNTS is needed for %s, and must be writable\n", mode);
		return 2;
	}
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&tids[t], NULL, thread_main, (void *)(intptr_t)t))
			return 2;
	if (endless) {
		wait_counts();
		if (!strcmp(mode, "exit")) {
			atexit(snapshot);
			exit(0);
		}
		f = ready ? fopen(ready, "w") : NULL;
		if (!f)
			return 2;
		fprintf(f, "ready %ld\n", (long)getpid());
		fclose(f);
		for (;;)
			pause();
	}
	if (hold) {
		pthread_barrier_wait(&recorded);
		pin();
		for (i = 0; i < n; i++)
			ltt_tracepoint(ltt_test, seq, role, (int)nthreads, i);
	}
	for (t = 0; !hold && t < nthreads; t++)
		pthread_join(tids[t], NULL);
	if (!strncmp(mode, "tear", 4) || hold)
		tear(!strcmp(mode, "tearcrit"));
	return 0;
usage:
	fprintf(stderr, "usage: ust_torn -m plain|tear|tearcrit|untracked|exit|flat -r ROLE [-t THREADS] [-n N] [-p CPU] [-c COUNTS] [-w READY]\n");
	return 2;
}
