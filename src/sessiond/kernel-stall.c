// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-stall.c - the kernel domain with a stalled (stopped, not dead)
 * consumer (kernel-internal.h).
 *
 * A slow consumer is not a dead one: nothing the tracer records is lost
 * for waiting on it.  Metadata is kept whole in the session (ks->trace.meta)
 * whatever the consumer answers, with how much of it the consumer was
 * sent (ks->trace.meta_sent): a text a stalled consumer could not be sent (it
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

static struct kernel_session *state_of(struct ltt_session *session)
{
	return ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
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
			 session->name, ks->trace.path);
	}
	pthread_mutex_unlock(&session->lock);
}

bool ltt_kernel_owes(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);
	struct ltt_consumer *c = ks ? ltt_ctrace_now(&ks->trace) : NULL;

	(void)d;

	return c && ltt_consumer_owes(c);
}

bool ltt_kernel_settle_due(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);

	if (!ks || (!ltt_ctrace_meta_owed(&ks->trace) && !ks->flush_owed))
		return false;
	/* a consumer that died: its takeover sends everything */
	return ltt_ctrace_now(&ks->trace) &&
	       !ltt_kernel_owes(d, session);
}

bool ltt_kernel_destroy_waits(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);

	/* a consumer that died: its takeover, at destroy, sends everything */
	return ks && (ltt_ctrace_meta_owed(&ks->trace) || ks->flush_owed) && ltt_kernel_owes(d, session);
}

/* A stopped session's channels flushed, as its stop would have.  Returns 0 or -errno. */
static int flush_all(struct kernel_session *ks, struct ltt_consumer *c)
{
	struct kernel_chan *kc;
	int ret = 0, err;

	cds_list_for_each_entry(kc, &ks->trace.chans, cc.node) {
		err = ltt_consumer_flush_channel(c, kc->cc.key, false);
		if (err && err != -ENOENT && !ret)
			ret = err;
	}
	return ret;
}

void ltt_kernel_settle(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct kernel_session *ks = state_of(session);
	struct ltt_consumer *c;
	int ret;

	/* a settle for another domain: nothing here, or a consumer still stalled */
	if (!ltt_kernel_settle_due(d, session))
		return;
	c = ltt_ctrace_consumer(&ks->trace);
	if (!c || ltt_ctrace_meta_send_owed(&ks->trace, c))
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
			session->name, ks->trace.path, strerror(-ret));
	else
		LTT_INFO("session '%s': kernel trace %s: written whole, the flush its stop owed done",
			 session->name, ks->trace.path);
}
