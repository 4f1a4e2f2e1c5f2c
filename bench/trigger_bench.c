// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger_bench.c - triggers (doc/triggers.md): their latency through the
 * real daemon, and what they cost an event they do not match.
 *
 *   trigger_bench -m latency -T TRIGGER [-k] [-n EVENTS] [-p PACE_US] [-W WAIT_MS]
 *
 *	Subscribes to TRIGGER (ltt_ctl_subscribe(), the daemon of LTT_RUNDIR)
 *	and emits EVENTS trig:stamp events (default 2000), one every PACE_US
 *	µs (default 2000), each carrying its sequence number and the
 *	CLOCK_REALTIME of its emission (ns), which TRIGGER must capture, in
 *	this order ("--capture=seq --capture=t").  A thread of this program
 *	reads the notifications and takes, for each, the notification's
 *	time_ns (the daemon's CLOCK_REALTIME when it read the program's
 *	message and fired the trigger, from where its actions run) minus the
 *	emission, and its own CLOCK_REALTIME when ltt_notification_channel_read()
 *	returned minus the emission (and the difference of the two: the
 *	daemon's firing to the subscriber's read).  Before the measured events it emits
 *	trig:stamp with seq -1 every 10 ms until one comes back (the notifier
 *	is in place and the path warm).  After the last event it waits up to
 *	WAIT_MS (default 2000) for the rest.  Prints the count emitted and
 *	notified, the notifications' own count of those dropped, and p50,
 *	p90, p99 and max of each latency in µs.
 *
 *	-k: the events are system calls the kernel traces instead:
 *	pread64(-1, T, 12345, SEQ), T the emission's CLOCK_REALTIME as the
 *	buffer's address (the call fails at once, EBADF: the address is never
 *	read); TRIGGER a kernel rule on pread64 with "count == 12345" that
 *	captures pos and buf, in this order.
 *
 *   trigger_bench -m cost [-n N] [-r RUNS] [-x]
 *
 *	trig:cost (one int and an 11-character string, as ust_bench's
 *	int_string) recorded into in-process ring buffers, with notifiers
 *	set up in-process as the daemon's NOTIFIER_ADD would (one per
 *	trigger, src/ust/ust-internal.h plays the daemon), in turn:
 *	  none          no trigger at all
 *	  other10       10 triggers on trig:other, none on trig:cost
 *	  this1         1 trigger on trig:cost, filter "v == -1" (never true)
 *	  this10        10 triggers on trig:cost, filters "v == -1-k", k = 0..9
 *	  this10_only   the same, trig:cost no longer recorded in any channel
 *	Each case's loop is its own function, bench_events_<case>, so that
 *	callgrind counts each alone; -x: one run of exactly N events per case
 *	(default 100000), after a warm-up outside the counted loops:
 *
 *	  LTT_RUNDIR=/nonexistent valgrind --tool=callgrind \
 *	      --toggle-collect='bench_events_*' bench/trigger_bench -m cost -x
 *
 *	Without -x: ns/event natively, median and best of RUNS (default 5)
 *	runs of N events (default 2000000).  Without LTT_RUNDIR the program
 *	re-executes itself with a run directory where no daemon is, so no
 *	real trigger takes part.
 *
 *   trigger_bench -m cost -D CASE [-n N] [-r RUNS] [-x]
 *
 *	The loop of CASE alone, with no in-process set-up: the program
 *	registers with the daemon of LTT_RUNDIR, which gives it its channels
 *	and notifiers (bench/triggers.sh sets up each case with lttctl).
 *
 * bench/triggers.sh runs both.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/filter/filter-compile.h"
#include "common/proto/app-proto.h"
#include "common/trace/ringbuf.h"
#include "ust/ust-internal.h"
#include "trigger_tp.h"

#define SUBBUF_SIZE ((uint64_t)256 * 1024)
#define NUM_SUBBUF ((uint64_t)4)
#define CHANNEL 1
#define NR_TRIGGERS 10
#define MAX_RUNS 99
#define WARM_UP_PAUSE_NS 10000000L	/* 10 ms between warm-up events */
#define WARM_UP_MAX 500			/* 5 s of them at most */

/* Identical loops must stay apart, each under its own name, for callgrind. */
#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_LOOP __attribute__((noinline, no_icf))
#else
#define BENCH_LOOP __attribute__((noinline))
#endif

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int parse_long(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return (errno || *end || end == s || *v < 0) ? -1 : 0;
}

/* ---- latency: event -> trigger fired -> notification read ---- */

struct latency {
	struct ltt_notification_channel *ch;
	long n;
	int64_t *fired;		/* per seq: time_ns - emission, ns */
	int64_t *recv;		/* per seq: read - emission, ns */
	int64_t *hop;		/* per seq: read - time_ns, ns */
	bool *seen;
	long received;		/* distinct measured events notified */
	long others;		/* duplicates, seq out of range, missing captures */
	uint64_t dropped;	/* sum of the notifications' dropped */
	int ready;		/* a warm-up notification came (atomic) */
	int stop;		/* the reader ends (atomic) */
	int err;		/* the reader's error, 0 (atomic) */
};

static void take(struct latency *l, const struct ltt_notification *n, uint64_t now)
{
	const struct ltt_capture_value *c = n->captures;
	int64_t seq;

	l->dropped += n->dropped;
	if (n->nr_captures < 2 ||
	    (c[0].type != LTT_CAPTURE_SIGNED && c[0].type != LTT_CAPTURE_UNSIGNED) ||
	    c[1].type != LTT_CAPTURE_UNSIGNED) {
		l->others++;
		return;
	}
	/* a system call's argument is an unsigned slot (-k): the same bits */
	seq = c[0].type == LTT_CAPTURE_SIGNED ? c[0].s : (int64_t)c[0].u;
	if (seq < 0) {
		__atomic_store_n(&l->ready, 1, __ATOMIC_RELEASE);
		return;
	}
	if (seq >= l->n || l->seen[seq]) {
		l->others++;
		return;
	}
	l->seen[seq] = true;
	l->fired[seq] = n->time_ns - (int64_t)c[1].u;
	l->recv[seq] = (int64_t)now - (int64_t)c[1].u;
	l->hop[seq] = (int64_t)now - n->time_ns;
	__atomic_store_n(&l->received, l->received + 1, __ATOMIC_RELEASE);
}

static void *reader_main(void *arg)
{
	struct latency *l = arg;
	struct ltt_notification *n;
	uint64_t now;
	int ret;

	while (!__atomic_load_n(&l->stop, __ATOMIC_ACQUIRE)) {
		ret = ltt_notification_channel_read(l->ch, 100, &n);
		now = clock_ns(CLOCK_REALTIME);
		if (ret == -LTT_ERR_NOTIFICATION_TIMEOUT)
			continue;
		if (ret) {
			__atomic_store_n(&l->err, ret, __ATOMIC_RELEASE);
			break;
		}
		take(l, n, now);
		free(n);
	}
	__atomic_store_n(&l->ready, 1, __ATOMIC_RELEASE);	/* no warm-up wait on error */
	return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The received entries of @v, sorted, as "p50 p90 p99 max" in µs. */
static void print_dist(const char *what, int64_t *v, const bool *seen, long n)
{
	static const double ps[] = { 0.50, 0.90, 0.99 };
	long i, k = 0, rank;
	size_t j;

	for (i = 0; i < n; i++)
		if (seen[i])
			v[k++] = v[i];
	printf("%-34s", what);
	if (!k) {
		printf(" (none received)\n");
		return;
	}
	qsort(v, (size_t)k, sizeof(v[0]), cmp_i64);
	for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
		rank = (long)(ps[j] * (double)k + 0.999999);	/* nearest rank */
		printf("  p%.0f %8.1f", ps[j] * 100, (double)v[(rank > 0 ? rank : 1) - 1] / 1000);
	}
	printf("  max %8.1f us\n", (double)v[k - 1] / 1000);
}

/* -k: the measured event is a pread64 system call (count KERNEL_COUNT), not trig:stamp. */
#define KERNEL_COUNT 12345
static bool kernel_events;

/* The event numbered @seq, carrying its emission's CLOCK_REALTIME. */
static void stamp(long seq)
{
	uint64_t t = clock_ns(CLOCK_REALTIME);

	if (kernel_events)
		(void)syscall(SYS_pread64, -1, (void *)(uintptr_t)t, (size_t)KERNEL_COUNT,
			      (long long)seq);
	else
		ltt_tracepoint(trig, stamp, seq, t);
}

/* Emit warm-up events until one is notified; -ETIMEDOUT after WARM_UP_MAX. */
static int warm_up(struct latency *l)
{
	struct timespec pause = { 0, WARM_UP_PAUSE_NS };
	int i;

	for (i = 0; i < WARM_UP_MAX; i++) {
		if (__atomic_load_n(&l->ready, __ATOMIC_ACQUIRE))
			return 0;
		stamp(-1);
		nanosleep(&pause, NULL);
	}
	return -ETIMEDOUT;
}

/* @n events, one every @pace_ns on CLOCK_MONOTONIC's absolute ticks. */
static void emit_paced(long n, long pace_ns)
{
	uint64_t start = clock_ns(CLOCK_MONOTONIC), next;
	struct timespec ts;
	long i;

	for (i = 0; i < n; i++) {
		next = start + (uint64_t)(i + 1) * (uint64_t)pace_ns;
		ts.tv_sec = (time_t)(next / 1000000000u);
		ts.tv_nsec = (long)(next % 1000000000u);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		stamp(i);
	}
}

/* Wait until every event is notified or @wait_ms passed. */
static void wait_rest(struct latency *l, long wait_ms)
{
	struct timespec tick = { 0, 1000000 };
	long waited;

	for (waited = 0; waited < wait_ms; waited++) {
		if (__atomic_load_n(&l->received, __ATOMIC_ACQUIRE) == l->n ||
		    __atomic_load_n(&l->err, __ATOMIC_ACQUIRE))
			return;
		nanosleep(&tick, NULL);
	}
}

static int run_latency(const char *trigger, long n, long pace_us, long wait_ms)
{
	struct latency l = { .n = n };
	pthread_t reader;
	int ret;

	l.fired = calloc((size_t)n, sizeof(*l.fired));
	l.recv = calloc((size_t)n, sizeof(*l.recv));
	l.hop = calloc((size_t)n, sizeof(*l.hop));
	l.seen = calloc((size_t)n, sizeof(*l.seen));
	if (!l.fired || !l.recv || !l.hop || !l.seen) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	ret = ltt_ctl_subscribe(NULL, trigger, &l.ch);
	if (ret)
		goto out;
	if (pthread_create(&reader, NULL, reader_main, &l)) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	if (warm_up(&l) || l.err) {
		fprintf(stderr, "trigger_bench: no notification of a warm-up event in %d s\n",
			WARM_UP_MAX * (int)(WARM_UP_PAUSE_NS / 1000000) / 1000);
		ret = l.err ? l.err : -LTT_ERR_NOTIFICATION_TIMEOUT;
	} else {
		emit_paced(n, pace_us * 1000);
		wait_rest(&l, wait_ms);
	}
	__atomic_store_n(&l.stop, 1, __ATOMIC_RELEASE);
	pthread_join(reader, NULL);
	if (!ret && l.err)
		ret = l.err;
	if (ret)
		goto out;
	printf("emitted %ld, notified %ld, dropped %" PRIu64 " (as the notifications count "
	       "them), other notifications %ld\n", n, l.received, l.dropped, l.others);
	print_dist("event -> trigger fired (time_ns):", l.fired, l.seen, n);
	print_dist("event -> subscriber read it:", l.recv, l.seen, n);
	print_dist("trigger fired -> subscriber read:", l.hop, l.seen, n);
out:
	ltt_notification_channel_close(l.ch);
	free(l.fired);
	free(l.recv);
	free(l.hop);
	free(l.seen);
	if (ret)
		fprintf(stderr, "trigger_bench: %s\n", ltt_strerror(ret));
	return ret ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: trigger_bench -m latency -T TRIGGER [-k] [-n EVENTS] [-p PACE_US] "
		"[-W WAIT_MS]\n"
		"       trigger_bench -m cost [-n N] [-r RUNS] [-x] [-D CASE]\n");
}

/* ---- cost: an event no trigger matches ---- */

/* Not a constant: the probe's strlen() must run, as in real programs. */
static const char *volatile message = "hello world";

static BENCH_LOOP void bench_events_none(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(trig, cost, (int)i, message);
}

static BENCH_LOOP void bench_events_other10(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(trig, cost, (int)i, message);
}

static BENCH_LOOP void bench_events_this1(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(trig, cost, (int)i, message);
}

static BENCH_LOOP void bench_events_this10(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(trig, cost, (int)i, message);
}

static BENCH_LOOP void bench_events_this10_only(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(trig, cost, (int)i, message);
}

/* Outside the counted loops: the thread's RCU registration, caches. */
static void warm(long n)
{
	long i;

	for (i = 0; i < n; i++)
		ltt_tracepoint(trig, cost, (int)i, message);
}

/* One stream per CPU, overwrite mode (nothing dropped, no reader), as ust_bench's. */
static int make_channel(void)
{
	uint32_t nr = (uint32_t)get_nprocs_conf(), i;
	void **mems = calloc(nr, sizeof(*mems));
	size_t *lens = calloc(nr, sizeof(*lens));
	struct ltt_tclock clock;
	char err[256];
	int ret = -ENOMEM;

	if (!mems || !lens)
		goto out;
	ret = ltt_tclock_choose("auto", "/sys", "/proc/cpuinfo", NULL, &clock, err, sizeof(err));
	if (ret)
		goto out;
	ret = -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct ltt_rb_config cfg = { .subbuf_size = SUBBUF_SIZE, .num_subbuf = NUM_SUBBUF,
					     .overwrite = true, .clock = clock.kind, .cpu = i };

		lens[i] = ltt_rb_region_size(SUBBUF_SIZE, NUM_SUBBUF);
		mems[i] = mmap(NULL, lens[i], PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (mems[i] == MAP_FAILED || ltt_rb_init_region(mems[i], lens[i], &cfg))
			goto out;
	}
	ret = ltt_ust_test_add_channel(CHANNEL, nr, mems, lens);
out:
	free(mems);
	free(lens);
	return ret;
}

/* One program "v == @value" on @event for @key, compiled as the daemon does. */
static int set_filter(uint64_t key, const char *event, int value)
{
	static const struct ltt_filter_field_desc fields[] = {
		{ "v", LTT_UST_TYPE_INTEGER, sizeof(int), 1, LTT_UST_ENCODING_NONE, 0, 0 },
		{ "s", LTT_UST_TYPE_STRING, 1, 0, LTT_UST_ENCODING_NONE, 0, 0 },
	};
	struct ltt_filter_node *root = NULL;
	uint8_t *code = NULL;
	char expr[32];
	uint32_t len32;
	size_t len = 0;
	int ret;

	snprintf(expr, sizeof(expr), "v == %d", value);
	ret = ltt_filter_parse(expr, &root, NULL);
	if (!ret)
		ret = ltt_filter_compile(root, fields, 2, &code, &len, NULL);
	len32 = (uint32_t)len;
	if (!ret)
		ret = ltt_ust_test_set_filter(key, event, 1, (const uint8_t *const *)&code, &len32);
	ltt_filter_free(root);
	free(code);
	return ret;
}

static uint64_t notifier_key(int k)
{
	return LTT_APP_NOTIFIER_KEY_BIT | (uint64_t)(0x100 + k);
}

/* The read ends of the notifiers' sockets: kept open, never read (nothing matches). */
static int read_ends[NR_TRIGGERS];

/* Triggers @from..@to-1 on @event: a notifier each, filter "v == -1-k". */
static int add_triggers(const char *event, int from, int to)
{
	int k, p[2], ret = 0;

	for (k = from; k < to && !ret; k++) {
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p))
			return -errno;
		read_ends[k] = p[0];
		ret = ltt_ust_test_add_notifier(notifier_key(k), p[1], 0, NULL);
		if (!ret)
			ret = set_filter(notifier_key(k), event, -1 - k);
		if (!ret)
			ret = ltt_ust_test_enable_event(notifier_key(k), event, 0);
	}
	return ret;
}

static void remove_triggers(int from, int to)
{
	int k;

	for (k = from; k < to; k++) {
		ltt_ust_test_remove_notifier(notifier_key(k));
		close(read_ends[k]);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Run @loop as the case @name: exactly @n events (@exact), else RUNS timed runs. */
static void bench(const char *name, void (*loop)(long), long n, int runs, bool exact)
{
	double ns[MAX_RUNS];
	uint64_t t0;
	int r;

	warm(exact ? 1000 : n / 100 + 1);
	if (exact) {
		loop(n);
		printf("%-12s %ld events\n", name, n);
		return;
	}
	for (r = 0; r < runs; r++) {
		t0 = clock_ns(CLOCK_MONOTONIC);
		loop(n);
		ns[r] = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / (double)n;
	}
	qsort(ns, (size_t)runs, sizeof(ns[0]), cmp_double);
	printf("%-12s %7.1f ns/event (median of %d, best %.1f)\n", name, ns[runs / 2], runs, ns[0]);
}

/* The cases, in the order run_cost() sets them up. */
static const struct {
	const char *name;
	void (*loop)(long);
} cases[] = {
	{ "none", bench_events_none },
	{ "other10", bench_events_other10 },
	{ "this1", bench_events_this1 },
	{ "this10", bench_events_this10 },
	{ "this10_only", bench_events_this10_only },
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static int run_cost(long n, int runs, bool exact)
{
	uint64_t lost0 = ltt_ust_test_events_lost();
	int ret;

	ret = make_channel();
	if (!ret)
		ret = ltt_ust_test_enable_event(CHANNEL, "trig:cost", 1);
	if (ret)
		goto fail;
	bench(cases[0].name, cases[0].loop, n, runs, exact);
	ret = add_triggers("trig:other", 0, NR_TRIGGERS);
	if (ret)
		goto fail;
	bench(cases[1].name, cases[1].loop, n, runs, exact);
	remove_triggers(0, NR_TRIGGERS);
	ret = add_triggers("trig:cost", 0, 1);
	if (ret)
		goto fail;
	bench(cases[2].name, cases[2].loop, n, runs, exact);
	ret = add_triggers("trig:cost", 1, NR_TRIGGERS);
	if (ret)
		goto fail;
	bench(cases[3].name, cases[3].loop, n, runs, exact);
	ret = ltt_ust_test_disable_event(CHANNEL, "trig:cost");
	if (ret)
		goto fail;
	bench(cases[4].name, cases[4].loop, n, runs, exact);
	remove_triggers(0, NR_TRIGGERS);
	printf("(%" PRIu64 " events dropped in all)\n", ltt_ust_test_events_lost() - lost0);
	return 0;
fail:
	fprintf(stderr, "trigger_bench: cannot set up the channel or the notifiers: %s\n",
		strerror(-ret));
	return 1;
}

/* -D CASE: one case's loop, with what the real daemon gave this program. */
static int run_cost_daemon(const char *name, long n, int runs, bool exact)
{
	size_t i;

	for (i = 0; i < NR_CASES; i++) {
		if (!strcmp(cases[i].name, name)) {
			bench(name, cases[i].loop, n, runs, exact);
			return 0;
		}
	}
	usage();
	return 2;
}

/* No daemon for the cost mode: a run directory where none is. */
static void isolate(char **argv)
{
	if (getenv("LTT_RUNDIR"))
		return;
	setenv("LTT_RUNDIR", "/nonexistent/ltt-trigger-bench", 1);
	setenv("LTT_UST_REGISTER_TIMEOUT", "0", 1);
	execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
	long n = -1, pace_us = 2000, wait_ms = 2000, runs = 5;
	const char *mode = NULL, *trigger = NULL, *daemon_case = NULL;
	bool exact = false, bad = false;
	int opt;

	while ((opt = getopt(argc, argv, "m:T:n:p:W:r:xD:k")) != -1) {
		if (opt == 'm')
			mode = optarg;
		else if (opt == 'T')
			trigger = optarg;
		else if (opt == 'n')
			bad |= parse_long(optarg, &n) || n == 0;
		else if (opt == 'p')
			bad |= parse_long(optarg, &pace_us);
		else if (opt == 'W')
			bad |= parse_long(optarg, &wait_ms);
		else if (opt == 'r')
			bad |= parse_long(optarg, &runs) || runs < 1 || runs > MAX_RUNS;
		else if (opt == 'x')
			exact = true;
		else if (opt == 'D')
			daemon_case = optarg;
		else if (opt == 'k')
			kernel_events = true;
		else
			bad = true;
	}
	if (bad || !mode || optind != argc) {
		usage();
		return 2;
	}
	if (!strcmp(mode, "latency") && trigger)
		return run_latency(trigger, n > 0 ? n : 2000, pace_us, wait_ms);
	if (!strcmp(mode, "cost")) {
		n = n > 0 ? n : exact ? 100000 : 2000000;
		if (daemon_case)
			return run_cost_daemon(daemon_case, n, exact ? 1 : (int)runs, exact);
		isolate(argv);
		return run_cost(n, exact ? 1 : (int)runs, exact);
	}
	usage();
	return 2;
}
