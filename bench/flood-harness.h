// SPDX-License-Identifier: LGPL-2.1-only
/*
 * flood-harness.h - the loop and main() that bench/ust_flood.c (ltt's
 * tracepoint) and bench/lttng/flood_lttng.c (LTTng-UST's) share, so that
 * the two tracers are measured by the same code.  The includer defines
 * FLOOD_EVENT(i, message), the tracepoint one event makes, then includes
 * this file once.
 *
 *   PROGRAM [-n EVENTS] [-t THREADS] [-p NS]
 *
 * Each thread records EVENTS events (one int, an 11-character string) as
 * fast as it can, or one every NS nanoseconds with -p (busy-waiting, so
 * the pace is even), then main() prints one line:
 *
 *   written N ns T ns_per_event X
 *
 * N events in all, T ns for the slowest thread, X = T / (N / THREADS).
 * The loop is worker_main(), which callgrind's --toggle-collect names.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct worker {
	pthread_t thread;
	long n;
	long pace_ns;
	uint64_t ns;
};

/* Not a constant: the probe's strlen() must run, as in real programs. */
static const char *volatile message = "hello world";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void *worker_main(void *arg) __attribute__((noinline));

void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t t0 = now_ns(), next = t0;
	long i;

	for (i = 0; i < w->n; i++) {
		if (w->pace_ns) {
			next += (uint64_t)w->pace_ns;
			while (now_ns() < next)
				;
		}
		FLOOD_EVENT(i, message);
	}
	w->ns = now_ns() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	long n = 1000000, pace = 0;
	int threads = 1, opt, i;
	struct worker *w;
	uint64_t slowest = 0;

	while ((opt = getopt(argc, argv, "n:t:p:")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 't')
			threads = atoi(optarg);
		else if (opt == 'p')
			pace = atol(optarg);
		else
			goto usage;
	}
	if (n < 0 || threads < 1 || threads > 64 || pace < 0)
		goto usage;
	if (n == 0)
		return 0;
	w = calloc((size_t)threads, sizeof(*w));
	if (!w)
		return 1;
	for (i = 0; i < threads; i++) {
		w[i].n = n;
		w[i].pace_ns = pace;
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]))
			return 1;
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].ns > slowest)
			slowest = w[i].ns;
	}
	printf("written %ld ns %llu ns_per_event %.1f\n", n * threads,
	       (unsigned long long)slowest, (double)slowest / (double)n);
	free(w);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-n EVENTS] [-t THREADS] [-p NS]\n", argv[0]);
	return 2;
}
