// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ust_bench.c - cost of a tracepoint: disabled, and enabled with one int
 * and one string, or three ints, recorded by libltt-ust into in-process
 * ring buffers (one per CPU, overwrite mode so that nothing is dropped and
 * no reader is needed), with 1 and 2 threads.
 *
 *   ust_bench                  the matrix
 *   ust_bench -c int_string    one case (disabled, int_string, three_ints)
 *   ust_bench -t 2 -n 1000000  2 threads, events per thread (default 2000000)
 *
 * Per case: ns/event as each thread sees it, and user-space instructions
 * per event from the CPU's counter when perf_event_open() is allowed.
 * Under callgrind, count only the event loops (bench_events_*):
 *
 *   LTT_RUNDIR=/nonexistent valgrind --tool=callgrind \
 *       --toggle-collect='bench_events_*' bench/ust_bench -t 1 -n 100000
 *   callgrind_annotate --inclusive=yes callgrind.out.*
 *
 * and divide each bench_events_* total by its events.  Valgrind gives the
 * program no vDSO, so clock_gettime() is a system call there whose kernel
 * part is not counted; the perf figure includes the vDSO's instructions.
 *
 * The bench links libltt-ust's archive and plays the session daemon
 * through src/ust/ust-internal.h.  Without LTT_RUNDIR it re-executes itself
 * in an empty run directory, so no real daemon takes part.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "common/ringbuf.h"
#include "ust/ust-internal.h"

LTT_TRACEPOINT_EVENT(bench, disabled,
	LTT_TP_ARGS(int v),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)))

LTT_TRACEPOINT_EVENT(bench, int_string,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

LTT_TRACEPOINT_EVENT(bench, three_ints,
	LTT_TP_ARGS(int a, int b, int c),
	LTT_TP_FIELDS(
		ltt_field_integer(int, a, a)
		ltt_field_integer(int, b, b)
		ltt_field_integer(int, c, c)))

#define SUBBUF_SIZE ((uint64_t)256 * 1024)
#define NUM_SUBBUF ((uint64_t)4)
#define CHANNEL 1

enum bench_case { CASE_DISABLED, CASE_INT_STRING, CASE_THREE_INTS, NR_CASES };

static const char *const case_names[] = { "disabled", "int_string", "three_ints" };

struct worker {
	pthread_t thread;
	enum bench_case which;
	long n;
	pthread_barrier_t *start;
	double ns_per_event;
	double instr_per_event;		/* < 0: no counter */
};

/* One loop per case, not inlined, so callgrind can count each alone. */
static __attribute__((noinline)) void bench_events_disabled(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, disabled, (int)i);
}

/* Not a constant: the probe's strlen() must run, as in real programs. */
static const char *volatile message = "hello world";

static __attribute__((noinline)) void bench_events_int_string(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, int_string, (int)i, message);
}

static __attribute__((noinline)) void bench_events_three_ints(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, three_ints, (int)i, 2, 3);
}

static void run_case(enum bench_case which, long n)
{
	switch (which) {
	case CASE_DISABLED:
		bench_events_disabled(n);
		break;
	case CASE_INT_STRING:
		bench_events_int_string(n);
		break;
	default:
		bench_events_three_ints(n);
		break;
	}
}

/* This thread's user-space instruction counter, or -1. */
static int counter_open(void)
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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int fd = counter_open();
	uint64_t t0, t1, instr = 0;

	run_case(w->which, w->n / 100 + 1);	/* warm up: urcu-bp registration, caches */
	pthread_barrier_wait(w->start);
	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = now_ns();
	run_case(w->which, w->n);
	t1 = now_ns();
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &instr, sizeof(instr)) != sizeof(instr))
			instr = 0;
		close(fd);
	}
	w->ns_per_event = (double)(t1 - t0) / (double)w->n;
	w->instr_per_event = fd >= 0 && instr ? (double)instr / (double)w->n : -1;
	return NULL;
}

static void report(enum bench_case which, unsigned int nr_threads, const struct worker *w)
{
	double ns = 0, instr = 0;
	unsigned int i;

	for (i = 0; i < nr_threads; i++) {
		ns += w[i].ns_per_event;
		instr += w[i].instr_per_event;
	}
	printf("%-11s %u thread%s  %7.1f ns/event", case_names[which], nr_threads,
	       nr_threads > 1 ? "s" : " ", ns / nr_threads);
	if (w[0].instr_per_event >= 0)
		printf("  %6.0f instructions/event", instr / nr_threads);
	printf("\n");
}

static void bench(enum bench_case which, unsigned int nr_threads, long n)
{
	struct worker w[2];
	pthread_barrier_t start;
	unsigned int i;

	if (which != CASE_DISABLED)
		ltt_ust_test_enable_event(CHANNEL, which == CASE_INT_STRING ? "bench:int_string" :
						   "bench:three_ints", (uint32_t)which);
	pthread_barrier_init(&start, NULL, nr_threads);
	for (i = 0; i < nr_threads; i++) {
		w[i] = (struct worker){ .which = which, .n = n, .start = &start };
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	for (i = 0; i < nr_threads; i++)
		pthread_join(w[i].thread, NULL);
	pthread_barrier_destroy(&start);
	report(which, nr_threads, w);
}

/* One overwrite-mode stream per CPU, given to the library as a channel. */
static int make_channel(void)
{
	uint32_t nr = (uint32_t)get_nprocs_conf(), i;
	void **mems = calloc(nr, sizeof(*mems));
	size_t *lens = calloc(nr, sizeof(*lens));
	int ret;

	for (i = 0; i < nr; i++) {
		struct ltt_rb_config cfg = { .subbuf_size = SUBBUF_SIZE, .num_subbuf = NUM_SUBBUF,
					     .overwrite = true, .cpu = i };

		lens[i] = ltt_rb_region_size(SUBBUF_SIZE, NUM_SUBBUF);
		mems[i] = mmap(NULL, lens[i], PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (mems[i] == MAP_FAILED || ltt_rb_init_region(mems[i], lens[i], &cfg))
			return -ENOMEM;
	}
	ret = ltt_ust_test_add_channel(CHANNEL, nr, mems, lens);
	free(mems);
	free(lens);
	return ret;
}

static void isolate(char **argv)
{
	char dir[] = "/tmp/ltt-bench-XXXXXX";

	if (getenv("LTT_RUNDIR") || !mkdtemp(dir))
		return;
	setenv("LTT_RUNDIR", dir, 1);
	setenv("LTT_UST_REGISTER_TIMEOUT", "0", 1);
	execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
	int which = -1, threads = 0, opt, c;
	long n = 2000000;
	uint64_t failed, clamped;

	isolate(argv);
	while ((opt = getopt(argc, argv, "c:t:n:")) != -1) {
		if (opt == 'c') {
			for (c = 0; c < NR_CASES && strcmp(optarg, case_names[c]); c++)
				;
			which = c < NR_CASES ? c : -2;
		} else if (opt == 't') {
			threads = atoi(optarg);
		} else if (opt == 'n') {
			n = atol(optarg);
		}
	}
	if (which == -2 || threads < 0 || threads > 2 || n <= 0) {
		fprintf(stderr, "usage: %s [-c disabled|int_string|three_ints] [-t 1|2] [-n N]\n",
			argv[0]);
		return 2;
	}
	if (make_channel()) {
		fprintf(stderr, "ust_bench: cannot set up the ring buffers\n");
		return 1;
	}
	for (c = 0; c < NR_CASES; c++) {
		if (which >= 0 && c != which)
			continue;
		if (threads != 2)
			bench((enum bench_case)c, 1, n);
		if (threads != 1)
			bench((enum bench_case)c, 2, n);
	}
	ltt_ust_test_stats(&failed, &clamped);
	if (failed || clamped)
		printf("(%" PRIu64 " events dropped, %" PRIu64 " clamped timestamps)\n", failed,
		       clamped);
	return 0;
}
