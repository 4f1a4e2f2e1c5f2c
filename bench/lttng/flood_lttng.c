// SPDX-License-Identifier: LGPL-2.1-only
/*
 * flood_lttng.c - bench/ust_flood.c's loop with an LTTng-UST tracepoint
 * (one int, an 11-character string), for bench/lttng_compare.sh only.
 *
 *   flood_lttng [-n EVENTS]
 *
 * Prints "written N ns T ns_per_event X", as ust_flood.  The loop is
 * bench_events(), so callgrind can count it alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "flood_tp.h"

static const char *volatile message = "hello world";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bench_events(long n) __attribute__((noinline));

void bench_events(long n)
{
	long i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(bench_lttng, flood, (int)i, message);
}

int main(int argc, char **argv)
{
	long n = 1000000;
	uint64_t t0, t1;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else
			return 2;
	}
	t0 = now_ns();
	bench_events(n);
	t1 = now_ns();
	printf("written %ld ns %llu ns_per_event %.1f\n", n, (unsigned long long)(t1 - t0),
	       (double)(t1 - t0) / (double)n);
	return 0;
}
