// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tracepoint_cpu.c - which stream of a channel libltt-ust writes each
 * event into: every event of threads that start and end while recording,
 * the stream of the CPU a thread runs on (with the TSC, the CPU of its
 * previous timestamp) before and after it moves, after its CPU's buffer
 * filled up; a channel whose streams count different clocks refused; a
 * getcpu plugin's CPU; and a thread cancelled while it records.
 *
 * As test_tracepoint_ser.c, the test plays the session daemon in-process
 * (ust-rings.h) and never contacts a real one.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "common/model/context.h"
#include "common/trace/tclock.h"
#include "tests/unit/tap.h"
#include "tests/unit/ust-rings.h"
#include "ust/ust-internal.h"

LTT_TRACEPOINT_EVENT(cpu, tick,
	LTT_TP_ARGS(int n),
	LTT_TP_FIELDS(
		ltt_field_integer(int, n, n)))

LTT_TRACEPOINT_EVENT(cpu, tock,
	LTT_TP_ARGS(int n),
	LTT_TP_FIELDS(
		ltt_field_integer(int, n, n)))

static uint8_t events[1 << 20];

#define NR_THREADS 4
#define PER_THREAD 2000

static void *thread_main(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < PER_THREAD; i++)
		ltt_tracepoint(cpu, tick, i);
	return NULL;
}

/* Threads that start and end while recording, on a stream per CPU. */
static void test_threads(void)
{
	uint32_t nr = (uint32_t)get_nprocs_conf(), i;
	struct region *rs = calloc(nr, sizeof(*rs));
	void **mems = calloc(nr, sizeof(*mems));
	size_t *lens = calloc(nr, sizeof(*lens)), total = 0;
	pthread_t t[NR_THREADS];
	int round;

	for (i = 0; i < nr; i++) {
		region_new(&rs[i], 1 << 16, 16);
		mems[i] = rs[i].mem;
		lens[i] = rs[i].len;
	}
	tap_is_int(ltt_ust_test_add_channel(7, nr, mems, lens), 0, "a channel of %u streams", nr);
	ltt_ust_test_enable_event(7, "cpu:tick", 8);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < NR_THREADS; i++)
			pthread_create(&t[i], NULL, thread_main, NULL);
		for (i = 0; i < NR_THREADS; i++)
			pthread_join(t[i], NULL);
	}
	for (i = 0; i < nr; i++) {
		struct cursor c = { events, events + region_collect(&rs[i], events, sizeof(events)) };
		uint32_t id;
		bool compact;
		uint64_t ts;

		while (next_header(&c, &id, &compact, &ts) && id == 8) {
			c.p += 4;
			total++;
		}
	}
	tap_is_int((long long)total, 2 * NR_THREADS * PER_THREAD,
		   "every event of every thread recorded");
	ltt_ust_test_remove_channel(7);
	for (i = 0; i < nr; i++)
		region_free(&rs[i]);
	free(rs);
	free(mems);
	free(lens);
}

/* Events of id @id (cpu:tick) in each of @nr regions, into @counts. */
static void count_per_stream(struct region *rs, uint32_t nr, uint32_t id, long long *counts)
{
	uint32_t i;

	for (i = 0; i < nr; i++) {
		struct cursor c = { events, events + region_collect(&rs[i], events, sizeof(events)) };
		uint32_t got;
		bool compact;
		uint64_t ts;

		counts[i] = 0;
		while (next_header(&c, &got, &compact, &ts) && got == id) {
			c.p += 4;
			counts[i]++;
		}
	}
}

struct pinned {
	int cpu[2];		/* first CPU, then the one it moves to */
	int per_cpu[2];		/* events written on each */
};

static bool pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static void *pinned_main(void *arg)
{
	const struct pinned *p = arg;
	int k, i;

	for (k = 0; k < 2; k++) {
		if (!pin(p->cpu[k]))
			return NULL;
		for (i = 0; i < p->per_cpu[k]; i++)
			ltt_tracepoint(cpu, tick, i);
	}
	return NULL;
}

/*
 * Run struct pinned @p's thread over a channel of one stream per CPU, of
 * @subbuf x 4 bytes in discard mode, counting the clock @clock; the
 * events of each stream in @counts.  False (a test skipped) without two
 * CPUs this process may run on.
 */
static bool run_pinned(struct pinned *p, uint32_t clock, uint64_t subbuf, long long *counts,
		       const char *what)
{
	uint32_t nr = (uint32_t)get_nprocs_conf(), i;
	struct region rs[64];
	void *mems[64];
	size_t lens[64];
	cpu_set_t allowed;
	pthread_t t;
	int cpu;

	p->cpu[0] = p->cpu[1] = -1;
	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (cpu = 0; cpu < (int)nr && cpu < 64 && p->cpu[1] < 0; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			p->cpu[p->cpu[0] < 0 ? 0 : 1] = cpu;
	if (nr > 64 || p->cpu[1] < 0) {
		tap_skip("%s: needs two CPUs this process may run on", what);
		tap_skip("%s: needs two CPUs this process may run on", what);
		return false;
	}
	for (i = 0; i < nr; i++) {
		region_new_clock(&rs[i], subbuf, 4, clock);
		mems[i] = rs[i].mem;
		lens[i] = rs[i].len;
	}
	if (ltt_ust_test_add_channel(8, nr, mems, lens) || ltt_ust_test_enable_event(8, "cpu:tick", 8)) {
		tap_diag("cannot add the channel");
		exit(1);
	}
	pthread_create(&t, NULL, pinned_main, p);
	pthread_join(t, NULL);
	count_per_stream(rs, nr, 8, counts);
	ltt_ust_test_remove_channel(8);
	for (i = 0; i < nr; i++)
		region_free(&rs[i]);
	return true;
}

static void *rdtscp_main(void *arg)
{
	const struct pinned *p = arg;
	unsigned int aux;
	int k;

	for (k = 0; k < 2; k++) {
		if (!pin(p->cpu[k]))
			return NULL;
		__rdtscp(&aux);
		if ((int)(aux & 0xfff) != p->cpu[k])
			return NULL;
	}
	return (void *)p;
}

/*
 * Whether RDTSCP gives the CPU on @p's two CPUs: the CPU lists it, and
 * its TSC_AUX holds the number of the CPU it ran on (a hypervisor may let
 * RDTSCP run without listing it, and Linux then writes no number there).
 */
static bool rdtscp_gives_cpu(struct pinned *p)
{
	pthread_t t;
	void *ret;

	if (ltt_tclock_tsc_kind("/proc/cpuinfo") != LTT_TCLOCK_TSC)
		return false;
	pthread_create(&t, NULL, rdtscp_main, p);
	pthread_join(t, &ret);
	return ret != NULL;
}

/*
 * Each event goes to the stream of the CPU its thread runs on: with the
 * TSC read by RDTSCP, the CPU the thread's previous timestamp was read on
 * (its TSC_AUX), so a thread that moves writes at most one event into its
 * old CPU's stream, and exactly one where TSC_AUX holds the CPU's number;
 * with CLOCK_MONOTONIC and LFENCE; RDTSC, the CPU of the moment.  A
 * thread pinned to one CPU, then moved to another.
 */
static void test_cpu_streams(uint32_t clock, const char *what)
{
	struct pinned p = { .per_cpu = { 500, 500 } };
	long long counts[64], first, second;

	if (!run_pinned(&p, clock, 1 << 16, counts, what))
		return;
	first = counts[p.cpu[0]];
	second = counts[p.cpu[1]];
	if (clock != LTT_TCLOCK_TSC) {
		tap_is_int(first, 500, "%s: CPU %d's stream holds the 500 events written there",
			   what, p.cpu[0]);
		tap_is_int(second, 500, "%s: CPU %d's stream holds the 500 written there after the move",
			   what, p.cpu[1]);
	} else if (rdtscp_gives_cpu(&p)) {
		/* the hint is the CPU of the previous event: one late after the move */
		tap_is_int(first, 501, "%s: CPU %d's stream holds the 500 events written there, "
			   "and the first after the move (TSC_AUX holds the CPU)", what, p.cpu[0]);
		tap_is_int(second, 499, "%s: CPU %d's stream holds the others written after the move",
			   what, p.cpu[1]);
	} else {
		tap_ok(first == 500 || first == 501,
		       "%s: CPU %d's stream holds the 500 events written there, and at most one "
		       "after the move (TSC_AUX holds no CPU number: %lld)", what, p.cpu[0], first);
		tap_is_int(first + second, 1000, "%s: CPU %d's stream holds the others", what,
			   p.cpu[1]);
	}
}

/* A channel whose streams count different clocks is refused. */
static void test_mixed_clocks(void)
{
	struct region rs[2];
	void *mems[2];
	size_t lens[2];
	int i;

	for (i = 0; i < 2; i++) {
		region_new_clock(&rs[i], 4096, 4, i ? LTT_TCLOCK_TSC : LTT_TCLOCK_MONO);
		mems[i] = rs[i].mem;
		lens[i] = rs[i].len;
	}
	tap_is_int(ltt_ust_test_add_channel(9, 2, mems, lens), -EINVAL,
		   "a channel whose streams count different clocks is refused");
	for (i = 0; i < 2; i++)
		region_free(&rs[i]);
}

/*
 * A thread whose CPU's buffer is full, and so drops its events, then
 * moves: its next events go to its new CPU's stream, which has room (a
 * drop forgets the hint, which no clock read refreshes while it drops).
 */
static void test_cpu_after_drops(void)
{
	/* 4 x 4 KiB in discard mode, no reader: full after about 2,000 events of 8 bytes */
	struct pinned p = { .per_cpu = { 5000, 100 } };
	long long counts[64];

	if (!run_pinned(&p, ltt_tclock_tsc_kind("/proc/cpuinfo"), 4096, counts, "drops"))
		return;
	tap_ok(counts[p.cpu[0]] > 0 && counts[p.cpu[0]] < 5000,
	       "drops: CPU %d's buffer filled up (%lld of 5000 events kept)", p.cpu[0],
	       counts[p.cpu[0]]);
	tap_is_int(counts[p.cpu[1]], 100,
		   "drops: after the move, CPU %d's stream holds the 100 events written there",
		   p.cpu[1]);
}

/*
 * A getcpu plugin (ltt_ust_getcpu_set()) says each event's stream, set
 * after the channel exists (every channel is told) and before one is
 * added (the new one is told): the thread, pinned to one CPU, writes
 * into the plugin's CPU's stream while it is set, and into its own
 * before and after, the fast path having no test of the plugin.
 */
static int plugin_cpu;

static int plugin_getcpu(void)
{
	return plugin_cpu;
}

static void test_getcpu_plugin(void)
{
	uint32_t nr = (uint32_t)get_nprocs_conf(), i, k;
	uint32_t clock = ltt_tclock_tsc_kind("/proc/cpuinfo");
	struct region rs[2][64];
	void *mems[64];
	size_t lens[64];
	long long counts[2][64];
	cpu_set_t allowed;
	int cpu = -1, n;

	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (n = 0; n < (int)nr && n < 64 && cpu < 0; n++)
		if (CPU_ISSET(n, &allowed))
			cpu = n;
	if (nr < 2 || nr > 64 || cpu < 0 || !pin(cpu)) {
		tap_skip("getcpu plugin: needs two CPUs and one this process may run on");
		tap_skip("getcpu plugin: needs two CPUs and one this process may run on");
		tap_skip("getcpu plugin: needs two CPUs and one this process may run on");
		return;
	}
	plugin_cpu = (cpu + 1) % (int)nr;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < nr; i++) {
			region_new_clock(&rs[k][i], 1 << 16, 4, clock);
			mems[i] = rs[k][i].mem;
			lens[i] = rs[k][i].len;
		}
		if (k == 1)
			ltt_ust_getcpu_set(plugin_getcpu);	/* after the first channel */
		if (ltt_ust_test_add_channel(11 + k, nr, mems, lens) ||
		    ltt_ust_test_enable_event(11 + k, "cpu:tick", 8)) {
			tap_diag("cannot add the channel");
			exit(1);
		}
		if (k == 0)
			for (n = 0; n < 100; n++)
				ltt_tracepoint(cpu, tick, n);	/* the hint is this CPU's */
	}
	for (n = 0; n < 300; n++)
		ltt_tracepoint(cpu, tick, n);
	ltt_ust_getcpu_set(NULL);
	for (n = 0; n < 50; n++)
		ltt_tracepoint(cpu, tick, n);
	for (k = 0; k < 2; k++) {
		count_per_stream(rs[k], nr, 8, counts[k]);
		ltt_ust_test_remove_channel(11 + k);
		for (i = 0; i < nr; i++)
			region_free(&rs[k][i]);
	}
	tap_ok(counts[0][plugin_cpu] == 300 && counts[1][plugin_cpu] == 300,
	       "getcpu plugin: its CPU %d's streams hold the 300 events written while it was set "
	       "(%lld, %lld), in a channel added before it and one added after", plugin_cpu,
	       counts[0][plugin_cpu], counts[1][plugin_cpu]);
	tap_is_int(counts[0][cpu], 150,
		   "getcpu plugin: the thread's CPU %d's stream holds the 100 before and the 50 after it",
		   cpu);
	tap_is_int(counts[1][cpu], 50, "getcpu plugin: and the 50 after it in the later channel");
	CPU_ZERO(&allowed);
	for (n = 0; n < 64; n++)
		CPU_SET(n, &allowed);
	sched_setaffinity(0, sizeof(allowed), &allowed);
}

static void *cancelled_main(void *arg)
{
	(void)arg;
	pthread_cancel(pthread_self());	/* pending: deferred */
	ltt_tracepoint(cpu, tick, 7);
	pthread_testcancel();
	return NULL;
}

/*
 * A thread whose cancellation is pending when it records, into a channel
 * with a software counter's context (page faults: no mapped read, so the
 * library reads it with a system call between its reservation and its
 * commit): its event is committed, and only then is it cancelled.  (With
 * glibc's read(), a cancellation point, it was cancelled in mid-event,
 * and the packet never completed while the program lived.)
 */
static void test_cancelled(void)
{
	struct ltt_rb_config cfg = { .subbuf_size = 4096, .num_subbuf = 4,
				     .clock = LTT_TCLOCK_MONO };
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_PAGE_FAULTS, .exclude_kernel = 1 };
	struct ltt_ctx ctx;
	struct region r;
	struct cursor c;
	uint32_t id = 0;
	bool compact;
	uint64_t ts;
	void *ret = NULL;
	pthread_t t;
	long fd;
	int n = 0, v = -1;

	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		tap_skip("cancelled: perf_event_open() refused here");
		tap_skip("cancelled: perf_event_open() refused here");
		return;
	}
	close((int)fd);
	if (ltt_ctx_parse("perf:thread:page-fault", &ctx)) {
		tap_diag("cannot parse the context");
		exit(1);
	}
	cfg.event_ctx_len = (uint32_t)ltt_ctx_len(&ctx, 1);
	region_new_cfg(&r, &cfg);
	if (ltt_ust_test_add_channel(10, 1, &r.mem, &r.len) ||
	    ltt_ust_test_set_contexts(10, &ctx, 1) || ltt_ust_test_enable_event(10, "cpu:tick", 3)) {
		tap_diag("cannot add the channel");
		exit(1);
	}
	pthread_create(&t, NULL, cancelled_main, NULL);
	pthread_join(t, &ret);
	tap_ok(ret == PTHREAD_CANCELED, "cancelled: the thread was cancelled");
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	while (next_header(&c, &id, &compact, &ts) && id == 3 &&
	       c.end - c.p >= (ptrdiff_t)(cfg.event_ctx_len + 4)) {
		memcpy(&v, c.p + cfg.event_ctx_len, 4);
		c.p += cfg.event_ctx_len + 4;
		n++;
	}
	tap_ok(n == 1 && v == 7, "cancelled: its event, written with the counter, is in the trace (%d)",
	       n);
	ltt_ust_test_remove_channel(10);
	region_free(&r);
}

/* CLOCK_MONOTONIC now, in ns. */
static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define CTX_ROUNDS 20

/* The CLOCK_MONOTONIC ns around each of ctx_clock_main()'s cpu:tock events. */
static uint64_t tock_before[CTX_ROUNDS], tock_after[CTX_ROUNDS];

static void *ctx_clock_main(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < CTX_ROUNDS; i++) {
		ltt_tracepoint(cpu, tick, i);	/* RDTSCP: the thread's CPU hint */
		tock_before[i] = mono_ns();
		ltt_tracepoint(cpu, tock, i);
		tock_after[i] = mono_ns();
	}
	return NULL;
}

/*
 * A thread that records into a channel counting the TSC by RDTSCP (so it
 * keeps a CPU hint), then into a channel with a context field counting
 * CLOCK_MONOTONIC, as a program traced by two daemons of other clocks
 * does: the second event's timestamp is CLOCK_MONOTONIC's, taken between
 * the readings around it.  (The fast path for channels with contexts read
 * the TSC whatever the channel's clock.)
 */
static void test_ctx_other_clock(void)
{
	uint32_t nr = (uint32_t)get_nprocs_conf(), i;
	struct ltt_rb_config cfg = { .subbuf_size = 1 << 16, .num_subbuf = 4,
				     .clock = LTT_TCLOCK_MONO };
	struct region *tsc = calloc(nr, sizeof(*tsc)), *mono = calloc(nr, sizeof(*mono));
	void **mems = calloc(2 * nr, sizeof(*mems));
	size_t *lens = calloc(2 * nr, sizeof(*lens));
	struct ltt_ctx ctx;
	struct cursor c;
	uint32_t id, v;
	bool compact;
	uint64_t ts, mask = (1u << 27) - 1;
	int n = 0, in = 0, k;
	pthread_t t;

	if (!tsc || !mono || !mems || !lens || ltt_ctx_parse("vtid", &ctx)) {
		tap_diag("cannot set the channels up");
		exit(1);
	}
	cfg.event_ctx_len = (uint32_t)ltt_ctx_len(&ctx, 1);
	for (i = 0; i < nr; i++) {
		region_new_clock(&tsc[i], 1 << 16, 4, LTT_TCLOCK_TSC);
		region_new_cfg(&mono[i], &cfg);
		mems[i] = tsc[i].mem;
		lens[i] = tsc[i].len;
		mems[nr + i] = mono[i].mem;
		lens[nr + i] = mono[i].len;
	}
	if (ltt_ust_test_add_channel(11, nr, mems, lens) ||
	    ltt_ust_test_enable_event(11, "cpu:tick", 4) ||
	    ltt_ust_test_add_channel(12, nr, mems + nr, lens + nr) ||
	    ltt_ust_test_set_contexts(12, &ctx, 1) || ltt_ust_test_enable_event(12, "cpu:tock", 5)) {
		tap_diag("cannot add the channels");
		exit(1);
	}
	pthread_create(&t, NULL, ctx_clock_main, NULL);
	pthread_join(t, NULL);
	for (i = 0; i < nr; i++) {
		c.p = events;
		c.end = events + region_collect(&mono[i], events, sizeof(events));
		while (next_header(&c, &id, &compact, &ts) && id == 5 &&
		       c.end - c.p >= (ptrdiff_t)(cfg.event_ctx_len + 4)) {
			memcpy(&v, c.p + cfg.event_ctx_len, 4);
			c.p += cfg.event_ctx_len + 4;
			n++;
			k = (int)v;
			if (k < 0 || k >= CTX_ROUNDS)
				continue;
			/* a compact header's 27 bits: the same bits of a time in the window */
			if (compact ? ((ts - tock_before[k]) & mask) <=
					      tock_after[k] - tock_before[k] :
				      ts >= tock_before[k] && ts <= tock_after[k])
				in++;
		}
	}
	tap_ok(n == CTX_ROUNDS && in == CTX_ROUNDS,
	       "a channel with a context, counting CLOCK_MONOTONIC, after one counting the TSC: "
	       "%d of %d events stamped between the CLOCK_MONOTONIC readings around them",
	       in, n);
	ltt_ust_test_remove_channel(11);
	ltt_ust_test_remove_channel(12);
	for (i = 0; i < nr; i++) {
		region_free(&tsc[i]);
		region_free(&mono[i]);
	}
	free(tsc);
	free(mono);
	free(mems);
	free(lens);
}

int main(int argc, char **argv)
{
	(void)argc;
	ust_rings_isolate(argv);
	test_threads();
	test_cpu_streams(LTT_TCLOCK_MONO, "CLOCK_MONOTONIC");
	if (LTT_TCLOCK_HAVE_TSC) {
		test_cpu_streams(LTT_TCLOCK_TSC_LFENCE, "the TSC by LFENCE; RDTSC");
		if (ltt_tclock_tsc_kind("/proc/cpuinfo") == LTT_TCLOCK_TSC) {
			test_cpu_streams(LTT_TCLOCK_TSC, "the TSC by RDTSCP");
		} else {
			tap_skip("the TSC by RDTSCP: the CPU does not list rdtscp");
			tap_skip("the TSC by RDTSCP: the CPU does not list rdtscp");
		}
		test_cpu_after_drops();
		test_mixed_clocks();
		test_getcpu_plugin();
		if (ltt_tclock_tsc_kind("/proc/cpuinfo") == LTT_TCLOCK_TSC)
			test_ctx_other_clock();
		else
			tap_skip("a channel with a context after one counting the TSC: no rdtscp");
	}
	test_cancelled();
	rmdir(getenv("LTT_RUNDIR"));
	return tap_done();
}
