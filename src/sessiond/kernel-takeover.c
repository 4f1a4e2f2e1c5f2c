// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-takeover.c - a kernel consumer that died is replaced at once
 * and the new one continues every session's kernel trace
 * (kernel-internal.h).
 *
 * The session daemon holds each stream's fd (the consumer gets dups of
 * the same open file), so the tracer's ring buffers and their reader
 * positions outlive the consumer: the new one reads each stream from
 * where the dead one released it, takes back a packet the dead one held
 * (GET_HELD_SUBBUF), and its file sink continues each file after the
 * last packet the index holds whole, refusing the packets written
 * already.  Nothing is read twice or skipped; what writers could not
 * record meanwhile is in the tracer's running counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "sessiond/kernel-internal.h"

/* A takeover failed halfway: @c keeps nothing of @ks's trace. */
static void undo_resume(struct kernel_session *ks, struct ltt_consumer *c, uint64_t gen,
			unsigned int nr_added)
{
	struct kernel_chan *kc;
	int ret;

	cds_list_for_each_entry(kc, &ks->chans, node) {
		if (!nr_added--)
			break;
		ret = ltt_consumer_destroy_channel(c, kc->key);
		if (ret && ret != -ENOENT)
			LTT_WARN("kernel trace %s: a channel left in the consumer daemon: %s",
				 ks->path, strerror(-ret));
	}
	ret = ltt_consumer_destroy_trace(c, ks->trace_key);
	if (ret && ret != -ENOENT)
		LTT_WARN("kernel trace %s: left in the consumer daemon after a failed takeover: %s",
			 ks->path, strerror(-ret));
	if (ks->relay.key)
		ltt_relay_detach(&ks->relay, c, gen);
}

/*
 * A streamed trace goes on in a new relay session (the dead consumer's
 * connection went with it; the relay never writes over a trace): its key
 * in @c, or -errno.
 */
static int64_t new_relay(struct ltt_kernel *k, struct kernel_session *ks, struct ltt_consumer *c,
			 uint64_t gen)
{
	struct ltt_session *session = ks->session;
	int ret;

	ks->relay.key = 0;
	ks->relay.error = 0;
	ks->relay.restarts++;
	LTT_WARN("session '%s': its kernel consumer died; streaming goes on in a new relay session (directory suffix -%u); what the dead one had not sent is lost",
		 session->name, ks->relay.restarts);
	ret = ltt_relay_attach(&ks->relay, c, gen, ltt_kernel_new_key(k), session);
	return ret ? ret : (int64_t)ks->relay.key;
}

/*
 * Consumer @c (generation @gen) continues @ks's trace: the same
 * directory, files continued (ADD_TRACE resume), the metadata again,
 * every channel with the same streams.  Session lock held.
 */
static int resume_session(struct ltt_kernel *k, struct kernel_session *ks, struct ltt_consumer *c,
			  uint64_t gen)
{
	const struct ltt_session *session = ks->session;
	unsigned int nr_added = 0;
	struct kernel_chan *kc;
	int64_t relay = 0;
	int ret;

	if (session->output_type == LTT_OUTPUT_NET) {
		relay = new_relay(k, ks, c, gen);
		if (relay <= 0)
			return relay < 0 ? (int)relay : -EINVAL;
	}
	if (session->snapshot)
		ret = ltt_kernel_snapshot_trace_add(ks, c);
	else
		ret = ltt_consumer_add_trace(c, ks->trace_key, ks->path, ks->uuid, session->uid,
					     session->gid, (uint64_t)relay, !relay);
	if (ret) {
		if (ks->relay.key)
			ltt_relay_detach(&ks->relay, c, gen);
		return ret;
	}
	ret = ltt_consumer_metadata_all(c, ks->trace_key, &ks->meta);
	cds_list_for_each_entry(kc, &ks->chans, node) {
		if (ret)
			break;
		ret = ltt_kernel_chan_to_consumer(k, ks, kc, c);
		nr_added++;	/* added in part, maybe: destroyed below all the same */
	}
	if (ret) {
		undo_resume(ks, c, gen, nr_added);
		return ret;
	}
	ks->consumer_gen = gen;
	LTT_INFO("kernel trace %s: taken over by the new consumer daemon", ks->path);
	return 0;
}

struct resume_arg {
	struct ltt_kernel *k;
	struct kernel_session *ks;
};

/* ltt_supervisor_resume_fn: @arg is a struct resume_arg. */
static int resume_fn(void *arg, struct ltt_consumer *c, uint64_t gen)
{
	struct resume_arg *a = arg;

	return resume_session(a->k, a->ks, c, gen);
}

struct ltt_consumer *ltt_kernel_session_consumer(struct ltt_kernel *k, struct kernel_session *ks)
{
	struct resume_arg a = { .k = k, .ks = ks };
	struct ltt_consumer *c;
	uint64_t gen;
	int ret;

	if (!ks->consumer_gen)
		return NULL;
	/* a new consumer that dies too is replaced in turn, a few times */
	c = ltt_supervisor_take_over(&k->consumer, ks->consumer_gen, resume_fn, &a, &gen, &ret);
	if (c)
		return c;
	LTT_ERR("kernel trace %s: the consumer daemon writing it died and no other could take it over (%s); it ends there",
		ks->path, strerror(-ret));
	ks->consumer_gen = 0;
	ks->lost_consumer = true;
	return NULL;
}

void ltt_kernel_consumer_died(void *arg)
{
	struct ltt_kernel *k = arg;
	struct ltt_session **sessions;
	struct ltt_session_domain *dom;
	size_t i, n;

	if (!k->registry || ltt_session_snapshot_list(k->registry, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&sessions[i]->lock);
		dom = ltt_session_domain(sessions[i], LTT_DOMAIN_KERNEL);
		if (!sessions[i]->destroyed && dom->state)
			ltt_kernel_session_consumer(k, dom->state);
		pthread_mutex_unlock(&sessions[i]->lock);
		ltt_session_put(k->registry, sessions[i]);
	}
	free(sessions);
}
