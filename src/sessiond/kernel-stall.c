// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-stall.c - the kernel domain with a stalled (stopped, not dead)
 * consumer (kernel-internal.h).
 *
 * A slow consumer is not a dead one: nothing the tracer records is lost
 * for waiting on it.  Metadata is kept whole in the session (ks->meta)
 * whatever the consumer answers, with how much of it the consumer was
 * sent (ks->meta_sent): a text a stalled consumer could not be sent (it
 * owes a reply) waits, in order, and the events it describes are
 * recorded meanwhile.  A stop whose flush the consumer did not do is
 * remembered (ks->flush_owed).  Once the consumer answers again, the
 * rotation thread's tick finds the work (settle_due) and has the
 * session's owner's thread do it (settle): the rest of the metadata, then
 * a stopped session's flush, without a command.  Meanwhile stop,
 * rotate and snapshot fail with CONSUMERD_STALLED rather than leave a
 * trace whose metadata lacks what its events need, and destroy refuses
 * while that work or a rotation's move waits for the consumer (domain ops
 * destroy_waits, owes).  The kernel consumer is root's own: one whose
 * output blocks for good can be killed, and a new one takes over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "sessiond/kernel-internal.h"
#include "sessiond/meta-regen.h"

/*
 * How long new metadata waits for the consumer's reply: sent whole, it is
 * written in order even when the reply comes late, so an enable-event
 * need not wait the consumer's usual 5 s.
 */
#define KERNEL_META_REPLY_MS 1000

static struct kernel_session *state_of(struct ltt_session *session)
{
	return ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
}

/* Does @ks's consumer lack some of its metadata? */
static bool meta_owed(const struct kernel_session *ks)
{
	return ks->consumer_gen && !ks->meta.err && ks->meta_sent < ks->meta.len;
}

/* What ltt_meta_send_rest() and ltt_meta_regenerate() keep of @ks's metadata. */
static struct ltt_meta_owed owed_of(struct kernel_session *ks)
{
	return (struct ltt_meta_owed){
		.trace_key = ks->trace_key, .meta = &ks->meta, .sent = &ks->meta_sent,
		.said = &ks->meta_said, .path = ks->path,
	};
}

int ltt_kernel_meta_send_owed(struct kernel_session *ks, struct ltt_consumer *c)
{
	const struct ltt_meta_owed o = owed_of(ks);

	if (!meta_owed(ks))
		return 0;
	return ltt_meta_send_rest(c, &o, KERNEL_META_REPLY_MS) ? -ETIMEDOUT : 0;
}

int ltt_kernel_meta_regenerate(struct kernel_session *ks, struct ltt_consumer *c,
			       const struct ltt_wbuf *header)
{
	const struct ltt_meta_owed o = owed_of(ks);

	return ltt_meta_regenerate(c, header, &o, &ks->meta_header_len, KERNEL_META_REPLY_MS);
}

int ltt_kernel_meta_add(struct ltt_kernel *k, struct kernel_session *ks,
			const struct ltt_wbuf *text)
{
	/* a consumer that died: a new one takes the trace over, its metadata too */
	struct ltt_consumer *c = ltt_kernel_session_consumer(k, ks);
	int ret;

	if (!c)
		return -EPIPE;
	ltt_wbuf_put_bytes(&ks->meta, text->data, text->len);
	if (!ks->meta.err) {
		ltt_kernel_meta_send_owed(ks, c);	/* -ETIMEDOUT: the rest waits */
		return 0;
	}
	/* no copy to keep: sent now or never */
	LTT_WARN("kernel trace %s: out of memory for a copy of its metadata", ks->path);
	ret = ltt_consumer_metadata(c, ks->trace_key, text->data, text->len);
	if (ret)
		LTT_ERR("kernel trace %s: metadata not written: %s", ks->path, strerror(-ret));
	return ret;
}

void ltt_kernel_stop_owed(struct ltt_session *session, int ret)
{
	struct kernel_session *ks;

	if (ret != -ETIMEDOUT)
		return;
	pthread_mutex_lock(&session->lock);
	ks = state_of(session);
	if (ks && !session->destroyed) {
		ks->flush_owed = true;
		LTT_WARN("session '%s': kernel trace %s: its stalled consumer daemon did not flush it; flushed once the consumer answers",
			 session->name, ks->path);
	}
	pthread_mutex_unlock(&session->lock);
}

bool ltt_kernel_owes(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct ltt_consumer *c = ltt_kernel_consumer_now(k, state_of(session));

	return c && ltt_consumer_owes(c);
}

bool ltt_kernel_settle_due(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);

	if (!ks || (!meta_owed(ks) && !ks->flush_owed))
		return false;
	/* a consumer that died: its takeover sends everything */
	return ltt_kernel_consumer_now(caa_container_of(d, struct ltt_kernel, domain), ks) &&
	       !ltt_kernel_owes(d, session);
}

bool ltt_kernel_destroy_waits(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);

	/* a consumer that died: its takeover, at destroy, sends everything */
	return ks && (meta_owed(ks) || ks->flush_owed) && ltt_kernel_owes(d, session);
}

/* A stopped session's channels flushed, as its stop would have.  Returns 0 or -errno. */
static int flush_all(struct kernel_session *ks, struct ltt_consumer *c)
{
	struct kernel_chan *kc;
	int ret = 0, err;

	cds_list_for_each_entry(kc, &ks->chans, node) {
		err = ltt_consumer_flush_channel(c, kc->key, false);
		if (err && err != -ENOENT && !ret)
			ret = err;
	}
	return ret;
}

void ltt_kernel_settle(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct kernel_session *ks = state_of(session);
	struct ltt_consumer *c;
	int ret;

	/* a settle for another domain: nothing here, or a consumer still stalled */
	if (!ltt_kernel_settle_due(d, session))
		return;
	c = ltt_kernel_session_consumer(k, ks);
	if (!c || ltt_kernel_meta_send_owed(ks, c))
		return;	/* lost for good (said), or stalled again: the next tick */
	if (!ks->flush_owed)
		return;
	if (session->active) {
		ks->flush_owed = false;	/* started again: the consumer reads on */
		return;
	}
	ret = flush_all(ks, c);
	if (ret == -ETIMEDOUT)
		return;
	ks->flush_owed = false;
	if (ret)
		LTT_ERR("session '%s': kernel trace %s: the flush its stop owed failed: %s",
			session->name, ks->path, strerror(-ret));
	else
		LTT_INFO("session '%s': kernel trace %s: written whole, the flush its stop owed done",
			 session->name, ks->path);
}
