// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-object.c - the references on sessions and channels (ltt-tracer.h,
 * "Objects and references"): their get and put, and the freeing the last
 * put does, below the fds, probes and streams that hold them; and a
 * filter's freeing once no probe can see it.
 */
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/kref.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ltt-tracer.h"

/* Sessions in existence, at most LTT_MAX_SESSIONS (ltt_session_create_fd()). */
atomic_t ltt_nr_sessions = ATOMIC_INIT(0);

static void session_free(struct kref *ref)
{
	struct ltt_session *s = container_of(ref, struct ltt_session, ref);

	ltt_trackers_free(s);
	kfree(s);
	atomic_dec(&ltt_nr_sessions);
}

/* Take a reference on @s (an object that names it: a probe). */
void ltt_session_get(struct ltt_session *s)
{
	kref_get(&s->ref);
}

/* Drop it; the last reference frees @s.  Context: may not hold ltt_mutex. */
void ltt_session_put(struct ltt_session *s)
{
	kref_put(&s->ref, session_free);
}

static void channel_free(struct kref *ref)
{
	struct ltt_channel *chan = container_of(ref, struct ltt_channel, ref);
	unsigned int cpu;

	for (cpu = 0; chan->bufs && cpu < nr_cpu_ids; cpu++)
		ltt_rb_buf_destroy(chan->bufs[cpu]);
	kfree(chan->bufs);
	bitmap_free(chan->stream_taken);
	if (chan->session)
		kref_put(&chan->session->ref, session_free);
	kfree(chan);
}

/**
 * ltt_channel_put() - drop a reference on @chan
 *
 * Process context (the last one frees the buffers).
 */
void ltt_channel_put(struct ltt_channel *chan)
{
	kref_put(&chan->ref, channel_free);
}

void ltt_kfilter_free_rcu(struct ltt_kfilter *f)
{
	if (f)
		kvfree_rcu(f, rcu);
}
