// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fastpath_stages.c - where the cycles of one recorded event go: each
 * stage of libltt-ust's fast path timed alone, in a loop bracketed by the
 * TSC, with the code the tracepoint runs (ringbuf.h's and tclock.h's
 * inline functions), then the stages together.  For machines that give no
 * performance counters (VMs): perf stat would say the same with cycles
 * and cache misses.
 *
 *   fastpath_stages [-n EVENTS] [-r RUNS] [-s SUBBUF_KIB] [-b NUM_SUBBUF]
 *
 * The event is int_string's: a compact header (4 bytes), an int and the
 * 12 bytes of "hello world" with its NUL: 20 bytes.  The ring buffer is
 * one stream in overwrite mode, SUBBUF_KIB x NUM_SUBBUF (default 256 x 4,
 * ust_bench's), its pages faulted in first.  Each stage runs EVENTS times
 * (default 200000: short runs, most of them never preempted) per run,
 * RUNS runs (default 31) taking turns; the best run and the median are
 * shown in TSC cycles and in ns (the TSC's rate measured against
 * CLOCK_MONOTONIC), with the clocksource.  On a shared host the best
 * run is the figure: the median moves with the load.
 *
 * The stages:
 *   loop            the loop alone (subtracted from nothing: shown)
 *   rdtscp          the clock read of the fast path (RDTSCP, the CPU with it)
 *   lfence+rdtsc    the other ordered read (CPUs without RDTSCP)
 *   rdtsc           unordered: not usable (events out of order), for scale
 *   clock_gettime   the vDSO's CLOCK_MONOTONIC (LTT_TCLOCK_MONO channels)
 *   rdpid           the CPU number alone
 *   rseq cpu_id     the CPU number from glibc's rseq area
 *   reserve         the write position's acquire load, CAS and last_ts
 *                   store, and the record's stores, without the clock
 *   copy hot        the event's 20 bytes into one L1-resident line pair
 *   copy buffer     the same bytes at successive positions of the whole
 *                   data area: the cost of the buffer's cache lines
 *   copy+prefetch   the same, the line 4 lines ahead prefetched for writing
 *                   (LTT_RB_PREFETCH_AHEAD, as the reservation does)
 *   commit          the commit word's locked add and the record's clear
 *   copy+commit     the copy into the buffer, then the locked add: a locked
 *                   instruction waits for the stores before it
 *   event           all of it: ltt_rb_try_reserve_rec_tsc() (its slow path
 *                   where it says so), the copy and ltt_rb_commit_add_rec(),
 *                   sub-buffer switches included
 *   switches        the slow path's calls alone (opening and closing
 *                   sub-buffers), bracketed one by one inside "event",
 *                   per event: the switch amortised
 *   replica         "event" written out in this file (the same loads,
 *                   stores and atomics), then with one costly part made
 *                   plain at a time, for scale only (not correct code):
 *                   what each part costs in place, among the others
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define HAVE_RSEQ 1
#else
#define HAVE_RSEQ 0
#endif

#include "common/trace/ringbuf.h"

#if !LTT_TCLOCK_HAVE_TSC
int main(void)
{
	fprintf(stderr, "fastpath_stages: x86 only (the TSC brackets the loops)\n");
	return 77;
}
#else

#define EVENT_LEN	20u
#define HDR_EXTENDED	13u
#define MAX_RUNS	999

static const char *volatile message = "hello world";

struct stages {
	struct ltt_rb rb;
	void *mem;
	size_t len;
	struct ltt_rb_wrec *rec;
	uint8_t *data;		/* the data area */
	uint64_t data_mask;	/* its size - 1 */
	uint8_t hot[128] __attribute__((aligned(64)));
	/* "reserve" works on a header of its own, not the stream's */
	struct ltt_rb_shm shm __attribute__((aligned(64)));
	uint64_t word __attribute__((aligned(64)));	/* a commit word of its own */
	uint64_t pad[7];
	uint64_t switch_cycles;	/* "event": cycles spent in the slow path */
	uint64_t slow_calls;	/* "event": calls of the slow path */
};

static inline uint64_t tsc_begin(void)
{
	_mm_lfence();
	return __rdtsc();
}

static inline uint64_t tsc_end(void)
{
	unsigned int aux;
	uint64_t t = __rdtscp(&aux);

	_mm_lfence();
	return t;
}

/* The probe's payload write: the header word, the int, the string. */
static inline __attribute__((always_inline)) void write_event(uint8_t *p, uint32_t i, uint64_t ts)
{
	const char *s = message;
	uint32_t word = 1u | (uint32_t)ts << 5;
	size_t n = strlen(s) + 1;

	memcpy(p, &word, 4);
	memcpy(p + 4, &i, 4);
	memcpy(p + 8, s, n);
}

#define STAGE(name) static __attribute__((noinline)) uint64_t name(struct stages *st, uint64_t n)

STAGE(st_loop)
{
	uint64_t i;

	(void)st;
	for (i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
	return 0;
}

/* The fast path's clock read of @kind, @n times (a constant: inlined). */
static inline __attribute__((always_inline)) uint64_t tclock_loop(uint64_t n, uint32_t kind)
{
	uint64_t i, sum = 0;
	uint32_t cpu;

	for (i = 0; i < n; i++) {
		sum += ltt_tclock_read_cpu(kind, &cpu);
		__asm__ volatile("" : "+r"(cpu) :: "memory");
	}
	return sum;
}

STAGE(st_rdtscp)
{
	(void)st;
	return tclock_loop(n, LTT_TCLOCK_TSC);
}

STAGE(st_lfence_rdtsc)
{
	(void)st;
	return tclock_loop(n, LTT_TCLOCK_TSC_LFENCE);
}

STAGE(st_rdtsc)
{
	uint64_t i, sum = 0;

	(void)st;
	for (i = 0; i < n; i++) {
		sum += __rdtsc();
		__asm__ volatile("" ::: "memory");
	}
	return sum;
}

STAGE(st_mono)
{
	uint64_t i, sum = 0;

	(void)st;
	for (i = 0; i < n; i++)
		sum += ltt_tclock_mono();
	return sum;
}

STAGE(st_rdpid)
{
	uint64_t i, sum = 0, cpu;

	(void)st;
	for (i = 0; i < n; i++) {
		__asm__ volatile("rdpid %0" : "=r"(cpu) :: "memory");
		sum += cpu & 0xfff;
	}
	return sum;
}

STAGE(st_rseq_cpu)
{
	uint64_t i, sum = 0;

	(void)st;
#if HAVE_RSEQ
	if (__rseq_size == 0)
		return 0;
	for (i = 0; i < n; i++) {
		const struct rseq *rs = (const struct rseq *)(void *)
			((char *)__builtin_thread_pointer() + __rseq_offset);

		sum += __atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);
		__asm__ volatile("" ::: "memory");
	}
#else
	(void)i;
	(void)n;
#endif
	return sum;
}

/* The reservation of ltt_rb_try_reserve_in() without its clock read. */
STAGE(st_reserve)
{
	struct ltt_rb_shm *shm = &st->shm;
	uint64_t i, old, prev;

	for (i = 0; i < n; i++) {
		old = __atomic_load_n(&shm->offset, __ATOMIC_ACQUIRE);
		prev = __atomic_load_n(&shm->last_ts, __ATOMIC_RELAXED);
		ltt_rb_wrec_set(st->rec, old, EVENT_LEN, prev + 1);
		__atomic_compare_exchange_n(&shm->offset, &old, old + EVENT_LEN, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
		__atomic_store_n(&shm->last_ts, prev + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&st->rec->pos, 0, __ATOMIC_RELAXED);
	}
	return 0;
}

STAGE(st_copy_hot)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		write_event(st->hot + (i & 63), (uint32_t)i, i);
		__asm__ volatile("" ::: "memory");
	}
	return 0;
}

STAGE(st_copy_buf)
{
	uint64_t i, pos = 0;

	for (i = 0; i < n; i++, pos += EVENT_LEN) {
		write_event(st->data + (pos & st->data_mask), (uint32_t)i, i);
		__asm__ volatile("" ::: "memory");
	}
	return 0;
}

STAGE(st_copy_buf_prefetch)
{
	uint64_t i, pos = 0;

	for (i = 0; i < n; i++, pos += EVENT_LEN) {
		/* as ltt_rb_prefetch_at(): past the slot, the region's guard page after the data */
		__builtin_prefetch(st->data + (pos & st->data_mask) + LTT_RB_PREFETCH_AHEAD, 1, 3);
		write_event(st->data + (pos & st->data_mask), (uint32_t)i, i);
		__asm__ volatile("" ::: "memory");
	}
	return 0;
}

STAGE(st_commit)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		__atomic_fetch_add(&st->word, EVENT_LEN, __ATOMIC_RELEASE);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&st->rec->pos, 0, __ATOMIC_RELAXED);
	}
	return 0;
}

STAGE(st_copy_commit)
{
	uint64_t i, pos = 0;

	for (i = 0; i < n; i++, pos += EVENT_LEN) {
		write_event(st->data + (pos & st->data_mask), (uint32_t)i, i);
		__atomic_fetch_add(&st->word, EVENT_LEN, __ATOMIC_RELEASE);
	}
	return 0;
}

/* The ring buffer's event as libltt-ust writes it, sub-buffer switches too. */
static inline __attribute__((always_inline)) uint64_t event_loop(struct stages *st, uint64_t n)
{
	struct ltt_rb_slot slot;
	uint64_t i, t0, sw = 0, slowcalls = 0;

	for (i = 0; i < n; i++) {
		if (__builtin_expect(ltt_rb_try_reserve_rec_tsc(&st->rb, st->rec, EVENT_LEN,
								EVENT_LEN - 4 + HDR_EXTENDED,
								27, &slot) != 0, 0)) {
			slowcalls++;
			t0 = tsc_begin();
			if (ltt_rb_reserve_slow(&st->rb, st->rec, EVENT_LEN,
						EVENT_LEN - 4 + HDR_EXTENDED, 27, &slot)) {
				sw += tsc_end() - t0;
				continue;
			}
			sw += tsc_end() - t0;
		}
		write_event(slot.data, (uint32_t)i, slot.ts);
		if (ltt_rb_commit_add_rec(&st->rb, st->rec, slot.pos, slot.len))
			ltt_rb_wakeup(&st->rb);
	}
	st->switch_cycles = sw;
	st->slow_calls = slowcalls;
	return 0;
}

/*
 * The fast path again, written out here with each costly instruction
 * replaceable by a plain one, for scale only (the plain variants are not
 * correct code: an unordered clock, a non-atomic reservation or commit):
 * what each costs in place, among the others, rather than alone.
 */
#define R_ALL		0u
#define R_RDTSC		1u	/* the clock: RDTSC, unordered */
#define R_NOCLOCK	2u	/* no clock read at all */
#define R_PLAIN_CAS	4u	/* the reservation: a load and a store */
#define R_PLAIN_ADD	8u	/* the commit: a load and a store */
#define R_NOREC		16u	/* no record stores */
#define R_TS_LATE	32u	/* nothing before the CAS waits for the clock */
#define R_NOPREFETCH	64u	/* no prefetch of the line ahead */
static inline __attribute__((always_inline)) uint64_t replica(struct stages *st, uint64_t n,
							      unsigned int f)
{
	struct ltt_rb_shm *shm = st->rb.shm;
	uint64_t i, old, ts, prev, idx, *cw;
	unsigned int aux;

	for (i = 0; i < n; i++) {
		old = __atomic_load_n(&shm->offset, __ATOMIC_ACQUIRE);
		if (__builtin_expect((old & st->rb.subbuf_mask) - 1 >=
				     st->rb.subbuf_mask - (EVENT_LEN - 4 + HDR_EXTENDED), 0)) {
			/* a packet to open or close: the real path, uncounted here */
			struct ltt_rb_slot slot;

			if (!ltt_rb_reserve_slow(&st->rb, st->rec, EVENT_LEN,
						 EVENT_LEN - 4 + HDR_EXTENDED, 27, &slot))
				ltt_rb_commit_add_rec(&st->rb, st->rec, slot.pos, slot.len);
			continue;
		}
		if (f & R_NOCLOCK)
			ts = i;
		else if (f & R_RDTSC)
			ts = __rdtsc();
		else
			ts = __rdtscp(&aux);
		prev = __atomic_load_n(&shm->last_ts, __ATOMIC_RELAXED);
		if (!(f & R_NOREC))
			ltt_rb_wrec_set(st->rec, old, EVENT_LEN, (f & R_TS_LATE) ? prev : ts);
		if (f & R_PLAIN_CAS)
			__atomic_store_n(&shm->offset, old + EVENT_LEN, __ATOMIC_RELAXED);
		else
			__atomic_compare_exchange_n(&shm->offset, &old, old + EVENT_LEN, false,
						    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
		__atomic_store_n(&shm->last_ts, ts + (prev & 0), __ATOMIC_RELAXED);
		if (!(f & R_NOPREFETCH))
			__builtin_prefetch(st->data + (old & st->data_mask) + LTT_RB_PREFETCH_AHEAD, 1, 3);
		write_event(st->data + (old & st->data_mask), (uint32_t)i, ts);
		idx = (old >> st->rb.subbuf_order) & st->rb.index_mask;
		cw = &st->rb.commit[idx].count;
		if (f & R_PLAIN_ADD)
			__atomic_store_n(cw, __atomic_load_n(cw, __ATOMIC_RELAXED) + EVENT_LEN +
					 st->rb.event_one, __ATOMIC_RELAXED);
		else
			__atomic_fetch_add(cw, EVENT_LEN + st->rb.event_one, __ATOMIC_RELEASE);
		if (!(f & R_NOREC))
			__atomic_store_n(&st->rec->pos, 0, __ATOMIC_RELAXED);
	}
	return 0;
}

#define REPLICA(name, f) STAGE(name) { return replica(st, n, f); }
REPLICA(st_rep_all, R_ALL)
REPLICA(st_rep_rdtsc, R_RDTSC)
REPLICA(st_rep_noclock, R_NOCLOCK)
REPLICA(st_rep_plain_cas, R_PLAIN_CAS)
REPLICA(st_rep_plain_add, R_PLAIN_ADD)
REPLICA(st_rep_plain_both, R_PLAIN_CAS | R_PLAIN_ADD)
REPLICA(st_rep_norec, R_NOREC)
REPLICA(st_rep_ts_late, R_TS_LATE)
REPLICA(st_rep_noprefetch, R_NOPREFETCH)
REPLICA(st_rep_bare, R_NOCLOCK | R_PLAIN_CAS | R_PLAIN_ADD | R_NOREC)

STAGE(st_event)
{
	return event_loop(st, n);
}

struct stage {
	const char *name;
	uint64_t (*fn)(struct stages *, uint64_t);
	bool switches;	/* also report the slow path's share */
};

static const struct stage stages[] = {
	{ "loop", st_loop, false },
	{ "rdtscp", st_rdtscp, false },
	{ "lfence+rdtsc", st_lfence_rdtsc, false },
	{ "rdtsc (unordered)", st_rdtsc, false },
	{ "clock_gettime", st_mono, false },
	{ "rdpid", st_rdpid, false },
	{ "rseq cpu_id", st_rseq_cpu, false },
	{ "reserve (no clock)", st_reserve, false },
	{ "copy hot", st_copy_hot, false },
	{ "copy buffer", st_copy_buf, false },
	{ "copy+prefetch", st_copy_buf_prefetch, false },
	{ "commit", st_commit, false },
	{ "copy+commit", st_copy_commit, false },
	{ "event", st_event, true },
	{ "replica", st_rep_all, false },
	{ " - rdtsc unordered", st_rep_rdtsc, false },
	{ " - no clock", st_rep_noclock, false },
	{ " - plain reserve", st_rep_plain_cas, false },
	{ " - plain commit", st_rep_plain_add, false },
	{ " - plain both", st_rep_plain_both, false },
	{ " - no record", st_rep_norec, false },
	{ " - CAS not after ts", st_rep_ts_late, false },
	{ " - no prefetch", st_rep_noprefetch, false },
	{ " - none of them", st_rep_bare, false },
};
#define NR_STAGES (sizeof(stages) / sizeof(stages[0]))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The best run (the one least disturbed) and the median, sorted @v. */
static void print_row(const char *name, const uint64_t *v, unsigned int runs, uint64_t n,
		      double per_ns)
{
	double best = (double)v[0] / (double)n, median = (double)v[runs / 2] / (double)n;

	printf("%-20s %10.2f %10.2f %10.2f %10.2f\n", name, best, best / per_ns, median,
	       median / per_ns);
}

static uint64_t mono_ns(void)
{
	return ltt_tclock_mono();
}

/* The TSC's rate in cycles per ns, over 100 ms. */
static double tsc_per_ns(void)
{
	uint64_t t0 = mono_ns(), c0 = __rdtsc(), t1, c1;
	struct timespec d = { 0, 100000000 };

	nanosleep(&d, NULL);
	t1 = mono_ns();
	c1 = __rdtsc();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

static int has_rdpid(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, "flags", 5) == 0 && strstr(line, " rdpid");
	fclose(f);
	return found;
}

static void clocksource(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	snprintf(buf, len, "unknown");
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	uint64_t n = 200000, subbuf_kib = 256, nsub = 4;
	static uint64_t cyc[NR_STAGES][MAX_RUNS], sw[NR_STAGES][MAX_RUNS];
	uint64_t slow = 0;
	struct ltt_rb_config cfg = { 0 };
	struct stages *st;
	unsigned int runs = 31, r, k;
	char cs[64];
	double per_ns;
	int opt;

	while ((opt = getopt(argc, argv, "n:r:s:b:")) != -1) {
		if (opt == 'n')
			n = strtoull(optarg, NULL, 0);
		else if (opt == 'r')
			runs = (unsigned int)atoi(optarg);
		else if (opt == 's')
			subbuf_kib = strtoull(optarg, NULL, 0);
		else if (opt == 'b')
			nsub = strtoull(optarg, NULL, 0);
		else
			goto usage;
	}
	if (!n || runs < 1 || runs > MAX_RUNS)
		goto usage;
	if (posix_memalign((void **)&st, 64, sizeof(*st)))
		return 1;
	memset(st, 0, sizeof(*st));
	cfg.subbuf_size = subbuf_kib * 1024;
	cfg.num_subbuf = nsub;
	cfg.overwrite = true;
	cfg.clock = LTT_TCLOCK_TSC;
	st->len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
	if (!st->len)
		goto usage;
	st->mem = mmap(NULL, st->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st->mem == MAP_FAILED)
		return 1;
	memset(st->mem, 0, st->len);	/* the pages, faulted in once */
	if (ltt_rb_init_region(st->mem, st->len, &cfg) || ltt_rb_attach(&st->rb, st->mem, st->len))
		return 1;
	st->rec = &st->rb.wblocks[0].rec[0];
	st->data = st->rb.data;
	st->data_mask = st->rb.buf_size - 1;
	per_ns = tsc_per_ns();
	clocksource(cs, sizeof(cs));
	printf("%" PRIu64 " events per run, median of %u runs; buffer %" PRIu64 " x %" PRIu64
	       " KiB, overwrite; clocksource %s; TSC %.3f GHz\n", n, runs, nsub, subbuf_kib, cs,
	       per_ns);
	for (r = 0; r < runs; r++)
		for (k = 0; k < NR_STAGES; k++) {
			uint64_t t0;

			if (stages[k].fn == st_rdpid && !has_rdpid()) {
				cyc[k][r] = 0;
				continue;
			}
			stages[k].fn(st, n / 10);	/* warm */
			t0 = tsc_begin();
			stages[k].fn(st, n);
			cyc[k][r] = tsc_end() - t0;
			sw[k][r] = st->switch_cycles;
			if (stages[k].switches)
				slow = st->slow_calls;
		}
	printf("%-20s %10s %10s %10s %10s\n", "stage", "cycles/ev", "ns/ev", "median cyc",
	       "median ns");
	for (k = 0; k < NR_STAGES; k++) {
		qsort(cyc[k], runs, sizeof(uint64_t), cmp_u64);
		print_row(stages[k].name, cyc[k], runs, n, per_ns);
		if (stages[k].switches) {
			qsort(sw[k], runs, sizeof(uint64_t), cmp_u64);
			print_row("  of which switches", sw[k], runs, n, per_ns);
		}
	}
	printf("slow path calls: %.6f per event (one per %.0f events)\n", (double)slow / (double)n,
	       slow ? (double)n / (double)slow : 0.0);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-n EVENTS] [-r RUNS] [-s SUBBUF_KIB] [-b NUM_SUBBUF]\n",
		argv[0]);
	return 2;
}
#endif
