// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_sc.c - the BPF system call source's program alone, loaded as the
 * privileged part loads it and read as the consumer reads it
 * (test_kernel_bpf_source.sh, bench/bpf.sh):
 *   bpf_sc strings N PATH   openat(PATH) N times; per filename recorded
 *                           for this thread: "filename COUNT TEXT", and
 *                           "other dfd=.. flags=.. mode=.." of the first
 *   bpf_sc lost N PATH      the same into 4 KiB rings read only after:
 *                           "own R lost L" (L counts every process's)
 *   bpf_sc bench N PATH     ns per openat(PATH), without and with the
 *                           program recording it: "off NS on NS"
 *   bpf_sc time N PATH      ns per openat(PATH), nothing loaded: "ns NS"
 *   bpf_sc fault N -        openat(AT_FDCWD, an address not mapped,
 *                           O_RDWR|O_NONBLOCK, 0123) N times, nothing
 *                           loaded: a path no program can read ("")
 *   bpf_sc timepoll N -     ns per poll() of a pipe's two ends (timeout
 *                           0), nothing loaded: "ns NS"
 *   bpf_sc benchpoll N -    the same without the program (off), with it
 *                           run but poll not its call (idle), recording
 *                           poll's entry (its pollfds read: on), and its
 *                           exit too (exit); then ns per getpid() without
 *                           the program and with both attached: "off NS
 *                           idle NS on NS exit NS getpid_off NS
 *                           getpid_exit NS"
 *                           (bench/bpf.sh times it under a session)
 * Exit 77 when BPF can't be loaded here (the reason on stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "common/bpf/bpf-ring.h"
#include "common/bpf/bpf-sc.h"

#define ID 4242		/* the records' common_type here */
#define MAX_NAMES 16

struct seen {
	char text[LTT_BPF_STR_MAX];
	unsigned int count;
};

static struct seen names[MAX_NAMES];
static unsigned int nr_names, own;
static char other[128];

static void open_n(long n, const char *path)
{
	long i;

	for (i = 0; i < n; i++) {
		int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);

		if (fd >= 0)
			close(fd);
	}
}

/* One record (after the ring's u64 stamp): this thread's openat counted. */
static void take(const uint8_t *rec, uint32_t len)
{
	uint64_t args[4];
	uint32_t loc, off, slen;
	int32_t pid, nr;
	uint16_t id;
	unsigned int i;

	if (len < 8 + LTT_BPF_HDR + 32)
		return;
	rec += 8;
	len -= 8;
	memcpy(&id, rec, 2);
	memcpy(&pid, rec + 4, 4);
	memcpy(&nr, rec + 8, 4);
	if (id != ID || pid != (int32_t)syscall(SYS_gettid) || nr != SYS_openat)
		return;
	memcpy(args, rec + LTT_BPF_HDR, sizeof(args));
	loc = (uint32_t)args[1];
	off = loc & 0xffff;
	slen = loc >> 16;
	if (!slen || off + slen > len || rec[off + slen - 1])
		return;
	own++;
	if (!other[0])
		snprintf(other, sizeof(other), "dfd=%d flags=%#x mode=%#o", (int)args[0],
			 (unsigned int)args[2], (unsigned int)args[3]);
	for (i = 0; i < nr_names; i++)
		if (!strcmp(names[i].text, (const char *)rec + off))
			break;
	if (i == nr_names && nr_names < MAX_NAMES)
		snprintf(names[nr_names++].text, LTT_BPF_STR_MAX, "%s", (const char *)rec + off);
	if (i < nr_names)
		names[i].count++;
}

static void drain(struct ltt_bpf_sc *b, uint32_t nr_cpus)
{
	struct ltt_bpf_ring r;
	const void *p;
	uint32_t cpu, len;
	int fd;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		fd = ltt_bpf_sc_ring_fd(b, cpu);
		if (fd < 0 || ltt_bpf_ring_open(fd, &r)) {
			fprintf(stderr, "bpf_sc: cpu %u's ring can't be mapped\n", cpu);
			exit(1);
		}
		close(fd);
		while ((p = ltt_bpf_ring_peek(&r, &len))) {
			take(p, len);
			ltt_bpf_ring_next(&r);
		}
		ltt_bpf_ring_close(&r);
	}
}

static double ns_per_call(long n, const char *path)
{
	struct timespec a, z;

	clock_gettime(CLOCK_MONOTONIC, &a);
	open_n(n, path);
	clock_gettime(CLOCK_MONOTONIC, &z);
	return ((double)(z.tv_sec - a.tv_sec) * 1e9 + (double)(z.tv_nsec - a.tv_nsec)) / (double)n;
}

/* ns per poll of a pipe's two ends, @n of them (after a tenth to warm up) */
static double poll_ns(long n)
{
	struct pollfd fds[2];
	struct timespec a, z;
	int p[2];
	long i;

	if (pipe(p))
		return -1;
	fds[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = p[1], .events = POLLOUT };
	for (i = 0; i < n / 10 + 1; i++)
		(void)syscall(SYS_poll, fds, 2, 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		(void)syscall(SYS_poll, fds, 2, 0);
	clock_gettime(CLOCK_MONOTONIC, &z);
	close(p[0]);
	close(p[1]);
	return ((double)(z.tv_sec - a.tv_sec) * 1e9 + (double)(z.tv_nsec - a.tv_nsec)) / (double)n;
}

/* ns per getpid(): a call the programs only look up */
static double getpid_ns(long n)
{
	struct timespec a, z;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		(void)syscall(SYS_getpid);
	clock_gettime(CLOCK_MONOTONIC, &z);
	return ((double)(z.tv_sec - a.tv_sec) * 1e9 + (double)(z.tv_nsec - a.tv_nsec)) / (double)n;
}

int main(int argc, char **argv)
{
	struct ltt_bpf_call call = { .enter_id = ID, .nargs = 4, .str_mask = 1u << 1 };
	int nr_cpus = libbpf_num_possible_cpus();
	struct ltt_bpf_sc *b;
	uint64_t lost = 0;
	char why[512] = "";
	const char *mode;
	double off;
	long n;
	int ret, cpu, lost_fd;

	if (argc != 4 || (n = strtol(argv[2], NULL, 10)) <= 0 || nr_cpus <= 0) {
		fprintf(stderr, "usage: bpf_sc strings|lost|bench|time N PATH | timepoll|benchpoll|fault N -\n");
		return 2;
	}
	mode = argv[1];
	if (!strcmp(mode, "timepoll")) {
		printf("ns %.1f\n", poll_ns(n));
		return 0;
	}
	if (!strcmp(mode, "fault")) {
		for (; n > 0; n--)
			if (syscall(SYS_openat, AT_FDCWD, (const char *)1, O_RDWR | O_NONBLOCK,
				    0123) != -1 || errno != EFAULT)
				return 1;
		return 0;
	}
	if (!strcmp(mode, "time")) {
		open_n(n / 10 + 1, argv[3]);	/* warm */
		printf("ns %.1f\n", ns_per_call(n, argv[3]));
		return 0;
	}
	ret = ltt_bpf_sc_create((uint32_t)nr_cpus, strcmp(mode, "lost") ? 1u << 22 : 4096, &b,
				why, sizeof(why));
	if (ret) {
		fprintf(stderr, "bpf_sc: %s\n", why);
		return 77;
	}
	if (!strcmp(mode, "benchpoll")) {
		struct ltt_bpf_call pc = { .enter_id = ID, .nargs = 3,
					   .payload = LTT_BPF_PAYLOAD_POLLFD };
		double idle, on, getpid_off;

		/* each stage's cost apart: the program run, the entry's record, the exit's */
		off = poll_ns(n);
		getpid_off = getpid_ns(n);
		if (ltt_bpf_sc_set(b, SYS_openat, &call) || ltt_bpf_sc_switch(b, true))
			return 1;
		idle = poll_ns(n);	/* the entry's program runs, poll not its call */
		if (ltt_bpf_sc_set(b, SYS_poll, &pc))
			return 1;
		on = poll_ns(n);
		pc.exit_id = ID + 1;
		pc.exit_payload = LTT_BPF_PAYLOAD_POLL_EXIT;
		if (ltt_bpf_sc_set(b, SYS_poll, &pc))
			return 1;
		printf("off %.0f idle %.0f on %.0f exit %.0f getpid_off %.0f getpid_exit %.0f\n", off,
		       idle, on, poll_ns(n), getpid_off, getpid_ns(n));
		ltt_bpf_sc_destroy(b);
		return 0;
	}
	off = ns_per_call(n, argv[3]);
	if (ltt_bpf_sc_set(b, SYS_openat, &call) || ltt_bpf_sc_switch(b, true))
		return 1;
	if (!strcmp(mode, "bench")) {
		printf("off %.0f on %.0f\n", off, ns_per_call(n, argv[3]));
		ltt_bpf_sc_destroy(b);
		return 0;
	}
	open_n(n, argv[3]);
	ltt_bpf_sc_switch(b, false);
	drain(b, (uint32_t)nr_cpus);
	/* the lost counts as the consumer sees them: mapped through a read-only fd */
	lost_fd = ltt_bpf_sc_lost_fd(b);
	for (cpu = 0; cpu < nr_cpus && lost_fd >= 0; cpu++) {
		const uint64_t *counts;
		size_t len;

		if (ltt_bpf_lost_open(lost_fd, (uint32_t)cpu, &counts, &len))
			return 1;
		lost += counts[cpu];
		munmap((void *)counts, len);
	}
	if (!strcmp(mode, "lost")) {
		printf("own %u lost %" PRIu64 "\n", own, lost);
	} else {
		for (unsigned int i = 0; i < nr_names; i++)
			printf("filename %u %s\n", names[i].count, names[i].text);
		printf("other %s\n", other);
	}
	ltt_bpf_sc_destroy(b);
	return lost_fd < 0;
}
