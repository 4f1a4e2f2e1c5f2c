// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ust_flood.c - an instrumented program for the benchmarks that go
 * through the real daemons (bench/startup.sh, stop_latency.sh, lost.sh).
 *
 *   ust_flood [-n EVENTS] [-t THREADS] [-p NS]
 *
 * Each thread records EVENTS bench:flood events (one int, an 11-character
 * string: the event of ust_bench's int_string case) as fast as it can, or
 * one every NS nanoseconds with -p (busy-waiting, so the pace is even),
 * then main() prints one line:
 *
 *   written N ns T ns_per_event X
 *
 * N events in all, T ns for the slowest thread, X = T / (N / THREADS).
 * -n 0 records nothing: the start-up benchmark runs it that way, linked
 * with libltt-ust (startup_flood) and, built with -DFLOOD_PLAIN, without
 * (startup_plain): the difference is libltt-ust's start-up.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifndef FLOOD_PLAIN
#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT(bench, flood,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))
#endif

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

static void *worker_main(void *arg)
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
#ifndef FLOOD_PLAIN
		ltt_tracepoint(bench, flood, (int)i, message);
#else
		(void)message;
#endif
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
