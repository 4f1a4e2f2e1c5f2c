// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-push.c - the commands that make programs record what the sessions
 * want, and their acks (see ust-push.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/model/agent.h"
#include "common/base/array.h"
#include "common/base/log.h"
#include "common/base/names.h"
#include "common/trace/ringbuf.h"
#include "sessiond/model/rule-filter.h"
#include "sessiond/ust/ust-push.h"

/* Bounded waits for applications. */
#define ACK_TIMEOUT_MS 3000

/*
 * Might a rule of @channel take @tp: its pattern, log level and exclusions
 * (ust-filter.h), its filter aside?  The classes of those events are made
 * before the programs are told (ltt_ust_push_prepare()).
 */
static bool channel_wants(const struct ltt_channel *channel, const struct ltt_app_tracepoint *tp)
{
	const struct ltt_event_rule *rule;

	cds_list_for_each_entry(rule, &channel->rules, node)
		if (ltt_ust_rule_takes(rule, tp))
			return true;
	return false;
}

/*
 * Does @app get @chan's memory as descriptions of its own (app-proto.h,
 * CHANNEL_ADD)?  A program of minor 10 or more, when the memory is a
 * memfd: a session's --shm-path file is opened with its owner's rights,
 * which the daemon may have given up, and the program, seeing it unsealed,
 * opens one itself.
 */
static bool gets_own_fds(const struct ltt_app *app, const struct ltt_session *session)
{
	return app->minor >= LTT_APP_MINOR_OWN_FD && !session->shm_path[0];
}

/*
 * The fds @chan's CHANNEL_ADD gives @app, into @fds (2 x nr_streams): when
 * @own, each memory anew (ltt_rb_own_fd()), the program's writer block
 * lock's description of its own, which spares its start-up a walk of its
 * /proc entries per stream; ours to close.  Returns 0, or -errno, all
 * closed, when the daemon cannot open one (out of descriptors): a program
 * that would take its lock on the shared description could never be seen
 * dead, so it gets no channel.
 */
static int make_fds(const struct ltt_app *app, const struct ltt_ust_chan *chan, bool own,
		    int *fds)
{
	unsigned int i, n = 2 * chan->nr_streams;
	int ret;

	memcpy(fds, chan->fds, n * sizeof(*fds));
	for (i = 0; own && i < chan->nr_streams; i++) {
		ret = ltt_rb_own_fd(chan->fds[2 * i]);
		if (ret < 0) {
			LTT_WARN("%s (pid %ld): can't open channel %" PRIu64 "'s memory anew for it (%s): not traced there",
				 app->procname, (long)app->pid, chan->cc.key, strerror(-ret));
			while (i--)
				close(fds[2 * i]);
			return ret;
		}
		fds[2 * i] = ret;
	}
	return 0;
}

static int send_chan_add(struct ltt_app *app, const struct ltt_session *session,
			 struct ltt_ust_chan *chan, bool enabled, uint32_t *ret_seq)
{
	struct ltt_app_channel_add m = {
		.channel_key = chan->cc.key,
		.session_id = session->id,
		.stream_id = chan->cc.channel->stream_id,
		.enabled = enabled,
		.nr_streams = chan->nr_streams,
		.nr_contexts = chan->cc.channel->nr_contexts,
	};
	int *fds = malloc(2 * chan->nr_streams * sizeof(*fds));
	bool own = gets_own_fds(app, session);
	struct ltt_wbuf w;
	unsigned int i;
	int ret;

	if (!fds)
		return -ENOMEM;
	ret = make_fds(app, chan, own, fds);
	if (ret) {
		free(fds);
		return ret;
	}
	memcpy(m.contexts, chan->cc.channel->contexts,
	       chan->cc.channel->nr_contexts * sizeof(m.contexts[0]));
	ltt_wbuf_init(&w);
	ltt_app_put_channel_add(&w, &m);
	ret = ltt_app_send(app, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2 * chan->nr_streams, ret_seq);
	ltt_wbuf_fini(&w);
	for (i = 0; own && i < chan->nr_streams; i++)
		close(fds[2 * i]);
	free(fds);
	return ret;
}

/*
 * Send CHANNEL_ENABLE/DISABLE/REMOVE {u64 key} (@tp NULL), or
 * EVENT_ENABLE (@id >= 0) or EVENT_DISABLE of the description @tp (its
 * name and, to a program of minor 8, its layout).
 */
static int send_key_cmd(struct ltt_app *app, uint16_t type, uint64_t key,
			const struct ltt_app_tracepoint *tp, int64_t id, uint32_t *ret_seq)
{
	struct ltt_app_event_msg ev = { .channel_key = key, .event_id = (uint32_t)id };
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	if (tp) {
		ev.name = tp->name;
		ev.layout = tp->layout;
	}
	if (!tp)
		ltt_app_put_channel_key(&w, key);
	else if (id >= 0)
		ltt_app_put_event_enable_v(&w, &ev, app->minor);
	else
		ltt_app_put_event_disable_v(&w, &ev, app->minor);
	ret = ltt_app_send(app, type, &w, NULL, 0, ret_seq);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * Make the classes (ust-meta.h) of the events of @tps that @chan wants and
 * lacks, their metadata handed to the consumer in one message: one round
 * trip whatever their number (a program with thousands of events made
 * thousands, and start took minutes under the sanitizers).  No apps lock.
 */
static void make_classes(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			 struct ltt_ust_chan *chan, const struct ltt_app *app,
			 struct ltt_app_tracepoint *const *tps, size_t nr)
{
	struct ltt_wbuf text;
	uint32_t id;
	size_t t;

	ltt_wbuf_init(&text);
	for (t = 0; t < nr; t++)
		if (channel_wants(chan->cc.channel, tps[t]))
			(void)ltt_ust_meta_class(&chan->classes, chan->cc.channel->stream_id, app,
						 tps[t], trace->ct.path, &text, &id);
	ltt_ust_buffers_metadata(b, trace, &text);
	ltt_wbuf_fini(&text);
}

/*
 * The event id of @tp in @chan, made by make_classes().  Returns 0,
 * -EEXIST (another layout has the name), -ENOENT (not made) or -ENOMEM.
 */
static int class_id(struct ltt_ust_chan *chan, const struct ltt_app *app,
		    const struct ltt_app_tracepoint *tp, const char *trace_path, uint32_t *ret_id)
{
	return ltt_ust_meta_class(&chan->classes, chan->cc.channel->stream_id, app, tp, trace_path,
				  NULL, ret_id);
}

/* EVENT_FILTER: the filter programs of event @tp in channel @key. */
static int send_filter(struct ltt_app *app, uint64_t key, const struct ltt_app_tracepoint *tp,
		       const struct ltt_ust_filters *f, uint32_t *ret_seq)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_ust_filters_put(&w, key, tp, f, app->minor);
	ret = ltt_app_send(app, LTT_APP_MSG_EVENT_FILTER, &w, NULL, 0, ret_seq);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * What @chan's rules want of @tp in @app: a program registered before
 * filters (app protocol minor 0) gets no event all of whose rules filter
 * (said once per program).  apps_lock held.
 */
static void app_filters(struct ltt_ust_chan *chan, struct ltt_app *app,
			const struct ltt_app_tracepoint *tp, struct ltt_ust_filters *f)
{
	ltt_ust_filters_get(chan->cc.channel, tp, f);
	if (!f->nr || app->minor >= LTT_APP_MINOR_FILTER)
		return;
	if (!app->filter_warned)
		LTT_WARN("%s (pid %ld) speaks app protocol %u.%u, without filters: its events "
			 "whose every rule has a filter (first: %s) are not recorded",
			 app->procname, (long)app->pid, LTT_APP_MAJOR, app->minor, tp->name);
	app->filter_warned = true;
	ltt_ust_filters_fini(f);
	f->want = false;
}

/*
 * Make one event of @app in @chan what the channel's rules want: its
 * filter programs (EVENT_FILTER, before EVENT_ENABLE and whenever the set
 * changes; an event this program does not record keeps none), enabled or
 * not.  Returns 0, or -errno when the program can't be sent to.
 */
static int sync_event(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
		      struct ltt_ust_chan *chan, struct ltt_app *app, struct ltt_app_chan *ac,
		      const struct ltt_app_tracepoint *tp, uint32_t *last)
{
	struct ltt_app_event *ev = ltt_app_chan_event(ac, tp);
	struct ltt_ust_filters f;
	uint32_t id;
	int ret = 0;

	app_filters(chan, app, tp, &f);
	if (!ev) {
		if (!f.want || class_id(chan, app, tp, trace->ct.path, &id) ||
		    ltt_app_chan_event_add(ac, &(struct ltt_app_event){
			    .name = tp->name, .layout = tp->layout, .id = id,
			    .filter_sig = f.sig }))
			goto out;
		if (f.nr)
			ret = send_filter(app, chan->cc.key, tp, &f, last);
		if (!ret)
			ret = send_key_cmd(app, LTT_APP_MSG_EVENT_ENABLE, chan->cc.key, tp, id, last);
		if (ret)
			ltt_app_chan_event_remove(ac, &ac->events[ac->nr_events - 1]);
		goto out;
	}
	if (f.want && ev->filter_sig != f.sig) {
		ret = send_filter(app, chan->cc.key, tp, &f, last);
		if (!ret)
			ev->filter_sig = f.sig;
	} else if (!f.want) {
		ltt_ust_filters_fini(&f);
		if (ev->filter_sig)
			ret = send_filter(app, chan->cc.key, tp, &f, last);
		if (!ret)
			ret = send_key_cmd(app, LTT_APP_MSG_EVENT_DISABLE, chan->cc.key, tp, -1, last);
		if (!ret)
			ltt_app_chan_event_remove(ac, ev);
	}
out:
	ltt_ust_filters_fini(&f);
	return ret;
}

/* Does @app have a python agent (its lttng_python:event)?  apps_lock held. */
static bool has_agent(const struct ltt_app *app)
{
	size_t t;

	if (app->minor < LTT_APP_MINOR_AGENT)
		return false;
	for (t = 0; t < app->nr_tps; t++)
		if (!strcmp(app->tps[t]->name, LTT_PYTHON_EVENT))
			return true;
	return false;
}

int ltt_ust_push_agent(struct ltt_app *app, struct ltt_app_chan *ac,
		       const struct ltt_channel *channel, uint64_t key, uint32_t *last)
{
	struct ltt_wbuf w;
	uint64_t sig;
	int ret = 0;

	if (!channel->agent || channel->agent->domain != LTT_DOMAIN_PYTHON || !has_agent(app))
		return 0;
	ltt_wbuf_init(&w);
	sig = ltt_agent_rules_put(&w, channel, key);
	if (sig != ac->agent_sig) {
		ret = ltt_app_send(app, LTT_APP_MSG_AGENT_RULES, &w, NULL, 0, last);
		if (!ret)
			ac->agent_sig = sig;
	}
	ltt_wbuf_fini(&w);
	return ret;
}

/* Make @app's events in @chan match the channel's rules.  apps_lock held. */
static void sync_events(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			struct ltt_ust_chan *chan, struct ltt_app *app, struct ltt_app_chan *ac,
			uint32_t *last)
{
	size_t t;

	for (t = 0; t < app->nr_tps; t++) {
		if (sync_event(b, trace, chan, app, ac, app->tps[t], last))
			return;
	}
	ltt_ust_push_agent(app, ac, chan->cc.channel, chan->cc.key, last);
}

/*
 * Does @session (its user-space domain @dom) record @app: started, with
 * channels, a program of a user it reaches (ltt_session_reaches()) that
 * its trackers include?
 */
static bool records(struct ltt_session *session, struct ltt_session_domain *dom,
		    const struct ltt_app *app)
{
	return session->active && dom->nr_channels && ltt_session_reaches(session, app->uid) &&
	       ltt_trackers_include(&dom->trackers, app->pid, app->uid, app->gid);
}

void ltt_ust_push_prepare(struct ltt_ust_buffers *b, struct ltt_session *session,
			  struct ltt_app *app, struct ltt_app_tracepoint *const *tps, size_t nr)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ltt_channel *channel;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;

	/* a program gone: its per-PID trace would never be closed */
	if (!records(session, dom, app) || ltt_app_ended(app, NULL))
		return;
	trace = ltt_ust_buffers_trace(b, session, app);
	if (!trace)
		return;
	cds_list_for_each_entry(channel, &dom->channels, node) {
		chan = ltt_ust_buffers_chan(b, trace, channel);
		if (chan)
			make_classes(b, trace, chan, app, tps, nr);
	}
}

/*
 * Send CHANNEL_DISABLE for each of @session_id's channels enabled in @app.
 * Returns whether one was sent (then *@last is the last one's seq).
 * apps_lock held.
 */
static bool disable_app_chans(struct ltt_app *app, uint64_t session_id, uint32_t *last)
{
	struct ltt_app_chan *ac;
	bool sent = false;

	cds_list_for_each_entry(ac, &app->chans, node) {
		if (ac->session_id != session_id || !ac->enabled)
			continue;
		if (send_key_cmd(app, LTT_APP_MSG_CHANNEL_DISABLE, ac->key, NULL, -1, last))
			break;
		ac->enabled = false;
		sent = true;
	}
	return sent;
}

bool ltt_ust_push_wanted(struct ltt_session *session, const struct ltt_app *app)
{
	return records(session, ltt_session_domain(session, LTT_DOMAIN_USER), app) && !app->dead;
}

/*
 * Can @app write the events of @channel as its metadata describes them?
 * Not a program older than contexts when the channel has some: it does
 * not get the channel (its events would lack the context fields), and the
 * log says so once per program.
 */
static bool can_write(struct ltt_app *app, const struct ltt_session *session,
		      const struct ltt_channel *channel)
{
	if (!channel->nr_contexts || app->minor >= LTT_APP_MINOR_CONTEXT)
		return true;
	if (!app->said_no_contexts) {
		app->said_no_contexts = true;
		LTT_WARN_RL("%s (pid %ld) uses an older libltt-ust (app protocol 1.%u) that can't write context fields: not recorded in channel '%s' of session '%s' (nor in any channel with contexts)",
			    app->procname, (long)app->pid, app->minor, channel->attr.name,
			    session->name);
	}
	return false;
}

void ltt_ust_push_app(struct ltt_ust_buffers *b, struct ltt_session *session, struct ltt_app *app,
		      uint32_t *last)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ltt_channel *channel;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	struct ltt_app_chan *ac;
	bool added;

	if (!ltt_ust_push_wanted(session, app)) {
		/*
		 * Untracked (or stopped): it records nothing for the session.  A
		 * program that had channels keeps them, disabled; it gets no new
		 * trace, channel or event until the trackers include it again.
		 */
		if (session->active && !app->dead)
			disable_app_chans(app, session->id, last);
		return;
	}
	/* only what ltt_ust_push_prepare() made: no consumer call here */
	trace = ltt_ust_buffers_find_trace(session, app, dom->buffer_type == LTT_BUFFER_PER_PID);
	if (!trace)
		return;
	cds_list_for_each_entry(channel, &dom->channels, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		if (!chan)
			continue;
		ac = ltt_app_find_chan(app, chan->cc.key);
		if (!ac && !can_write(app, session, channel))
			continue;
		added = !ac;
		if (!ac) {
			ac = ltt_app_chan_new();
			if (!ac)
				continue;
			if (send_chan_add(app, session, chan, channel->enabled, last)) {
				ltt_app_chan_free(ac);
				return;
			}
			ac->key = chan->cc.key;
			ac->session_id = session->id;
			ac->enabled = channel->enabled;
			cds_list_add_tail(&ac->node, &app->chans);
		} else if (ac->enabled != channel->enabled) {
			if (send_key_cmd(app, channel->enabled ? LTT_APP_MSG_CHANNEL_ENABLE :
				       LTT_APP_MSG_CHANNEL_DISABLE, chan->cc.key, NULL, -1, last))
				return;
			ac->enabled = channel->enabled;
		}
		sync_events(b, trace, chan, app, ac, last);
		/*
		 * A channel the program gets enabled (the session's first
		 * start with the program registered): CHANNEL_ENABLE once its
		 * events are, so that it records its state dump there, as it
		 * does at each later start.  (A program still registering
		 * dumps at REGISTER_DONE and takes this as a no-op.)
		 */
		if (added && ac->enabled &&
		    send_key_cmd(app, LTT_APP_MSG_CHANNEL_ENABLE, chan->cc.key, NULL, -1, last))
			return;
	}
}

/* A copy of @app's tracepoint array (not of the tracepoints); apps->lock held. */
static int copy_tps(const struct ltt_app *app, struct ltt_app_tracepoint ***ret_tps)
{
	*ret_tps = NULL;
	if (!app->nr_tps)
		return 0;
	*ret_tps = malloc(app->nr_tps * sizeof(**ret_tps));
	if (!*ret_tps)
		return -ENOMEM;
	memcpy(*ret_tps, app->tps, app->nr_tps * sizeof(**ret_tps));
	return 0;
}

void ltt_ust_push_one(struct ltt_ust_buffers *b, struct ltt_ust_apps *apps,
		      struct ltt_session *session, struct ltt_app *app)
{
	struct ltt_app_tracepoint **tps;
	uint32_t last;
	size_t nr;
	int ret;

	pthread_mutex_lock(&apps->lock);
	nr = app->nr_tps;
	ret = copy_tps(app, &tps);
	pthread_mutex_unlock(&apps->lock);
	if (ret)
		return;
	/* the consumer's part without the apps lock: others' programs go on */
	ltt_ust_push_prepare(b, session, app, tps, nr);
	free(tps);
	pthread_mutex_lock(&apps->lock);
	ltt_ust_push_app(b, session, app, &last);
	pthread_mutex_unlock(&apps->lock);
}

/*
 * Has ltt_ust_push_prepare() made all that @app needs in @session, and
 * does no trace of @session owe its consumer anything (the settle that
 * follows a push would call it)?  Then ltt_ust_push_app() alone brings
 * @app up to date.  Session lock and apps->lock held.
 */
static bool prepared(struct ltt_session *session, struct ltt_app *app)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ltt_channel *channel;
	struct ltt_ust_trace *trace;
	struct ltt_ust_chan *chan;
	size_t t;

	if (!cds_list_empty(&session->ctrace_owed))
		return false;
	if (!records(session, dom, app) || ltt_app_ended(app, NULL))
		return true;	/* ltt_ust_push_prepare() makes nothing */
	trace = ltt_ust_buffers_find_trace(session, app, dom->buffer_type == LTT_BUFFER_PER_PID);
	if (!trace || trace->ct.state != LTT_CTRACE_HELD)
		return false;
	cds_list_for_each_entry(channel, &dom->channels, node) {
		chan = ltt_ust_buffers_find_chan(trace, channel);
		if (!chan)
			return false;
		for (t = 0; t < app->nr_tps; t++)
			if (channel_wants(channel, app->tps[t]) &&
			    !ltt_ust_meta_class_known(&chan->classes, app->tps[t]))
				return false;
	}
	return true;
}

bool ltt_ust_push_one_now(struct ltt_ust_buffers *b, struct ltt_ust_apps *apps,
			  struct ltt_session *session, struct ltt_app *app)
{
	uint32_t last;
	bool ready;

	pthread_mutex_lock(&apps->lock);
	ready = prepared(session, app);
	if (ready)
		ltt_ust_push_app(b, session, app, &last);
	pthread_mutex_unlock(&apps->lock);
	return ready;
}

void ltt_ust_push_acks_init(struct ltt_ust_acks *acks)
{
	acks->v = NULL;
	acks->n = 0;
	acks->cap = 0;
}

void ltt_ust_push_acks_add(struct ltt_ust_acks *acks, struct ltt_app *app, uint32_t seq)
{
	struct ltt_ust_ack *grown;

	if (!acks)
		return;	/* no memory for the set: we just do not wait */
	if (acks->n == acks->cap) {
		grown = ltt_array_grow(acks->v, &acks->cap, sizeof(*grown));
		if (!grown)
			return;	/* then we just do not wait for this one */
		acks->v = grown;
	}
	ltt_app_get(app);
	acks->v[acks->n++] = (struct ltt_ust_ack){ .app = app, .seq = seq };
}

/* Milliseconds left until @deadline (CLOCK_MONOTONIC), at least 0. */
static int ms_left(const struct timespec *deadline)
{
	struct timespec now;
	int64_t ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = ((int64_t)deadline->tv_sec - now.tv_sec) * 1000 +
	     (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

/* ltt_ust_push_acks_wait(), and (@drop false) a question's: one that does not answer stays */
static void acks_wait(struct ltt_ust_acks *acks, const char *what, bool drop)
{
	struct timespec deadline;
	size_t i;

	/* One deadline for them all: programs that don't answer cost it once. */
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += ACK_TIMEOUT_MS / 1000;
	for (i = 0; i < acks->n; i++) {
		struct ltt_app *app = acks->v[i].app;

		/*
		 * A program that does not answer in time is dropped (it registers
		 * again when it can): the next command does not wait for it again.
		 */
		if (what && ltt_app_wait_ack(app, acks->v[i].seq, ms_left(&deadline)) == -ETIMEDOUT) {
			LTT_WARN_RL("%s (pid %ld) did not confirm the %s in %d ms; %s",
				    app->procname, (long)app->pid, what, ACK_TIMEOUT_MS,
				    drop ? "some of its events may be missing" :
					   "what it did not say yet is left out");
			if (drop)
				ltt_app_drop(app, "does not answer commands");
		}
		ltt_app_put(app);
	}
	free(acks->v);
	ltt_ust_push_acks_init(acks);
}

void ltt_ust_push_acks_wait(struct ltt_ust_acks *acks, const char *what)
{
	acks_wait(acks, what, true);
}

/* Has @app ltt's python agent (its event, or loggers it reported)?  apps lock held. */
static bool has_python_agent(const struct ltt_app *app)
{
	size_t t;

	if (app->nr_loggers)
		return true;
	for (t = 0; t < app->nr_tps; t++)
		if (!strcmp(app->tps[t]->name, LTT_PYTHON_EVENT))
			return true;
	return false;
}

/* ltt_ust_push_sync_loggers(): ust-push.h */
void ltt_ust_push_sync_loggers(struct ltt_ust_apps *apps)
{
	struct ltt_ust_acks acks;
	struct ltt_wbuf none;
	struct ltt_app *app;
	uint32_t seq;

	ltt_ust_push_acks_init(&acks);
	ltt_wbuf_init(&none);
	pthread_mutex_lock(&apps->lock);
	cds_list_for_each_entry(app, &apps->list, node) {
		if (app->minor < LTT_APP_MINOR_LOGGERS_SYNC || !has_python_agent(app))
			continue;
		if (!ltt_app_send(app, LTT_APP_MSG_LOGGERS_SYNC, &none, NULL, 0, &seq))
			ltt_ust_push_acks_add(&acks, app, seq);
	}
	pthread_mutex_unlock(&apps->lock);
	acks_wait(&acks, "listing of its python loggers", false);
	ltt_wbuf_fini(&none);
}

/* A program and what it had announced, for ltt_ust_push_all()'s first part. */
struct push_item {
	struct ltt_app *app;		/* a reference */
	struct ltt_app_tracepoint **tps;
	size_t nr;
};

void ltt_ust_push_all(struct ltt_ust_buffers *b, struct ltt_ust_apps *apps,
		      struct ltt_session *session, struct ltt_ust_acks *acks)
{
	struct push_item *items;
	struct ltt_app *app;
	uint32_t before, last;
	size_t i, n = 0;

	/* First the buffers, with the consumer, without the apps lock ... */
	pthread_mutex_lock(&apps->lock);
	items = calloc(apps->nr ? apps->nr : 1, sizeof(*items));
	cds_list_for_each_entry(app, &apps->list, node) {
		if (!items || n == apps->nr || copy_tps(app, &items[n].tps))
			continue;
		ltt_app_get(app);
		items[n].app = app;
		items[n++].nr = app->nr_tps;
	}
	pthread_mutex_unlock(&apps->lock);
	for (i = 0; i < n; i++) {
		ltt_ust_push_prepare(b, session, items[i].app, items[i].tps, items[i].nr);
		free(items[i].tps);
	}
	/* ... then the commands to the programs, which never block. */
	pthread_mutex_lock(&apps->lock);
	cds_list_for_each_entry(app, &apps->list, node) {
		/* The seq of the last command this push sent, not of any other. */
		ltt_app_ended(app, &last);
		before = last;
		ltt_ust_push_app(b, session, app, &last);
		if (last != before)
			ltt_ust_push_acks_add(acks, app, last);
	}
	pthread_mutex_unlock(&apps->lock);
	for (i = 0; i < n; i++)
		ltt_app_put(items[i].app);
	free(items);
	/* the programs have their buffers: now the consumer gets the new traces */
	ltt_ust_buffers_settle(b, session);
}

void ltt_ust_push_disable(struct ltt_ust_apps *apps, struct ltt_session *session,
			  struct ltt_ust_acks *acks)
{
	struct ltt_app *app;
	uint32_t seq;

	pthread_mutex_lock(&apps->lock);
	cds_list_for_each_entry(app, &apps->list, node)
		if (disable_app_chans(app, session->id, &seq))
			ltt_ust_push_acks_add(acks, app, seq);
	pthread_mutex_unlock(&apps->lock);
}

void ltt_ust_push_remove(struct ltt_ust_apps *apps, struct ltt_session *session)
{
	struct ltt_app_chan *ac, *tmp;
	struct ltt_app *app;

	pthread_mutex_lock(&apps->lock);
	cds_list_for_each_entry(app, &apps->list, node) {
		cds_list_for_each_entry_safe(ac, tmp, &app->chans, node) {
			if (ac->session_id != session->id)
				continue;
			send_key_cmd(app, LTT_APP_MSG_CHANNEL_REMOVE, ac->key, NULL, -1, NULL);
			cds_list_del(&ac->node);
			ltt_app_chan_free(ac);
		}
	}
	pthread_mutex_unlock(&apps->lock);
}

unsigned int ltt_ust_push_statedump(struct ltt_ust_apps *apps, struct ltt_session *session,
				    struct ltt_ust_acks *acks)
{
	struct ltt_app_chan *ac;
	struct ltt_app *app;
	unsigned int n = 0, asked;
	uint32_t seq = 0;

	pthread_mutex_lock(&apps->lock);
	cds_list_for_each_entry(app, &apps->list, node) {
		if (app->dead)
			continue;
		asked = 0;
		cds_list_for_each_entry(ac, &app->chans, node)
			if (ac->session_id == session->id && ac->enabled &&
			    !send_key_cmd(app, LTT_APP_MSG_CHANNEL_ENABLE, ac->key, NULL, -1, &seq))
				asked++;
		/* its last one: it acks them in order, each after its dump */
		if (asked)
			ltt_ust_push_acks_add(acks, app, seq);
		n += asked;
	}
	pthread_mutex_unlock(&apps->lock);
	return n;
}
