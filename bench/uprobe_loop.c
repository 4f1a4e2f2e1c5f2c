// SPDX-License-Identifier: GPL-2.0-only
/*
 * uprobe_loop.c - a function called N times in a loop, for
 * bench/uprobe.sh: "uprobe_loop N" prints the ns per call (CLOCK_MONOTONIC
 * around the loop), whatever probes it (nothing, ltt, perf probe).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long bench_probed(long a);

__attribute__((noinline, used)) long bench_probed(long a)
{
	__asm__ volatile("" ::: "memory");	/* kept a call */
	return a + 1;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000000, sum = 0;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		sum += bench_probed(i);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f ns/call (%ld calls, sum %ld)\n",
	       ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n,
	       n, sum);
	return 0;
}
