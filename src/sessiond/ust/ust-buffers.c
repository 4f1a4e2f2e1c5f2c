// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-buffers.c - the buffers of user-space traces: owners and their
 * consumers, traces, channel buffers, streams, stop's flush (see
 * ust-buffers.h; the hand-over to consumers is ust-handover.c, what both
 * use of a trace and its channels ust-chan.c, what the buffers hold and
 * lost ust-buffers-stats.c, snapshots and rotations ust-trace-ops.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <urcu/compiler.h>

#include "common/base/log.h"
#include "common/trace/ringbuf.h"
#include "common/trace/tclock.h"
#include "sessiond/consumer/relay.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/priv/priv.h"
#include "sessiond/ust/ust-buffers-internal.h"
#include "sessiond/ust/ust-shm.h"

void ltt_ust_buffers_init(struct ltt_ust_buffers *b, const struct ltt_consumer_config *consumer)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->owners_lock, NULL);
	CDS_INIT_LIST_HEAD(&b->owners);
	b->consumer = *consumer;
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
	if (ltt_priv_daemon_uid() == 0) {
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
	ltt_supervisor_init(&o->consumer, o->what, &b->consumer);
	/* the daemon's own consumer (not a user's) answers as LTTng's user-space one */
	if (uid == (uid_t)-1 || uid == 0)
		o->consumer.cfg.lttng_health = LTT_CONSUMER_LTTNG_HEALTH_UST64;
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

/*
 * ltt_ust_buffers_owner_hold() for a session's state: a consumer kept idle
 * (no user) whose user has other supplementary groups now is renewed
 * first, so that a new session's consumer has the groups of now, as when
 * the consumer had exited with the owner's last session.
 */
static void owner_hold_session(struct ltt_ust_owner *o)
{
	bool changed = false;
	uint64_t gen = 0;

	pthread_mutex_lock(&o->buffers->owners_lock);
	changed = !o->users;
	pthread_mutex_unlock(&o->buffers->owners_lock);
	/* the group database is read with no lock held */
	changed = changed && ltt_supervisor_groups_changed(&o->consumer, &gen);
	pthread_mutex_lock(&o->buffers->owners_lock);
	/* still no user: nobody spawns or holds it (the supervisor's lock is free) */
	if (changed && !o->users)
		ltt_supervisor_renew(&o->consumer, gen);
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

/*
 * The owner's thread: its consumer exits if no user came since the users
 * fell to 0 for the @seq'th time.  Owners' lock held.
 */
static struct ltt_consumer *retire(struct ltt_ust_owner *o, uint64_t seq)
{
	/* with no user, nobody spawns or holds it: the supervisor's lock is free */
	return !o->users && o->retire_seq == seq ? ltt_supervisor_retire(&o->consumer) : NULL;
}

static void retire_now(struct ltt_ust_owner *o, struct ltt_consumer *c)
{
	if (!c)
		return;
	LTT_INFO("the %s consumer daemon has no session left: it exits", o->what);
	ltt_consumer_destroy(c, RETIRE_WAIT_MS);
}

/* The owner's idle timer: its grace is over. */
static void idle_fire(struct ltt_evloop *loop, void *arg)
{
	struct ltt_ust_owner *o = arg;
	struct ltt_consumer *c;

	(void)loop;
	pthread_mutex_lock(&o->buffers->owners_lock);
	c = retire(o, o->idle_seq);
	pthread_mutex_unlock(&o->buffers->owners_lock);
	retire_now(o, c);
}

/*
 * The owner's thread: no user left.  The consumer is kept for the grace
 * (the idle timer), unless a user came meanwhile; it exits at once when
 * there is no grace or no timer.
 */
static void retire_run(struct ltt_supervisor_job *sj)
{
	struct retire_job *j = caa_container_of(sj, struct retire_job, sj);
	struct ltt_ust_owner *o = j->owner;
	unsigned int grace = o->buffers->consumer.idle_ms;
	struct ltt_consumer *c = NULL;

	if (grace && !o->idle &&
	    ltt_supervisor_timer_create(&o->consumer, idle_fire, o, &o->idle))
		grace = 0;	/* no memory for a timer: no grace */
	pthread_mutex_lock(&o->buffers->owners_lock);
	if (!grace) {
		c = retire(o, j->seq);
	} else if (!o->users && o->retire_seq == j->seq) {
		o->idle_seq = j->seq;
		ltt_evloop_timer_arm(o->idle, (uint64_t)grace * 1000000, 0);
	}
	pthread_mutex_unlock(&o->buffers->owners_lock);
	retire_now(o, c);
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
struct ltt_consumer *ltt_ust_owner_get(struct ltt_ust_buffers *b, const struct ltt_session *session,
				      uint64_t *ret_gen)
{
	struct ltt_ust_owner *o = ltt_ust_buffers_owner(b, session);

	*ret_gen = 0;
	return o ? ltt_supervisor_get(&o->consumer, ret_gen) : NULL;
}

void ltt_ust_buffers_consumer_early(struct ltt_ust_buffers *b, const struct ltt_session *session)
{
	uint64_t gen;

	(void)ltt_ust_owner_get(b, session, &gen);	/* none: the start says it */
}

/* @session's owner's consumer if one runs (ltt_supervisor_current()). */
struct ltt_consumer *ltt_ust_owner_current(struct ltt_ust_buffers *b,
					  const struct ltt_session *session, uint64_t *ret_gen)
{
	struct ltt_ust_owner *o = ltt_ust_buffers_owner(b, session);

	*ret_gen = 0;
	return o ? ltt_supervisor_current(&o->consumer, ret_gen) : NULL;
}

/*
 * @session's user-space state, made first (a user of its owner's consumer,
 * until ltt_ust_buffers_destroy()); NULL when out of memory.  Session lock
 * held.
 */
static struct ltt_ust_state *state_create(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ltt_ust_state *us = dom->state;
	struct ltt_ust_owner *o;

	if (us)
		return us;
	o = ltt_ust_buffers_owner(b, session);
	us = o ? calloc(1, sizeof(*us)) : NULL;
	if (!us)
		return NULL;
	CDS_INIT_LIST_HEAD(&us->traces);
	us->owner = o;
	owner_hold_session(o);
	dom->state = us;
	return us;
}

struct ltt_ust_trace *ltt_ust_buffers_find_trace(struct ltt_session *session,
						const struct ltt_app *app, bool per_pid)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;

	if (!us)
		return NULL;
	cds_list_for_each_entry(trace, &us->traces, node) {
		/* a closing one's program is gone (its pid may be another's now) */
		if (trace->per_pid != per_pid || trace->ct.closing)
			continue;
		if (per_pid ? trace->pid == app->pid :
			      trace->uid == app->uid && trace->bits_per_long == app->bits_per_long)
			return trace;
	}
	return NULL;
}

bool ltt_ust_buffers_writes_in(struct ltt_session *session, const char *dir)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace;
	size_t n = strlen(dir);

	if (!us)
		return false;
	cds_list_for_each_entry(trace, &us->traces, node)
		if (!strncmp(trace->ct.path, dir, n) && (!trace->ct.path[n] || trace->ct.path[n] == '/'))
			return true;
	return false;
}

struct ltt_ust_trace *ltt_ust_buffers_trace(struct ltt_ust_buffers *b, struct ltt_session *session,
					    const struct ltt_app *app)
{
	bool per_pid = ltt_session_domain(session, LTT_DOMAIN_USER)->buffer_type ==
		       LTT_BUFFER_PER_PID;
	struct ltt_ust_trace *trace = ltt_ust_buffers_find_trace(session, app, per_pid);
	struct ltt_ust_state *us = state_create(b, session);
	struct ltt_wbuf text;

	if (trace || !us)
		return trace;
	trace = calloc(1, sizeof(*trace));
	if (!trace)
		return NULL;
	/* its consumer is told after its program is: ltt_ust_buffers_settle() */
	ltt_ctrace_init(&trace->ct, &ltt_ust_trace_ops, session, ltt_ust_new_key(b),
			LTT_CTRACE_OWED);
	trace->per_pid = per_pid;
	trace->uid = app->uid;
	trace->bits_per_long = app->bits_per_long;
	trace->pid = app->pid;
	trace->registered_at = app->registered_at;
	strcpy(trace->procname, app->procname);
	if (ltt_ust_trace_path(trace, 0, trace->ct.path, sizeof(trace->ct.path)))
		strcpy(trace->ct.path, "(no name)");	/* said by hand_over() */
	cds_list_add_tail(&trace->node, &us->traces);
	ltt_wbuf_init(&text);
	if (ltt_ust_meta_header(&text, &b->host, session, app, per_pid, trace->ct.uuid)) {
		LTT_ERR("trace %s: can't generate its metadata", trace->ct.path);
	} else {
		trace->ct.meta_header_len = text.len;
		ltt_ust_buffers_metadata(b, trace, &text);
	}
	ltt_wbuf_fini(&text);
	return trace;
}

/*
 * Create one stream: sealed shared memory (or, with a shared memory path,
 * a file: ust-shm.h) holding an initialised ring buffer.
 */
static int create_stream(const struct ltt_channel *channel, const struct ltt_ust_trace *trace,
			 unsigned int cpu, int *ret_shm, int *ret_wakeup)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = channel->attr.subbuf_size,
		.num_subbuf = channel->attr.num_subbuf,
		.overwrite = channel->attr.overwrite,
		.clock = trace->ct.session->clock_kind,
		.clock_base = trace->ct.session->clock_base,
		/*
		 * A snapshot session's consumer makes no room as it records
		 * (a snapshot reads without consuming): its writers never
		 * wait, whatever the channel says (doc/ust.md)
		 */
		.block_timeout_us = trace->ct.session->snapshot ? 0 :
				    channel->attr.blocking_timeout_us,
		.stream_id = channel->stream_id,
		.cpu = cpu,
		.event_ctx_len = (uint32_t)ltt_ctx_len(channel->contexts, channel->nr_contexts),
	};
	size_t len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
	bool files = trace->ct.session->shm_path[0] != '\0';
	int fd, wfd, ret;
	void *mem;

	memcpy(cfg.uuid, trace->ct.uuid, sizeof(cfg.uuid));
	if (!len)
		return -EINVAL;
	if (files) {
		ret = ltt_ust_shm_stream(trace, channel, cpu, &fd);
		if (ret)
			return ret;
	} else {
		fd = memfd_create("ltt-ust-stream", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (fd < 0)
			return -errno;
	}
	/*
	 * ftruncate() reserves the size, not the pages: a CPU's take memory
	 * as it first writes (on-demand).  preallocate: every page now, so
	 * that recording never waits for memory (doc/memory.md), but the
	 * guard page, which nothing writes.
	 */
	if (ftruncate(fd, (off_t)len) ||
	    (channel->attr.preallocation == LTT_PREALLOC_PREALLOCATE &&
	     fallocate(fd, 0, 0, (off_t)(len - LTT_RB_GUARD_SIZE)))) {
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
	/*
	 * Nobody may resize it under the others' mappings (SIGBUS).  A file
	 * can't be sealed: its size is the daemon's user's to keep (ust-shm.h).
	 */
	if (!files && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
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

	cds_list_for_each_entry(chan, &trace->ct.chans, cc.node)
		if (chan->cc.channel == channel)
			return chan;
	return NULL;
}

struct ltt_ust_chan *ltt_ust_buffers_chan(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
					  struct ltt_channel *channel)
{
	struct ltt_ust_chan *chan = ltt_ust_buffers_find_chan(trace, channel);
	unsigned int i;
	int ret = 0;

	if (chan)
		return chan;
	chan = calloc(1, sizeof(*chan));
	if (!chan)
		return NULL;
	ltt_cchan_init(&chan->cc, ltt_ust_new_key(b), channel);
	/* per channel: one ring buffer that every CPU's writers share (doc/memory.md) */
	chan->nr_streams = channel->attr.allocation == LTT_ALLOC_PER_CHANNEL ? 1 : b->nr_cpus;
	ltt_ust_meta_classes_init(&chan->classes, trace->ct.session->trace_format);
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
		ret = ltt_chan_stats_create(chan->nr_streams, &chan->cc.stats);
	if (ret) {
		LTT_ERR("channel %s: can't create its buffers: %s", channel->attr.name, strerror(-ret));
		ltt_ust_chan_free(chan);
		return NULL;
	}
	ltt_ctrace_chan_add(&trace->ct, &chan->cc);	/* a refusal is said */
	return chan;
}

void ltt_ust_buffers_flush_prepare(struct ltt_ust_buffers *b, struct ltt_session *session,
				   struct ltt_ust_flush *ret_flush)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_flush f = { 0 };
	struct ltt_ust_trace *trace;
	struct ltt_consumer *c;
	struct ltt_ust_chan *chan;
	uint64_t *grown;
	bool lost;

	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		c = ltt_ctrace_consumer(&trace->ct);
		/* refused (logged): its events are not written, each stop says so */
		f.refused |= trace->ct.refused;
		/* metadata, channels a stalled consumer lacks: first, or said */
		if (c && ltt_ctrace_settle(&trace->ct, c))
			f.owed = true;
		if (!c) {
			/* not handed over yet: the stop would leave its events unwritten */
			f.owed |= trace->ct.state == LTT_CTRACE_OWED;
			/* said by the first stop after the loss; counted in list */
			lost = trace->ct.state == LTT_CTRACE_LOST;
			f.lost |= lost && !trace->lost_said;
			trace->lost_said |= lost;
			continue;
		}
		f.gen = trace->ct.gen;
		cds_list_for_each_entry(chan, &trace->ct.chans, cc.node) {
			grown = realloc(f.keys, (f.nr + 1) * sizeof(*f.keys));
			if (grown)
				f.keys = grown;
			grown = grown ? realloc(f.bytes, (f.nr + 1) * sizeof(*f.bytes)) : NULL;
			if (!grown)
				break;
			f.bytes = grown;
			f.bytes[f.nr] = ltt_ust_chan_bytes(chan);
			f.keys[f.nr++] = chan->cc.key;
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

	c = flush->nr ? ltt_ust_owner_get(b, session, &now) : NULL;
	if (c && now != flush->gen)
		ret = -ESTALE;	/* a new consumer: it takes the traces over first */
	for (i = 0; c && !ret && i < flush->nr; i++) {
		err = ltt_consumer_flush_stopped(c, flush->keys[i], flush->bytes[i]);
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
	if (!ret && flush->refused) {
		LTT_ERR("session '%s': the consumer daemon refused some of its traces or channels (said above): what their programs recorded there is not written, counted discarded",
			session->name);
		ret = -EREMOTEIO;
	}
	if (!ret && flush->lost) {
		LTT_ERR("session '%s': a consumer daemon died while it held some of its traces and none could take them over; they end there, what their buffers hold counted discarded",
			session->name);
		ret = -EOWNERDEAD;
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

void ltt_ust_buffers_destroy(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_ust_trace *trace, *tmp;
	struct ltt_consumer *c;
	struct ltt_ust_chan *chan;
	uint64_t gen, unread;

	if (!us)
		return;

	cds_list_for_each_entry_safe(trace, tmp, &us->traces, node) {
		if (!ltt_ust_buffers_close_trace(trace))
			continue;
		/* destroy waits for no consumer: the stalled one keeps what it holds */
		unread = 0;
		cds_list_for_each_entry(chan, &trace->ct.chans, cc.node)
			ltt_add_sat(&unread, ltt_ust_chan_unread(chan));
		c = ltt_ust_owner_current(b, session, &gen);
		if (c)
			ltt_consumer_unwritten_add(c, unread);
		LTT_ERR("session '%s': trace %s destroyed while its consumer daemon is stalled: %" PRIu64
			" events not written yet, lost unless it runs again",
			session->name, trace->ct.path, unread);
		ltt_ust_trace_end(trace, NULL);
	}
	if (us->relay.key) {
		c = ltt_ust_owner_current(b, session, &gen);
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

/*
 * Before a local session starts: the consumer can write under its
 * directory (created if missing), and the traces it has kept from a
 * former start write again (a flush retries a failed output).  Returns 0
 * or the output's -errno.
 */
static int check_output(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us;
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_consumer *c;
	char dir[LTT_PATH_MAX];
	uint64_t gen;
	int ret;

	/* the state first: its owner's consumer is held from here on */
	if (!state_create(b, session))
		return -ENOMEM;
	us = ltt_ust_state(session);
	/* no consumer: logged by the supervisor; the programs' traces say it */
	c = ltt_ust_owner_get(b, session, &gen);
	if (!c)
		return 0;
	/*
	 * The current chunk's ust/, made by the probe: there even when no
	 * program records, as LTTng makes it at start.
	 */
	ret = snprintf(dir, sizeof(dir), "%s/ust", session->chunk_dir);
	if (ret < 0 || (size_t)ret >= sizeof(dir))
		return -ENAMETOOLONG;
	ret = ltt_consumer_probe_output(c, dir, session->uid, session->gid);
	if (ltt_consumer_call_failed(ret))
		return ret;	/* the consumer's failure (stalled, gone), not the output's */
	if (ret && ret != -EOPNOTSUPP) {
		LTT_WARN("session '%s': can't write a trace under %s: %s", session->name,
			 dir, strerror(-ret));
		session->output_err = ret;
		/* the probe makes the directory: a part missing is one it can't make */
		session->output_create = ret == -ENOENT || ret == -ENOTDIR;
		return ret;
	}
	cds_list_for_each_entry(trace, us ? &us->traces : &ltt_ust_no_traces, node) {
		cds_list_for_each_entry(chan, &trace->ct.chans, cc.node) {
			c = ltt_ctrace_consumer(&trace->ct);
			if (!c || ltt_consumer_flush_channel(c, chan->cc.key, false) ||
			    ltt_consumer_channel_status(c, chan->cc.key, &st) || !st.error)
				continue;
			LTT_WARN("session '%s': trace %s still can't be written: %s", session->name,
				 trace->ct.path, strerror(-st.error));
			session->output_err = st.error;
			return st.error;
		}
	}
	return 0;
}

int ltt_ust_buffers_prepare(struct ltt_ust_buffers *b, struct ltt_session *session)
{
	struct ltt_ust_state *us;
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
	c = ltt_ust_owner_get(b, session, &gen);
	if (!c)
		return -EPIPE;
	/* A start tries again what a former start could not reach. */
	if (!us->relay.key)
		us->relay.error = 0;
	key = ltt_relay_link_key(&us->relay, c, gen, ltt_ust_new_key(b), session);
	return key < 0 ? (int)key : 0;
}

uint64_t ltt_ust_buffers_written(struct ltt_session *session)
{
	struct ltt_ust_state *us = ltt_ust_state(session);
	struct ltt_consumer_channel_stats st;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	uint64_t sum = 0;

	if (!us)
		return 0;
	cds_list_for_each_entry(trace, &us->traces, node) {
		cds_list_for_each_entry(chan, &trace->ct.chans, cc.node) {
			ltt_ust_chan_stats(chan, &st);
			ltt_add_sat(&sum, st.bytes_written);
		}
	}
	return sum;
}
