// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust.c - the user-space domain: its operations (domain.h) and the
 * programs' arrival and departure (see ust.h).
 */
#include <errno.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/size.h"
#include "common/base/testpoint.h"
#include "common/base/name-index.h"
#include "common/model/attr.h"
#include "common/proto/lagent-proto.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/ust/ust.h"

static struct ltt_ust *to_ust(struct ltt_domain_impl *d)
{
	return caa_container_of(d, struct ltt_ust, domain);
}

static enum ltt_error_code ust_check_channel(struct ltt_domain_impl *d,
					     struct ltt_channel_conf *attr)
{
	(void)d;
	return ltt_attr_check_channel(attr, LTT_DOMAIN_USER);
}

static enum ltt_error_code ust_check_rule(struct ltt_domain_impl *d,
					  const struct ltt_rule_conf *attr)
{
	enum ltt_error_code ret = ltt_attr_check_rule(attr);

	(void)d;
	return ret ? ret : ltt_attr_check_rule_domain(attr, LTT_DOMAIN_USER);
}

/* @settle's acks of this domain, made on first need (NULL: no memory). */
static struct ltt_ust_acks *settle_acks(struct ltt_ust *ust, struct ltt_domain_settle *settle)
{
	void **slot = ltt_domain_settle_slot(settle, &ust->domain);

	if (!*slot)
		*slot = calloc(1, sizeof(struct ltt_ust_acks));
	return *slot;
}

static void ust_settle_wait(struct ltt_domain_impl *d, void *pending, const char *what)
{
	(void)d;
	ltt_ust_push_acks_wait(pending, what);
	free(pending);
}

static int ust_start(struct ltt_domain_impl *d, struct ltt_session *session,
		     struct ltt_domain_settle *settle)
{
	struct ltt_ust *ust = to_ust(d);
	int ret;

	/* A streamed session reaches its relay first: no relay, no start. */
	ret = ltt_ust_buffers_prepare(&ust->buffers, session);
	if (ret)
		return ret;
	ltt_ust_push_all(&ust->buffers, &ust->apps, session, settle_acks(ust, settle));
	/* LTTng's agents hold a session's rules whether it is active or not: nothing to tell them */
	return 0;
}

static int ust_update(struct ltt_domain_impl *d, struct ltt_session *session,
		      struct ltt_domain_settle *settle)
{
	struct ltt_ust *ust = to_ust(d);

	/* A program that fails a command is dropped: the domain itself follows. */
	if (session->active)
		ltt_ust_push_all(&ust->buffers, &ust->apps, session, settle_acks(ust, settle));
	/*
	 * LTTng's test points on (testpoint.h): LTTng's consumer starts with
	 * a session's first user-space channel and its tests look for the
	 * consumer's pause FIFO before the session starts; ltt's starts on
	 * first need (the start), so here it is started now.
	 */
	else if (__builtin_expect(ltt_testpoints_on, 0) && ltt_session_domain(session, LTT_DOMAIN_USER)->nr_channels)
		ltt_ust_buffers_consumer_early(&ust->buffers, session);
	/* an agent that refuses what a session now wants fails the change, as LTTng's, active or not */
	return ltt_lagent_sync_wait(ust->lagent, session);
}

/*
 * Disable the session's channels in the programs, wait for their acks
 * (they ack once no thread can still write), then have the consumer write
 * what the buffers hold.
 */
static int ust_stop(struct ltt_domain_impl *d, struct ltt_session *session, bool wait)
{
	struct ltt_ust *ust = to_ust(d);
	struct ltt_ust_flush flush;
	struct ltt_ust_acks acks;
	int ret, tries = 0;

	ltt_ust_push_acks_init(&acks);
	ltt_session_lock(session);
	ltt_ust_push_disable(&ust->apps, session, &acks);
	ltt_session_unlock(session);
	/* No lock held: the app thread must be free to read the acks. */
	ltt_ust_push_acks_wait(&acks, wait ? "stop" : NULL);
	do {
		/* a consumer that died meanwhile: the next one takes over, flush again */
		ltt_session_lock(session);
		ltt_ust_buffers_flush_prepare(&ust->buffers, session, &flush);
		ltt_session_unlock(session);
		ret = ltt_ust_buffers_flush(&ust->buffers, session, &flush);
	} while (ret == -ESTALE && ++tries < 3);
	return ret == -ESTALE ? -EPIPE : ret;
}

static void ust_destroy(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_ust *ust = to_ust(d);

	ltt_ust_push_remove(&ust->apps, session);
	ltt_lagent_sync(ust->lagent, session, true);
	ltt_ust_buffers_destroy(&ust->buffers, session);
}

static void ust_channel_stats(struct ltt_domain_impl *d, struct ltt_session *session,
			      const struct ltt_channel *channel, uint64_t *ret_events_lost,
			      uint64_t *ret_packets_lost)
{
	ltt_ust_buffers_stats(&to_ust(d)->buffers, session, channel, ret_events_lost,
			      ret_packets_lost);
}

static void ust_channel_failure(struct ltt_domain_impl *d, struct ltt_session *session,
				const struct ltt_channel *channel, struct ltt_domain_failure *ret)
{
	ltt_ust_buffers_failure(&to_ust(d)->buffers, session, channel, ret);
}

/* "integer", "string", ... for lttctl list -u -f. */
static const char *type_name(const struct ltt_app_field *f)
{
	switch (f->type) {
	case LTT_UST_TYPE_INTEGER:
		return f->base == 16 ? "integer (hex)" : "integer";
	case LTT_UST_TYPE_FLOAT:
		return f->size == 4 ? "float" : "double";
	case LTT_UST_TYPE_STRING:
		return "string";
	case LTT_UST_TYPE_ARRAY:
		return f->encoding ? "text array" : "integer array";
	case LTT_UST_TYPE_SEQUENCE:
		return f->encoding ? "text sequence" : "integer sequence";
	case LTT_UST_TYPE_ENUM:
		return "enum";
	default:
		return "unknown";
	}
}

/* Write @count at @at of @reply, where a list reply's count goes: 0 or -ENOMEM. */
static int put_count(struct ltt_wbuf *reply, size_t at, uint32_t count)
{
	if (!reply->err) {
		uint32_t le = htole32(count);

		memcpy(reply->data + at, &le, sizeof(le));
	}
	return reply->err ? -ENOMEM : 0;
}

static const char *tp_name_at(const void *app, size_t pos)
{
	return ((const struct ltt_app *)app)->tps[pos]->name;
}

/*
 * Each program's events, a name once (its first description: a name
 * described twice, by two providers, is one event to enable), as LTTng's
 * client lists them; @with_fields, each description of a name (its
 * layouts: doc/ust.md, "One name, several layouts") with its fields, as
 * LTTng lists the fields of each one it registered.
 */
static int ust_list_events(struct ltt_domain_impl *d, enum ltt_event_type type, bool with_fields,
			   uid_t uid, struct ltt_wbuf *reply)
{
	struct ltt_ust *ust = to_ust(d);
	struct ltt_name_index names;
	struct ltt_app *app;
	uint32_t count = 0, i;
	size_t t, at;
	int ret = 0;

	if (type != LTT_EVENT_TRACEPOINT)
		return -EINVAL;
	at = reply->len;
	ltt_wbuf_put_u32(reply, 0);	/* patched below */
	pthread_mutex_lock(&ust->apps.lock);
	cds_list_for_each_entry(app, &ust->apps.list, node) {
		if (uid != LTT_LIST_EVERY_USER && app->uid != uid)
			continue;
		ltt_name_index_init(&names, tp_name_at, app);
		for (t = 0; t < app->nr_tps && !ret; t++) {
			const struct ltt_app_tracepoint *tp = app->tps[t];

			ret = with_fields ? 0 : ltt_name_index_add(&names, t);
			if (ret == -EEXIST) {
				ret = 0;
				continue;
			}

			ltt_wbuf_put_u32(reply, (uint32_t)app->pid);
			ltt_wbuf_put_str(reply, app->procname);
			ltt_wbuf_put_str(reply, tp->name);
			ltt_wbuf_put_u32(reply, (uint32_t)tp->loglevel);
			ltt_wbuf_put_u32(reply, with_fields ? tp->nr_fields : 0);
			for (i = 0; with_fields && i < tp->nr_fields; i++) {
				ltt_wbuf_put_str(reply, tp->fields[i].name);
				ltt_wbuf_put_str(reply, type_name(&tp->fields[i]));
			}
			count++;
		}
		ltt_name_index_fini(&names);
	}
	pthread_mutex_unlock(&ust->apps.lock);
	return ret ? ret : put_count(reply, at, count);
}

/* The programs of LTTng-UST's own library: seen, not recorded (lust.h). */
static void ust_list_unrecorded(struct ltt_domain_impl *d, uid_t uid, struct ltt_wbuf *reply,
				uint32_t *count)
{
	ltt_lust_list(to_ust(d)->lust, uid, reply, count);
}

/*
 * The loggers of agent domain @agent in the running programs, as
 * list_events lists events: those ltt's own python agents reported (each
 * asked first), and those LTTng's agents of that domain answer.
 */
static int ust_list_loggers(struct ltt_domain_impl *d, enum ltt_domain agent, uid_t uid,
			    struct ltt_wbuf *reply)
{
	struct ltt_ust *ust = to_ust(d);
	struct ltt_app *app;
	uint32_t count = 0;
	size_t i, at;
	int ret;

	if (agent == LTT_DOMAIN_PYTHON)
		ltt_ust_push_sync_loggers(&ust->apps);
	at = reply->len;
	ltt_wbuf_put_u32(reply, 0);	/* patched below */
	pthread_mutex_lock(&ust->apps.lock);
	cds_list_for_each_entry(app, &ust->apps.list, node) {
		if (uid != LTT_LIST_EVERY_USER && app->uid != uid)
			continue;
		for (i = 0; agent == LTT_DOMAIN_PYTHON && i < app->nr_loggers; i++) {
			ltt_wbuf_put_u32(reply, (uint32_t)app->pid);
			ltt_wbuf_put_str(reply, app->procname);
			ltt_wbuf_put_str(reply, app->loggers[i]);
			ltt_wbuf_put_u32(reply, 0);
			ltt_wbuf_put_u32(reply, 0);
			count++;
		}
	}
	pthread_mutex_unlock(&ust->apps.lock);
	/* LTTng numbers its agents' domains as its own; one that does not answer is left out */
	ret = ltt_lagent_list(ust->lagent, (uint32_t)agent, uid, reply, &count);
	if (ret == -ENOMEM)
		return ret;
	return put_count(reply, at, count);
}

/* Release every program and stop the consumer; the sessions are destroyed. */
static void ust_fini(struct ltt_domain_impl *d)
{
	struct ltt_ust *ust = to_ust(d);
	struct ltt_app *app, *tmp;

	pthread_mutex_lock(&ust->apps.lock);
	cds_list_for_each_entry_safe(app, tmp, &ust->apps.list, node) {
		cds_list_del(&app->node);
		ltt_app_put(app);
	}
	ust->apps.nr = 0;
	pthread_mutex_unlock(&ust->apps.lock);
	ltt_ust_buffers_fini(&ust->buffers);
	pthread_mutex_destroy(&ust->apps.lock);
}

static int ust_relay_pending(struct ltt_domain_impl *d, struct ltt_session *session,
			     bool *ret_pending)
{
	return ltt_ust_buffers_relay_pending(&to_ust(d)->buffers, session, ret_pending);
}

static int ust_relay_status(struct ltt_domain_impl *d, struct ltt_session *session,
			    struct ltt_relay_desc *ret)
{
	return ltt_ust_buffers_relay_status(&to_ust(d)->buffers, session, ret);
}

/* A snapshot in @dir, or to @net's relay. */
static int ust_snapshot(struct ltt_domain_impl *d, struct ltt_session *session, const char *dir,
			struct ltt_relay_snap *net, uint64_t max_size,
			struct ltt_domain_snapshot *ret)
{
	struct ltt_consumer_snapshot_reply rep;
	int err;

	err = ltt_ust_buffers_snapshot(&to_ust(d)->buffers, session, dir, net, max_size, &rep);
	ret->packets = rep.packets;
	ret->bytes = rep.bytes;
	ret->packets_dropped = rep.packets_dropped;
	return err;
}

static int ust_rotate(struct ltt_domain_impl *d, struct ltt_session *session,
		      const char *old_root, const char *new_root, bool clear)
{
	return ltt_ust_buffers_rotate(&to_ust(d)->buffers, session, old_root, new_root, clear);
}

static int ust_relay_archive(struct ltt_domain_impl *d, struct ltt_session *session,
			     const char *from, const char *to, char *ret_dir, size_t len)
{
	return ltt_ust_buffers_relay_archive(&to_ust(d)->buffers, session, from, to, ret_dir,
					     len);
}

static uint64_t ust_written(struct ltt_domain_impl *d, struct ltt_session *session)
{
	return ltt_ust_buffers_written(session);
}

static int ust_regenerate_metadata(struct ltt_domain_impl *d, struct ltt_session *session)
{
	return ltt_ust_buffers_regenerate_metadata(&to_ust(d)->buffers, session);
}

/*
 * Each owner of sessions has a consumer of their own, and a thread: their
 * consumer's supervisor's (what a stalled one is owed is the ctrace layer's).
 */
static struct ltt_supervisor *ust_supervisor(struct ltt_domain_impl *d,
					     const struct ltt_session *session)
{
	struct ltt_ust_owner *o = ltt_ust_buffers_owner(&to_ust(d)->buffers, session);

	return o ? &o->consumer : NULL;
}

static int ust_channel_usage(struct ltt_domain_impl *d, struct ltt_session *session,
			     const struct ltt_channel *channel, struct ltt_domain_usage *ret)
{
	(void)d;
	return ltt_ust_buffers_usage(session, channel, ret);
}

static void ust_mem_usage(struct ltt_domain_impl *d, struct ltt_session *session,
			  const struct ltt_channel *channel,
			  void (*fn)(void *arg, const struct ltt_domain_mem *m), void *arg)
{
	(void)d;
	ltt_ust_buffers_mem(session, channel, fn, arg);
}

static int ust_reclaim(struct ltt_domain_impl *d, struct ltt_session *session,
		       const struct ltt_channel *channel, uint64_t older_than_ns, uint64_t *subbufs,
		       uint64_t *bytes)
{
	(void)d;
	return ltt_ust_buffers_reclaim(session, channel, older_than_ns, subbufs, bytes);
}

/*
 * regenerate statedump: every program records its state dump again; the
 * command returns once each confirmed it (@settle).
 */
static int ust_regenerate_statedump(struct ltt_domain_impl *d, struct ltt_session *session,
				    struct ltt_domain_settle *settle)
{
	struct ltt_ust *ust = to_ust(d);
	unsigned int n;

	if (!session->active)
		return -EBUSY;
	n = ltt_ust_push_statedump(&ust->apps, session, settle_acks(ust, settle));
	LTT_INFO("session '%s': %u user-space channels of programs asked for their state dump",
		 session->name, n);
	return 0;
}

static int ust_triggers_changed(struct ltt_domain_impl *d)
{
	return ltt_ust_triggers_sync_all(to_ust(d));
}

static const struct ltt_domain_ops ust_ops = {
	.snapshot = ust_snapshot,
	.rotate = ust_rotate,
	.relay_archive = ust_relay_archive,
	.written = ust_written,
	.regenerate_metadata = ust_regenerate_metadata,
	.regenerate_statedump = ust_regenerate_statedump,
	.check_channel = ust_check_channel,
	.check_rule = ust_check_rule,
	.start = ust_start,
	.update = ust_update,
	.stop = ust_stop,
	.destroy = ust_destroy,
	.channel_stats = ust_channel_stats,
	.channel_usage = ust_channel_usage,
	.mem_usage = ust_mem_usage,
	.reclaim = ust_reclaim,
	.channel_failure = ust_channel_failure,
	.relay_pending = ust_relay_pending,
	.relay_status = ust_relay_status,
	.list_events = ust_list_events,
	.list_unrecorded = ust_list_unrecorded,
	.list_loggers = ust_list_loggers,
	.triggers_changed = ust_triggers_changed,
	.settle_wait = ust_settle_wait,
	.fini = ust_fini,
	.supervisor = ust_supervisor,
};

/* The owner whose consumer died, for takeover_owned(). */
struct owner_died {
	struct ltt_ust *ust;
	const struct ltt_ust_owner *owner;
};

/* A live session of the owner in @arg: a new consumer takes its traces.  Session lock held. */
static void takeover_owned(struct ltt_session *session, void *arg)
{
	struct owner_died *died = arg;

	if (ltt_ust_buffers_owner(&died->ust->buffers, session) == died->owner)
		ltt_ust_buffers_takeover(&died->ust->buffers, session);
}

/*
 * A watch thread: the consumer of @owner's sessions died.  A new one takes
 * over their traces at once, so that recording goes on without waiting
 * for a command (snapshot traces wait for one: ltt_ctrace_consumer_died());
 * other owners' sessions have consumers of their own.
 * Sessions first (registry, then each session).
 */
static void consumer_died(void *arg, const struct ltt_ust_owner *owner)
{
	struct owner_died died = { .ust = arg, .owner = owner };

	ltt_session_each_live(died.ust->registry, takeover_owned, &died);
}

void ltt_ust_init(struct ltt_ust *ust, struct ltt_session_registry *registry,
		  const struct ltt_consumer_config *consumer)
{
	memset(ust, 0, sizeof(*ust));
	ust->domain.type = LTT_DOMAIN_USER;
	ust->domain.ops = &ust_ops;
	pthread_mutex_init(&ust->apps.lock, NULL);
	CDS_INIT_LIST_HEAD(&ust->apps.list);
	ltt_ust_buffers_init(&ust->buffers, consumer);
	ust->registry = registry;
	ltt_ust_buffers_set_takeover(&ust->buffers, consumer_died, ust);
	ust->max_events = LTT_APP_MAX_TRACEPOINTS;
}

/* A program registered: keep it, unless there are too many. */
static int app_added(void *arg, struct ltt_app *app)
{
	struct ltt_ust *ust = arg;
	int ret = 0;

	pthread_mutex_lock(&ust->apps.lock);
	if (ust->apps.nr >= LTT_UST_MAX_APPS) {
		ret = -ENOSPC;
	} else {
		ltt_app_get(app);
		cds_list_add_tail(&app->node, &ust->apps.list);
		ust->apps.nr++;
	}
	pthread_mutex_unlock(&ust->apps.lock);
	return ret;
}

static uint64_t tp_layout_at(const void *app, size_t pos)
{
	return ((const struct ltt_app *)app)->tps[pos]->layout;
}

/*
 * Keep the tracepoints an application announced: a description it
 * already gave (the same name and bytes) is skipped, and no application
 * keeps more than @max (ust->max_events), whatever it sends.  A name
 * given again with other fields is a description of its own (two
 * providers of one event: app-proto.h, minor 8); a program before minor
 * 8 gets commands that name the first, so it keeps that one alone.  An
 * index finds the duplicates in O(n), not O(n^2): a program may announce
 * tens of thousands.  Out of memory, the rest are dropped.
 */
static void app_keep_tracepoints(struct ltt_app *app, struct ltt_app_tracepoint **tps, size_t nr,
				 unsigned int max)
{
	struct ltt_app_tracepoint **all;
	struct ltt_name_index known, names;
	size_t i, over = 0;
	int ret = 0;

	if (!nr)
		return;	/* realloc() of 0 bytes would free app->tps */
	all = realloc(app->tps, (app->nr_tps + nr) * sizeof(*all));
	if (!all) {
		for (i = 0; i < nr; i++)
			free(tps[i]);
		return;
	}
	app->tps = all;
	ltt_name_index_init_tagged(&known, tp_name_at, tp_layout_at, app);
	ltt_name_index_init(&names, tp_name_at, app);
	for (i = 0; i < app->nr_tps && !ret; i++) {
		ret = ltt_name_index_add(&known, i);
		if (!ret && app->minor < LTT_APP_MINOR_LAYOUT)
			ret = ltt_name_index_add(&names, i);
	}
	for (i = 0; i < nr && !ret; i++) {
		if (ltt_name_index_find_tagged(&known, tps[i]->name, tps[i]->layout) >= 0) {
			/* the same description again: nothing new */
		} else if (app->minor < LTT_APP_MINOR_LAYOUT &&
			   ltt_name_index_find(&names, tps[i]->name) >= 0) {
			LTT_WARN_RL("%s (pid %ld) declares event %s twice with different fields: the second is ignored",
				    app->procname, (long)app->pid, tps[i]->name);
		} else if (app->nr_tps >= max) {
			over++;
		} else {
			all[app->nr_tps] = tps[i];
			ret = ltt_name_index_add(&known, app->nr_tps);
			if (!ret && app->minor < LTT_APP_MINOR_LAYOUT)
				ret = ltt_name_index_add(&names, app->nr_tps);
			if (!ret) {
				app->nr_tps++;
				continue;
			}
		}
		free(tps[i]);
	}
	for (; i < nr; i++)	/* the index could not grow: the rest dropped */
		free(tps[i]);
	ltt_name_index_fini(&known);
	ltt_name_index_fini(&names);
	if (over)
		LTT_WARN_RL("%s (pid %ld, uid %u) announces more than %u events: %zu are ignored, not traced (ltt-sessiond --app-max-events)",
			    app->procname, (long)app->pid, (unsigned int)app->uid, max, over);
}

/* A consumer whose current call waited this long is taken as stalled. */
#define STALLED_MS 100

/*
 * Work on one session for a program, run by the thread of the session
 * owner's supervisor (ltt_supervisor_post()): the only thread that waits
 * for that owner's consumer on a program's behalf, so a user's stalled
 * consumer delays nobody else's programs.
 */
struct owner_job {
	struct ltt_supervisor_job sj;
	struct ltt_ust *ust;
	struct ltt_session *session;	/* a reference */
	struct ltt_app *app;		/* a reference */
	struct ltt_app_done *done;	/* the message answered once pushed, or NULL */
	struct ltt_app_done_hold *hold;
	bool removed;			/* the program left: close its per-PID trace */
	uint32_t refused;		/* or: it described this many events, refused */
};

static void owner_job_free(struct owner_job *j)
{
	ltt_app_done_release(j->done, j->hold);
	ltt_session_put(j->ust->registry, j->session);
	ltt_app_put(j->app);
	free(j);
}

static void owner_job_cancel(struct ltt_supervisor_job *sj)
{
	owner_job_free(caa_container_of(sj, struct owner_job, sj));
}

static void close_pid_trace(struct ltt_ust *ust, struct ltt_session *session,
			    struct ltt_app *app);

/*
 * @app's @nr event descriptions were refused: each channel of @session
 * that would have traced it counts them (list shows them, stop warns).
 * Session lock held.
 */
static void count_refused(struct ltt_session *session, struct ltt_app *app, uint32_t nr)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct ltt_channel *channel;

	if (!dom || !ltt_ust_push_wanted(session, app))
		return;
	cds_list_for_each_entry(channel, &dom->channels, node)
		if (channel->enabled)
			ltt_add_sat(&channel->classes_refused, nr);
}

static void owner_job_run(struct ltt_supervisor_job *sj)
{
	struct owner_job *j = caa_container_of(sj, struct owner_job, sj);
	struct ltt_session *session = j->session;

	if (j->removed) {
		close_pid_trace(j->ust, session, j->app);
	} else if (j->refused) {
		ltt_session_lock(session);
		if (!session->destroyed)
			count_refused(session, j->app, j->refused);
		ltt_session_unlock(session);
	} else {
		/* Sessions first (registry, then each session), then the apps lock. */
		ltt_session_lock(session);
		if (!session->destroyed && session->active) {
			ltt_ust_push_one(&j->ust->buffers, &j->ust->apps, session, j->app);
			/* it has its buffers: a stalled consumer no longer holds it */
			ltt_app_done_arm(j->hold);
			ltt_ust_buffers_settle(&j->ust->buffers, session);
		}
		ltt_session_unlock(session);
	}
	owner_job_free(j);
}

/* ltt_app_done_hold()'s stalled: @arg is the owner. */
static bool owner_stalled(void *arg)
{
	struct ltt_ust_owner *o = arg;

	return ltt_supervisor_stalled(&o->consumer, STALLED_MS);
}

/*
 * @app's push to @session done here, on the app thread, when @session is
 * free and the push calls no consumer (ltt_ust_push_one_now()): the
 * program is answered without a hand-off to the owner's thread, whose
 * wake-up, and the program's by another CPU, lay on its start-up's path.
 * Returns whether it was done.
 */
static bool push_here(struct ltt_ust *ust, struct ltt_session *session, struct ltt_app *app)
{
	bool done = true;	/* a session stopped or destroyed: its job would do nothing */

	if (!ltt_session_trylock(session))
		return false;
	if (!session->destroyed && session->active)
		done = ltt_ust_push_one_now(&ust->buffers, &ust->apps, session, app);
	ltt_session_unlock(session);
	return done;
}

/*
 * Have @session's owner's thread push @app (or, @removed, close its
 * per-PID trace, or, @refused, count its refused descriptions); @session's
 * reference is taken.  With @done, the program's message waits for it
 * (unless that owner's consumer stalls).
 */
static void post_owner_job(struct ltt_ust *ust, struct ltt_session *session, struct ltt_app *app,
			   struct ltt_app_done *done, bool removed, uint32_t refused)
{
	struct ltt_ust_owner *o;
	struct owner_job *j;

	if (!removed && !refused && push_here(ust, session, app)) {
		ltt_session_put(ust->registry, session);
		return;
	}
	o = ltt_ust_buffers_owner(&ust->buffers, session);
	j = o ? calloc(1, sizeof(*j)) : NULL;
	if (!j) {
		LTT_WARN_RL("session '%s': out of memory for the work of %s (pid %ld)",
			    session->name, app->procname, (long)app->pid);
		ltt_session_put(ust->registry, session);
		return;
	}
	j->sj.run = owner_job_run;
	j->sj.cancel = owner_job_cancel;
	j->ust = ust;
	j->session = session;
	ltt_app_get(app);
	j->app = app;
	j->removed = removed;
	j->refused = refused;
	if (done) {
		j->done = done;
		j->hold = ltt_app_done_hold(done, owner_stalled, o);
		/*
		 * A program waits for its own user's stalled consumer until it
		 * has its buffers there (ltt_app_done_arm() after the push),
		 * never for another user's: that one releases it at once.
		 */
		if (session->uid != app->uid || refused)
			ltt_app_done_arm(j->hold);
	}
	if (ltt_supervisor_post(&o->consumer, &j->sj)) {
		LTT_WARN_RL("session '%s': no thread for the %s consumer's work: %s (pid %ld) not pushed",
			    session->name, o->what, app->procname, (long)app->pid);
		owner_job_free(j);
	}
}

/* post_owner_job() for each session, whoever owns it (@removed: those that may hold its trace). */
static void post_owner_jobs(struct ltt_ust *ust, struct ltt_app *app, struct ltt_app_done *done,
			    bool removed, uint32_t refused)
{
	struct ltt_session **sessions;
	size_t i, n;

	if (ltt_session_snapshot_list(ust->registry, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		/* a per-UID session has no per-PID trace of it to close: its owner sleeps on */
		if (removed && ltt_session_user_per_uid(sessions[i])) {
			LTT_DBG("%s (pid %ld) left: session '%s' is per-UID, nothing of it to close",
				app->procname, (long)app->pid, sessions[i]->name);
			ltt_session_put(ust->registry, sessions[i]);
			continue;
		}
		post_owner_job(ust, sessions[i], app, done, removed, refused);
	}
	free(sessions);
}

/*
 * A program announced tracepoints: keep them; each session's owner's
 * thread pushes what the active ones want, and the program's message is
 * answered once they all did (but those of stalled consumers).
 */
static void app_tracepoints(void *arg, struct ltt_app *app, struct ltt_app_tracepoint **tps,
			    size_t nr, struct ltt_app_done *done)
{
	struct ltt_ust *ust = arg;

	pthread_mutex_lock(&ust->apps.lock);
	app_keep_tracepoints(app, tps, nr, ust->max_events);
	pthread_mutex_unlock(&ust->apps.lock);
	post_owner_jobs(ust, app, done, false, 0);
	/* sent before REGISTER_DONE: the program notifies from its first event */
	ltt_ust_triggers_sync_app(ust, app);
}

/*
 * A program's event descriptions were refused: each session's owner's
 * thread counts them in the session's channels that would trace it,
 * before the program is answered (@done; never waiting for a stalled
 * consumer: the count needs none).
 */
static void app_refused(void *arg, struct ltt_app *app, uint32_t nr, struct ltt_app_done *done)
{
	if (nr)
		post_owner_jobs(arg, app, done, false, nr);
}

/* A program's notifier fired (its notification pipe). */
static void app_notified(void *arg, struct ltt_app *app, const struct ltt_app_notify *m)
{
	ltt_ust_trigger_notified(arg, app, m);
}

/* A program's python agent reported loggers: kept for list -p. */
static void app_loggers(void *arg, struct ltt_app *app, const char *const *names, size_t nr)
{
	struct ltt_ust *ust = arg;
	size_t i;

	pthread_mutex_lock(&ust->apps.lock);
	if (!app->loggers && nr)
		app->loggers = calloc(LTT_APP_MAX_LOGGERS, sizeof(*app->loggers));
	for (i = 0; app->loggers && i < nr; i++) {
		char *copy;

		if (app->nr_loggers >= LTT_APP_MAX_LOGGERS) {
			LTT_WARN_RL("%s (pid %ld) reports more than %u python loggers: list -p shows the first ones",
				    app->procname, (long)app->pid, LTT_APP_MAX_LOGGERS);
			break;
		}
		copy = strdup(names[i]);
		if (!copy)
			break;
		app->loggers[app->nr_loggers++] = copy;
	}
	pthread_mutex_unlock(&ust->apps.lock);
}

#define APP_EXIT_WAIT_MS 200

/*
 * Its connection ended: wait (bounded) until the program has exited for
 * good.  Its socket closes while it exits, before its last descriptors
 * (those holding its writer blocks, ringbuf.h): until they close too, the
 * consumer would take its torn slots for a live writer's and give up
 * their packets.  Only for a program with per-PID traces; one that closed
 * the connection but lives on costs the bound, once.
 */
static void wait_exited(pid_t pid)
{
	struct pollfd pfd;
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		return;	/* gone (ESRCH), or no pidfd: nothing to wait for */
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, APP_EXIT_WAIT_MS) < 0 && errno == EINTR)
		;
	close(fd);
}

/* An owner's thread: @app left; close its per-PID trace in @session. */
static void close_pid_trace(struct ltt_ust *ust, struct ltt_session *session,
			    struct ltt_app *app)
{
	struct ltt_ust_trace *trace;
	struct ltt_session *waiting;

	ltt_session_lock(session);
	trace = session->destroyed ? NULL : ltt_ust_buffers_find_trace(session, app, true);
	if (trace) {
		/* a wait on another process: the trace stays (the gate is held) */
		waiting = ltt_session_wait_begin();
		wait_exited(app->pid);
		ltt_session_wait_end(waiting);
		/* removed meanwhile: destroy's teardown, waiting at the gate, closes it */
		if (!session->destroyed)
			ltt_ust_buffers_close_trace(trace);
	}
	ltt_session_unlock(session);
}

/*
 * A program is gone: its per-PID traces are complete (nobody else writes
 * to them): each session's owner's thread closes them.  Drop the list's
 * reference.
 */
static void app_removed(void *arg, struct ltt_app *app)
{
	struct ltt_ust *ust = arg;

	pthread_mutex_lock(&ust->apps.lock);
	cds_list_del(&app->node);
	ust->apps.nr--;
	pthread_mutex_unlock(&ust->apps.lock);
	post_owner_jobs(ust, app, NULL, true, 0);
	if (ust->maps)	/* its per-process counters: dropped, or summed into the shared set */
		ltt_maps_process_gone(ust->maps, app->pid);
	LTT_INFO_RL("%s (pid %ld) unregistered", app->procname, (long)app->pid);
	ltt_app_put(app);
}

void ltt_ust_app_listener(struct ltt_ust *ust, struct ltt_app_listener *ret_listener)
{
	*ret_listener = (struct ltt_app_listener){
		.added = app_added,
		.tracepoints = app_tracepoints,
		.loggers = app_loggers,
		.notified = app_notified,
		.refused = app_refused,
		.removed = app_removed,
		.arg = ust,
	};
}
