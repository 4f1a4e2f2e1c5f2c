// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ust_bench.c - cost of a tracepoint through libltt-ust, with 1 and 2
 * threads (or any count up to MAX_THREADS with -t):
 *
 *   disabled     the call site alone (no probe runs)
 *   int_string   one int and an 11-character string, recorded
 *   three_ints   three ints, recorded
 *   dropped      one int and the string, into a full discard-mode buffer:
 *                every event is dropped (and counted)
 *   filter_int   int_string's event under the filter "v > 10", which
 *                accepts it (the filter, then recorded)
 *   filter_glob  the same under "s == \"hello*\"" (accepted, recorded)
 *   filter_no    the same under "v < 0" (rejected: the filter alone)
 *   counted      int_string's arguments, counted in a map channel's
 *                per-CPU counter (a trigger's incr-map-value,
 *                COUNTER_ADD): an atomic add, nothing recorded
 *
 * Events are recorded into in-process ring buffers, one per CPU: overwrite
 * mode (4 x 256 KiB) for the recorded cases, so nothing is dropped and no
 * reader is needed; discard mode (4 x 64 KiB), filled once, for "dropped".
 *
 *   ust_bench                  the matrix, each case run 5 times
 *   ust_bench -c int_string    one case
 *   ust_bench -t 2 -n 1000000  2 threads only, events per thread (default 2000000);
 *                              -t 16: 16 threads (a many-core machine's scaling)
 *   ust_bench -r 9             runs per case (the median and the best are shown)
 *   ust_bench -x               exact counts for callgrind: one run, no warm-up,
 *                              exactly -n events per thread and case
 *   ust_bench -C vpid,vtid     the recording channel has these contexts
 *                              (add-context; bench/callgrind.sh -C)
 *   ust_bench -k monotonic     the ring buffers' clock: tsc, monotonic, or
 *                              auto (the default: what ltt-sessiond picks)
 *   ust_bench -P               one ring buffer per channel, which every
 *                              thread writes (--buffer-allocation=per-channel)
 *   ust_bench -s 4096          the recorded cases' sub-buffers, in KiB (default
 *                              256; a power of two): a buffer larger than the
 *                              CPU's caches
 *
 * ns/event is what each thread sees (its events over its own time), and
 * user-space instructions per event come from the CPU's counter when
 * perf_event_open() is allowed (not on every VM).  Under callgrind, -x
 * makes bench_events_* run exactly -n events each; bench/callgrind.sh does
 * the division:
 *
 *   LTT_RUNDIR=/nonexistent valgrind --tool=callgrind \
 *       --toggle-collect='bench_events_*' bench/ust_bench -x -t 1 -n 100000
 *   callgrind_annotate --inclusive=yes callgrind.out.*
 *
 * Valgrind gives the program no vDSO and no rseq: clock_gettime() is a
 * system call whose kernel side is not counted, and the CPU number comes
 * from sched_getcpu()'s fallback (about 30 instructions instead of 3).
 *
 * The bench links libltt-ust's archive and plays the session daemon
 * through src/ust/ust-internal.h.  Without LTT_RUNDIR it re-executes itself
 * in an empty run directory, so no real daemon takes part.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
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

#include "common/filter/filter-compile.h"
#include "common/model/context.h"
#include "common/proto/app-proto.h"
#include "common/trace/ringbuf.h"
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

LTT_TRACEPOINT_EVENT(bench, dropped,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

#define FILTER_EVENT(name) \
	LTT_TRACEPOINT_EVENT(bench, name, \
		LTT_TP_ARGS(int v, const char *s), \
		LTT_TP_FIELDS( \
			ltt_field_integer(int, v, v) \
			ltt_field_string(s, s)))
FILTER_EVENT(filter_int)
FILTER_EVENT(filter_glob)
FILTER_EVENT(filter_no)
FILTER_EVENT(counted)

#define SUBBUF_SIZE ((uint64_t)256 * 1024)
#define NUM_SUBBUF ((uint64_t)4)
#define FULL_SUBBUF_SIZE ((uint64_t)64 * 1024)
#define CHANNEL 1		/* overwrite mode: the recorded cases */
#define FULL_CHANNEL 2		/* discard mode, kept full: "dropped" */
#define MAX_RUNS 999
#define MAX_THREADS 64		/* -t: at most this many writers */

enum bench_case {
	CASE_DISABLED, CASE_INT_STRING, CASE_THREE_INTS, CASE_DROPPED,
	CASE_FILTER_INT, CASE_FILTER_GLOB, CASE_FILTER_NO, CASE_COUNTED, NR_CASES
};

static const char *const case_names[] = {
	"disabled", "int_string", "three_ints", "dropped", "filter_int", "filter_glob", "filter_no",
	"counted"
};

#define COUNTER_KEY (LTT_APP_NOTIFIER_KEY_BIT | 7)	/* the counted case's counter */

/* The filter of each filtered case, on its event in CHANNEL. */
static const struct {
	enum bench_case which;
	const char *event, *expr;
} filters[] = {
	{ CASE_FILTER_INT, "bench:filter_int", "v > 10" },
	{ CASE_FILTER_GLOB, "bench:filter_glob", "s == \"hello*\"" },
	{ CASE_FILTER_NO, "bench:filter_no", "v < 0" },
};

struct worker {
	pthread_t thread;
	enum bench_case which;
	long n;
	bool warm_up;
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

static __attribute__((noinline)) void bench_events_dropped(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, dropped, (int)i, message);
}

/* v starts at 11: "v > 10" accepts every event. */
static __attribute__((noinline)) void bench_events_filter_int(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, filter_int, (int)i + 11, message);
}

static __attribute__((noinline)) void bench_events_filter_glob(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, filter_glob, (int)i, message);
}

static __attribute__((noinline)) void bench_events_filter_no(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, filter_no, (int)i, message);
}

static __attribute__((noinline)) void bench_events_counted(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(bench, counted, (int)i, message);
}

static void run_case(enum bench_case which, long n)
{
	switch (which) {
	case CASE_COUNTED:
		bench_events_counted(n);
		break;
	case CASE_DISABLED:
		bench_events_disabled(n);
		break;
	case CASE_INT_STRING:
		bench_events_int_string(n);
		break;
	case CASE_THREE_INTS:
		bench_events_three_ints(n);
		break;
	case CASE_FILTER_INT:
		bench_events_filter_int(n);
		break;
	case CASE_FILTER_GLOB:
		bench_events_filter_glob(n);
		break;
	case CASE_FILTER_NO:
		bench_events_filter_no(n);
		break;
	default:
		bench_events_dropped(n);
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

	if (w->warm_up)
		run_case(w->which, w->n / 100 + 1);	/* the RCU reader's registration, caches */
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

/* One run: @nr_threads threads of @n events; ns/event averaged over threads. */
static double run_once(enum bench_case which, unsigned int nr_threads, long n, bool warm_up,
		       double *ret_instr)
{
	struct worker w[MAX_THREADS];
	pthread_barrier_t start;
	double ns = 0, instr = 0;
	unsigned int i;

	pthread_barrier_init(&start, NULL, nr_threads);
	for (i = 0; i < nr_threads; i++) {
		w[i] = (struct worker){ .which = which, .n = n, .warm_up = warm_up, .start = &start };
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	for (i = 0; i < nr_threads; i++) {
		pthread_join(w[i].thread, NULL);
		ns += w[i].ns_per_event;
		instr += w[i].instr_per_event;
	}
	pthread_barrier_destroy(&start);
	*ret_instr = w[0].instr_per_event >= 0 ? instr / nr_threads : -1;
	return ns / nr_threads;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void bench(enum bench_case which, unsigned int nr_threads, long n, int runs, bool exact)
{
	double ns[MAX_RUNS], instr = -1;
	int r;

	for (r = 0; r < runs; r++)
		ns[r] = run_once(which, nr_threads, n, !exact, &instr);
	qsort(ns, (size_t)runs, sizeof(ns[0]), cmp_double);
	printf("%-11s %u thread%s  %7.1f ns/event (median of %d, best %.1f)", case_names[which],
	       nr_threads, nr_threads > 1 ? "s" : " ", ns[runs / 2], runs, ns[0]);
	if (instr >= 0)
		printf("  %6.0f instructions/event", instr);
	printf("\n");
}

/* One stream per CPU, given to the library as channel @key. */
/* -C: the contexts of the main channel (bench/callgrind.sh, "Contexts"). */
static struct ltt_ctx contexts[LTT_CTX_MAX];
static uint32_t nr_contexts;

/* "vpid,vtid,...": 0 or -1 for a name that is no context. */
static int parse_contexts(char *list)
{
	char *name, *save = NULL;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (nr_contexts == LTT_CTX_MAX || ltt_ctx_parse(name, &contexts[nr_contexts]))
			return -1;
		nr_contexts++;
	}
	return 0;
}

/* The clock of the bench's ring buffers (-k). */
static struct ltt_tclock bench_clock;

/* -P: one ring buffer per channel, written from every CPU (--buffer-allocation=per-channel) */
static bool per_channel;

static int make_channel(uint64_t key, uint64_t subbuf_size, bool overwrite)
{
	uint32_t nr = per_channel ? 1 : (uint32_t)get_nprocs_conf(), i;
	void **mems = calloc(nr, sizeof(*mems));
	size_t *lens = calloc(nr, sizeof(*lens));
	int ret = -ENOMEM;

	if (!mems || !lens)
		goto out;
	for (i = 0; i < nr; i++) {
		struct ltt_rb_config cfg = { .subbuf_size = subbuf_size, .num_subbuf = NUM_SUBBUF,
					     .overwrite = overwrite, .clock = bench_clock.kind,
					     .cpu = i };

		if (key == CHANNEL)
			cfg.event_ctx_len = (uint32_t)ltt_ctx_len(contexts, nr_contexts);

		lens[i] = ltt_rb_region_size(subbuf_size, NUM_SUBBUF);
		mems[i] = mmap(NULL, lens[i], PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (mems[i] == MAP_FAILED || ltt_rb_init_region(mems[i], lens[i], &cfg))
			goto out;
	}
	ret = ltt_ust_test_add_channel(key, nr, mems, lens);
	if (!ret && key == CHANNEL)
		ret = ltt_ust_test_set_contexts(key, contexts, nr_contexts);
out:
	free(mems);
	free(lens);
	return ret;
}

/*
 * Fill every stream of the discard-mode channel, so that each "dropped"
 * event is dropped: run on each CPU in turn until an event is refused.
 */
static void fill_full_channel(void)
{
	int nr = get_nprocs_conf(), cpu;
	uint64_t failed0, failed;
	cpu_set_t all, one;
	long i;

	sched_getaffinity(0, sizeof(all), &all);
	for (cpu = 0; cpu < nr; cpu++) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		failed0 = ltt_ust_test_events_lost();
		for (i = 0, failed = failed0; failed == failed0 && i < 100000000; i++) {
			ltt_tracepoint(bench, dropped, 0, message);
			failed = ltt_ust_test_events_lost();
		}
	}
	sched_setaffinity(0, sizeof(all), &all);
}

/* Enable the filtered cases' events, each under its filter. */
static int set_filters(void)
{
	static const struct ltt_filter_field_desc fields[] = {
		{ "v", LTT_UST_TYPE_INTEGER, sizeof(int), 1, LTT_UST_ENCODING_NONE, 0, 0 },
		{ "s", LTT_UST_TYPE_STRING, 1, 0, LTT_UST_ENCODING_NONE, 0, 0 },
	};
	struct ltt_filter_node *root;
	size_t i, len;
	uint8_t *code;
	uint32_t len32;
	int ret = 0;

	for (i = 0; i < sizeof(filters) / sizeof(filters[0]) && !ret; i++) {
		root = NULL;
		code = NULL;
		ret = ltt_filter_parse(filters[i].expr, &root, NULL);
		if (!ret)
			ret = ltt_filter_compile(root, fields, 2, &code, &len, NULL);
		len32 = (uint32_t)len;
		if (!ret)
			ret = ltt_ust_test_set_filter(CHANNEL, filters[i].event, 1,
						      (const uint8_t *const *)&code, &len32);
		if (!ret)
			ret = ltt_ust_test_enable_event(CHANNEL, filters[i].event,
							(uint32_t)(4 + i));
		ltt_filter_free(root);
		free(code);
	}
	return ret;
}

/*
 * The counted case: a counter area as the session daemon makes one (one
 * row per CPU, one slot), its active word set, bench:counted in slot 0.
 */
static int make_counter(void)
{
	uint32_t cpus = (uint32_t)get_nprocs_conf();
	size_t len = ltt_app_counter_size(cpus, 1);
	int fd = memfd_create("bench-map", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	uint32_t on = 1;

	if (fd < 0 || ftruncate(fd, (off_t)len) || pwrite(fd, &on, sizeof(on), 0) != sizeof(on) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (ltt_ust_test_add_counter(COUNTER_KEY, cpus, 1, fd))
		return -1;
	return ltt_ust_test_enable_event(COUNTER_KEY, "bench:counted", 0);
}

/* The run directory isolate() made, removed at exit. */
#define OWN_RUNDIR_ENV "LTT_BENCH_OWN_RUNDIR"

static void remove_own_rundir(void)
{
	const char *dir = getenv(OWN_RUNDIR_ENV);

	if (dir)
		rmdir(dir);
}

/*
 * Run again in an empty run directory of our own, without waiting for
 * daemons (unless LTT_RUNDIR is set); the run removes it as it exits.
 */
static void isolate(char **argv)
{
	char dir[] = "/tmp/ltt-bench-XXXXXX";

	if (getenv("LTT_RUNDIR")) {
		atexit(remove_own_rundir);
		return;
	}
	if (!mkdtemp(dir))
		return;
	setenv("LTT_RUNDIR", dir, 1);
	setenv(OWN_RUNDIR_ENV, dir, 1);
	setenv("LTT_UST_REGISTER_TIMEOUT", "0", 1);
	execv("/proc/self/exe", argv);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	int which = -1, threads = 0, runs = 5, opt, c;
	bool exact = false;
	long n = 2000000;
	uint64_t failed0, failed;
	uint64_t subbuf_kib = SUBBUF_SIZE / 1024;
	const char *clock = "auto";
	char err[256];

	isolate(argv);
	while ((opt = getopt(argc, argv, "c:t:n:r:xC:k:Ps:")) != -1) {
		if (opt == 's') {
			subbuf_kib = strtoull(optarg, NULL, 0);
			if (subbuf_kib < 4 || subbuf_kib & (subbuf_kib - 1))
				which = -2;
		} else if (opt == 'k') {
			clock = optarg;
		} else if (opt == 'C') {
			if (parse_contexts(optarg))
				which = -2;
		} else if (opt == 'c') {
			for (c = 0; c < NR_CASES && strcmp(optarg, case_names[c]); c++)
				;
			which = c < NR_CASES ? c : -2;
		} else if (opt == 't') {
			threads = atoi(optarg);
		} else if (opt == 'n') {
			n = atol(optarg);
		} else if (opt == 'r') {
			runs = atoi(optarg);
		} else if (opt == 'x') {
			exact = true;
		} else if (opt == 'P') {
			per_channel = true;
		} else {
			which = -2;
		}
	}
	if (exact)
		runs = 1;
	if (ltt_tclock_choose(clock, "/sys", "/proc/cpuinfo", NULL, &bench_clock, err, sizeof(err))) {
		fprintf(stderr, "%s: -k %s: %s\n", argv[0], clock, err);
		return 2;
	}
	if (which == -2 || threads < 0 || threads > MAX_THREADS || n <= 0 || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: %s [-c disabled|int_string|three_ints|dropped|filter_int|"
			"filter_glob|filter_no|counted] [-t 1..64] [-n N] [-r RUNS] [-x] [-C CONTEXT,...] "
			"[-k auto|tsc|monotonic] [-P] [-s SUBBUF_KIB]\n",
			argv[0]);
		return 2;
	}
	if (make_channel(CHANNEL, subbuf_kib * 1024, true) ||
	    make_channel(FULL_CHANNEL, FULL_SUBBUF_SIZE, false) ||
	    ltt_ust_test_enable_event(CHANNEL, "bench:int_string", 1) ||
	    ltt_ust_test_enable_event(CHANNEL, "bench:three_ints", 2) ||
	    ltt_ust_test_enable_event(FULL_CHANNEL, "bench:dropped", 3) || set_filters() ||
	    make_counter()) {
		fprintf(stderr, "ust_bench: cannot set up the ring buffers\n");
		return 1;
	}
	if (which < 0 || which == CASE_DROPPED)
		fill_full_channel();
	if (!exact)
		printf("clock: %s, read with %s (%s)\n", ltt_tclock_name(bench_clock.kind),
		       ltt_tclock_read_name(bench_clock.kind), bench_clock.why);
	failed0 = ltt_ust_test_events_lost();
	for (c = 0; c < NR_CASES; c++) {
		if (which >= 0 && c != which)
			continue;
		if (threads > 2) {
			bench((enum bench_case)c, (unsigned int)threads, n, runs, exact);
			continue;
		}
		if (threads != 2)
			bench((enum bench_case)c, 1, n, runs, exact);
		if (threads != 1)
			bench((enum bench_case)c, 2, n, runs, exact);
	}
	failed = ltt_ust_test_events_lost();
	printf("(%" PRIu64 " events dropped in all)\n", failed - failed0);
	return 0;
}
