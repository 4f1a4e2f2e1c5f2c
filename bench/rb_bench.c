// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rb_bench.c - cost of one event in the shared-memory ring buffer:
 * ltt_rb_reserve() + a 16-byte payload + ltt_rb_commit().
 *
 *   rb_bench                 the matrix: 1 and 2 writer threads, in each mode
 *   rb_bench -t 2 -m full    one case
 *   rb_bench -n 1000000      events per writer thread (default 5000000)
 *
 * Modes: "drain", 4 x 256 KiB with a reader that sleeps on the eventfd and
 * puts packets back as they complete (what the consumer does, minus I/O;
 * on a loaded host the reader's scheduling decides the drop rate);
 * "full", the same buffer already full and no reader, so every event is
 * dropped (the cost of loss); "self", the same buffer and no reader
 * thread: a writer that finds the buffer full puts the complete packets
 * back itself and retries, so nothing is dropped and nothing sleeps: the
 * success path with hot caches, sub-buffer switches included, free of
 * scheduling noise (the reader's work is a get/put per 16 Ki events).
 *
 * Per case it prints ns/event as each writer sees it, the aggregate rate,
 * the share of events dropped, and user-space instructions per event from
 * the CPU's counter when perf_event_open() is allowed.  Under callgrind,
 * count only the event loop:
 *
 *   valgrind --tool=callgrind --toggle-collect=bench_events \
 *       bench/rb_bench -t 1 -m self -n 1000000
 *
 * and divide the Ir total by the events (valgrind gives the program no
 * vDSO, so clock_gettime() is a system call there: its kernel side is not
 * counted; the perf figure includes the vDSO's instructions).
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"

#define SUBBUF_SIZE	((uint64_t)256 * 1024)
#define NUM_SUBBUF	((uint64_t)4)
#define PAYLOAD		16

enum mode { MODE_DRAIN, MODE_FULL, MODE_SELF };

static const char *const mode_names[] = { "drain", "full", "self" };

struct bench {
	struct ltt_rb rb;	/* the writers' handle */
	void *mem;
	size_t len;
	int efd;
	int done;
	uint64_t packets;	/* read by the reader */
	bool self_drain;	/* MODE_SELF: writers drain */
	int reading;		/* MODE_SELF: a writer is draining */
	struct ltt_rb reader;	/* MODE_SELF: the reader's handle */
	pthread_barrier_t start;
};

struct worker {
	struct bench *b;
	uint64_t n;
	uint64_t dropped;
	uint64_t ns;
	uint64_t instructions;	/* 0 when the counter is not available */
	pthread_t thread;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A counter of this thread's user-space instructions, or -1. */
static int open_insn_counter(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* MODE_SELF: put back what is complete; one writer at a time reads. */
static void self_drain(struct bench *b)
{
	struct ltt_rb_packet pkt;

	if (__atomic_exchange_n(&b->reading, 1, __ATOMIC_ACQUIRE))
		return;
	while (ltt_rb_get_next_subbuf(&b->reader, &pkt) == 0)
		ltt_rb_put_subbuf(&b->reader, &pkt);
	__atomic_store_n(&b->reading, 0, __ATOMIC_RELEASE);
}

/*
 * The measured loop, not inlined so that callgrind can toggle on it.
 * Returns the number of events dropped.
 */
uint64_t bench_events(struct bench *b, uint64_t n) __attribute__((noinline));

uint64_t bench_events(struct bench *b, uint64_t n)
{
	static const uint8_t payload[PAYLOAD] = "0123456789abcde";
	struct ltt_rb_slot slot;
	uint64_t i, dropped = 0;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ltt_rb_reserve(&b->rb, PAYLOAD, &slot);
		while (ret == -ENOBUFS && b->self_drain) {
			self_drain(b);
			ret = ltt_rb_reserve(&b->rb, PAYLOAD, &slot);
		}
		if (ret) {
			dropped++;
			continue;
		}
		memcpy(slot.data, payload, PAYLOAD);
		ltt_rb_commit(&b->rb, &slot);
	}
	return dropped;
}

static void *writer_main(void *arg)
{
	struct worker *w = arg;
	uint64_t t0, count = 0;
	int fd = open_insn_counter();

	pthread_barrier_wait(&w->b->start);
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	t0 = now_ns();
	w->dropped = bench_events(w->b, w->n);
	w->ns = now_ns() - t0;
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &count, sizeof(count)) == sizeof(count))
			w->instructions = count;
		close(fd);
	}
	return NULL;
}

/* A consumer that only moves the read position: sleeps on the eventfd. */
static void *reader_main(void *arg)
{
	struct bench *b = arg;
	struct pollfd pfd = { .fd = b->efd, .events = POLLIN };
	struct ltt_rb_packet pkt;
	struct ltt_rb rb;
	uint64_t v;
	int ret;

	if (ltt_rb_attach(&rb, b->mem, b->len))
		return NULL;
	for (;;) {
		ret = ltt_rb_get_next_subbuf(&rb, &pkt);
		if (ret == 0) {
			ltt_rb_put_subbuf(&rb, &pkt);
			b->packets++;
			continue;
		}
		if (ret != -EAGAIN)
			continue;
		if (__atomic_load_n(&b->done, __ATOMIC_ACQUIRE))
			break;
		if (poll(&pfd, 1, 10) > 0 && read(b->efd, &v, sizeof(v)) < 0)
			continue;
	}
	return NULL;
}

static int run_case(unsigned int nthreads, enum mode mode, uint64_t n)
{
	struct ltt_rb_config cfg = { .subbuf_size = SUBBUF_SIZE, .num_subbuf = NUM_SUBBUF };
	struct worker w[2];
	struct bench b;
	pthread_t reader;
	uint64_t ns = 0, wall, t0, dropped = 0, insns = 0, one = 1;
	unsigned int i;

	memset(&b, 0, sizeof(b));
	b.len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
	b.mem = mmap(NULL, b.len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (b.mem == MAP_FAILED || ltt_rb_init_region(b.mem, b.len, &cfg) ||
	    ltt_rb_attach(&b.rb, b.mem, b.len))
		return -1;
	b.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (b.efd < 0)
		return -1;
	ltt_rb_set_wakeup_fd(&b.rb, b.efd);
	memset(b.mem, 0, b.len);	/* fault the pages in, then start again */
	ltt_rb_init_region(b.mem, b.len, &cfg);
	if (mode == MODE_FULL)
		bench_events(&b, 2 * SUBBUF_SIZE * NUM_SUBBUF / PAYLOAD);
	else if (mode == MODE_DRAIN)
		pthread_create(&reader, NULL, reader_main, &b);
	else if (ltt_rb_attach(&b.reader, b.mem, b.len) == 0)
		b.self_drain = true;
	pthread_barrier_init(&b.start, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .b = &b, .n = n };
		pthread_create(&w[i].thread, NULL, writer_main, &w[i]);
	}
	pthread_barrier_wait(&b.start);
	t0 = now_ns();
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].thread, NULL);
		ns += w[i].ns;
		dropped += w[i].dropped;
		insns += w[i].instructions;
	}
	wall = now_ns() - t0;
	if (mode == MODE_DRAIN) {
		__atomic_store_n(&b.done, 1, __ATOMIC_RELEASE);
		if (write(b.efd, &one, sizeof(one)) < 0)
			perror("eventfd");
		pthread_join(reader, NULL);
	}
	printf("%u thread%s %-5s  %6.1f ns/event  %7.1f Mevents/s  %5.1f%% dropped  ",
	       nthreads, nthreads > 1 ? "s" : " ", mode_names[mode],
	       (double)ns / (double)(n * nthreads), (double)(n * nthreads) * 1e3 / (double)wall,
	       100.0 * (double)dropped / (double)(n * nthreads));
	if (insns)
		printf("%6.1f insn/event\n", (double)insns / (double)(n * nthreads));
	else
		printf("   n/a insn/event\n");
	pthread_barrier_destroy(&b.start);
	close(b.efd);
	munmap(b.mem, b.len);
	return 0;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-t 1|2] [-m drain|full|self] [-n events-per-thread]\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int threads = 0, t;
	int mode = -1, m, opt;
	uint64_t n = 5000000;

	while ((opt = getopt(argc, argv, "t:m:n:h")) != -1) {
		switch (opt) {
		case 't':
			threads = (unsigned int)atoi(optarg);
			if (threads < 1 || threads > 2)
				usage(argv[0]);
			break;
		case 'm':
			for (mode = MODE_SELF; mode >= 0; mode--)
				if (strcmp(optarg, mode_names[mode]) == 0)
					break;
			if (mode < 0)
				usage(argv[0]);
			break;
		case 'n':
			n = strtoull(optarg, NULL, 0);
			if (!n)
				usage(argv[0]);
			break;
		default:
			usage(argv[0]);
		}
	}
	printf("%" PRIu64 " events of %d bytes per thread, %" PRIu64 " KiB sub-buffers, discard mode\n",
	       n, PAYLOAD, SUBBUF_SIZE / 1024);
	for (t = 1; t <= 2; t++) {
		if (threads && t != threads)
			continue;
		for (m = MODE_DRAIN; m <= MODE_SELF; m++)
			if ((mode < 0 || mode == m) && run_case(t, (enum mode)m, n))
				return 1;
	}
	return 0;
}
