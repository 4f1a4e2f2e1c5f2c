// SPDX-License-Identifier: LGPL-2.1-only
/*
 * probe.c - liblttng-ust.so.1's core: LTTng providers record through
 * libltt-ust.
 *
 * lttng_ust_probe_register() makes one struct lu_event per LTTng event:
 * an ltt tracepoint descriptor (fields.c) registered with libltt-ust as a
 * module, so that the session daemon, enabling, filters, contexts and the
 * consumer are ltt's.  When libltt-ust changes a descriptor's state it
 * calls lu_state_changed(), which attaches the LTTng probe callback to the
 * event's call sites (liblttng-ust-tracepoint.so.1), with the event's
 * lu_event_common as its data, or detaches it.
 *
 * The probe then reserves, writes and commits through the channel
 * operations below, which are libltt-ust's fast path: event_reserve is
 * ltt_ust_probe_reserve() (or _filter() when a session filters the event
 * or records the ip: eval_filter is then set and run_filter gathers ltt's
 * filter arguments from the interpreter stack; ltt's filters run in the
 * reservation, so run_filter itself accepts).  The probe writes each byte
 * into the first session's slot; at commit libltt-ust copies the payload
 * into the slot of each further session, if any
 * (ltt_ust_probe_commit_copy()), one reservation per session as ltt's own
 * probes make.
 *
 * Per-thread state: one slot per nesting level (a signal handler's probe
 * inside another, even between run_filter and event_reserve),
 * LU_MAX_NESTING deep.  The library may be dlopen()ed (with a provider
 * library): its thread-local blocks are too large for glibc's static TLS
 * room, so they are reached through __tls_get_addr(), once an event (at
 * event_reserve: the slot keeps its thread's depth for event_commit).
 * The filter's copies (arguments and interpreter stack) are in a block
 * of their own, which only filtered events touch.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng-ust/event.h"
#include "lttng-ust/lttng-ust.h"

#define LU_MAX_NESTING 4
#define LU_MAX_ARGS 128			/* LTT_APP_MAX_FIELDS */

/* liblttng-ust-tracepoint.so.1's */
int lttng_ust_tracepoint_provider_register(const char *provider, const char *event,
					   void (*func)(void), void *data, const char *signature);
int lttng_ust_tracepoint_provider_unregister(const char *provider, const char *event,
					     void (*func)(void), void *data);

/*
 * One event being written, or about to be: run_filter() claims a slot for
 * its probe call (@filtered_by, the probe's own context, which the ring
 * buffer context carries to event_reserve), so that a probe in a signal
 * handler run between the two takes the next slot and leaves this one be.
 */
struct slot {
	struct ltt_ust_ctx lctx;
	struct ltt_ust_call call;
	const struct lu_probe_ctx *filtered_by;	/* claimed by run_filter(), not yet reserved */
	char *start, *pos, *end;
	unsigned int *depth;			/* its thread's (commit() needs no TLS) */
};

struct thread_slots {
	unsigned int depth;			/* slots in use */
	struct slot slots[LU_MAX_NESTING];
};

/* A filtered call's copies, for the slot of the same index. */
struct filter_copy {
	struct ltt_ust_arg args[LU_MAX_ARGS];
	float floats[LU_MAX_ARGS];
	/*
	 * The interpreter stack, copied: the probe reuses its memory for the
	 * fields' sizes before event_reserve.
	 */
	char stack[LU_MAX_ARGS * 16];
};

static __thread struct thread_slots thread_slots;
static __thread struct filter_copy filter_copies[LU_MAX_NESTING];

/*
 * &thread_slots, computed once: the empty asm hides where the pointer
 * came from, so that GCC does not call __tls_get_addr() again for each
 * use.
 */
static inline struct thread_slots *this_thread(void)
{
	struct thread_slots *t = &thread_slots;

	__asm__("" : "+r"(t));
	return t;
}

/* What lttng_ust_probe_register() returns. */
struct registered {
	const struct lu_probe_desc *desc;
	uint32_t nr;
	struct lu_event **events;
	struct ltt_ust_tracepoint **tps;	/* the module handed to libltt-ust */
	struct registered *next;		/* in @providers, under @lock */
};

/* The providers registered, to record each event name once. */
static struct registered *providers;

static int reserve(struct lu_ring_ctx *ctx);
static void commit(struct lu_ring_ctx *ctx);
static void write_bytes(struct lu_ring_ctx *ctx, const void *src, size_t len, size_t alignment);
static void write_string(struct lu_ring_ctx *ctx, const char *src, size_t len);
static void write_text(struct lu_ring_ctx *ctx, const char *src, size_t len);

/* One channel, one session, both always on: ltt decides in the reservation. */
static struct lu_session session = { sizeof(session), NULL, 1 };
static struct lu_channel_ops ops = {
	sizeof(ops), NULL, reserve, commit, write_bytes, write_string, write_text,
};
static struct lu_channel_common channel_common;
static struct lu_channel_buffer channel = { sizeof(channel), &channel_common, NULL, &ops };
static struct lu_channel_common channel_common = {
	sizeof(channel_common), NULL, 0, &channel, 1, &session,
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define container_of(p, type, member) ((type *)(void *)((char *)(p) - offsetof(type, member)))

/* ---- the channel operations, called by the LTTng probe ---- */

static int run_filter(const struct lu_event_common *event, const char *stack,
		      struct lu_probe_ctx *probe_ctx, void *filter_ctx)
{
	const struct lu_event *ev = container_of(event, struct lu_event, common);
	struct thread_slots *t = this_thread();
	struct filter_copy *f;
	struct slot *s;

	(void)filter_ctx;
	if (t->depth >= LU_MAX_NESTING || !probe_ctx)
		return LU_FILTER_REJECT;
	f = &filter_copies[t->depth];
	s = &t->slots[t->depth++];
	memcpy(f->stack, stack, ev->stack_len);
	s->call.args = f->args;
	s->call.nr_args = lu_event_args(ev, f->stack, f->args, f->floats);
	s->call.reserved0 = 0;
	s->call.ip = (uint64_t)(uintptr_t)probe_ctx->ip;
	s->depth = &t->depth;
	s->filtered_by = probe_ctx;
	return LU_FILTER_ACCEPT;	/* ltt's filters run in the reservation */
}

/*
 * The slot run_filter() claimed for this probe call (@claimed), or a new
 * one; NULL past the limit.
 */
static struct slot *slot_get(struct thread_slots *t, const struct lu_ring_ctx *ctx, bool *claimed)
{
	unsigned int d = t->depth;
	struct slot *s;

	*claimed = d && ctx->probe_ctx && t->slots[d - 1].filtered_by == ctx->probe_ctx;
	if (*claimed)
		return &t->slots[d - 1];
	if (d >= LU_MAX_NESTING)
		return NULL;
	t->depth = d + 1;
	s = &t->slots[d];
	s->depth = &t->depth;
	s->filtered_by = NULL;
	return s;
}

/*
 * ltt_ust_probe_reserve_filter() for a call run_filter() did not see (the
 * state changed after the probe read eval_filter): no arguments.
 */
static char *reserve_unfiltered_call(struct slot *s, struct lu_event *ev,
				     const struct lu_ring_ctx *ctx)
{
	static const struct ltt_ust_arg none[1];

	s->call = (struct ltt_ust_call){ none, 0, 0, 0 };
	if (ctx->probe_ctx)
		s->call.ip = (uint64_t)(uintptr_t)ctx->probe_ctx->ip;
	return ltt_ust_probe_reserve_filter(&s->lctx, &ev->tp, ctx->data_size, &s->call);
}

static int reserve(struct lu_ring_ctx *ctx)
{
	struct lu_event_recorder *rec = ctx->client_priv;
	struct lu_event *ev = container_of(rec, struct lu_event, recorder);
	int state = __atomic_load_n(&ev->tp.state, __ATOMIC_RELAXED);
	struct thread_slots *t = this_thread();
	bool claimed;
	struct slot *s = slot_get(t, ctx, &claimed);
	char *p;

	if (__builtin_expect(!s, 0))
		return -EPERM;
	if (__builtin_expect(claimed, 0)) {
		s->filtered_by = NULL;
		p = ltt_ust_probe_reserve_filter(&s->lctx, &ev->tp, ctx->data_size, &s->call);
	} else if (__builtin_expect(state & LTT_UST_STATE_CALL, 0)) {
		p = reserve_unfiltered_call(s, ev, ctx);
	} else {
		p = ltt_ust_probe_reserve(&s->lctx, &ev->tp, ctx->data_size);
	}
	if (__builtin_expect(!p, 0)) {
		t->depth--;	/* the probe returns without a commit */
		return -ENOSPC;
	}
	s->start = s->pos = p;
	s->end = p + ctx->data_size;
	ctx->priv = s;
	return 0;
}

/* Room for @len more bytes in the slot, or NULL (the probe sized it wrong). */
static char *room(struct lu_ring_ctx *ctx, size_t len)
{
	struct slot *s = ctx->priv;
	char *p = s->pos;

	if (len > (size_t)(s->end - p))
		return NULL;
	s->pos = p + len;
	return p;
}

/* Packed on x86-64: LTTng's probes pass alignment 1, nothing to pad. */
static void write_bytes(struct lu_ring_ctx *ctx, const void *src, size_t len, size_t alignment)
{
	char *p = room(ctx, len);

	(void)alignment;
	if (__builtin_expect(!p, 0))
		return;
	/* an integer's size: one move, no call */
	switch (len) {
	case 1:
		*p = *(const char *)src;
		break;
	case 2:
		memcpy(p, src, 2);
		break;
	case 4:
		memcpy(p, src, 4);
		break;
	case 8:
		memcpy(p, src, 8);
		break;
	default:
		memcpy(p, src, len);
	}
}

/*
 * A string measured as @len bytes with its NUL: if it shrank since, the
 * missing bytes are '#', so the field keeps its size.
 */
static void write_string(struct lu_ring_ctx *ctx, const char *src, size_t len)
{
	char *p = room(ctx, len);
	size_t n;

	if (!p || !len)
		return;
	n = strnlen(src, len - 1);
	memcpy(p, src, n);
	if (__builtin_expect(n < len - 1, 0))
		memset(p + n, '#', len - 1 - n);
	p[len - 1] = '\0';
}

/* Text of an array or sequence: up to @len bytes, NUL-padded after an early NUL. */
static void write_text(struct lu_ring_ctx *ctx, const char *src, size_t len)
{
	char *p = room(ctx, len);
	size_t n;

	if (!p)
		return;
	n = strnlen(src, len);
	memcpy(p, src, n);
	if (n < len)
		memset(p + n, 0, len - n);
}

static void commit(struct lu_ring_ctx *ctx)
{
	struct slot *s = ctx->priv;

	if (__builtin_expect(s->pos < s->end, 0))	/* never leave bytes of an earlier event */
		memset(s->pos, 0, (size_t)(s->end - s->pos));
	ltt_ust_probe_commit_copy(&s->lctx, s->start, (size_t)(s->end - s->start));
	(*s->depth)--;
}

/* ---- ltt's state changes ---- */

/* Called by libltt-ust, its registry lock held, after it set @tp->state. */
static void lu_state_changed(struct ltt_ust_tracepoint *tp)
{
	struct lu_event *ev = container_of(tp, struct lu_event, tp);
	const struct lu_tracepoint_class *cls = ev->desc->tp_class;
	const char *provider = ev->desc->probe_desc->provider_name;
	int state = tp->state;

	__atomic_store_n(&ev->common.eval_filter, (state & LTT_UST_STATE_CALL) != 0,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&ev->common.enabled, state != 0, __ATOMIC_RELEASE);
	if (state && !ev->attached) {
		if (lttng_ust_tracepoint_provider_register(provider, ev->desc->event_name,
							   cls->probe_callback, &ev->common,
							   cls->signature))
			lu_debug("%s: its probe could not be attached to its call sites", tp->name);
		else
			ev->attached = true;
	} else if (!state && ev->attached) {
		lttng_ust_tracepoint_provider_unregister(provider, ev->desc->event_name,
							 cls->probe_callback, &ev->common);
		ev->attached = false;
	}
}

/* ---- registration ---- */

static void event_destroy(struct lu_event *ev)
{
	if (!ev)
		return;
	lu_event_fields_fini(ev);
	free(ev->name);
	free(ev);
}

static int event_loglevel(const struct lu_event_desc *d)
{
	int level = 13;	/* LTTng's default, DEBUG_LINE */

	if (d->loglevel && *d->loglevel)
		level = **d->loglevel;
	return level >= 0 && level <= 14 ? level : 13;
}

static struct lu_event *event_create(const struct lu_probe_desc *desc,
				     const struct lu_event_desc *d)
{
	size_t len = strlen(desc->provider_name) + strlen(d->event_name) + 2;
	struct lu_event *ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	ev->desc = d;
	ev->name = malloc(len);
	if (!ev->name || lu_event_fields(ev)) {
		event_destroy(ev);
		return NULL;
	}
	snprintf(ev->name, len, "%s:%s", desc->provider_name, d->event_name);
	ev->tp.abi = LTT_UST_TRACEPOINT_ABI;
	ev->tp.loglevel = event_loglevel(d);
	ev->tp.name = ev->name;
	ev->tp.state_changed = lu_state_changed;
	ev->recorder = (struct lu_event_recorder){ sizeof(ev->recorder), &ev->common, NULL,
						   &channel };
	ev->common = (struct lu_event_common){
		.struct_size = sizeof(ev->common), .type = LU_EVENT_RECORDER,
		.child = &ev->recorder, .run_filter = run_filter,
	};
	return ev;
}

static void registered_destroy(struct registered *r)
{
	uint32_t i;

	if (!r)
		return;
	for (i = 0; r->events && i < r->nr; i++)
		event_destroy(r->events[i]);
	free(r->events);
	free(r->tps);
	free(r);
}

/*
 * Is the event of descriptor @d registered already?  A library linked
 * twice with one provider's probes registers the descriptors the dynamic
 * linker resolved for both, the first library's: LTTng-UST keys its
 * events by descriptor and records each once, so does ltt.  Two
 * providers of one name, each with its own descriptors (dlopen()ed
 * libraries), make two events of the name, both recorded by each call.
 * Under @lock.
 */
static bool registered_has(const struct lu_event_desc *d)
{
	const struct registered *r;
	uint32_t i;

	for (r = providers; r; r = r->next) {
		for (i = 0; i < r->nr; i++) {
			if (r->events[i]->desc == d)
				return true;
		}
	}
	return false;
}

LU_EXPORT void *lttng_ust_probe_register(const struct lu_probe_desc *desc)
{
	struct registered *r;
	unsigned int i;

	if (!desc || !desc->provider_name)
		return NULL;
	if (desc->major < LU_PROVIDER_MAJOR_OLDEST || desc->major > LU_PROVIDER_MAJOR) {
		fprintf(stderr, "ltt: provider \"%s\" was built with LTTng-UST headers of provider "
			"ABI %u; ltt's liblttng-ust.so.1 takes those of LTTng-UST 2.13 to 2.16 (ABI "
			"%u and %u): rebuild it with those headers, or run it without ltt-run\n",
			desc->provider_name, desc->major, LU_PROVIDER_MAJOR_OLDEST, LU_PROVIDER_MAJOR);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->desc = desc;
	r->events = calloc(desc->nr_events + 1, sizeof(*r->events));
	r->tps = calloc(desc->nr_events + 1, sizeof(*r->tps));
	if (!r->events || !r->tps) {
		registered_destroy(r);
		return NULL;
	}
	pthread_mutex_lock(&lock);
	for (i = 0; i < desc->nr_events; i++) {
		struct lu_event *ev = event_create(desc, desc->event_desc[i]);

		if (ev && registered_has(ev->desc)) {
			lu_debug("%s: its descriptor is registered already (the provider's "
				 "probes are in two objects): recorded once", ev->name);
			event_destroy(ev);
		} else if (ev) {	/* an event ltt cannot describe is left out, said once */
			r->events[r->nr] = ev;
			r->tps[r->nr++] = &ev->tp;
		}
	}
	r->next = providers;
	providers = r;
	ltt_ust_register_module(r->tps, r->tps + r->nr, desc);
	pthread_mutex_unlock(&lock);
	return r;
}

LU_EXPORT void lttng_ust_probe_unregister(void *handle)
{
	struct registered *r = handle, **p;
	uint32_t i;

	if (!r)
		return;
	pthread_mutex_lock(&lock);
	for (p = &providers; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			break;
		}
	}
	ltt_ust_unregister_module(r->tps);
	pthread_mutex_unlock(&lock);
	/* At exit libltt-ust keeps its tracepoints on: so do the events. */
	for (i = 0; i < r->nr; i++) {
		if (r->events[i]->attached)
			return;
	}
	registered_destroy(r);
}
