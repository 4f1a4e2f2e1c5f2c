// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-buffers-stats.c - what the buffers of a channel's user-space traces
 * hold and lost, read from shared memory without waiting on a consumer:
 * the memory of each ring buffer, what reclaim gave back, how full they
 * are, the events and packets lost, the output's failures (see
 * ust-buffers.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "common/trace/ringbuf.h"
#include "common/trace/tclock.h"
#include "sessiond/ust/ust-buffers-internal.h"

/*
 * Call @fn(@arg, trace, chan, stats) for @channel's part (chan) of each of
 * @session's traces, its statistics from the statistics pages: never
 * waits on the consumer (list).
 */
static void each_chan_stats(struct ltt_session *session, const struct ltt_channel *channel,
			    void (*fn)(void *arg, const struct ltt_ust_trace *trace,
				       const struct ltt_ust_chan *chan,
				       const struct ltt_consumer_channel_stats *st),
			    void *arg)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;

	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		if (!chan)
			continue;
		ltt_ust_chan_stats(chan, &st);
		fn(arg, trace, chan, &st);
	}
}

/*
 * The bytes of memory stream @i of @chan holds now, and what it can hold
 * (its size but the guard page, which nothing touches: ringbuf.h): 0 or
 * -errno.
 */
static int stream_mem(const struct ltt_ust_chan *chan, unsigned int i, uint64_t *ret_resident,
		      uint64_t *ret_size)
{
	struct stat st;

	if (chan->fds[2 * i] < 0 || fstat(chan->fds[2 * i], &st))
		return -EBADF;
	*ret_resident = (uint64_t)st.st_blocks * 512;
	*ret_size = (uint64_t)st.st_size;
	if (*ret_size >= LTT_RB_GUARD_SIZE)
		*ret_size -= LTT_RB_GUARD_SIZE;
	return 0;
}

void ltt_ust_buffers_mem(struct ltt_session *session, const struct ltt_channel *channel,
			 void (*fn)(void *arg, const struct ltt_domain_mem *m), void *arg)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_domain_mem m;
	unsigned int i;

	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		for (i = 0; chan && i < chan->nr_streams; i++) {
			m = (struct ltt_domain_mem){
				.uid = (uint32_t)trace->uid,
				.pid = trace->per_pid ? (int32_t)trace->pid : 0,
				.cpu = channel->attr.allocation == LTT_ALLOC_PER_CHANNEL ?
				       LTT_MEM_CPU_CHANNEL : i,
			};
			if (!stream_mem(chan, i, &m.resident, &m.size))
				fn(arg, &m);
		}
	}
}

/* The bytes of memory @chan's streams hold now. */
static uint64_t chan_resident(const struct ltt_ust_chan *chan)
{
	uint64_t total = 0, resident, size;
	unsigned int i;

	for (i = 0; i < chan->nr_streams; i++)
		if (!stream_mem(chan, i, &resident, &size))
			total += resident;
	return total;
}

int ltt_ust_buffers_reclaim(struct ltt_session *session, const struct ltt_channel *channel,
			    uint64_t older_than_ns, uint64_t *subbufs, uint64_t *bytes)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_consumer *c;
	uint64_t before, after, n;
	int ret;

	if (channel->attr.overwrite)
		return -EOPNOTSUPP;
	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		c = chan ? ltt_ctrace_consumer(&trace->ct) : NULL;
		if (!c)
			continue;	/* no buffer, or no consumer to read them */
		before = chan_resident(chan);
		/* the consumer compares ages in the buffers' clock units */
		ret = ltt_consumer_reclaim_channel(c, chan->cc.key,
						   ltt_tclock_counts(older_than_ns,
								     session->clock_freq), &n);
		if (ret)
			return ret;
		after = chan_resident(chan);
		*subbufs += n;
		*bytes += before > after ? before - after : 0;
	}
	return 0;
}

int ltt_ust_buffers_usage(struct ltt_session *session, const struct ltt_channel *channel,
			  struct ltt_domain_usage *ret)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_domain_usage u = { .lowest = UINT64_MAX };
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	bool any = false;

	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		if (!chan || !chan->nr_streams)
			continue;
		ltt_ust_chan_usage(chan, &u);
		any = true;
	}
	if (!any || u.lowest > u.capacity)
		return -ENOENT;	/* no stream, or none could be read */
	*ret = u;
	return 0;
}

/* What a channel lost: events discarded, packets overwritten. */
struct lost {
	uint64_t events, packets;
};

/*
 * Add a trace's losses to @arg's: what its consumer counted, and what its
 * buffers no consumer will read hold.
 */
static void add_lost(void *arg, const struct ltt_ust_trace *trace, const struct ltt_ust_chan *chan,
		     const struct ltt_consumer_channel_stats *st)
{
	struct lost *l = arg;

	ltt_add_sat(&l->events, st->events_lost);
	ltt_add_sat(&l->packets, st->packets_lost);
	ltt_add_sat(&l->events, ltt_ust_chan_unread_lost(trace, chan));
}

void ltt_ust_buffers_stats(struct ltt_ust_buffers *b, struct ltt_session *session,
			   const struct ltt_channel *channel, uint64_t *ret_events_lost,
			   uint64_t *ret_packets_lost)
{
	/* What closed traces lost, then what the open ones have lost so far. */
	struct lost l = { channel->discarded_events, channel->lost_packets };

	(void)b;
	each_chan_stats(session, channel, add_lost, &l);
	*ret_events_lost = l.events;
	*ret_packets_lost = l.packets;
}

/*
 * Add a trace's write failures and refused event classes to @arg's; the
 * earliest error is kept.
 */
static void add_failure(void *arg, const struct ltt_ust_trace *trace,
			const struct ltt_ust_chan *chan, const struct ltt_consumer_channel_stats *st)
{
	struct ltt_domain_failure *f = arg;

	(void)trace;
	f->events += st->error_events;
	f->packets += st->error_packets;
	if (st->error && (!f->error || st->error_since < f->since)) {
		f->error = st->error;
		f->since = st->error_since;
	}
	ltt_add_sat(&f->classes_refused, chan->classes.refused);
}

void ltt_ust_buffers_failure(struct ltt_ust_buffers *b, struct ltt_session *session,
			     const struct ltt_channel *channel, struct ltt_domain_failure *ret)
{
	struct ltt_domain_failure f = {
		.events = channel->error_events, .packets = channel->error_packets,
		.classes_refused = channel->classes_refused,
	};

	(void)b;
	each_chan_stats(session, channel, add_failure, &f);
	*ret = f;
}
