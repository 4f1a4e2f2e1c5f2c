// SPDX-License-Identifier: GPL-2.0-only
/*
 * tfs_pace - getppid() at a given rate on CPU 0, for bench/tracefs.sh's
 * lossless rate:
 *
 *   tfs_pace RATE SECONDS
 *
 * RATE system calls a second (0: flat out) for SECONDS, paced by a busy
 * wait on CLOCK_MONOTONIC (the vDSO: no system call).  Prints "calls N
 * wall_ns W rate R" (R the rate achieved, calls a second).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t, end, n = 0;
	double rate, secs;
	cpu_set_t set;

	if (argc != 3 || (rate = atof(argv[1])) < 0 || (secs = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: tfs_pace RATE SECONDS (RATE calls/s, 0: flat out)\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	t0 = now_ns();
	end = t0 + (unsigned long long)(secs * 1e9);
	for (t = t0; t < end; t = now_ns()) {
		if (rate > 0 && t < t0 + (unsigned long long)(n * 1e9 / rate))
			continue;
		syscall(SYS_getppid);
		n++;
	}
	printf("calls %llu wall_ns %llu rate %.0f\n", n, t - t0, n * 1e9 / (double)(t - t0));
	return 0;
}
