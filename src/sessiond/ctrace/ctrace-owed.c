// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctrace-owed.c - what a session's traces owe consumers that stalled
 * (ctrace.h), for every domain.
 *
 * A trace that owes its consumer work (not handed over yet, metadata or a
 * channel not sent, a stop's flush not done, its source gone and it not
 * closed) is on its session's list, session->ctrace_owed, and only then:
 * ltt_ctrace_owed_sync() (ctrace.c) keeps the list true wherever the layer changes
 * one of those.  So the rotation thread's tick asks each session in O(1)
 * whether it owes anything, and a settle walks only the traces that do.
 */
#include <errno.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/ctrace/ctrace.h"

/*
 * Does the consumer that supervisor @sup runs now take work: 1 yes, 0 it
 * owes a reply (stalled), -1 none runs (or no supervisor).  Never waits.
 */
static int answers(struct ltt_supervisor *sup)
{
	uint64_t gen;
	struct ltt_consumer *c = sup ? ltt_supervisor_current(sup, &gen) : NULL;

	if (!c)
		return -1;
	return !ltt_consumer_owes(c);
}

bool ltt_ctrace_owed_due(struct ltt_session *session)
{
	struct ltt_supervisor *sup, *stalled = NULL;
	struct ltt_ctrace *t;
	int ret;

	cds_list_for_each_entry(t, &session->ctrace_owed, owed_node) {
		sup = t->ops->supervisor(t);
		if (sup && sup == stalled)
			continue;	/* asked already: its traces wait alike */
		ret = answers(sup);
		/* none runs: a trace not held starts one; a held one waits for its takeover */
		if (ret > 0 || (ret < 0 && t->state != LTT_CTRACE_HELD))
			return true;
		if (!ret)
			stalled = sup;
	}
	return false;
}

/* @t's channels flushed by @c (not final).  Returns 0, -ETIMEDOUT or the first -errno. */
static int flush_chans(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	struct ltt_cchan *ch;
	int ret = 0, err;

	cds_list_for_each_entry(ch, &t->chans, node) {
		err = ltt_consumer_flush_stopped(c, ch->key,
						 t->ops->chan_bytes ? t->ops->chan_bytes(t, ch) : 0);
		if (err == -ETIMEDOUT)
			return err;
		if (err && err != -ENOENT && !ret)
			ret = err;
	}
	return ret;
}

/*
 * The flush @t is owed by @c, as its stopped session's stop would have
 * done (none once the session started again: the consumer reads on).
 * Returns 0 or -ETIMEDOUT (still owed).
 */
static int settle_flush(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	int ret = t->session->active ? 0 : flush_chans(t, c);

	if (ret == -ETIMEDOUT)
		return ret;
	t->flush_owed = false;
	ltt_ctrace_owed_sync(t);
	if (ret)
		LTT_ERR("session '%s': %s %s: the flush its stop owed failed: %s",
			t->session->name, t->ops->noun, t->path, strerror(-ret));
	else if (!t->session->active)
		LTT_INFO("session '%s': %s %s: written whole, the flush its stop owed done",
			 t->session->name, t->ops->noun, t->path);
	return 0;
}

/* What @t owes a consumer that may answer now.  Returns 0 or -ETIMEDOUT. */
static int settle_one(struct ltt_ctrace *t)
{
	bool handed = t->state == LTT_CTRACE_OWED;
	struct ltt_consumer *c;

	if (t->closing)
		return t->ops->close(t);	/* @t is freed when closed */
	c = ltt_ctrace_consumer(t);
	if (!c)
		return t->state == LTT_CTRACE_OWED ? -ETIMEDOUT : 0;
	if (ltt_ctrace_settle(t, c))
		return -ETIMEDOUT;
	/* handed over while its session was stopped: written whole, as its stop would */
	if (handed && !t->session->active)
		ltt_ctrace_owe_flush(t);
	return t->flush_owed ? settle_flush(t, c) : 0;
}

void ltt_ctrace_owed_settle(struct ltt_session *session, const struct ltt_ctrace_ops *only)
{
	struct ltt_supervisor *sup, *stalled = NULL;
	struct ltt_ctrace *t, *tmp;
	size_t n = 0;

	/* those owing now, once each: one settled may join the list again at its end */
	cds_list_for_each_entry(t, &session->ctrace_owed, owed_node)
		n++;
	cds_list_for_each_entry_safe(t, tmp, &session->ctrace_owed, owed_node) {
		if (!n--)
			break;
		if (only && t->ops != only)
			continue;
		sup = t->ops->supervisor(t);
		if (sup && sup == stalled)
			continue;	/* its consumer is stalled: its other traces wait as long */
		if (settle_one(t) == -ETIMEDOUT)
			stalled = sup;
	}
}

bool ltt_ctrace_owed_to(struct ltt_session *session, struct ltt_supervisor *sup,
			uint32_t *ret_traces, bool *ret_metadata)
{
	struct ltt_ctrace *t;
	uint32_t traces = 0;
	bool metadata = false, any = false;

	cds_list_for_each_entry(t, &session->ctrace_owed, owed_node) {
		if (t->ops->supervisor(t) != sup)
			continue;
		any = true;
		if (t->state == LTT_CTRACE_OWED || t->closing || t->nr_chans_owed)
			traces++;
		metadata |= ltt_ctrace_meta_owed(t);
	}
	if (ret_traces)
		*ret_traces = traces;
	if (ret_metadata)
		*ret_metadata = metadata;
	return any;
}

/* list: a call under way this long is a stalled consumer's (ltt_consumer_stall()) */
#define LIST_STALLED_MS 1000

/* @d's consumer of @session now, or NULL: none runs (never waits). */
static struct ltt_consumer *consumer_now(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_supervisor *sup = d->ops->supervisor ? d->ops->supervisor(d, session) : NULL;
	uint64_t gen;

	return sup ? ltt_supervisor_current(sup, &gen) : NULL;
}

bool ltt_ctrace_domain_owes(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_consumer *c = consumer_now(d, session);

	return c && ltt_consumer_owes(c);
}

bool ltt_ctrace_destroy_waits(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_supervisor *sup = d->ops->supervisor ? d->ops->supervisor(d, session) : NULL;

	/* a consumer that died: its takeover, at destroy, sends everything */
	return sup && ltt_ctrace_owed_to(session, sup, NULL, NULL) && ltt_ctrace_domain_owes(d, session);
}

void ltt_ctrace_stall_info(struct ltt_domain_impl *d, struct ltt_session *session, bool waiting,
			   struct ltt_domain_stall *ret)
{
	struct ltt_supervisor *sup = d->ops->supervisor ? d->ops->supervisor(d, session) : NULL;
	struct ltt_consumer_stall st = { 0 };

	*ret = (struct ltt_domain_stall){ 0 };
	if (!sup)
		return;
	ltt_supervisor_stall(sup, LIST_STALLED_MS, &st);
	ret->stalled = st.stalled;
	ret->since = st.since;
	ret->command = st.type;
	if (waiting)
		ltt_ctrace_owed_to(session, sup, &ret->traces, &ret->metadata);
}
