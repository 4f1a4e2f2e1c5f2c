// SPDX-License-Identifier: LGPL-2.1-only
/*
 * probe.c - the fast path: what a generated probe calls to record an
 * event, and ltt_tracef().
 *
 * A probe runs in any thread of the program, signal handlers included: no
 * lock, no allocation, no system call (but the ring buffer's one eventfd
 * write per completed sub-buffer while the consumer sleeps, and urcu-bp's
 * registration of a thread on its first event).  It reads the event's
 * targets inside an urcu-bp read-side critical section, which lasts from
 * ltt_ust_probe_reserve() to the ltt_ust_probe_commit() that returns NULL.
 *
 * Event header (doc/ctf.md): compact (4 bytes) when the event id is below
 * 31 and the timestamp's low 27 bits are enough, else extended (13 bytes).
 * The header's size must be known before reserving, but the ring buffer
 * tells whether the truncated timestamp fits only after: we reserve a
 * compact header when the event will likely open a packet or the stream's
 * last event is less than 2^26 ns (67 ms) old, half the 27-bit range.
 * "Less than 67 ms" is asked of the TSC against this process's last
 * reservation in the stream (clock.c), or, until the TSC is calibrated,
 * of CLOCK_MONOTONIC_COARSE against the stream's last timestamp (the
 * coarse clock trails the precise one by at most a tick, a few ms, so
 * under 2^26 ns by the coarse clock is under 2^27 by the precise).  If the
 * reservation still comes back "does not fit" (the thread was preempted for
 * over 67 ms in between), the compact timestamp written is the latest one
 * the reader can decode after the previous event, which then lies between
 * the probe's start and its reservation, so within the call: see
 * doc/ust.md.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__has_include)
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define HAVE_RSEQ_AREA 1
#endif
#endif

#define _LGPL_SOURCE
#include <urcu-bp.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

#define COMPACT_ID_LIMIT 31u
#define COMPACT_TS_MASK 0x7ffffffu		/* 27 bits */
#define COMPACT_TS_BITS 27
#define COMPACT_TS_MARGIN ((uint64_t)1 << 26)
#define HDR_COMPACT 4
#define HDR_EXTENDED 13
#define HDR_EXTENDED_TAG 31

static struct ust_probe_stats stats;

static const struct ltt_ust_field tracef_fields[] = {
	{ "msg", LTT_UST_TYPE_STRING, 1, 0, 0, LTT_UST_ENCODING_NONE, { 0, 0, 0 }, 0, NULL },
};

struct ltt_ust_tracepoint ltt_ust_tracef_event = {
	LTT_UST_TRACEPOINT_ABI, 14 /* DEBUG */, "ltt_ust_tracef:event", 1, tracef_fields, 0, NULL,
	{ NULL, NULL, NULL, NULL },
};

static struct ltt_ust_tracepoint *const lib_tracepoints[] = { &ltt_ust_tracef_event };

int ust_probe_module_register(void)
{
	int ret = ust_registry_add_module(lib_tracepoints, lib_tracepoints + 1);

	return ret < 0 ? ret : 0;
}

void ust_probe_stats(struct ust_probe_stats *ret_stats)
{
	ret_stats->reserve_failed = __atomic_load_n(&stats.reserve_failed, __ATOMIC_RELAXED);
	ret_stats->ts_clamped = __atomic_load_n(&stats.ts_clamped, __ATOMIC_RELAXED);
}

/*
 * The CPU we run on: from the rseq area glibc registers for each thread
 * (three instructions), else sched_getcpu() (the vDSO).
 */
static inline int current_cpu(void)
{
#ifdef HAVE_RSEQ_AREA
	if (__builtin_expect(__rseq_size != 0, 1)) {
		const struct rseq *rs = (const struct rseq *)(void *)
			((char *)__builtin_thread_pointer() + __rseq_offset);
		int32_t cpu = (int32_t)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

		if (__builtin_expect(cpu >= 0, 1))
			return cpu;
	}
#endif
	return sched_getcpu();
}

static inline struct ust_stream *pick_stream(struct ust_channel *chan)
{
	int cpu = current_cpu();
	uint32_t n = chan->nr_streams;

	if (__builtin_expect(cpu < 0, 0))
		cpu = 0;
	return &chan->streams[(uint32_t)cpu < n ? (uint32_t)cpu : (uint32_t)cpu % n];
}

/* CLOCK_MONOTONIC_COARSE in ns: the vDSO, no rdtsc. */
static inline uint64_t coarse_clock(void)
{
	struct timespec tp;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &tp);
	return (uint64_t)tp.tv_sec * 1000000000u + (uint64_t)tp.tv_nsec;
}

static inline void write_compact(uint8_t *h, uint32_t id, const struct ltt_rb_slot *slot)
{
	uint64_t ts = slot->ts;
	uint32_t word;

	if (__builtin_expect(!ltt_rb_slot_ts_fits(slot, COMPACT_TS_BITS), 0)) {
		/* the latest time a reader can decode after the previous event */
		ts = slot->ts - slot->ts_delta + COMPACT_TS_MASK;
		__atomic_fetch_add(&stats.ts_clamped, 1, __ATOMIC_RELAXED);
	}
	word = id | ((uint32_t)ts & COMPACT_TS_MASK) << 5;
	memcpy(h, &word, 4);
}

static inline void write_extended(uint8_t *h, uint32_t id, const struct ltt_rb_slot *slot)
{
	h[0] = HDR_EXTENDED_TAG;
	memcpy(h + 1, &id, 4);
	memcpy(h + 5, &slot->ts, 8);
}

/*
 * May a compact header carry the next event of @s?  Yes when it will open a
 * packet (its delta is 0) or the stream recorded within the last 67 ms.
 */
static inline bool recent(struct ust_stream *s, uint64_t tsc)
{
	uint64_t window = __atomic_load_n(&ust_tsc_window, __ATOMIC_RELAXED);
	uint64_t pos = __atomic_load_n(&s->rb.shm->offset, __ATOMIC_RELAXED);

	if (!(pos & (s->rb.subbuf_size - 1)))
		return true;
	if (__builtin_expect(window != 0, 1))
		return tsc - __atomic_load_n(&s->last_tsc, __ATOMIC_RELAXED) < window;
	/* Signed: the coarse clock may read earlier than the last timestamp. */
	return (int64_t)(coarse_clock() - __atomic_load_n(&s->rb.shm->last_ts, __ATOMIC_RELAXED)) <
	       (int64_t)COMPACT_TS_MARGIN;
}

/* Reserve header + payload in @s, write the header; NULL if dropped. */
static inline void *reserve_in(struct ust_stream *s, uint32_t id, struct ltt_ust_ctx *ctx)
{
	size_t plen = ctx->ltt_payload_len;
	uint64_t tsc = ust_tsc();
	struct ltt_rb_slot slot;
	bool compact = false;
	uint8_t *h;

	if (id < COMPACT_ID_LIMIT)
		compact = recent(s, tsc);
	if (__builtin_expect(plen > SIZE_MAX - HDR_EXTENDED, 0) ||
	    __builtin_expect(ltt_rb_reserve(&s->rb, plen + (compact ? HDR_COMPACT : HDR_EXTENDED),
					    &slot) != 0, 0)) {
		__atomic_fetch_add(&stats.reserve_failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	__atomic_store_n(&s->last_tsc, tsc, __ATOMIC_RELAXED);
	h = slot.data;
	if (compact)
		write_compact(h, id, &slot);
	else
		write_extended(h, id, &slot);
	ctx->ltt_stream = s;
	ctx->ltt_data = slot.data;
	ctx->ltt_pos = slot.pos;
	ctx->ltt_ts = slot.ts;
	ctx->ltt_ts_delta = slot.ts_delta;
	ctx->ltt_len = slot.len;
	return h + (compact ? HDR_COMPACT : HDR_EXTENDED);
}

/* Room in the next enabled target from ctx->ltt_next on, or NULL. */
static inline __attribute__((always_inline)) void *next_target(struct ltt_ust_ctx *ctx,
							      const struct ust_targets *ts)
{
	while (ctx->ltt_next < ts->nr) {
		const struct ust_target *t = &ts->t[ctx->ltt_next++];
		void *p;

		if (!CMM_LOAD_SHARED(t->chan->enabled))
			continue;
		p = reserve_in(pick_stream(t->chan), t->id, ctx);
		if (p)
			return p;
	}
	return NULL;
}

/* The second and later sessions of an event: kept out of line. */
static __attribute__((noinline)) void *next_target_slow(struct ltt_ust_ctx *ctx,
							const struct ust_targets *ts)
{
	return next_target(ctx, ts);
}

void *ltt_ust_probe_reserve(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
			    size_t payload_len)
{
	const struct ust_targets *ts;
	void *p;

	urcu_bp_read_lock();
	ts = rcu_dereference(tp->priv);
	if (__builtin_expect(ts != NULL, 1)) {
		ctx->ltt_targets = ts;
		ctx->ltt_next = 0;
		ctx->ltt_payload_len = payload_len;
		p = next_target(ctx, ts);
		if (__builtin_expect(p != NULL, 1))
			return p;
	}
	urcu_bp_read_unlock();
	return NULL;
}

void *ltt_ust_probe_commit(struct ltt_ust_ctx *ctx)
{
	const struct ust_targets *ts = ctx->ltt_targets;
	struct ust_stream *s = ctx->ltt_stream;
	struct ltt_rb_slot slot = {
		.data = ctx->ltt_data,
		.pos = ctx->ltt_pos,
		.ts = ctx->ltt_ts,
		.ts_delta = ctx->ltt_ts_delta,
		.len = (size_t)ctx->ltt_len,
	};
	void *p;

	ltt_rb_commit(&s->rb, &slot);
	/* Most events go to one session: leave at once. */
	if (ctx->ltt_next < ts->nr) {
		p = next_target_slow(ctx, ts);
		if (p)
			return p;
	}
	urcu_bp_read_unlock();
	return NULL;
}

void ltt_ust_tracef(const char *fmt, ...)
{
	char msg[LTT_UST_TRACEF_MAX];
	struct ltt_ust_ctx ctx;
	va_list ap;
	size_t len;
	void *p;
	int n;

	if (!fmt)
		return;
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	len = strlen(msg) + 1;	/* cut at the buffer's end or at a %c of 0 */
	for (p = ltt_ust_probe_reserve(&ctx, &ltt_ust_tracef_event, len); p;
	     p = ltt_ust_probe_commit(&ctx))
		memcpy(p, msg, len);
}
