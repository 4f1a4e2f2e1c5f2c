// SPDX-License-Identifier: LGPL-2.1-only
/*
 * populate_cost.c - what the writer's madvise(MADV_POPULATE_WRITE) costs
 * when it opens a sub-buffer (src/common/trace/ringbuf.c, subbuf_pages()), on
 * a shared memfd mapping as the ring buffers are:
 *
 *   populate_cost [-s SUBBUF_BYTES] [-n CALLS] [-r RUNS]
 *
 * "present": the sub-buffer's pages are there already (a sub-buffer of a
 * later lap, the case a populate on every open pays for nothing);
 * "punched": they were given back (MADV_REMOVE, what reclaim does)
 * before each call, so the call takes them again (the punch is not
 * timed).  Prints the median and best of RUNS runs, ns per call, and
 * what that is per event for the events a sub-buffer holds at 32 bytes
 * an event (rb_bench's 16-byte payload and its record header).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ns per populate of @size bytes at @p, @calls times; punched first when @punch. */
static uint64_t one_run(char *p, size_t size, unsigned int calls, int punch)
{
	uint64_t total = 0, t;
	unsigned int i;

	for (i = 0; i < calls; i++) {
		if (punch && madvise(p, size, MADV_REMOVE))
			return 0;
		t = now_ns();
		if (madvise(p, size, MADV_POPULATE_WRITE))
			return 0;
		total += now_ns() - t;
	}
	return total / calls;
}

int main(int argc, char **argv)
{
	size_t size = 256 * 1024;
	unsigned int calls = 2000, runs = 11, r;
	uint64_t v[64];
	int c, fd, punch;
	char *p;

	while ((c = getopt(argc, argv, "s:n:r:")) != -1) {
		if (c == 's')
			size = strtoul(optarg, NULL, 0);
		else if (c == 'n')
			calls = (unsigned int)strtoul(optarg, NULL, 0);
		else if (c == 'r')
			runs = (unsigned int)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (!size || size % (size_t)sysconf(_SC_PAGESIZE) || !calls || !runs || runs > 64) {
		fprintf(stderr, "populate_cost: -s a multiple of the page size, -r 1 to 64\n");
		return 2;
	}
	fd = memfd_create("populate-cost", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size))
		return 1;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	if (madvise(p, size, MADV_POPULATE_WRITE)) {
		fprintf(stderr, "populate_cost: MADV_POPULATE_WRITE: %s\n", strerror(errno));
		return 1;
	}
	printf("sub-buffer %zu bytes (%zu events of 32 bytes), %u calls a run, %u runs\n", size,
	       size / 32, calls, runs);
	for (punch = 0; punch < 2; punch++) {
		for (r = 0; r < runs; r++)
			v[r] = one_run(p, size, calls, punch);
		qsort(v, runs, sizeof(v[0]), cmp_u64);
		printf("  %-8s median %8llu ns/call, best %8llu; per event (median) %.3f ns\n",
		       punch ? "punched" : "present", (unsigned long long)v[runs / 2],
		       (unsigned long long)v[0], (double)v[runs / 2] / (double)(size / 32));
	}
	return 0;
}
