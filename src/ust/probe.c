// SPDX-License-Identifier: LGPL-2.1-only
/*
 * probe.c - the fast path: what a generated probe calls to record an
 * event.
 *
 * A probe runs in any thread of the program, signal handlers included: no
 * lock, no allocation, no system call (but the ring buffer's one eventfd
 * write per completed sub-buffer while the consumer sleeps, and rcu.c's
 * registration of a thread on its first event).  It reads the event's
 * targets inside an RCU read-side critical section, which lasts from
 * ltt_ust_probe_reserve() to the ltt_ust_probe_commit() that returns NULL.
 *
 * Notifiers (triggers, notify.c) are targets too, in the call view only,
 * whose channel is UST_CHAN_NOTIFY: the slow walk (next_target_slow())
 * runs their filters and writes the notification, then goes on without
 * reserving anything.  The plain view hides them (ust.h), and the first
 * target's inline test takes one for "off": an event no trigger matches
 * pays nothing for them, and the plain path not one instruction more.
 *
 * Event header (doc/ctf.md): compact (4 bytes) when the event id is below
 * 31 and the timestamp's low 27 bits are enough, else extended (13 bytes).
 * The ring buffer decides inside its reservation, after reading the clock
 * (ltt_rb_reserve_ts()), so the choice is exact and every timestamp is
 * the one the ring buffer read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/rcu.h"
#include "ust/notify.h"
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
#define PAYLOAD_MAX ((size_t)UINT32_MAX - HDR_EXTENDED - LTT_RB_EVENT_CTX_MAX)
/*
 * The plain fast path's bound: one comparison with an immediate; a
 * payload above it (no sub-buffer of 2 GiB or less holds it) takes the
 * slow path, which clamps it to PAYLOAD_MAX.
 */
#define PAYLOAD_FAST_MAX ((size_t)INT32_MAX)
_Static_assert(PAYLOAD_FAST_MAX <= PAYLOAD_MAX, "the fast path's bound is within the clamp");

/*
 * The CPU of the calling thread's last TSC read: RDTSCP returns it with
 * the timestamp (ltt_tclock_read_cpu()), so the next event's stream costs
 * no getcpu().  A hint: a thread that moved since writes one event into
 * its old CPU's stream, which is as correct as any (writers of one stream
 * take their slots with a CAS), then the next into its new one's.
 * LTT_TCLOCK_NO_CPU before the first TSC read, and for CLOCK_MONOTONIC.
 */
static __thread uint32_t cpu_hint = LTT_TCLOCK_NO_CPU;

/* More CPUs than streams (CPUs added since), or no CPU number. */
static __attribute__((noinline)) struct ust_stream *pick_stream_slow(struct ust_channel *chan,
								     uint32_t cpu)
{
	return &chan->streams[(int32_t)cpu < 0 ? 0 : cpu % chan->nr_streams];
}

/*
 * The stream of the CPU we run on: the hint, else (a thread's first
 * event, CLOCK_MONOTONIC, an event dropped before its clock was read, a
 * getcpu plugin's channel: hint_streams 0) the CPU of the moment, from
 * the rseq area or the plugin (ust_current_cpu()).
 */
static inline struct ust_stream *pick_stream(struct ust_channel *chan)
{
	uint32_t cpu = cpu_hint;

	if (__builtin_expect(cpu < __atomic_load_n(&chan->hint_streams, __ATOMIC_RELAXED), 1))
		return &chan->streams[cpu];
	cpu = (uint32_t)ust_current_cpu();	/* -1 wraps: the slow path */
	if (__builtin_expect(cpu < chan->nr_streams, 1))
		return &chan->streams[cpu];
	return pick_stream_slow(chan, cpu);
}

/*
 * An event was dropped (the ring buffer counted it): forget the hint,
 * which no clock read refreshes until an event is recorded again, so that
 * a thread that moved meanwhile does not go on dropping into its old
 * CPU's full buffer while its new CPU's has room.
 */
static inline void forget_hint(void)
{
	cpu_hint = LTT_TCLOCK_NO_CPU;
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
 * The filtered call @ctx was reserved for: only in the call view
 * (ltt_ust_probe_reserve_filter() sets ltt_reserved[1] to it).
 */
static inline const struct ltt_ust_call *ctx_call(const struct ltt_ust_ctx *ctx)
{
	return (const struct ltt_ust_call *)(uintptr_t)ctx->ltt_reserved[1];
}

/*
 * The call site of the event in @ctx, for a channel with the ip context;
 * 0: unknown.  The plain view hides every such channel (ust.h): only the
 * call view, which has the call, and the old view of ABI 1 descriptors,
 * whose probes stored LTT_UST_CTX_IP_SET or nothing, get here.  (A plain
 * view's probe leaves the context's ltt_reserved0 unset: not for it.)
 */
static uint64_t call_site(const struct ltt_ust_ctx *ctx)
{
	const struct ust_targets *ts = ctx->ltt_targets;

	if (ts->call)
		return ctx_call(ctx)->ip;
	if (ctx->ltt_reserved0 == LTT_UST_CTX_IP_SET)
		return ctx->ltt_reserved[1];
	return 0;	/* a probe built with a header older than contexts */
}

/*
 * Write at @h the header the ring buffer chose for event @id in @slot
 * (its length is @long_len for the extended one); return its end.
 */
static inline __attribute__((always_inline)) uint8_t *write_header(uint8_t *h, uint32_t id,
								   const struct ltt_rb_slot *slot,
								   size_t long_len)
{
	uint32_t word;

	if (__builtin_expect(slot->len != long_len, 1)) {
		/* id in bits 0-4, the timestamp's low 27 bits in bits 5-31 */
		word = id | (uint32_t)slot->ts << 5;
		memcpy(h, &word, 4);
		return h + HDR_COMPACT;
	}
	h[0] = HDR_EXTENDED_TAG;
	memcpy(h + 1, &id, 4);
	memcpy(h + 5, &slot->ts, 8);
	return h + HDR_EXTENDED;
}

/*
 * @slot was reserved in @s (with @rec, or untracked when NULL) for event
 * @id: keep what ltt_ust_probe_commit() needs in @ctx, and the CPU hint
 * for the thread's next event; write the header and return its end.
 */
static inline __attribute__((always_inline)) uint8_t *slot_taken(struct ltt_ust_ctx *ctx,
								 struct ust_stream *s,
								 struct ltt_rb_wrec *rec,
								 const struct ltt_rb_slot *slot,
								 uint32_t id, size_t long_len)
{
	cpu_hint = slot->cpu;
	ctx->ltt_reserved[0] = (uintptr_t)rec;
	ctx->ltt_stream = s;
	ctx->ltt_pos = slot->pos;
	ctx->ltt_len = slot->len;
	return write_header(slot->data, id, slot, long_len);
}

/*
 * Reserve header + payload (+ the channel's context fields when
 * @with_ctx) in @s and write the header and the context; NULL if dropped.
 * The ring buffer picks the header: compact when the id allows it and the
 * timestamp's low 27 bits are enough, which it decides after reading the
 * clock (ltt_rb_reserve_ts()).  @plen is at most PAYLOAD_MAX: no overflow.
 */
static inline __attribute__((always_inline)) void *reserve_body(const struct ust_channel *chan,
								uint32_t id, size_t plen,
								struct ltt_ust_ctx *ctx,
								bool with_ctx)
{
	struct ust_stream *s = pick_stream((struct ust_channel *)chan);
	size_t long_len;
	struct ltt_rb_slot slot;
	struct ltt_rb_wrec *rec;
	uint32_t idx = ust_wrec_idx;
	uint8_t *h;
	int ret;

	if (with_ctx)	/* a constant */
		plen += chan->ctx_len;
	long_len = plen + HDR_EXTENDED;
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
	if (__builtin_expect(ret != 0, 0)) {
		forget_hint();
		return NULL;
	}
	h = slot_taken(ctx, s, rec, &slot, id, long_len);
	if (with_ctx)
		h = ust_ctx_write(chan, h, chan->ctx_ip ? call_site(ctx) : 0);
	return h;
}

/* reserve_body() for a channel with context fields: out of line. */
static __attribute__((noinline)) void *reserve_ctx(const struct ust_channel *chan, uint32_t id,
						   size_t plen, struct ltt_ust_ctx *ctx)
{
	return reserve_body(chan, id, plen, ctx, true);
}

/*
 * Room for the event in @chan, whose header (and context fields) are
 * written; NULL if dropped.  (ltt_ust_probe_reserve()'s first target
 * tells a channel without context fields by its enabled word instead.)
 */
static inline __attribute__((always_inline)) void *reserve_in(const struct ust_channel *chan,
							      uint32_t id, size_t plen,
							      struct ltt_ust_ctx *ctx)
{
	if (__builtin_expect(chan->ctx_len != 0, 0))
		return reserve_ctx(chan, id, plen, ctx);
	return reserve_body(chan, id, plen, ctx, false);
}

/*
 * Notifier target @t of @ts took the event: its message, with the call's
 * arguments (the call view's, the only one notifiers are shown in).
 */
static __attribute__((noinline, cold)) void notify(const struct ltt_ust_ctx *ctx,
						   const struct ust_targets *ts,
						   const struct ust_target *t)
{
	ust_notify(t->chan, t->id, ts, ts->call ? ctx_call(ctx) : NULL);
}

/*
 * Room in the next enabled target from ctx->ltt_next on, or NULL: the
 * targets after the first (an event recorded by several sessions), and
 * the first one's failures.  Kept out of line.  In the call view
 * (ltt_ust_probe_reserve_filter()), a target with filters is taken only
 * when one accepts the arguments of the call kept in the context (only
 * that view has targets with filters), and a notifier that takes the
 * event is notified on the way, never reserved in.
 */
static __attribute__((noinline)) void *next_target_slow(struct ltt_ust_ctx *ctx,
							const struct ust_targets *ts)
{
	uint32_t next = ctx->ltt_next;

	while (next < ts->nr) {
		const struct ust_target *t = &ts->t[next++];
		int enabled = __atomic_load_n(&t->chan->enabled, __ATOMIC_RELAXED);
		void *p;

		if (!enabled)
			continue;
		if (t->filters &&
		    !ust_filters_accept(t->filters,
					(const struct ltt_filter_arg *)ctx_call(ctx)->args,
					ctx_call(ctx)->nr_args))
			continue;
		if (__builtin_expect(enabled == UST_CHAN_NOTIFY, 0)) {
			notify(ctx, ts, t);
			continue;
		}
		ctx->ltt_next = next;
		p = reserve_in(t->chan, t->id, ctx->ltt_payload_len, ctx);
		if (p)
			return p;
	}
	return NULL;
}

/*
 * After the first target of ltt_ust_probe_reserve() recorded or failed
 * (ctx->ltt_next is 1): room in the others, if any, or leave the
 * read-side critical section and return NULL.
 */
static inline __attribute__((always_inline)) void *reserve_others(struct ltt_ust_ctx *ctx)
{
	/* reloaded: @ts needs no register across the reservation */
	const struct ust_targets *ts = ctx->ltt_targets;
	void *p;

	if (ts->nr > 1) {
		p = next_target_slow(ctx, ts);
		if (p)
			return p;
	}
	ust_rcu_unlock();
	return NULL;
}

/*
 * ltt_ust_probe_reserve() from a first target that is not a recording
 * channel (off, hidden, or a notifier): the walk from it, even when it is
 * alone (a notifier is notified there).  Out of line: an event's state is
 * off while its only channel is, so this is the rare path.
 */
static __attribute__((noinline)) void *reserve_walk(struct ltt_ust_ctx *ctx,
						    const struct ust_targets *ts)
{
	void *p;

	ctx->ltt_next = 0;
	p = next_target_slow(ctx, ts);
	if (p)
		return p;
	ust_rcu_unlock();
	return NULL;
}

/*
 * ltt_ust_probe_reserve() from a first target with context fields on:
 * its tail call, so that the frame is this one only.
 */
static __attribute__((noinline)) void *reserve_first_ctx(struct ltt_ust_ctx *ctx,
							 const struct ust_target *t,
							 size_t plen)
{
	void *p = reserve_body(t->chan, t->id, plen, ctx, true);

	return p ? p : reserve_others(ctx);
}

/*
 * Room in @ts's targets from the first on, in the read-side critical
 * section, which it leaves when it returns NULL.  The first target: inline
 * when enabled without context fields, out of line with them; the others
 * are the slow walk's.  Published arrays are never empty (registry.c).
 * Not for a call view whose first target has filters.
 */
static inline __attribute__((always_inline)) void *reserve_first(struct ltt_ust_ctx *ctx,
								 const struct ust_targets *ts,
								 size_t payload_len)
{
	const struct ust_target *t = &ts->t[0];
	int enabled;
	void *p;

	/* too large for any ring buffer: each refuses it and counts it */
	if (__builtin_expect(payload_len > PAYLOAD_MAX, 0))
		payload_len = PAYLOAD_MAX;
	ctx->ltt_targets = ts;
	ctx->ltt_payload_len = payload_len;
	ctx->ltt_next = 1;
	enabled = __atomic_load_n(&t->chan->enabled, __ATOMIC_RELAXED);
	if (__builtin_expect(enabled == UST_CHAN_ON || enabled == UST_CHAN_ON_READ, 1)) {
		p = reserve_body(t->chan, t->id, payload_len, ctx, false);
		if (__builtin_expect(p != NULL, 1))
			return p;
	} else if (enabled == UST_CHAN_ON_CTX) {
		return reserve_first_ctx(ctx, t, payload_len);
	} else {
		/* off, hidden or a notifier: the walk skips it, or notifies it */
		return reserve_walk(ctx, ts);
	}
	return reserve_others(ctx);
}

/* reserve_first() for the call view: out of line. */
static __attribute__((noinline)) void *reserve_first_call(struct ltt_ust_ctx *ctx,
							  const struct ust_targets *ts,
							  size_t payload_len)
{
	return reserve_first(ctx, ts, payload_len);
}

/*
 * reserve_first(), out of line: the fast path's every rare case, with the
 * targets and the payload's length it stored in @ctx.
 */
static __attribute__((noinline)) void *reserve_first_slow(struct ltt_ust_ctx *ctx)
{
	return reserve_first(ctx, ctx->ltt_targets, ctx->ltt_payload_len);
}

/*
 * The fast path's stream and record, kept in @ctx, where the ring
 * buffer's fast path could not reserve (a packet to open or close,
 * another writer first, a full buffer): its slow path, without picking
 * them again.  Out of line, with @ctx alone, so that the fast path keeps
 * nothing more for it.
 */
static __attribute__((noinline)) void *reserve_rb_slow(struct ltt_ust_ctx *ctx)
{
	const struct ust_targets *ts = ctx->ltt_targets;
	const struct ust_channel *chan = ts->t[0].chan;
	struct ust_stream *s = ctx->ltt_stream;
	struct ltt_rb_wrec *rec = (struct ltt_rb_wrec *)(uintptr_t)ctx->ltt_reserved[0];
	size_t plen = ctx->ltt_payload_len + chan->ctx_len;	/* 0 without contexts */
	size_t long_len = plen + HDR_EXTENDED;
	uint32_t id = ts->t[0].id;
	struct ltt_rb_slot slot;
	uint8_t *h;

	if (ltt_rb_reserve_slow(&s->rb, rec, id < COMPACT_ID_LIMIT ? plen + HDR_COMPACT : long_len,
				long_len, COMPACT_TS_BITS, &slot)) {
		forget_hint();		/* dropped */
		return reserve_others(ctx);
	}
	h = slot_taken(ctx, s, rec, &slot, id, long_len);
	if (chan->ctx_len)
		h = ust_ctx_write(chan, h, chan->ctx_ip ? call_site(ctx) : 0);
	return h;
}

/*
 * ltt_ust_probe_reserve() from a thread's first section, or from one
 * nested in another (a signal handler's probe): the whole of it, out of
 * line.
 */
static __attribute__((noinline)) void *reserve_lock_slow(struct ltt_ust_ctx *ctx,
							 const struct ltt_ust_tracepoint *tp,
							 size_t payload_len)
{
	const struct ust_targets *ts;

	if (!ust_rcu_lock_slow())
		return NULL;	/* a thread that cannot be registered records nothing */
	ts = __atomic_load_n(&tp->priv, __ATOMIC_CONSUME);
	if (__builtin_expect(ts != NULL, 1))
		return reserve_first(ctx, ts, payload_len);
	ust_rcu_unlock();
	return NULL;
}

/*
 * The fast path's reservation in @chan, the first target of the event in
 * @ctx (its targets and payload's length stored there): from a thread with
 * a CPU hint and a free record, whose slot the ring buffer's fast path
 * gives (the open packet has room, no other writer got in first), in a
 * channel counting the TSC; with the channel's context fields after the
 * header when @with_ctx (a constant).  Every other case goes to
 * reserve_first_slow() as a tail call, having changed nothing, or to
 * reserve_rb_slow(), with the stream and record it picked.
 */
static inline __attribute__((always_inline)) void *reserve_fast(struct ltt_ust_ctx *ctx,
								 const struct ust_channel *chan,
								 size_t payload_len, bool with_ctx)
{
	struct ust_stream *s;
	struct ltt_rb_wrec *rec;
	struct ltt_rb_slot slot;
	uint32_t cpu, idx, id;
	size_t plen, long_len;
	uint8_t *h;

	cpu = cpu_hint;
	idx = ust_wrec_idx;
	/* hint_streams is 0 under a getcpu plugin, asked in pick_stream() */
	if (__builtin_expect(cpu >= __atomic_load_n(&chan->hint_streams, __ATOMIC_RELAXED) ||
			     idx == UST_WREC_UNSET ||
			     payload_len > PAYLOAD_FAST_MAX, 0))
		return reserve_first_slow(ctx);
	s = (struct ust_stream *)&chan->streams[cpu];
	/*
	 * One register from here on: without it GCC computes the stream's
	 * address again (a multiplication) for the ring buffer's fields.
	 */
	__asm__("" : "+r"(s));
	rec = &s->wrecs[idx];
	if (__builtin_expect(__atomic_load_n(&rec->pos, __ATOMIC_RELAXED) != 0, 0))
		return reserve_first_slow(ctx);
	/* what the commit needs, stored now: fewer values in registers */
	ctx->ltt_stream = s;
	ctx->ltt_reserved[0] = (uintptr_t)rec;
	plen = with_ctx ? payload_len + chan->ctx_len : payload_len;
	long_len = plen + HDR_EXTENDED;
	if (__builtin_expect(ltt_rb_try_reserve_rec_tsc(&s->rb, rec,
							((const struct ust_targets *)ctx->ltt_targets)
							->t[0].id < COMPACT_ID_LIMIT ?
							plen + HDR_COMPACT : long_len,
							long_len, COMPACT_TS_BITS, &slot) != 0, 0))
		return reserve_rb_slow(ctx);
	cpu_hint = slot.cpu;
	ctx->ltt_pos = slot.pos;
	ctx->ltt_len = slot.len;
	/* the id again, from memory, rather than kept across the reservation */
	id = ((const struct ust_targets *)ctx->ltt_targets)->t[0].id;
	h = write_header(slot.data, id, &slot, long_len);
	if (with_ctx)
		h = ust_ctx_write(chan, h, chan->ctx_ip ? call_site(ctx) : 0);
	return h;
}

/*
 * reserve_fast() for a first target with context fields: out of line.
 * Its enabled word does not say the clock (UST_CHAN_ON_CTX whatever it
 * is), and a thread's CPU hint may come from another channel's RDTSCP (a
 * program traced by two daemons): a channel of another clock takes the
 * slow path, which reads its own.
 */
static __attribute__((noinline)) void *reserve_fast_ctx(struct ltt_ust_ctx *ctx)
{
	const struct ust_targets *ts = ctx->ltt_targets;
	const struct ust_channel *chan = ts->t[0].chan;

	if (__builtin_expect(chan->streams[0].rb.clock != LTT_TCLOCK_TSC, 0))
		return reserve_first_slow(ctx);
	return reserve_fast(ctx, chan, ctx->ltt_payload_len, true);
}

/*
 * The fast path: an event into its first target, a channel without
 * context fields (reserve_fast(); with them, reserve_fast_ctx()).  Every
 * other case goes to reserve_first_slow() from the start, as a tail call,
 * having changed nothing (or reserve_lock_slow(), before the section, or
 * reserve_rb_slow(), with the stream and record it picked): so no call is
 * left in it (GCC still saves six registers around RDTSCP and the CAS).
 */
void *ltt_ust_probe_reserve(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
			    size_t payload_len)
{
	const struct ust_targets *ts;
	const struct ust_channel *chan;
	int enabled;

	if (__builtin_expect(!ust_rcu_try_lock(), 0))
		return reserve_lock_slow(ctx, tp, payload_len);
	ts = __atomic_load_n(&tp->priv, __ATOMIC_CONSUME);
	if (__builtin_expect(ts == NULL, 0)) {
		ust_rcu_unlock();
		return NULL;
	}
	/* at once, for reserve_first_slow(): neither stays in a register */
	ctx->ltt_targets = ts;
	ctx->ltt_payload_len = payload_len;
	ctx->ltt_next = 1;
	chan = ts->t[0].chan;
	/* CLOCK_MONOTONIC, LFENCE; RDTSC, off: at once; contexts: their own */
	enabled = __atomic_load_n(&chan->enabled, __ATOMIC_RELAXED);
	if (__builtin_expect(enabled != UST_CHAN_ON, 0))
		return enabled == UST_CHAN_ON_CTX ? reserve_fast_ctx(ctx) : reserve_first_slow(ctx);
	return reserve_fast(ctx, chan, payload_len, false);
}

/*
 * The call view's walk: the call stays in the context for the filters of
 * the targets (next_target_slow() runs them) and for the ip context, also
 * of the targets ltt_ust_probe_commit() reaches next.
 */
void *ltt_ust_probe_reserve_filter(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
				   size_t payload_len, const struct ltt_ust_call *call)
{
	const struct ust_targets *ts;

	if (!ust_rcu_lock())
		return NULL;
	ts = __atomic_load_n(&tp->priv, __ATOMIC_CONSUME);
	if (ts) {
		/* nothing needs the call any more: the plain view hides nothing */
		if (ts->fview)
			ts = ts->fview;
		ctx->ltt_reserved[1] = (uintptr_t)call;
		/* the ip context, a notifier, or filters on other targets only */
		if (!ts->t[0].filters)
			return reserve_first_call(ctx, ts, payload_len);
		if (payload_len > PAYLOAD_MAX)
			payload_len = PAYLOAD_MAX;
		ctx->ltt_targets = ts;
		ctx->ltt_payload_len = payload_len;
		return reserve_walk(ctx, ts);
	}
	ust_rcu_unlock();
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
	ust_rcu_unlock();
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
	ust_rcu_unlock();
	return NULL;
}

/* Payloads up to this are copied through the stack for the further sessions. */
#define COPY_BOUNCE 1024

/*
 * ltt_ust_probe_commit_copy() for an event recorded by several sessions:
 * the payload is copied out of the first room before its commit (once
 * published, an overwriting writer may reuse it); a larger one is copied
 * from each room just committed, before the next is published.
 */
static __attribute__((noinline)) void commit_copy_slow(struct ltt_ust_ctx *ctx,
						       const void *payload, size_t len)
{
	char bounce[COPY_BOUNCE];
	const char *src = payload;
	char *next;

	if (len <= sizeof(bounce)) {
		memcpy(bounce, payload, len);
		src = bounce;
	}
	for (next = ltt_ust_probe_commit(ctx); next; next = ltt_ust_probe_commit(ctx)) {
		memcpy(next, src, len);
		if (src != bounce)
			src = next;
	}
}

void ltt_ust_probe_commit_copy(struct ltt_ust_ctx *ctx, const void *payload, size_t len)
{
	const struct ust_targets *ts = ctx->ltt_targets;

	if (__builtin_expect(ctx->ltt_next >= ts->nr, 1))
		(void)ltt_ust_probe_commit(ctx);	/* no further session: no copy */
	else
		commit_copy_slow(ctx, payload, len);
}

void *ust_probe_reserve_in(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
			   size_t payload_len, const struct ust_channel *chan,
			   const struct ltt_ust_call *call)
{
	const struct ust_targets *ts;
	uint32_t i;

	if (!ust_rcu_lock())
		return NULL;
	ts = __atomic_load_n(&tp->priv, __ATOMIC_CONSUME);
	/* the call view has every target, the channels with the ip context too */
	if (ts && ts->fview)
		ts = ts->fview;
	for (i = 0; ts && i < ts->nr; i++) {
		const struct ust_target *t = &ts->t[i];
		void *p;

		if (t->chan != chan)
			continue;
		if (!__atomic_load_n(&chan->enabled, __ATOMIC_RELAXED) ||
		    (t->filters && !ust_filters_accept(t->filters,
						       (const struct ltt_filter_arg *)call->args,
						       call->nr_args)))
			break;
		ctx->ltt_targets = ts;
		ctx->ltt_payload_len = payload_len > PAYLOAD_MAX ? PAYLOAD_MAX : payload_len;
		ctx->ltt_next = ts->nr;		/* ltt_ust_probe_commit() goes no further */
		ctx->ltt_reserved0 = 0;		/* the call site is the call's */
		ctx->ltt_reserved[1] = (uintptr_t)call;
		p = reserve_in(chan, t->id, ctx->ltt_payload_len, ctx);
		if (p)
			return p;
		break;
	}
	ust_rcu_unlock();
	return NULL;
}
