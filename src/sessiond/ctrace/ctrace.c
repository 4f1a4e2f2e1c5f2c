// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctrace.c - a trace held by a consumer daemon, for every domain
 * (ctrace.h): hand-over, takeover, metadata in order, settle, rotation.
 */
#include <errno.h>
#include <string.h>

#include "common/base/log.h"
#include "common/base/output-error.h"
#include "sessiond/ctrace/ctrace.h"
#include "sessiond/ctrace/meta-regen.h"

/* Trace directories tried before giving up on a new trace. */
#define PATH_ATTEMPTS 100

/* How long a rotation waits for a consumer's answer before it sends the move. */
#define ROTATE_PROBE_MS 500

/* Does @t owe its consumer work (see ltt_ctrace_owed_sync())? */
static bool owes(const struct ltt_ctrace *t)
{
	if (t->closing || t->state == LTT_CTRACE_OWED)
		return true;
	return t->state == LTT_CTRACE_HELD &&
	       (ltt_ctrace_meta_owed(t) || t->nr_chans_owed || t->flush_owed);
}

void ltt_ctrace_owed_sync(struct ltt_ctrace *t)
{
	bool listed = !cds_list_empty(&t->owed_node);

	if (owes(t) && !listed) {
		cds_list_add_tail(&t->owed_node, &t->session->ctrace_owed);
		/* the rotation scheduler's tick settles it once the consumer answers */
		ltt_session_wake(t->session);
	} else if (!owes(t) && listed)
		cds_list_del_init(&t->owed_node);
}

void ltt_ctrace_owe_flush(struct ltt_ctrace *t)
{
	t->flush_owed = true;
	ltt_ctrace_owed_sync(t);
}

bool ltt_ctrace_owe_close(struct ltt_ctrace *t)
{
	bool first = !t->closing;

	t->closing = true;
	ltt_ctrace_owed_sync(t);
	return first;
}

void ltt_ctrace_init(struct ltt_ctrace *t, const struct ltt_ctrace_ops *ops,
		     struct ltt_session *session, uint64_t key, enum ltt_ctrace_state state)
{
	memset(t, 0, sizeof(*t));
	t->ops = ops;
	t->session = session;
	t->key = key;
	t->state = state;
	uuid_generate(t->uuid);
	ltt_wbuf_init(&t->meta);
	CDS_INIT_LIST_HEAD(&t->chans);
	CDS_INIT_LIST_HEAD(&t->owed_node);
	ltt_ctrace_owed_sync(t);
}

void ltt_ctrace_fini(struct ltt_ctrace *t)
{
	cds_list_del_init(&t->owed_node);
	ltt_wbuf_fini(&t->meta);
}

/* @ch waits for @t's stalled consumer, or not: counted in @t. */
static void chan_owe(struct ltt_ctrace *t, struct ltt_cchan *ch, bool owed)
{
	if (ch->add_owed == owed)
		return;
	ch->add_owed = owed;
	if (owed)
		t->nr_chans_owed++;
	else
		t->nr_chans_owed--;
}

struct ltt_consumer *ltt_ctrace_now(struct ltt_ctrace *t)
{
	struct ltt_supervisor *sup;
	struct ltt_consumer *c;
	uint64_t gen;

	if (t->state != LTT_CTRACE_HELD)
		return NULL;
	sup = t->ops->supervisor(t);
	c = sup ? ltt_supervisor_current(sup, &gen) : NULL;
	return c && gen == t->gen ? c : NULL;
}

int64_t ltt_ctrace_relay_key(struct ltt_ctrace *t, struct ltt_consumer *c, uint64_t gen)
{
	/* a local session's traces go to no relay, whatever their domain */
	struct ltt_relay_link *link =
		t->session->output_type == LTT_OUTPUT_NET ? t->ops->relay(t) : NULL;

	return link ? ltt_relay_link_key(link, c, gen, t->ops->new_key(t), t->session) : 0;
}

/*
 * Consumer @c failed @t after it accepted the trace and maybe its first
 * @nr_added channels: destroy them, then the trace, so @c holds nothing
 * of it (the files already written stay).
 */
static void undo_add(struct ltt_ctrace *t, struct ltt_consumer *c, unsigned int nr_added)
{
	struct ltt_cchan *ch;
	int ret;

	cds_list_for_each_entry(ch, &t->chans, node) {
		if (!nr_added--)
			break;
		ret = ltt_consumer_destroy_channel(c, ch->key);
		if (ret && ret != -ENOENT)
			LTT_WARN("%s %s: channel %s left in the consumer daemon: %s", t->ops->noun,
				 t->path, ch->channel->attr.name, strerror(-ret));
	}
	ret = ltt_consumer_destroy_trace(c, t->key);
	if (ret && ret != -ENOENT)
		LTT_WARN("%s %s: left in the consumer daemon after a failed hand-over: %s",
			 t->ops->noun, t->path, strerror(-ret));
}

/*
 * Consumer @c just accepted @t: send it the whole metadata, then every
 * channel with its streams, so it reads each ring buffer from where it
 * was last released (from the start, for a trace new to consumers).
 * Undone on failure.
 */
static int send_contents(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	unsigned int nr_added = 0;
	struct ltt_cchan *ch;
	int ret = ltt_consumer_metadata_all(c, t->key, &t->meta);

	if (!ret)
		t->meta_sent = t->meta.len;	/* what a stalled one was owed too */
	cds_list_for_each_entry(ch, &t->chans, node) {
		if (ret)
			break;
		ret = t->ops->chan_add(t, ch, c);
		chan_owe(t, ch, false);
		nr_added++;	/* added in part, maybe: destroyed below all the same */
	}
	if (ret)
		undo_add(t, c, nr_added);
	return ret;
}

/* ADD_TRACE (or ADD_SNAPSHOT_TRACE) of @t in @c, into t->path. */
static int add_trace(struct ltt_ctrace *t, struct ltt_consumer *c, int64_t relay, bool resume)
{
	const struct ltt_session *session = t->session;

	if (session->snapshot)
		return ltt_consumer_add_snapshot_trace(c, t->key, t->uuid, session->uid,
						       session->gid);
	return ltt_consumer_add_trace(c, t->key, t->path, t->uuid, session->uid, session->gid,
				      (uint64_t)relay, resume);
}

/*
 * Consumer @c (generation @gen) continues @t, whose consumer died: the
 * same directory, files continued (ADD_TRACE resume), the metadata again,
 * every channel with the same streams.
 */
static int resume(struct ltt_ctrace *t, struct ltt_consumer *c, uint64_t gen)
{
	int64_t relay = 0;
	int ret;

	if (t->relayed) {
		/* A new relay session: the trace starts afresh there. */
		relay = ltt_ctrace_relay_key(t, c, gen);
		if (relay <= 0)
			return relay < 0 ? (int)relay : -EINVAL;
	}
	ret = add_trace(t, c, relay, !relay);
	if (!ret)
		ret = send_contents(t, c);
	if (ret)
		return ret;
	t->gen = gen;
	LTT_INFO("%s %s: taken over by the new consumer daemon", t->ops->noun, t->path);
	return 0;
}

/* ltt_supervisor_resume_fn: @arg is the struct ltt_ctrace. */
static int resume_fn(void *arg, struct ltt_consumer *c, uint64_t gen)
{
	return resume(arg, c, gen);
}

/*
 * Destroy in @c whatever of @t an earlier hand-over left (its channels,
 * then itself; what is not there is fine).  Returns 0 or -ETIMEDOUT
 * (still stalled).
 */
static int clear_left(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	struct ltt_cchan *ch;
	int ret;

	cds_list_for_each_entry(ch, &t->chans, node) {
		ret = ltt_consumer_destroy_channel(c, ch->key);
		if (ret == -ETIMEDOUT)
			return ret;
	}
	ret = ltt_consumer_destroy_trace(c, t->key);
	return ret == -ETIMEDOUT ? ret : 0;
}

int ltt_ctrace_add_to(struct ltt_ctrace *t, struct ltt_consumer *c, uint64_t gen)
{
	unsigned int attempt = 0;
	int64_t relay = 0;
	int ret;

	/* what an earlier try left in a consumer that stalled halfway: gone first */
	ret = t->add_tried ? clear_left(t, c) : 0;
	if (ret)
		return ret;
	t->add_tried = true;
	do {
		ret = t->ops->path(t, attempt, t->path, sizeof(t->path));
		if (ret)
			return ret;
		relay = t->session->snapshot ? 0 : ltt_ctrace_relay_key(t, c, gen);
		ret = relay < 0 ? (int)relay : add_trace(t, c, relay, false);
	} while (ret == -EEXIST && !t->session->snapshot && ++attempt < PATH_ATTEMPTS);
	/* its directory, made by the consumer's answer to ADD_TRACE: its own failure */
	t->dir_err = ret && relay == 0 && !t->session->snapshot && !ltt_consumer_call_failed(ret) &&
		     ltt_output_errno(ret) ? ret : 0;
	t->relayed = relay > 0;
	if (!ret)
		ret = send_contents(t, c);
	if (!ret) {
		t->state = LTT_CTRACE_HELD;
		t->gen = gen;
	}
	ltt_ctrace_owed_sync(t);
	return ret;
}

/*
 * @t is owed to a consumer (made while its program waited, or its
 * ADD_TRACE timed out and the late success was undone): hand it over
 * now, with what its programs wrote meanwhile.  Returns the consumer that
 * holds it, or NULL: still stalled (tried again by the next call), or it
 * refused the trace (logged: not written).
 */
static struct ltt_consumer *hand_over(struct ltt_ctrace *t)
{
	struct ltt_supervisor *sup = t->ops->supervisor(t);
	uint64_t gen = 0;
	struct ltt_consumer *c = sup ? ltt_supervisor_get(sup, &gen) : NULL;
	int ret = c ? ltt_ctrace_add_to(t, c, gen) : -EPIPE;

	if (ret && c && !ltt_consumer_alive(c)) {
		/*
		 * It died with the trace in flight, maybe after it made the
		 * directory: the next one takes the trace over there, as it
		 * does the traces the dead one had.
		 */
		LTT_WARN("session '%s': the consumer daemon died while it created %s %s: the next one takes it over",
			 t->session->name, t->ops->noun, t->path);
		t->state = LTT_CTRACE_HELD;
		t->gen = gen;
		return ltt_ctrace_consumer(t);
	}
	if (ret == -ETIMEDOUT) {
		if (!t->owed_said)
			LTT_WARN("session '%s': %s %s waits for its stalled consumer daemon: handed over once it answers, with what its programs recorded meanwhile",
				 t->session->name, t->ops->noun, t->path);
		t->owed_said = true;
		return NULL;
	}
	if (ret) {
		t->state = LTT_CTRACE_NONE;
		t->refused = true;
		LTT_ERR("session '%s': can't create %s %s: %s%s", t->session->name, t->ops->noun,
			t->path, strerror(-ret),
			ret == -EOPNOTSUPP ? " (the consumer daemon is too old for snapshots)" :
			ret == -EEXIST ? " (a trace is there under each of its names)" : "");
		return NULL;
	}
	return c;
}

/* ltt_ctrace_consumer(), but what @t owes is not synced. */
static struct ltt_consumer *consumer_of(struct ltt_ctrace *t)
{
	struct ltt_supervisor *sup;
	struct ltt_consumer *c;
	uint64_t gen;
	int ret = -ENOMEM;

	if (t->state == LTT_CTRACE_OWED)
		return hand_over(t);
	if (t->state != LTT_CTRACE_HELD)
		return NULL;
	/* a new consumer that dies too is replaced in turn, a few times */
	sup = t->ops->supervisor(t);
	c = sup ? ltt_supervisor_take_over(sup, t->gen, resume_fn, t, &gen, &ret) : NULL;
	if (c)
		return c;
	LTT_ERR("%s %s: the consumer daemon writing it died and no other could take it over (%s); it ends there",
		t->ops->noun, t->path, strerror(-ret));
	t->state = LTT_CTRACE_LOST;
	t->gen = 0;
	return NULL;
}

struct ltt_consumer *ltt_ctrace_consumer(struct ltt_ctrace *t)
{
	struct ltt_consumer *c = consumer_of(t);

	ltt_ctrace_owed_sync(t);
	return c;
}

void ltt_ctrace_consumer_died(struct ltt_ctrace *t)
{
	if (!t->session->snapshot) {
		ltt_ctrace_consumer(t);
		return;
	}
	/* a command may have had a new consumer take it over already */
	if (t->state == LTT_CTRACE_HELD && !ltt_ctrace_now(t))
		LTT_WARN("session '%s': %s %s: its consumer daemon died; it writes only snapshots, so the next command that needs it (snapshot record, stop, destroy) has a new one take it over, with what its buffers hold then",
			 t->session->name, t->ops->noun, t->path);
}

void ltt_cchan_init(struct ltt_cchan *ch, uint64_t key, struct ltt_channel *channel)
{
	CDS_INIT_LIST_HEAD(&ch->node);
	ch->key = key;
	ch->channel = channel;
	ch->stats.fd = -1;
	ch->stats.nr_slots = 0;
	ch->add_owed = false;
}

int ltt_ctrace_chan_add(struct ltt_ctrace *t, struct ltt_cchan *ch)
{
	/* a trace not handed over yet takes its channels with it */
	struct ltt_consumer *c = t->state == LTT_CTRACE_HELD ? ltt_ctrace_consumer(t) : NULL;
	int ret = c ? t->ops->chan_add(t, ch, c) : 0;

	ch->add_owed = false;
	chan_owe(t, ch, ret == -ETIMEDOUT);
	if (ch->add_owed)
		LTT_WARN("channel %s of %s %s waits for its stalled consumer daemon: added once it answers, with what was recorded meanwhile",
			 ch->channel->attr.name, t->ops->noun, t->path);
	else if (ret)
		LTT_ERR("channel %s: the consumer refused it: %s", ch->channel->attr.name,
			strerror(-ret));
	ch->refused = ret && !ch->add_owed;
	t->refused |= ch->refused;
	cds_list_add_tail(&ch->node, &t->chans);
	ltt_ctrace_owed_sync(t);
	return ch->add_owed ? 0 : ret;
}

void ltt_ctrace_chan_msg(const struct ltt_ctrace *t, const struct ltt_cchan *ch,
			 struct ltt_consumer_add_channel *ret_msg)
{
	const struct ltt_channel_conf *a = &ch->channel->attr;

	*ret_msg = (struct ltt_consumer_add_channel){
		.key = ch->key,
		.trace_key = t->key,
		.name = a->name,
		.tracefile_size = a->tracefile_size,
		.tracefile_count = a->tracefile_count,
		.overwrite = a->overwrite,
		.fsync = a->fsync,
	};
}

/* ---- metadata ---- */

bool ltt_ctrace_meta_owed(const struct ltt_ctrace *t)
{
	return t->state == LTT_CTRACE_HELD && !t->meta.err && t->meta_sent < t->meta.len;
}

/* What ltt_meta_send_rest() and ltt_meta_regenerate() keep of @t's metadata. */
static struct ltt_meta_owed owed_of(struct ltt_ctrace *t)
{
	return (struct ltt_meta_owed){
		.trace_key = t->key, .meta = &t->meta, .sent = &t->meta_sent,
		.said = &t->meta_said, .path = t->path,
	};
}

int ltt_ctrace_meta_send_owed(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	const struct ltt_meta_owed o = owed_of(t);
	int ret;

	if (!ltt_ctrace_meta_owed(t))
		return 0;
	ret = ltt_meta_send_rest(c, &o, t->ops->meta_reply_ms) ? -ETIMEDOUT : 0;
	ltt_ctrace_owed_sync(t);
	return ret;
}

int ltt_ctrace_meta_regenerate(struct ltt_ctrace *t, struct ltt_consumer *c,
			       const struct ltt_wbuf *header)
{
	const struct ltt_meta_owed o = owed_of(t);
	int ret = ltt_meta_regenerate(c, header, &o, &t->meta_header_len, t->ops->meta_reply_ms);

	ltt_ctrace_owed_sync(t);
	return ret;
}

int ltt_ctrace_meta_add(struct ltt_ctrace *t, const struct ltt_wbuf *text)
{
	bool waiting = ltt_ctrace_meta_owed(t);	/* the rest waits for a stalled consumer */
	struct ltt_consumer *c = NULL;
	int ret;

	if (text->err || !text->len)
		return 0;
	if (t->state == LTT_CTRACE_LOST)
		return -EPIPE;
	/* a consumer that died: a new one takes the trace over, its metadata too */
	if (t->state == LTT_CTRACE_HELD) {
		c = ltt_ctrace_consumer(t);
		if (!c)
			return -EPIPE;
	}
	/* kept whole: a consumer taking the trace over writes it all again */
	ltt_wbuf_put_bytes(&t->meta, text->data, text->len);
	ltt_ctrace_owed_sync(t);
	if (!t->meta.err) {
		if (c && !waiting)
			ltt_ctrace_meta_send_owed(t, c);	/* -ETIMEDOUT: the rest waits */
		return 0;	/* an OWED trace takes it with it; waiting: sent by settle */
	}
	LTT_WARN("%s %s: out of memory for a copy of its metadata", t->ops->noun, t->path);
	if (!c)
		return 0;
	/* no copy to keep: sent now or never */
	ret = ltt_consumer_metadata(c, t->key, text->data, text->len);
	if (ret)
		LTT_ERR("%s %s: metadata not written: %s", t->ops->noun, t->path, strerror(-ret));
	return ret;
}

/* ---- what a stalled consumer was owed ---- */

bool ltt_ctrace_chans_owed(const struct ltt_ctrace *t)
{
	return t->nr_chans_owed != 0;
}

/* ltt_ctrace_settle()'s channels. */
static int settle_chans(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	struct ltt_cchan *ch;
	int ret;

	cds_list_for_each_entry(ch, &t->chans, node) {
		if (!t->nr_chans_owed)
			break;
		if (!ch->add_owed)
			continue;
		ret = ltt_consumer_destroy_channel(c, ch->key);
		if (!ret || ret == -ENOENT)
			ret = t->ops->chan_add(t, ch, c);
		if (ret == -ETIMEDOUT)
			return ret;
		chan_owe(t, ch, false);
		if (ret)
			LTT_ERR("channel %s: the consumer refused it: %s", ch->channel->attr.name,
				strerror(-ret));
		ch->refused = ret != 0;
		t->refused |= ch->refused;
	}
	return 0;
}

int ltt_ctrace_settle(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	int ret = ltt_ctrace_meta_send_owed(t, c);

	if (!ret)
		ret = settle_chans(t, c);
	ltt_ctrace_owed_sync(t);
	return ret;
}

/* ---- trace chunks ---- */

/*
 * Before a move: does @t's consumer @c answer a statistics request
 * within ROTATE_PROBE_MS (what it owes read first)?  A stopped or
 * stalled one gets no move, which would hold the session (its lock, so
 * its list) for the move's whole deadline: -ETIMEDOUT, nothing sent, the
 * rotation tried again later.  Returns 0 (it answers, or no channel to
 * ask about) or -ETIMEDOUT.
 */
static int rotate_probe(struct ltt_ctrace *t, struct ltt_consumer *c)
{
	struct ltt_consumer_channel_stats st;
	struct ltt_cchan *ch;
	int ret;

	if (cds_list_empty(&t->chans))
		return 0;
	ch = cds_list_first_entry(&t->chans, struct ltt_cchan, node);
	ret = ltt_consumer_channel_status_now(c, ch->key, ROTATE_PROBE_MS, &st);
	if (ret == -EBUSY)	/* another call holds it: is that one waiting long? */
		return ltt_consumer_stalled(c, ROTATE_PROBE_MS) ? -ETIMEDOUT : 0;
	return ret == -ETIMEDOUT ? ret : 0;
}

int ltt_ctrace_rotate(struct ltt_ctrace *t, const char *new_root, bool clear)
{
	struct ltt_consumer *c = ltt_ctrace_consumer(t);
	char path[PATH_MAX];
	int ret;

	/* lost for good, it writes nowhere: it holds no chunk back */
	if (!c)
		return t->state == LTT_CTRACE_LOST && clear ? -EPIPE : 0;
	/* what it lacks goes first, or the old chunk would lack it */
	if (ltt_ctrace_settle(t, c))
		return -ETIMEDOUT;
	if (clear)
		return ltt_consumer_rotate_trace(c, t->key, "", true);
	ret = ltt_session_rebase(t->session, t->path, new_root, path, sizeof(path));
	if (!ret)
		ret = rotate_probe(t, c);
	if (!ret)
		ret = ltt_consumer_rotate_trace(c, t->key, path, false);
	/* in progress: it moves once the consumer runs (the old chunk waits) */
	if (!ret || ret == -EINPROGRESS) {
		strcpy(t->path, path);
		t->session->rotate_moved++;
	}
	return ret;
}
