// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-handover.c - user-space traces in the consumer-trace layer
 * (ctrace.h): the source operations it calls, the closing of a trace
 * whose program left, and what a stalled consumer was owed (see
 * ust-buffers.h, ust-buffers-internal.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/ust/ust-buffers-internal.h"
#include "sessiond/ust/ust-shm.h"

static struct ltt_ust_trace *trace_of(struct ltt_ctrace *t)
{
	return caa_container_of(t, struct ltt_ust_trace, ct);
}

/* The ctrace supervisor operation: the consumer of the session's owner. */
static struct ltt_supervisor *trace_supervisor(struct ltt_ctrace *t)
{
	struct ltt_ust_state *us = ltt_ust_state(t->session);

	return us && us->owner ? &us->owner->consumer : NULL;
}

static int trace_path(struct ltt_ctrace *t, unsigned int attempt, char *buf, size_t len)
{
	return ltt_ust_trace_path(trace_of(t), attempt, buf, len);
}

static int trace_chan_add(struct ltt_ctrace *t, struct ltt_cchan *ch, struct ltt_consumer *c)
{
	return ltt_ust_chan_to_consumer(trace_of(t), caa_container_of(ch, struct ltt_ust_chan, cc),
					c);
}

static struct ltt_relay_link *trace_relay(struct ltt_ctrace *t)
{
	struct ltt_ust_state *us = ltt_ust_state(t->session);

	return us ? &us->relay : NULL;
}

static uint64_t trace_new_key(struct ltt_ctrace *t)
{
	return ltt_ust_new_key(ltt_ust_state(t->session)->owner->buffers);
}

static uint64_t trace_chan_bytes(struct ltt_ctrace *t, struct ltt_cchan *ch)
{
	(void)t;
	return ltt_ust_chan_bytes(caa_container_of(ch, struct ltt_ust_chan, cc));
}

/* The ctrace close operation: a trace whose program left, closed once its consumer answers. */
static int trace_close(struct ltt_ctrace *t)
{
	return ltt_ust_buffers_close_trace(trace_of(t));
}

const struct ltt_ctrace_ops ltt_ust_trace_ops = {
	.noun = "trace",
	.meta_reply_ms = LTT_UST_META_REPLY_MS,
	.supervisor = trace_supervisor,
	.path = trace_path,
	.chan_add = trace_chan_add,
	.relay = trace_relay,
	.new_key = trace_new_key,
	.chan_bytes = trace_chan_bytes,
	.close = trace_close,
};

void ltt_ust_buffers_metadata(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			      const struct ltt_wbuf *text)
{
	(void)b;
	ltt_ust_shm_metadata(trace, text);
	ltt_ctrace_meta_add(&trace->ct, text);	/* -EPIPE: it writes nowhere now (said) */
}

/* Consumers tried in a row for a closing trace's last flush, as a stop's. */
#define CLOSE_FLUSH_ATTEMPTS 3

/*
 * Have the consumer that holds @trace write all its channels hold.  One
 * that dies meanwhile (before this call noticed, or during it) is replaced
 * and the new one, which takes the trace over where the dead one left its
 * files and ring buffers, flushes again: a trace is never closed on a dead
 * consumer, whose last packets would be neither written nor counted.
 * *@ret_c: the consumer, or NULL when none holds the trace (said).
 * Returns 0, or -ETIMEDOUT: the consumer is stalled (it has not taken the
 * trace yet, or did not answer a flush): the trace must wait for it.
 */
static int close_flush(struct ltt_ust_trace *trace, struct ltt_consumer **ret_c)
{
	struct ltt_consumer *c = NULL;
	struct ltt_ust_chan *chan;
	unsigned int attempt;
	bool died = true;
	int ret = 0;

	for (attempt = 0; died && attempt < CLOSE_FLUSH_ATTEMPTS; attempt++) {
		c = ltt_ctrace_consumer(&trace->ct);
		died = false;
		ret = !c && trace->ct.state == LTT_CTRACE_OWED ? -ETIMEDOUT : 0;
		/* what the consumer lacks first: metadata, channels */
		if (c && ltt_ctrace_settle(&trace->ct, c)) {
			ret = -ETIMEDOUT;
			break;
		}
		cds_list_for_each_entry(chan, &trace->ct.chans, cc.node) {
			if (!c)
				break;
			ret = ltt_consumer_flush_channel_sized(c, chan->cc.key, true, ltt_ust_chan_bytes(chan));
			if (!ret)
				continue;
			died = !ltt_consumer_alive(c);
			if (died || ret == -ETIMEDOUT)
				break;	/* died: the next one takes it over, all again */
			LTT_WARN("trace %s: channel %s: the last packets may not be written",
				 trace->ct.path, chan->cc.channel->attr.name);
			ret = 0;
		}
	}
	*ret_c = c;
	return ret == -ETIMEDOUT ? ret : 0;
}

int ltt_ust_buffers_close_trace(struct ltt_ust_trace *trace)
{
	struct ltt_consumer *c;
	int ret = close_flush(trace, &c);

	/* kept, buffers and all, until the consumer answers */
	if (ret && ltt_ctrace_owe_close(&trace->ct))
		LTT_WARN("trace %s: its program left while its consumer daemon is stalled: closed once it answers, nothing lost",
			 trace->ct.path);
	if (ret)
		return ret;
	ltt_ust_trace_end(trace, c);
	return 0;
}

/*
 * @trace's end, once @c (NULL: none) wrote what it holds: its losses
 * kept in the session's channels, its channels and itself destroyed in
 * @c, then freed.
 */
void ltt_ust_trace_end(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_ust_chan *chan, *tmp;
	struct ltt_consumer_channel_stats st;
	bool paged;

	cds_list_for_each_entry_safe(chan, tmp, &trace->ct.chans, cc.node) {
		/* a consumer before 1.5 keeps no page: ask it, before it forgets */
		paged = !c || ltt_consumer_minor(c) >= LTT_CONSUMER_MINOR_OUTPUT_ERRORS;
		if (!paged && ltt_consumer_channel_status(c, chan->cc.key, &st))
			st = (struct ltt_consumer_channel_stats){ 0 };
		/* counted in its channel from here: list must not see it twice */
		cds_list_del(&chan->cc.node);
		if (c && ltt_consumer_destroy_channel(c, chan->cc.key))
			LTT_WARN("trace %s: channel %s not closed cleanly", trace->ct.path,
				 chan->cc.channel->attr.name);
		/*
		 * The page once the channel is gone: with what its removal
		 * could not write (a relay that stopped answering) counted
		 */
		if (paged)
			ltt_ust_chan_stats(chan, &st);
		/* and what it holds, when no consumer read it (list counted it so) */
		ltt_add_sat(&st.events_lost, ltt_ust_chan_unread_lost(trace, chan));
		chan->cc.channel->discarded_events += st.events_lost;
		chan->cc.channel->lost_packets += st.packets_lost;
		chan->cc.channel->error_events += st.error_events;
		chan->cc.channel->error_packets += st.error_packets;
		ltt_add_sat(&chan->cc.channel->classes_refused, chan->classes.refused);
		ltt_ust_chan_free(chan);
	}
	if (c)
		ltt_consumer_destroy_trace(c, trace->ct.key);
	cds_list_del(&trace->node);
	ltt_ust_shm_remove(trace);
	ltt_ctrace_fini(&trace->ct);
	free(trace);
}

void ltt_ust_buffers_takeover(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;

	(void)b;
	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node)
		ltt_ctrace_consumer_died(&trace->ct);
}

void ltt_ust_buffers_settle(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	(void)b;
	ltt_ctrace_owed_settle(session, &ltt_ust_trace_ops);
}
