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
 * The ring buffer decides inside its reservation, after reading the clock
 * (ltt_rb_reserve_ts()), so the choice is exact and every timestamp is
 * the one the ring buffer read.
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
#define COMPACT_TS_BITS 27
#define HDR_COMPACT 4
#define HDR_EXTENDED 13
#define HDR_EXTENDED_TAG 31
/*
 * Payloads are clamped to this: larger than any sub-buffer can hold (the
 * ring buffers refuse and count them), small enough that adding a header
 * cannot overflow a size_t.
 */
#define PAYLOAD_MAX ((size_t)UINT32_MAX - HDR_EXTENDED)

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

int ust_cpu_id(void)
{
	return current_cpu();
}

/* More CPUs than streams (CPUs added since), or no CPU number. */
static __attribute__((noinline)) struct ust_stream *pick_stream_slow(struct ust_channel *chan,
								     uint32_t cpu)
{
	return &chan->streams[(int32_t)cpu < 0 ? 0 : cpu % chan->nr_streams];
}

static inline struct ust_stream *pick_stream(struct ust_channel *chan)
{
	uint32_t cpu = (uint32_t)current_cpu();	/* -1 wraps: the slow path */

	if (__builtin_expect(cpu < chan->nr_streams, 1))
		return &chan->streams[cpu];
	return pick_stream_slow(chan, cpu);
}

/* reserve_in() for a thread without a record of its own: out of line. */
static __attribute__((noinline)) int reserve_untracked(struct ust_stream *s, uint32_t id,
						       size_t plen, struct ltt_rb_slot *slot)
{
	size_t long_len = plen + HDR_EXTENDED;

	return ltt_rb_reserve_untracked(&s->rb, id < COMPACT_ID_LIMIT ? plen + HDR_COMPACT :
					long_len, long_len, COMPACT_TS_BITS, slot);
}

/*
 * Reserve header + payload in @s and write the header; NULL if dropped.
 * The ring buffer picks the header: compact when the id allows it and the
 * timestamp's low 27 bits are enough, which it decides after reading the
 * clock (ltt_rb_reserve_ts()).  @plen is at most PAYLOAD_MAX: no overflow.
 */
static inline __attribute__((always_inline)) void *reserve_in(struct ust_stream *s, uint32_t id,
							      size_t plen,
							      struct ltt_ust_ctx *ctx)
{
	size_t long_len = plen + HDR_EXTENDED;
	struct ltt_rb_slot slot;
	struct ltt_rb_wrec *rec;
	uint32_t word, idx = ust_wrec_idx;
	uint8_t *h;
	int ret;

	if (__builtin_expect(idx == UST_WREC_UNSET, 0))
		idx = ust_wrec_assign();
	rec = &s->wrecs[idx];
	/*
	 * A record in use (a signal handler on its thread) or none (the
	 * scratch one, or no block): untracked, which the repair waits for.
	 */
	if (__builtin_expect(__atomic_load_n(&rec->pos, __ATOMIC_RELAXED) != 0, 0)) {
		rec = NULL;
		ret = reserve_untracked(s, id, plen, &slot);
	} else {
		ret = ltt_rb_reserve_rec(&s->rb, rec, id < COMPACT_ID_LIMIT ?
					 plen + HDR_COMPACT : long_len,
					 long_len, COMPACT_TS_BITS, &slot);
	}
	if (__builtin_expect(ret != 0, 0))
		return NULL;	/* dropped: the ring buffer counted it */
	ctx->ltt_reserved[0] = (uintptr_t)rec;
	ctx->ltt_stream = s;
	ctx->ltt_pos = slot.pos;
	ctx->ltt_len = slot.len;
	h = slot.data;
	if (__builtin_expect(slot.len != long_len, 1)) {
		/* id in bits 0-4, the timestamp's low 27 bits in bits 5-31 */
		word = id | (uint32_t)slot.ts << 5;
		memcpy(h, &word, 4);
		return h + HDR_COMPACT;
	}
	h[0] = HDR_EXTENDED_TAG;
	memcpy(h + 1, &id, 4);
	memcpy(h + 5, &slot.ts, 8);
	return h + HDR_EXTENDED;
}

/*
 * Room in the next enabled target from ctx->ltt_next on, or NULL: the
 * targets after the first (an event recorded by several sessions), and
 * the first one's failures.  Kept out of line.  In the filtered view
 * (ltt_ust_probe_reserve_filter()), a target with filters is taken only
 * when one accepts the arguments kept in the context (only that view has
 * targets with filters, and only that function set them).
 */
static __attribute__((noinline)) void *next_target_slow(struct ltt_ust_ctx *ctx,
							const struct ust_targets *ts)
{
	uint32_t next = ctx->ltt_next;

	while (next < ts->nr) {
		const struct ust_target *t = &ts->t[next++];
		void *p;

		if (!CMM_LOAD_SHARED(t->chan->enabled))
			continue;
		if (t->filters &&
		    !ust_filters_accept(t->filters, (const struct ltt_filter_arg *)(uintptr_t)
					ctx->ltt_reserved[1], ctx->ltt_reserved0))
			continue;
		ctx->ltt_next = next;
		p = reserve_in(pick_stream(t->chan), t->id, ctx->ltt_payload_len, ctx);
		if (p)
			return p;
	}
	return NULL;
}

void *ltt_ust_probe_reserve(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
			    size_t payload_len)
{
	const struct ust_targets *ts;
	const struct ust_target *t;
	void *p;

	urcu_bp_read_lock();
	ts = rcu_dereference(tp->priv);
	if (__builtin_expect(ts != NULL, 1)) {
		/* too large for any ring buffer: each refuses it and counts it */
		if (__builtin_expect(payload_len > PAYLOAD_MAX, 0))
			payload_len = PAYLOAD_MAX;
		ctx->ltt_targets = ts;
		ctx->ltt_payload_len = payload_len;
		ctx->ltt_next = 1;
		/* published arrays are never empty (registry.c) */
		t = &ts->t[0];
		if (__builtin_expect(CMM_LOAD_SHARED(t->chan->enabled) != 0, 1)) {
			p = reserve_in(pick_stream(t->chan), t->id, payload_len, ctx);
			if (__builtin_expect(p != NULL, 1))
				return p;
		}
		if (ts->nr > 1) {
			p = next_target_slow(ctx, ts);
			if (p)
				return p;
		}
	}
	urcu_bp_read_unlock();
	return NULL;
}

/*
 * The filtered view's walk: every target is tried in next_target_slow(),
 * which runs their filters.  The arguments stay in the context for the
 * targets ltt_ust_probe_commit() reaches next.
 */
void *ltt_ust_probe_reserve_filter(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
				   size_t payload_len, const struct ltt_ust_arg *args,
				   uint32_t nr_args)
{
	const struct ust_targets *ts;
	void *p;

	urcu_bp_read_lock();
	ts = rcu_dereference(tp->priv);
	if (ts) {
		/* no filter any more: the plain view, whose targets have none */
		if (ts->fview)
			ts = ts->fview;
		if (payload_len > PAYLOAD_MAX)
			payload_len = PAYLOAD_MAX;
		ctx->ltt_targets = ts;
		ctx->ltt_payload_len = payload_len;
		ctx->ltt_next = 0;
		ctx->ltt_reserved[1] = (uintptr_t)args;
		ctx->ltt_reserved0 = nr_args;
		p = next_target_slow(ctx, ts);
		if (p)
			return p;
	}
	urcu_bp_read_unlock();
	return NULL;
}

/*
 * The rest of ltt_ust_probe_commit() when the commit completed a
 * sub-buffer or another session records the event: out of line, so the
 * common case needs no stack frame.
 */
static __attribute__((noinline)) void *commit_slow(struct ltt_ust_ctx *ctx, bool completed)
{
	const struct ust_targets *ts = ctx->ltt_targets;
	struct ust_stream *s = ctx->ltt_stream;
	void *p;

	if (completed)
		ltt_rb_wakeup(&s->rb);
	if (ctx->ltt_next < ts->nr) {
		p = next_target_slow(ctx, ts);
		if (p)
			return p;
	}
	urcu_bp_read_unlock();
	return NULL;
}

void *ltt_ust_probe_commit(struct ltt_ust_ctx *ctx)
{
	const struct ust_targets *ts = ctx->ltt_targets;
	struct ust_stream *s = ctx->ltt_stream;
	struct ltt_rb_wrec *rec = (struct ltt_rb_wrec *)(uintptr_t)ctx->ltt_reserved[0];
	bool completed;

	if (__builtin_expect(rec != NULL, 1))
		completed = ltt_rb_commit_add_rec(&s->rb, rec, ctx->ltt_pos, ctx->ltt_len);
	else
		completed = ltt_rb_commit_untracked(&s->rb, ctx->ltt_pos, ctx->ltt_len);
	/* Most events go to one session and complete nothing: leave at once. */
	if (__builtin_expect(completed || ctx->ltt_next < ts->nr, 0))
		return commit_slow(ctx, completed);
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
	if (ltt_ust_tracef_event.state & LTT_UST_STATE_FILTER) {
		const struct ltt_ust_arg arg = { msg, (uint32_t)(len - 1) };

		p = ltt_ust_probe_reserve_filter(&ctx, &ltt_ust_tracef_event, len, &arg, 1);
	} else {
		p = ltt_ust_probe_reserve(&ctx, &ltt_ust_tracef_event, len);
	}
	for (; p; p = ltt_ust_probe_commit(&ctx))
		memcpy(p, msg, len);
}
