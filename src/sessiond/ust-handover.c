// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-handover.c - handing user-space traces to the consumer and back: a
 * new trace once its program has its buffers, a trace a dead consumer
 * held to the next one, metadata in order (what a stalled consumer could
 * not be sent waits), and the closing of a trace whose program left
 * (see ust-buffers.h, ust-buffers-internal.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "sessiond/meta-regen.h"
#include "sessiond/ust-buffers-internal.h"

static int resume_trace(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			struct ltt_consumer *c, uint64_t gen);

struct resume_arg {
	struct ltt_ust_buffers *b;
	struct ltt_ust_trace *trace;
};

/* ltt_supervisor_resume_fn: @arg is a struct resume_arg. */
static int resume_fn(void *arg, struct ltt_consumer *c, uint64_t gen)
{
	struct resume_arg *a = arg;

	return resume_trace(a->b, a->trace, c, gen);
}

static struct ltt_consumer *hand_over(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace);

/*
 * The consumer that holds @trace's files, or NULL when it has none.  When
 * the one that held them died, the current one takes the trace over first
 * (resume_trace(); a new one that dies too is replaced in turn, as the
 * kernel domain's: ltt_supervisor_take_over()); a trace none can take
 * over ends there (said once).  Session lock held.
 */
struct ltt_consumer *ltt_ust_trace_consumer(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace)
{
	struct resume_arg a = { .b = b, .trace = trace };
	struct ltt_ust_owner *o;
	struct ltt_consumer *c;
	uint64_t gen;
	int ret = -ENOMEM;

	if (!trace->consumer_gen && trace->add_owed)
		return hand_over(b, trace);
	if (!trace->consumer_gen)
		return NULL;
	o = ltt_ust_buffers_owner(b, trace->session);
	c = o ? ltt_supervisor_take_over(&o->consumer, trace->consumer_gen, resume_fn, &a, &gen,
					 &ret) : NULL;
	if (c)
		return c;
	LTT_ERR("trace %s: the consumer daemon writing it died and no other could take it over (%s); it ends there",
		trace->path, strerror(-ret));
	trace->consumer_gen = 0;
	trace->lost_consumer = true;
	return NULL;
}

/*
 * Send @c, which holds @trace, what it lacks of the trace's metadata, in
 * order (ltt_meta_send_rest(), as the kernel domain does).  Returns 0, or
 * -EAGAIN: some waits for ltt_ust_buffers_settle().
 */
struct ltt_meta_owed ltt_ust_meta_of(struct ltt_ust_trace *trace)
{
	return (struct ltt_meta_owed){
		.trace_key = trace->key, .meta = &trace->meta, .sent = &trace->meta_sent,
		.said = &trace->meta_said, .path = trace->path,
	};
}

int ltt_ust_send_meta_rest(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	const struct ltt_meta_owed o = ltt_ust_meta_of(trace);

	return ltt_meta_send_rest(c, &o, LTT_UST_META_REPLY_MS);
}

/* Does @trace's consumer lack some of its metadata (a stalled one)? */
bool ltt_ust_meta_owed(const struct ltt_ust_trace *trace)
{
	return trace->consumer_gen && !trace->meta.err && trace->meta_sent < trace->meta.len;
}

void ltt_ust_buffers_metadata(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			      const struct ltt_wbuf *text)
{
	uint64_t gen = trace->consumer_gen;
	bool waiting = ltt_ust_meta_owed(trace);	/* the rest waits for a stalled consumer */
	struct ltt_consumer *c;
	int ret;

	if (text->err || !text->len)
		return;
	/* kept whole: a consumer taking the trace over writes it all again */
	ltt_wbuf_put_bytes(&trace->meta, text->data, text->len);
	if (trace->meta.err)
		LTT_WARN("trace %s: out of memory for a copy of its metadata", trace->path);
	if (trace->add_owed || (waiting && !trace->meta.err))
		return;	/* sent with the trace, or after what waits: settle */
	c = ltt_ust_trace_consumer(b, trace);
	/* just taken over: the new consumer was sent all of it, this text too */
	if (!c || trace->consumer_gen != gen)
		return;
	if (!trace->meta.err) {
		ltt_ust_send_meta_rest(trace, c);
		return;
	}
	ret = ltt_consumer_metadata(c, trace->key, text->data, text->len);
	if (ret)
		LTT_ERR("trace %s: metadata not written: %s", trace->path, strerror(-ret));
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
static int close_flush(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
		       struct ltt_consumer **ret_c)
{
	struct ltt_consumer *c = NULL;
	struct ltt_ust_chan *chan;
	unsigned int attempt;
	bool died = true;
	int ret = 0;

	for (attempt = 0; died && attempt < CLOSE_FLUSH_ATTEMPTS; attempt++) {
		c = ltt_ust_trace_consumer(b, trace);
		died = false;
		ret = !c && trace->add_owed ? -ETIMEDOUT : 0;
		/* what the consumer lacks first: metadata, channels */
		if (c && ltt_ust_settle_held(trace, c)) {
			ret = -ETIMEDOUT;
			break;
		}
		cds_list_for_each_entry(chan, &trace->chans, node) {
			if (!c)
				break;
			ret = ltt_consumer_flush_channel_sized(c, chan->key, true, ltt_ust_chan_bytes(chan));
			if (!ret)
				continue;
			died = !ltt_consumer_alive(c);
			if (died || ret == -ETIMEDOUT)
				break;	/* died: the next one takes it over, all again */
			LTT_WARN("trace %s: channel %s: the last packets may not be written",
				 trace->path, chan->channel->attr.name);
			ret = 0;
		}
	}
	*ret_c = c;
	return ret == -ETIMEDOUT ? ret : 0;
}

int ltt_ust_buffers_close_trace(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace)
{
	struct ltt_consumer *c;
	int ret = close_flush(b, trace, &c);

	if (ret) {
		/* kept, buffers and all, until the consumer answers */
		if (!trace->closing)
			LTT_WARN("trace %s: its program left while its consumer daemon is stalled: closed once it answers, nothing lost",
				 trace->path);
		trace->closing = true;
		return ret;
	}
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

	cds_list_for_each_entry_safe(chan, tmp, &trace->chans, node) {
		/* a consumer before 1.5 keeps no page: ask it */
		if (c && ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_OUTPUT_ERRORS) {
			if (ltt_consumer_channel_status(c, chan->key, &st))
				st = (struct ltt_consumer_channel_stats){ 0 };
		} else {
			ltt_ust_chan_stats(chan, &st);
		}
		chan->channel->discarded_events += st.events_lost;
		chan->channel->lost_packets += st.packets_lost;
		chan->channel->error_events += st.error_events;
		chan->channel->error_packets += st.error_packets;
		if (c && ltt_consumer_destroy_channel(c, chan->key))
			LTT_WARN("trace %s: channel %s not closed cleanly", trace->path,
				 chan->channel->attr.name);
		cds_list_del(&chan->node);
		ltt_ust_chan_free(chan);
	}
	if (c)
		ltt_consumer_destroy_trace(c, trace->key);
	cds_list_del(&trace->node);
	ltt_wbuf_fini(&trace->meta);
	free(trace);
}

void ltt_ust_buffers_takeover(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;

	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node)
		ltt_ust_trace_consumer(b, trace);
}

/*
 * Consumer @c failed @trace after it accepted the trace and maybe its
 * first @nr_added channels: destroy them, then the trace, so @c holds
 * nothing of it (the files already written stay).
 */
static void undo_add(struct ltt_ust_trace *trace, struct ltt_consumer *c, unsigned int nr_added)
{
	struct ltt_ust_chan *chan;
	int ret;

	cds_list_for_each_entry(chan, &trace->chans, node) {
		if (!nr_added--)
			break;
		ret = ltt_consumer_destroy_channel(c, chan->key);
		if (ret && ret != -ENOENT)
			LTT_WARN("trace %s: channel %s left in the consumer daemon: %s",
				 trace->path, chan->channel->attr.name, strerror(-ret));
	}
	ret = ltt_consumer_destroy_trace(c, trace->key);
	if (ret && ret != -ENOENT)
		LTT_WARN("trace %s: left in the consumer daemon after a failed hand-over: %s",
			 trace->path, strerror(-ret));
}

/*
 * Consumer @c just accepted @trace: send it the whole metadata, then every
 * channel with its streams, so it reads each ring buffer from where it
 * was last released (from the start, for a trace new to consumers).
 * Undone on failure.
 */
static int send_contents(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_ust_chan *chan;
	unsigned int nr_added = 0;
	int ret = ltt_consumer_metadata_all(c, trace->key, &trace->meta);

	if (!ret)
		trace->meta_sent = trace->meta.len;
	cds_list_for_each_entry(chan, &trace->chans, node) {
		if (ret)
			break;
		ret = ltt_ust_chan_to_consumer(trace, chan, c);
		chan->add_owed = false;
		nr_added++;	/* added in part, maybe: destroyed below all the same */
	}
	if (ret)
		undo_add(trace, c, nr_added);
	return ret;
}

/*
 * Consumer @c (generation @gen) continues @trace, whose consumer died:
 * the same directory, files continued (ADD_TRACE resume), the metadata
 * again, every channel with the same streams.  Session lock held.
 */
static int resume_trace(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			struct ltt_consumer *c, uint64_t gen)
{
	const struct ltt_session *session = trace->session;
	int64_t relay = 0;
	int ret;

	if (trace->relayed) {
		/* A new relay session: the trace starts afresh there. */
		relay = ltt_ust_relay_key(b, trace->session, ltt_ust_state(trace->session), c, gen);
		if (relay <= 0)
			return relay < 0 ? (int)relay : -EINVAL;
	}
	if (session->snapshot)
		ret = ltt_consumer_add_snapshot_trace(c, trace->key, trace->uuid, session->uid,
						      session->gid);
	else
		ret = ltt_consumer_add_trace(c, trace->key, trace->path, trace->uuid,
					     session->uid, session->gid, (uint64_t)relay, !relay);
	if (!ret)
		ret = send_contents(trace, c);
	if (ret)
		return ret;
	trace->consumer_gen = gen;
	LTT_INFO("trace %s: taken over by the new consumer daemon", trace->path);
	return 0;
}

/*
 * Hand @trace, which no consumer has held, to consumer @c (generation
 * @gen): in a directory of its own (never over a trace there: the next
 * name is taken), or on the session's relay, or as a snapshot trace (a
 * relative path, no files until a snapshot); then its metadata and
 * channels.  Session lock held.
 */
/*
 * Destroy in @c whatever of @trace an earlier hand-over left (its
 * channels, then itself; what is not there is fine).  Returns 0 or
 * -ETIMEDOUT (still stalled).
 */
static int clear_left(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_ust_chan *chan;
	int ret;

	cds_list_for_each_entry(chan, &trace->chans, node) {
		ret = ltt_consumer_destroy_channel(c, chan->key);
		if (ret == -ETIMEDOUT)
			return ret;
	}
	ret = ltt_consumer_destroy_trace(c, trace->key);
	return ret == -ETIMEDOUT ? ret : 0;
}

static int trace_add(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
		     struct ltt_consumer *c, uint64_t gen)
{
	struct ltt_session *session = trace->session;
	unsigned int attempt = 0;
	int64_t relay = 0;
	int ret;

	/* what an earlier try left in a consumer that stalled halfway: gone first */
	ret = trace->add_tried ? clear_left(trace, c) : 0;
	if (ret)
		return ret;
	trace->add_tried = true;
	do {
		ret = ltt_ust_trace_path(trace, attempt, trace->path, sizeof(trace->path));
		if (ret)
			return ret;
		if (session->snapshot) {
			ret = ltt_consumer_add_snapshot_trace(c, trace->key, trace->uuid,
							      session->uid, session->gid);
			break;
		}
		relay = ltt_ust_relay_key(b, session, ltt_ust_state(session), c, gen);
		ret = relay < 0 ? (int)relay :
				  ltt_consumer_add_trace(c, trace->key, trace->path, trace->uuid,
							 session->uid, session->gid,
							 (uint64_t)relay, false);
	} while (ret == -EEXIST && ++attempt < LTT_UST_TRACE_PATH_ATTEMPTS);
	trace->relayed = relay > 0;
	return ret ? ret : send_contents(trace, c);
}

/*
 * @trace is owed to a consumer (made while its program waited, or its
 * ADD_TRACE timed out and the late success was undone): hand it over
 * now, with what its programs wrote meanwhile.  Returns the consumer that
 * holds it, or NULL: still stalled (tried again by the next call), or it
 * refused the trace (logged: not written).  Session lock held.
 */
/* Have @c write what @trace's buffers hold (not final).  Returns 0 or -errno. */
static int flush_trace(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_ust_chan *chan;
	int ret = 0;

	cds_list_for_each_entry(chan, &trace->chans, node) {
		ret = ltt_consumer_flush_channel_sized(c, chan->key, false, ltt_ust_chan_bytes(chan));
		if (ret)
			break;
	}
	return ret;
}

static struct ltt_consumer *hand_over(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace)
{
	const struct ltt_session *session = trace->session;
	uint64_t gen = 0;
	struct ltt_consumer *c = ltt_ust_owner_get(b, session, &gen);
	int ret = c ? trace_add(b, trace, c, gen) : -EPIPE;

	if (ret && c && !ltt_consumer_alive(c)) {
		/*
		 * It died with the trace in flight, maybe after it made the
		 * directory: the next one takes the trace over there, as it
		 * does the traces the dead one had.
		 */
		LTT_WARN("session '%s': the consumer daemon died while it created trace %s: the next one takes it over",
			 session->name, trace->path);
		trace->add_owed = false;
		trace->consumer_gen = gen;
		return ltt_ust_trace_consumer(b, trace);
	}
	if (ret == -ETIMEDOUT) {
		if (!trace->owed_said)
			LTT_WARN("session '%s': trace %s waits for its stalled consumer daemon: handed over once it answers, with what its programs recorded meanwhile",
				 session->name, trace->path);
		trace->owed_said = true;
		return NULL;
	}
	trace->add_owed = false;
	if (ret) {
		LTT_ERR("session '%s': can't create trace %s: %s%s", session->name, trace->path,
			strerror(-ret),
			ret == -EOPNOTSUPP ? " (the consumer daemon is too old for snapshots)" : "");
		return NULL;
	}
	trace->consumer_gen = gen;
	return c;
}

/* Does a channel of @trace wait for a stalled consumer? */
static bool chans_owed(const struct ltt_ust_trace *trace)
{
	const struct ltt_ust_chan *chan;

	cds_list_for_each_entry(chan, &trace->chans, node)
		if (chan->add_owed)
			return true;
	return false;
}

int ltt_ust_settle_held(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_ust_chan *chan;
	int ret;

	if (ltt_ust_meta_owed(trace) && ltt_ust_send_meta_rest(trace, c) == -EAGAIN)
		return -ETIMEDOUT;
	cds_list_for_each_entry(chan, &trace->chans, node) {
		if (!chan->add_owed)
			continue;
		ret = ltt_consumer_destroy_channel(c, chan->key);
		if (!ret || ret == -ENOENT)
			ret = ltt_ust_chan_to_consumer(trace, chan, c);
		if (ret == -ETIMEDOUT)
			return ret;
		chan->add_owed = false;
		if (ret)
			LTT_ERR("channel %s: the consumer refused it: %s",
				chan->channel->attr.name, strerror(-ret));
	}
	return 0;
}

/* What @trace owes a consumer that may answer now.  Returns 0 or -ETIMEDOUT. */
static int settle_trace(struct ltt_ust_buffers *b, struct ltt_session *session,
			struct ltt_ust_trace *trace)
{
	bool handed = trace->add_owed;
	struct ltt_consumer *c;

	if (trace->closing)
		return ltt_ust_buffers_close_trace(b, trace);
	if (!trace->add_owed && !ltt_ust_meta_owed(trace) && !chans_owed(trace))
		return 0;
	c = ltt_ust_trace_consumer(b, trace);
	if (!c)
		return trace->add_owed ? -ETIMEDOUT : 0;
	if (ltt_ust_settle_held(trace, c))
		return -ETIMEDOUT;
	/* a session stopped meanwhile: written whole, as its stop would */
	return handed && !session->active ? flush_trace(trace, c) : 0;
}

void ltt_ust_buffers_settle(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace, *tmp;

	cds_list_for_each_entry_safe(trace, tmp, us ? &us->traces : &ltt_ust_no_traces, node)
		if (settle_trace(b, session, trace) == -ETIMEDOUT)
			break;	/* stalled: the others would wait as long */
}

void ltt_ust_buffers_waiting(struct ltt_session *session, uint32_t *ret_traces,
			     bool *ret_metadata)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;

	*ret_traces = 0;
	*ret_metadata = false;
	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		if (trace->add_owed || trace->closing || chans_owed(trace))
			++*ret_traces;
		if (ltt_ust_meta_owed(trace))
			*ret_metadata = true;
	}
}

bool ltt_ust_buffers_owed(struct ltt_session *session)
{
	uint32_t traces;
	bool metadata;

	ltt_ust_buffers_waiting(session, &traces, &metadata);
	return traces || metadata;
}
