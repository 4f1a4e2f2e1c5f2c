// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-buffers.c - the buffers of user-space traces: traces, channel
 * buffers, streams, and the consumer that writes them (see ust-buffers.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <urcu/compiler.h>

#include "common/log.h"
#include "common/relay-conn.h"
#include "common/ringbuf.h"
#include "sessiond/relay.h"
#include "sessiond/chunk.h"
#include "sessiond/meta-regen.h"
#include "sessiond/snap-budget.h"
#include "sessiond/ust-buffers.h"

/* What the user-space domain keeps per session: ltt_session_domain.state. */
struct ust_session {
	struct cds_list_head traces;	/* ltt_ust_trace */
	struct ltt_ust_owner *owner;	/* held: its consumer stays while we are */
	struct ltt_relay_link relay;	/* a net session's, in the consumer */
};

/* A session without state has no traces: iterate this instead. */
static struct cds_list_head no_traces = CDS_LIST_HEAD_INIT(no_traces);

void ltt_ust_buffers_init(struct ltt_ust_buffers *b, const char *consumerd_path, int verbose)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->owners_lock, NULL);
	CDS_INIT_LIST_HEAD(&b->owners);
	b->consumerd_path = consumerd_path;
	b->verbose = verbose;
	ltt_trace_host_init(&b->host);
	b->next_key = 1;
	b->nr_cpus = n > 0 ? (unsigned int)n : 1;
}

void ltt_ust_buffers_fini(struct ltt_ust_buffers *b)
{
	struct ltt_ust_owner *o, *tmp;

	cds_list_for_each_entry_safe(o, tmp, &b->owners, node) {
		ltt_supervisor_fini(&o->consumer);
		cds_list_del(&o->node);
		free(o);
	}
	pthread_mutex_destroy(&b->owners_lock);
}

void ltt_ust_buffers_set_takeover(struct ltt_ust_buffers *b,
				  void (*fn)(void *arg, const struct ltt_ust_owner *owner),
				  void *arg)
{
	pthread_mutex_lock(&b->owners_lock);
	b->takeover = fn;
	b->takeover_arg = arg;
	pthread_mutex_unlock(&b->owners_lock);
}

/* A watch thread: @arg's consumer died. */
static void owner_died(void *arg)
{
	struct ltt_ust_owner *o = arg;
	struct ltt_ust_buffers *b = o->buffers;
	void (*fn)(void *arg, const struct ltt_ust_owner *owner);
	void *fn_arg;

	pthread_mutex_lock(&b->owners_lock);
	fn = b->takeover;
	fn_arg = b->takeover_arg;
	pthread_mutex_unlock(&b->owners_lock);
	if (fn)
		fn(fn_arg, o);
}

struct ltt_ust_owner *ltt_ust_buffers_owner(struct ltt_ust_buffers *b,
					    const struct ltt_session *session)
{
	uid_t uid = (uid_t)-1;
	gid_t gid = (gid_t)-1;
	struct ltt_ust_owner *o;

	/*
	 * A root daemon: one consumer per owner (root's one for root's
	 * sessions, whatever their group); a personal daemon: its own one.
	 */
	if (geteuid() == 0) {
		uid = session->uid;
		gid = session->uid ? session->gid : 0;
	}
	pthread_mutex_lock(&b->owners_lock);
	cds_list_for_each_entry(o, &b->owners, node)
		if (o->uid == uid && o->gid == gid)
			goto out;
	o = calloc(1, sizeof(*o));
	if (!o)
		goto out;
	o->uid = uid;
	o->gid = gid;
	o->buffers = b;
	if (uid == (uid_t)-1)
		snprintf(o->what, sizeof(o->what), "user-space");
	else
		snprintf(o->what, sizeof(o->what), "user-space (uid %u)", (unsigned int)uid);
	ltt_supervisor_init(&o->consumer, o->what, b->consumerd_path, b->verbose);
	/* root's own stays root: it acts as each trace's owner on files (consumerd fs.c) */
	if (uid != (uid_t)-1 && uid != 0)
		ltt_supervisor_set_user(&o->consumer, uid, gid);
	ltt_supervisor_set_takeover(&o->consumer, owner_died, o);
	cds_list_add_tail(&o->node, &b->owners);
out:
	pthread_mutex_unlock(&b->owners_lock);
	return o;
}

void ltt_ust_buffers_owner_hold(struct ltt_ust_owner *o)
{
	pthread_mutex_lock(&o->buffers->owners_lock);
	o->users++;
	pthread_mutex_unlock(&o->buffers->owners_lock);
}

struct retire_job {
	struct ltt_supervisor_job sj;
	struct ltt_ust_owner *owner;
	uint64_t seq;
};

/* Destroying, within this, a consumer that holds nothing: it exits at once. */
#define RETIRE_WAIT_MS 10000

/* The owner's thread: its consumer exits, unless a user came meanwhile. */
static void retire_run(struct ltt_supervisor_job *sj)
{
	struct retire_job *j = caa_container_of(sj, struct retire_job, sj);
	struct ltt_ust_owner *o = j->owner;
	struct ltt_consumer *c = NULL;

	pthread_mutex_lock(&o->buffers->owners_lock);
	/* with no user, nobody spawns or holds it: the supervisor's lock is free */
	if (!o->users && o->retire_seq == j->seq)
		c = ltt_supervisor_retire(&o->consumer);
	pthread_mutex_unlock(&o->buffers->owners_lock);
	if (c) {
		LTT_INFO("the %s consumer daemon has no session left: it exits", o->what);
		ltt_consumer_destroy(c, RETIRE_WAIT_MS);
	}
	free(j);
}

static void retire_cancel(struct ltt_supervisor_job *sj)
{
	free(caa_container_of(sj, struct retire_job, sj));
}

void ltt_ust_buffers_owner_release(struct ltt_ust_owner *o)
{
	struct retire_job *j;
	uint64_t seq = 0;

	pthread_mutex_lock(&o->buffers->owners_lock);
	if (o->users && !--o->users)
		seq = ++o->retire_seq;
	pthread_mutex_unlock(&o->buffers->owners_lock);
	if (!seq || !(j = calloc(1, sizeof(*j))))
		return;	/* no memory: it stays until a next last session */
	j->sj.run = retire_run;
	j->sj.cancel = retire_cancel;
	j->owner = o;
	j->seq = seq;
	if (ltt_supervisor_post(&o->consumer, &j->sj))
		free(j);
}

/* @session's owner's consumer, spawned if there is none (ltt_supervisor_get()). */
static struct ltt_consumer *owner_get(struct ltt_ust_buffers *b, const struct ltt_session *session,
				      uint64_t *ret_gen)
{
	struct ltt_ust_owner *o = ltt_ust_buffers_owner(b, session);

	*ret_gen = 0;
	return o ? ltt_supervisor_get(&o->consumer, ret_gen) : NULL;
}

/* @session's owner's consumer if one runs (ltt_supervisor_current()). */
static struct ltt_consumer *owner_current(struct ltt_ust_buffers *b,
					  const struct ltt_session *session, uint64_t *ret_gen)
{
	struct ltt_ust_owner *o = ltt_ust_buffers_owner(b, session);

	*ret_gen = 0;
	return o ? ltt_supervisor_current(&o->consumer, ret_gen) : NULL;
}

static uint64_t new_key(struct ltt_ust_buffers *b)
{
	return __atomic_fetch_add(&b->next_key, 1, __ATOMIC_RELAXED);
}

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
static struct ltt_consumer *trace_consumer(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace)
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
 * How long a program's new event classes wait for the consumer's reply
 * (sent whole, they are written in order even if it comes late): within
 * the wait of a program's registration (3 s by default).
 */
#define META_REPLY_MS 1000

/*
 * Send @c, which holds @trace, what it lacks of the trace's metadata, in
 * order (ltt_meta_send_rest()).  Returns 0, or -EAGAIN: some waits for
 * ltt_ust_buffers_settle().
 */
static int send_meta_rest(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	const struct ltt_meta_owed o = {
		.trace_key = trace->key, .meta = &trace->meta, .sent = &trace->meta_sent,
		.said = &trace->meta_said, .path = trace->path,
	};

	return ltt_meta_send_rest(c, &o, META_REPLY_MS);
}

/* Does @trace's consumer lack some of its metadata (a stalled one)? */
static bool meta_owed(const struct ltt_ust_trace *trace)
{
	return trace->consumer_gen && !trace->meta.err && trace->meta_sent < trace->meta.len;
}

void ltt_ust_buffers_metadata(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			      const struct ltt_wbuf *text)
{
	uint64_t gen = trace->consumer_gen;
	bool waiting = meta_owed(trace);	/* the rest waits for a stalled consumer */
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
	c = trace_consumer(b, trace);
	/* just taken over: the new consumer was sent all of it, this text too */
	if (!c || trace->consumer_gen != gen)
		return;
	if (!trace->meta.err) {
		send_meta_rest(trace, c);
		return;
	}
	ret = ltt_consumer_metadata(c, trace->key, text->data, text->len);
	if (ret)
		LTT_ERR("trace %s: metadata not written: %s", trace->path, strerror(-ret));
}

/* What @chan's buffers hold in all. */
static uint64_t chan_bytes(const struct ltt_ust_chan *chan)
{
	const struct ltt_channel_conf *a = &chan->channel->attr;
	uint64_t n;

	if (__builtin_mul_overflow(a->subbuf_size, a->num_subbuf, &n) ||
	    __builtin_mul_overflow(n, (uint64_t)chan->nr_streams, &n))
		return UINT64_MAX;
	return n;
}

/* Saturating sum. */
static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = v > UINT64_MAX - *sum ? UINT64_MAX : *sum + v;
}

/*
 * What @chan's streams lost so far, from shared memory only: the events
 * writers dropped (each ring buffer's count) and what the consumers
 * counted in the statistics page, with the output's failure there: the
 * error of a stream that has one (the earliest), the sums of what failures
 * made lose.  Never asks the consumer.  Any value is possible (programs
 * can write the ring buffers): informative.
 */
static void chan_stats(const struct ltt_ust_chan *chan, struct ltt_consumer_channel_stats *ret)
{
	struct ltt_consumer_channel_stats sum = { 0 };
	struct ltt_consumer_stream_stats st;
	unsigned int i;
	uint64_t v;

	for (i = 0; i < chan->nr_streams; i++) {
		v = 0;
		if (pread(chan->fds[2 * i], &v, sizeof(v),
			  offsetof(struct ltt_rb_shm, events_lost)) == (ssize_t)sizeof(v))
			add_sat(&sum.events_lost, v);
		if (chan->stats_fd < 0 ||
		    pread(chan->stats_fd, &st, sizeof(st),
			  (off_t)i * LTT_CONSUMER_STATS_SLOT) != (ssize_t)sizeof(st))
			continue;
		add_sat(&sum.events_lost, st.events_lost);
		add_sat(&sum.packets_lost, st.packets_lost);
		add_sat(&sum.bytes_written, st.bytes_written);
		add_sat(&sum.error_events, st.error_events);
		add_sat(&sum.error_packets, st.error_packets);
		/* an -errno, or a program's scribble: not shown as an error */
		if (st.error >= 0 || st.error < -4095)
			continue;
		/* what the writers dropped since it failed, the consumer stopped */
		if (v > st.error_rb_base)
			add_sat(&sum.error_events, v - st.error_rb_base);
		if (!sum.error || st.error_since < sum.error_since) {
			sum.error = (int32_t)st.error;
			sum.error_since = st.error_since;
		}
	}
	*ret = sum;
}

static void trace_free_chan(struct ltt_ust_chan *chan)
{
	unsigned int i;

	ltt_ust_meta_classes_fini(&chan->classes);
	if (chan->stats_fd >= 0)
		close(chan->stats_fd);
	for (i = 0; chan->fds && i < 2 * chan->nr_streams; i++)
		if (chan->fds[i] >= 0)
			close(chan->fds[i]);
	free(chan->fds);
	free(chan);
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
		c = trace_consumer(b, trace);
		died = false;
		ret = !c && trace->add_owed ? -ETIMEDOUT : 0;
		cds_list_for_each_entry(chan, &trace->chans, node) {
			if (!c)
				break;
			ret = ltt_consumer_flush_channel_sized(c, chan->key, true, chan_bytes(chan));
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

static void trace_end(struct ltt_ust_trace *trace, struct ltt_consumer *c);

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
	trace_end(trace, c);
	return 0;
}

/*
 * @trace's end, once @c (NULL: none) wrote what it holds: its losses
 * kept in the session's channels, its channels and itself destroyed in
 * @c, then freed.
 */
static void trace_end(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_ust_chan *chan, *tmp;
	struct ltt_consumer_channel_stats st;

	cds_list_for_each_entry_safe(chan, tmp, &trace->chans, node) {
		/* a consumer before 1.5 keeps no page: ask it */
		if (c && ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_OUTPUT_ERRORS) {
			if (ltt_consumer_channel_status(c, chan->key, &st))
				st = (struct ltt_consumer_channel_stats){ 0 };
		} else {
			chan_stats(chan, &st);
		}
		chan->channel->discarded_events += st.events_lost;
		chan->channel->lost_packets += st.packets_lost;
		chan->channel->error_events += st.error_events;
		chan->channel->error_packets += st.error_packets;
		if (c && ltt_consumer_destroy_channel(c, chan->key))
			LTT_WARN("trace %s: channel %s not closed cleanly", trace->path,
				 chan->channel->attr.name);
		cds_list_del(&chan->node);
		trace_free_chan(chan);
	}
	if (c)
		ltt_consumer_destroy_trace(c, trace->key);
	cds_list_del(&trace->node);
	ltt_wbuf_fini(&trace->meta);
	free(trace);
}

/*
 * The directory of the trace @app writes to in @session; the @attempt-th
 * retry (the directory held a trace: the same process after an exec in
 * the same second, or an output directory used again) gets "-N".
 */
static int trace_path(const struct ltt_ust_trace *trace, unsigned int attempt, char *buf,
		      size_t len)
{
	const struct ltt_session *session = trace->session;
	char date[32], suffix[16] = "";
	struct tm tm;
	int n;

	/* A relay's traces are named relative to its session's directory. */
	const char *base = session->chunk_dir;
	const char *sep = *base ? "/" : "";

	if (attempt)
		snprintf(suffix, sizeof(suffix), "-%u", attempt);
	if (trace->per_pid) {
		if (!localtime_r(&trace->registered_at, &tm) ||
		    !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
			return -EINVAL;
		n = snprintf(buf, len, "%s%sust/pid/%s-%ld-%s%s", base, sep, trace->procname,
			     (long)trace->pid, date, suffix);
	} else {
		n = snprintf(buf, len, "%s%sust/uid/%u/%u-bit%s", base, sep,
			     (unsigned int)trace->uid, trace->bits_per_long, suffix);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Trace directories tried before giving up on a trace. */
#define TRACE_PATH_ATTEMPTS 100

/* @session's user-space state, or NULL when it has none.  Session lock held. */
static struct ust_session *ust_state(struct ltt_session *session)
{
	return ltt_session_domain(session, LTT_DOMAIN_USER)->state;
}

/*
 * @session's user-space state, made first (a user of its owner's consumer,
 * until ltt_ust_buffers_destroy()); NULL when out of memory.  Session lock
 * held.
 */
static struct ust_session *state_create(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ust_session *us = dom->state;
	struct ltt_ust_owner *o;

	if (us)
		return us;
	o = ltt_ust_buffers_owner(b, session);
	us = o ? calloc(1, sizeof(*us)) : NULL;
	if (!us)
		return NULL;
	CDS_INIT_LIST_HEAD(&us->traces);
	us->owner = o;
	ltt_ust_buffers_owner_hold(o);
	dom->state = us;
	return us;
}

struct ltt_ust_trace *ltt_ust_buffers_find_trace(struct ltt_session *session,
						const struct ltt_app *app, bool per_pid)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace;

	if (!us)
		return NULL;
	cds_list_for_each_entry(trace, &us->traces, node) {
		/* a closing one's program is gone (its pid may be another's now) */
		if (trace->per_pid != per_pid || trace->closing)
			continue;
		if (per_pid ? trace->pid == app->pid :
			      trace->uid == app->uid && trace->bits_per_long == app->bits_per_long)
			return trace;
	}
	return NULL;
}

bool ltt_ust_buffers_writes_in(struct ltt_session *session, const char *dir)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace;
	size_t n = strlen(dir);

	if (!us)
		return false;
	cds_list_for_each_entry(trace, &us->traces, node)
		if (!strncmp(trace->path, dir, n) && (!trace->path[n] || trace->path[n] == '/'))
			return true;
	return false;
}

/*
 * The relay key @session's traces go to in consumer @c (generation @gen):
 * the relay is attached on first need.  0 for a local session; -errno when
 * the consumer could not reach the relay (not tried again: said once).
 */
static int64_t relay_key(struct ltt_ust_buffers *b, struct ltt_session *session,
			 struct ust_session *us, struct ltt_consumer *c, uint64_t gen)
{
	struct ltt_relay_link *link = &us->relay;
	int ret;

	if (session->output_type != LTT_OUTPUT_NET)
		return 0;
	if (link->key && link->consumer_gen == gen)
		return (int64_t)link->key;
	if (link->key) {
		/*
		 * Its consumer died, and the relay session with its connection:
		 * the new consumer streams to a new relay session, in a
		 * directory of its own (the relay never writes over a trace).
		 */
		link->key = 0;
		link->error = 0;
		link->restarts++;
		LTT_WARN("session '%s': its consumer died; streaming goes on in a new relay session (directory suffix -%u); what the dead one had not sent is lost",
			 session->name, link->restarts);
	}
	if (link->error)
		return link->error;
	ret = ltt_relay_attach(link, c, gen, new_key(b), session);
	return ret ? ret : (int64_t)link->key;
}

struct ltt_ust_trace *ltt_ust_buffers_trace(struct ltt_ust_buffers *b, struct ltt_session *session,
					    const struct ltt_app *app)
{
	bool per_pid = ltt_session_domain(session, LTT_DOMAIN_USER)->buffer_type ==
		       LTT_BUFFER_PER_PID;
	struct ltt_ust_trace *trace = ltt_ust_buffers_find_trace(session, app, per_pid);
	struct ust_session *us = state_create(b, session);
	struct ltt_wbuf text;

	if (trace || !us)
		return trace;
	trace = calloc(1, sizeof(*trace));
	if (!trace)
		return NULL;
	trace->key = new_key(b);
	trace->per_pid = per_pid;
	trace->uid = app->uid;
	trace->bits_per_long = app->bits_per_long;
	trace->pid = app->pid;
	trace->registered_at = app->registered_at;
	strcpy(trace->procname, app->procname);
	trace->session = session;
	ltt_wbuf_init(&trace->meta);
	uuid_generate(trace->uuid);
	CDS_INIT_LIST_HEAD(&trace->chans);
	/* its consumer is told after its program is: ltt_ust_buffers_settle() */
	trace->add_owed = session->snapshot || session->output_type != LTT_OUTPUT_NONE;
	if (trace_path(trace, 0, trace->path, sizeof(trace->path)))
		strcpy(trace->path, "(no name)");	/* said by hand_over() */
	cds_list_add_tail(&trace->node, &us->traces);
	ltt_wbuf_init(&text);
	if (ltt_ust_meta_header(&text, &b->host, session, app, per_pid, trace->uuid)) {
		LTT_ERR("trace %s: can't generate its metadata", trace->path);
	} else {
		trace->meta_header_len = text.len;
		ltt_ust_buffers_metadata(b, trace, &text);
	}
	ltt_wbuf_fini(&text);
	return trace;
}

/* Create one stream: sealed shared memory holding an initialised ring buffer. */
static int create_stream(const struct ltt_channel *channel, const struct ltt_ust_trace *trace,
			 unsigned int cpu, int *ret_shm, int *ret_wakeup)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = channel->attr.subbuf_size,
		.num_subbuf = channel->attr.num_subbuf,
		.overwrite = channel->attr.overwrite,
		.stream_id = channel->stream_id,
		.cpu = cpu,
		.event_ctx_len = (uint32_t)ltt_ctx_len(channel->contexts, channel->nr_contexts),
	};
	size_t len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
	int fd, wfd, ret;
	void *mem;

	memcpy(cfg.uuid, trace->uuid, sizeof(cfg.uuid));
	if (!len)
		return -EINVAL;
	fd = memfd_create("ltt-ust-stream", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)len)) {
		ret = -errno;
		goto err;
	}
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		ret = -errno;
		goto err;
	}
	ret = ltt_rb_init_region(mem, len, &cfg);
	munmap(mem, len);
	if (ret)
		goto err;
	/* Nobody may resize it under the others' mappings (SIGBUS). */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		ret = -errno;
		goto err;
	}
	wfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wfd < 0) {
		ret = -errno;
		goto err;
	}
	*ret_shm = fd;
	*ret_wakeup = wfd;
	return 0;
err:
	close(fd);
	return ret;
}

struct ltt_ust_chan *ltt_ust_buffers_find_chan(const struct ltt_ust_trace *trace,
					       const struct ltt_channel *channel)
{
	struct ltt_ust_chan *chan;

	cds_list_for_each_entry(chan, &trace->chans, node)
		if (chan->channel == channel)
			return chan;
	return NULL;
}

static int chan_to_consumer(struct ltt_ust_trace *trace, struct ltt_ust_chan *chan,
			    struct ltt_consumer *c)
{
	const struct ltt_channel_conf *a = &chan->channel->attr;
	struct ltt_consumer_add_channel cc = {
		.key = chan->key,
		.trace_key = trace->key,
		.name = a->name,
		.tracefile_size = a->tracefile_size,
		.tracefile_count = a->tracefile_count,
		.switch_timer_us = a->switch_timer_us,
		.read_timer_us = a->read_timer_us,
		.overwrite = a->overwrite,
	};
	unsigned int i;
	int ret, err;

	ret = ltt_consumer_add_channel(c, &cc);
	if (ret)
		return ret;
	for (i = 0; !ret && i < chan->nr_streams; i++) {
		int shm = chan->fds[2 * i], wakeup = chan->fds[2 * i + 1];

		if (chan->stats_fd >= 0 && ltt_consumer_minor(c) >= LTT_CONSUMER_MINOR_OUTPUT_ERRORS)
			ret = ltt_consumer_add_stream_stats(c, chan->key, i, shm, wakeup,
							    chan->stats_fd);
		else
			ret = ltt_consumer_add_stream(c, chan->key, i, shm, wakeup);
	}
	/* even after a failure: the streams added are announced, not held back */
	err = ltt_consumer_streams_sent(c, chan->key);
	return ret ? ret : err;
}

/* The page where consumers keep the streams' counters (consumer-proto.h). */
static int create_stats_page(unsigned int nr_streams, int *ret_fd)
{
	int fd = memfd_create("ltt-ust-stats", MFD_CLOEXEC | MFD_ALLOW_SEALING), ret;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)LTT_CONSUMER_STATS_SIZE(nr_streams)) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	return 0;
}

struct ltt_ust_chan *ltt_ust_buffers_chan(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
					  struct ltt_channel *channel)
{
	struct ltt_ust_chan *chan = ltt_ust_buffers_find_chan(trace, channel);
	struct ltt_consumer *c;
	unsigned int i;
	int ret = 0;

	if (chan)
		return chan;
	chan = calloc(1, sizeof(*chan));
	if (!chan)
		return NULL;
	chan->key = new_key(b);
	chan->channel = channel;
	chan->nr_streams = b->nr_cpus;
	chan->stats_fd = -1;
	ltt_ust_meta_classes_init(&chan->classes);
	chan->fds = malloc(2 * chan->nr_streams * sizeof(int));
	if (!chan->fds) {
		free(chan);
		return NULL;
	}
	for (i = 0; i < 2 * chan->nr_streams; i++)
		chan->fds[i] = -1;
	for (i = 0; !ret && i < chan->nr_streams; i++)
		ret = create_stream(channel, trace, i, &chan->fds[2 * i], &chan->fds[2 * i + 1]);
	if (!ret)
		ret = create_stats_page(chan->nr_streams, &chan->stats_fd);
	if (ret) {
		LTT_ERR("channel %s: can't create its buffers: %s", channel->attr.name, strerror(-ret));
		trace_free_chan(chan);
		return NULL;
	}
	/* a trace not handed over yet takes its channels with it */
	c = trace->add_owed ? NULL : trace_consumer(b, trace);
	if (c) {
		ret = chan_to_consumer(trace, chan, c);
		if (ret)
			LTT_ERR("channel %s: the consumer refused it: %s", channel->attr.name,
				strerror(-ret));
	}
	cds_list_add_tail(&chan->node, &trace->chans);
	return chan;
}

void ltt_ust_buffers_flush_prepare(struct ltt_ust_buffers *b, struct ltt_session *session,
				   struct ltt_ust_flush *ret_flush)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_flush f = { 0 };
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	struct ltt_ust_chan *chan;
	uint64_t *grown;

	cds_list_for_each_entry(trace, us ? &us->traces : &no_traces, node) {
		c = trace_consumer(b, trace);
		/* metadata a stalled consumer lacks: the trace would not read whole */
		if (c && meta_owed(trace) && send_meta_rest(trace, c) == -EAGAIN)
			f.owed = true;
		if (!c) {
			/* not handed over yet: the stop would leave its events unwritten */
			f.owed |= trace->add_owed;
			/* said by the first stop after the loss; counted in list */
			f.lost |= trace->lost_consumer && !trace->lost_said;
			if (trace->lost_consumer)
				trace->lost_said = true;
			continue;
		}
		f.gen = trace->consumer_gen;
		cds_list_for_each_entry(chan, &trace->chans, node) {
			grown = realloc(f.keys, (f.nr + 1) * sizeof(*f.keys));
			if (grown)
				f.keys = grown;
			grown = grown ? realloc(f.bytes, (f.nr + 1) * sizeof(*f.bytes)) : NULL;
			if (!grown)
				break;
			f.bytes = grown;
			f.bytes[f.nr] = chan_bytes(chan);
			f.keys[f.nr++] = chan->key;
		}
	}
	/* the consumer stays while the flush is under way without the lock */
	if (f.nr && us) {
		f.owner = us->owner;
		ltt_ust_buffers_owner_hold(f.owner);
	}
	*ret_flush = f;
}

int ltt_ust_buffers_flush(struct ltt_ust_buffers *b, const struct ltt_session *session,
			  struct ltt_ust_flush *flush)
{
	struct ltt_consumer *c;
	uint64_t now = 0;
	int ret = 0, err;
	size_t i;

	c = flush->nr ? owner_get(b, session, &now) : NULL;
	if (c && now != flush->gen)
		ret = -ESTALE;	/* a new consumer: it takes the traces over first */
	for (i = 0; c && !ret && i < flush->nr; i++) {
		err = ltt_consumer_flush_channel_sized(c, flush->keys[i], false, flush->bytes[i]);
		/* -ENOENT: its program left meanwhile, and its trace was closed, flushed. */
		if (err == -EPIPE)
			ret = -ESTALE;	/* it died meanwhile: again, with the next one */
		else if (err == -ETIMEDOUT)
			ret = err;	/* stalled: the other channels would wait as long */
		else if (err && err != -ENOENT) {
			LTT_ERR("session '%s': the consumer failed to write a channel", session->name);
			ret = -EIO;
		}
	}
	if (!ret && flush->owed) {
		LTT_ERR("session '%s': a trace waits for its stalled consumer daemon: not written yet",
			session->name);
		ret = -ETIMEDOUT;
	}
	if (!ret && flush->lost) {
		LTT_ERR("session '%s': a consumer daemon died while it held some of its traces and none could take them over; they end there",
			session->name);
		ret = -EPIPE;
	}
	free(flush->keys);
	free(flush->bytes);
	flush->keys = flush->bytes = NULL;
	flush->nr = 0;
	if (flush->owner)
		ltt_ust_buffers_owner_release(flush->owner);
	flush->owner = NULL;
	return ret;
}

void ltt_ust_buffers_takeover(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace;

	cds_list_for_each_entry(trace, us ? &us->traces : &no_traces, node)
		trace_consumer(b, trace);
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
	int ret = ltt_meta_resend(c, trace->key, &trace->meta);

	if (!ret)
		trace->meta_sent = trace->meta.len;
	cds_list_for_each_entry(chan, &trace->chans, node) {
		if (ret)
			break;
		ret = chan_to_consumer(trace, chan, c);
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
		relay = relay_key(b, trace->session, ust_state(trace->session), c, gen);
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
static int trace_add(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
		     struct ltt_consumer *c, uint64_t gen)
{
	struct ltt_session *session = trace->session;
	unsigned int attempt = 0;
	int64_t relay = 0;
	int ret;

	do {
		ret = trace_path(trace, attempt, trace->path, sizeof(trace->path));
		if (ret)
			return ret;
		if (session->snapshot) {
			ret = ltt_consumer_add_snapshot_trace(c, trace->key, trace->uuid,
							      session->uid, session->gid);
			break;
		}
		relay = relay_key(b, session, ust_state(session), c, gen);
		ret = relay < 0 ? (int)relay :
				  ltt_consumer_add_trace(c, trace->key, trace->path, trace->uuid,
							 session->uid, session->gid,
							 (uint64_t)relay, false);
	} while (ret == -EEXIST && ++attempt < TRACE_PATH_ATTEMPTS);
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
		ret = ltt_consumer_flush_channel_sized(c, chan->key, false, chan_bytes(chan));
		if (ret)
			break;
	}
	return ret;
}

static struct ltt_consumer *hand_over(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace)
{
	const struct ltt_session *session = trace->session;
	uint64_t gen = 0;
	struct ltt_consumer *c = owner_get(b, session, &gen);
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
		return trace_consumer(b, trace);
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

void ltt_ust_buffers_settle(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace, *tmp;

	struct ltt_consumer *c;
	int ret = 0;

	cds_list_for_each_entry_safe(trace, tmp, us ? &us->traces : &no_traces, node) {
		if (trace->closing) {
			ret = ltt_ust_buffers_close_trace(b, trace);
		} else if (trace->add_owed) {
			c = trace_consumer(b, trace);
			ret = !c && trace->add_owed ? -ETIMEDOUT : 0;
			/* a session stopped meanwhile: written whole, as its stop would */
			if (c && !session->active)
				ret = flush_trace(trace, c);
		} else if (meta_owed(trace)) {
			c = trace_consumer(b, trace);
			ret = c && send_meta_rest(trace, c) == -EAGAIN ? -ETIMEDOUT : 0;
		}
		if (ret == -ETIMEDOUT)
			break;	/* stalled: the others would wait as long */
	}
}

bool ltt_ust_buffers_owed(struct ltt_session *session)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace;

	cds_list_for_each_entry(trace, us ? &us->traces : &no_traces, node)
		if (trace->add_owed || trace->closing || meta_owed(trace))
			return true;
	return false;
}

void ltt_ust_buffers_destroy(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace, *tmp;
	struct ltt_consumer *c;
	uint64_t gen;

	if (!us)
		return;

	cds_list_for_each_entry_safe(trace, tmp, &us->traces, node) {
		if (!ltt_ust_buffers_close_trace(b, trace))
			continue;
		/* destroy waits for no consumer: what this one holds unread ends here */
		LTT_ERR("session '%s': trace %s destroyed while its consumer daemon is stalled: what it had not written is lost",
			session->name, trace->path);
		trace_end(trace, NULL);
	}
	if (us->relay.key) {
		c = owner_current(b, session, &gen);
		/* its traces closed, a session that rotated has its last chunks archived */
		if (c && gen == us->relay.consumer_gen)
			ltt_chunk_relay_last(session, LTT_DOMAIN_IDX_USER, &us->relay, c, gen);
		ltt_relay_detach(&us->relay, c, gen);
	}
	ltt_session_domain(session, LTT_DOMAIN_USER)->state = NULL;
	/* its owner's last session: the consumer holds nothing, it exits */
	ltt_ust_buffers_owner_release(us->owner);
	free(us);
}

void ltt_ust_buffers_stats(struct ltt_ust_buffers *b, struct ltt_session *session,
			   const struct ltt_channel *channel, uint64_t *ret_events_lost,
			   uint64_t *ret_packets_lost)
{
	struct ust_session *us = ust_state(session);
	/* What closed traces lost, then what the open ones have lost so far. */
	uint64_t events = channel->discarded_events, packets = channel->lost_packets;
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;

	(void)b;
	cds_list_for_each_entry(trace, us ? &us->traces : &no_traces, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		if (!chan)
			continue;
		chan_stats(chan, &st);
		add_sat(&events, st.events_lost);
		add_sat(&packets, st.packets_lost);
	}
	*ret_events_lost = events;
	*ret_packets_lost = packets;
}

void ltt_ust_buffers_failure(struct ltt_ust_buffers *b, struct ltt_session *session,
			     const struct ltt_channel *channel, struct ltt_domain_failure *ret)
{
	struct ust_session *us = ust_state(session);
	struct ltt_domain_failure f = {
		.events = channel->error_events, .packets = channel->error_packets,
	};
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;

	/* from the statistics pages: never waits on the consumer (list) */
	(void)b;
	cds_list_for_each_entry(trace, us ? &us->traces : &no_traces, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		if (!chan)
			continue;
		chan_stats(chan, &st);
		f.events += st.error_events;
		f.packets += st.error_packets;
		if (st.error && (!f.error || st.error_since < f.since)) {
			f.error = st.error;
			f.since = st.error_since;
		}
	}
	*ret = f;
}

/*
 * Before a local session starts: the consumer can write under its
 * directory (created if missing), and the traces it has kept from a
 * former start write again (a flush retries a failed output).  Returns 0
 * or the output's -errno.
 */
static int check_output(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ust_session *us;
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_consumer *c;
	uint64_t gen;
	int ret;

	/* the state first: its owner's consumer is held from here on */
	if (!state_create(b, session))
		return -ENOMEM;
	us = ust_state(session);
	/* no consumer: logged by the supervisor; the programs' traces say it */
	c = owner_get(b, session, &gen);
	if (!c)
		return 0;
	ret = ltt_consumer_probe_output(c, session->output, session->uid, session->gid);
	if (ltt_consumer_call_failed(ret))
		return ret;	/* the consumer's failure (stalled, gone), not the output's */
	if (ret && ret != -EOPNOTSUPP) {
		LTT_WARN("session '%s': can't write a trace under %s: %s", session->name,
			 session->output, strerror(-ret));
		session->output_err = ret;
		return ret;
	}
	cds_list_for_each_entry(trace, us ? &us->traces : &no_traces, node) {
		cds_list_for_each_entry(chan, &trace->chans, node) {
			c = trace_consumer(b, trace);
			if (!c || ltt_consumer_flush_channel(c, chan->key, false) ||
			    ltt_consumer_channel_status(c, chan->key, &st) || !st.error)
				continue;
			LTT_WARN("session '%s': trace %s still can't be written: %s", session->name,
				 trace->path, strerror(-st.error));
			session->output_err = st.error;
			return st.error;
		}
	}
	return 0;
}

int ltt_ust_buffers_prepare(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ust_session *us;
	struct ltt_consumer *c;
	int64_t key;
	uint64_t gen;

	if (session->output_type == LTT_OUTPUT_LOCAL)
		return check_output(b, session);
	/* a snapshot session reaches its relay at each snapshot only */
	if (session->output_type != LTT_OUTPUT_NET || session->snapshot)
		return 0;
	us = state_create(b, session);
	if (!us)
		return -ENOMEM;
	c = owner_get(b, session, &gen);
	if (!c)
		return -EPIPE;
	/* A start tries again what a former start could not reach. */
	if (!us->relay.key)
		us->relay.error = 0;
	key = relay_key(b, session, us, c, gen);
	return key < 0 ? (int)key : 0;
}

int ltt_ust_buffers_relay_pending(struct ltt_ust_buffers *b, struct ltt_session *session,
				  bool *ret_pending)
{
	struct ust_session *us = ust_state(session);
	struct ltt_consumer *c;
	uint64_t gen;

	*ret_pending = false;
	if (!us || session->output_type != LTT_OUTPUT_NET)
		return 0;
	c = owner_current(b, session, &gen);
	return ltt_relay_pending(&us->relay, c, gen, ret_pending);
}

int ltt_ust_buffers_relay_archive(struct ltt_ust_buffers *b, struct ltt_session *session,
				  const char *from, const char *to, char *ret_dir, size_t len)
{
	struct ust_session *us = ust_state(session);
	struct ltt_consumer *c;
	uint64_t gen;

	if (!us || !us->relay.key)
		return 0;	/* nothing was ever sent: nothing to archive */
	c = owner_current(b, session, &gen);
	return ltt_relay_archive(&us->relay, c, gen, from, to, ret_dir, len);
}

int ltt_ust_buffers_relay_status(struct ltt_ust_buffers *b, struct ltt_session *session,
				 struct ltt_relay_desc *ret)
{
	struct ust_session *us = ust_state(session);
	struct ltt_consumer *c;
	uint64_t gen;

	if (!us || session->output_type != LTT_OUTPUT_NET ||
	    (!us->relay.key && !us->relay.error))
		return -ENOENT;
	c = owner_current(b, session, &gen);
	ltt_relay_status(&us->relay, c, gen, ret);
	return 0;
}

/* Packets per stream that @max_size bytes hold (snap-budget.h). */
static int64_t packets_per_stream(struct ust_session *us, uint64_t max_size)
{
	const struct ltt_ust_trace *trace;
	const struct ltt_ust_chan *chan;
	struct ltt_snap_chan *v;
	size_t n = 0;
	int64_t ret;

	cds_list_for_each_entry(trace, &us->traces, node)
		cds_list_for_each_entry(chan, &trace->chans, node)
			n++;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		cds_list_for_each_entry(chan, &trace->chans, node) {
			v[n].subbuf_size = chan->channel->attr.subbuf_size;
			v[n].num_subbuf = chan->channel->attr.num_subbuf;
			v[n++].nr_streams = chan->nr_streams;
		}
	}
	ret = ltt_snap_packets_per_stream(v, n, max_size);
	free(v);
	return ret;
}

/* One trace's snapshot: in @dir, or to @net's relay. */
static int snapshot_trace(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			  struct ltt_consumer *c, const char *dir, struct ltt_relay_snap *net,
			  uint64_t n, struct ltt_consumer_snapshot_reply *rep)
{
	struct ltt_ust_chan *chan;
	char path[PATH_MAX];
	uint64_t bytes = 0, relay;
	int err;

	cds_list_for_each_entry(chan, &trace->chans, node)
		add_sat(&bytes, chan_bytes(chan));
	if (net) {
		err = ltt_relay_snap_key(net, c, trace->consumer_gen, new_key(b), &relay);
		return err ? err : ltt_consumer_snapshot_trace_relay(c, trace->key, relay,
								     trace->path, n, bytes, rep);
	}
	if (snprintf(path, sizeof(path), "%s/%s", dir, trace->path) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return ltt_consumer_snapshot_trace(c, trace->key, path, n, bytes, rep);
}

int ltt_ust_buffers_snapshot(struct ltt_ust_buffers *b, struct ltt_session *session,
			     const char *dir, struct ltt_relay_snap *net, uint64_t max_size,
			     struct ltt_consumer_snapshot_reply *ret)
{
	struct ust_session *us = ust_state(session);
	struct ltt_consumer_snapshot_reply sum = { 0 }, rep;
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	int64_t n;
	int err = 0;

	*ret = sum;
	if (!us)
		return 0;
	n = packets_per_stream(us, max_size);
	if (n < 0)
		return (int)n;
	cds_list_for_each_entry(trace, &us->traces, node) {
		c = trace_consumer(b, trace);
		if (!c) {
			LTT_WARN("session '%s': trace %s has no consumer daemon: not in the snapshot",
				 session->name, trace->path);
			continue;
		}
		err = snapshot_trace(b, trace, c, dir, net, (uint64_t)n, &rep);
		if (err) {
			LTT_WARN("session '%s': snapshot of trace %s failed: %s", session->name,
				 trace->path, strerror(-err));
			break;
		}
		add_sat(&sum.packets, rep.packets);
		add_sat(&sum.bytes, rep.bytes);
		add_sat(&sum.packets_dropped, rep.packets_dropped);
		*ret = sum;
	}
	return err;
}

/* How long a rotation waits for a consumer's answer before it sends the move. */
#define ROTATE_PROBE_MS 500

/*
 * Before a move: does @trace's consumer @c answer a statistics request
 * within ROTATE_PROBE_MS (what it owes read first)?  A stopped or
 * stalled one gets no move, which would hold the session (its lock, so
 * its list) for the move's whole deadline: -ETIMEDOUT, nothing sent, the
 * rotation tried again later.  Returns 0 (it answers, or no channel to
 * ask about) or -ETIMEDOUT.  Session lock held.
 */
static int rotate_probe(struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_chan *chan;
	int ret;

	if (cds_list_empty(&trace->chans))
		return 0;
	chan = cds_list_first_entry(&trace->chans, struct ltt_ust_chan, node);
	ret = ltt_consumer_channel_status_now(c, chan->key, ROTATE_PROBE_MS, &st);
	if (ret == -EBUSY)	/* another call holds it: is that one waiting long? */
		return ltt_consumer_stalled(c, ROTATE_PROBE_MS) ? -ETIMEDOUT : 0;
	return ret == -ETIMEDOUT ? ret : 0;
}

int ltt_ust_buffers_rotate(struct ltt_ust_buffers *b, struct ltt_session *session,
			   const char *old_root, const char *new_root, bool clear)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	char path[PATH_MAX];
	int ret, first = 0;

	if (!us)
		return 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		c = trace_consumer(b, trace);
		if (!c) {
			/* lost for good, it writes nowhere: it holds no chunk back */
			ret = (trace->lost_consumer && clear) ||
			      (!trace->lost_consumer && trace->consumer_gen) ? -EPIPE : 0;
		} else if (clear) {
			ret = ltt_consumer_rotate_trace(c, trace->key, "", true);
		} else {
			ret = ltt_chunk_rebase(session, trace->path, new_root, path, sizeof(path));
			if (!ret)
				ret = rotate_probe(trace, c);
			if (!ret)
				ret = ltt_consumer_rotate_trace(c, trace->key, path, false);
			/* in progress: it moves once the consumer runs (the old chunk waits) */
			if (!ret || ret == -EINPROGRESS) {
				strcpy(trace->path, path);
				session->rotate_moved++;
			}
		}
		if (ret == -EINPROGRESS) {
			LTT_ERR("session '%s': the consumer did not answer in time: trace %s moves there once it runs again",
				session->name, trace->path);
			first = first ? first : ret;
		} else if (ret) {
			LTT_ERR("session '%s': trace %s can't %s: %s", session->name, trace->path,
				clear ? "be cleared" : "move to a new chunk", strerror(-ret));
			first = first && first != -EINPROGRESS ? first : ret;	/* the worse */
		}
	}
	return first;
}

uint64_t ltt_ust_buffers_written(struct ltt_session *session)
{
	struct ust_session *us = ust_state(session);
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	uint64_t sum = 0;

	if (!us)
		return 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		cds_list_for_each_entry(chan, &trace->chans, node) {
			chan_stats(chan, &st);
			add_sat(&sum, st.bytes_written);
		}
	}
	return sum;
}

/* @trace's metadata again: a new header (clock offset now), the same events. */
static int regenerate_trace(struct ltt_ust_buffers *b, struct ltt_session *session,
			    struct ltt_ust_trace *trace, struct ltt_consumer *c)
{
	struct ltt_app app = { 0 };
	struct ltt_wbuf header;
	int ret;

	app.pid = trace->pid;
	app.uid = trace->uid;
	app.bits_per_long = trace->bits_per_long;
	strcpy(app.procname, trace->procname);
	ltt_wbuf_init(&header);
	ret = ltt_ust_meta_header(&header, &b->host, session, &app, trace->per_pid, trace->uuid);
	if (!ret)
		ret = ltt_meta_regenerate(c, trace->key, &header, &trace->meta,
					  &trace->meta_header_len);
	if (!ret)
		trace->meta_sent = trace->meta.len;
	ltt_wbuf_fini(&header);
	return ret;
}

int ltt_ust_buffers_regenerate_metadata(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ust_session *us = ust_state(session);
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	int ret, first = 0;

	if (!us)
		return 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		c = trace_consumer(b, trace);
		if (!c)
			continue;
		ret = regenerate_trace(b, session, trace, c);
		if (ret) {
			LTT_ERR("session '%s': trace %s: metadata not regenerated: %s", session->name,
				trace->path, strerror(-ret));
			first = first ? first : ret;
		}
	}
	return first;
}
