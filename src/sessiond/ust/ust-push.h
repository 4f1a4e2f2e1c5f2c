/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust-push.h - the program push protocol of the user-space domain: the
 * commands that make each registered program record what the active
 * sessions want (CHANNEL_ADD with the buffers' fds, EVENT_ENABLE for each
 * of its events an enabled rule of the channel matches, their disabling
 * and removal), and the acks that say a program applied them.
 *
 * A push is in two parts: the buffers and event ids, which the consumer
 * is told of, under the session lock only (ltt_ust_push_prepare()); then
 * the commands, under the session lock and apps->lock (each under the
 * program's own lock, bounded: app.h), which never block.  So no call to
 * a consumer is made under apps->lock, which every program's
 * registration and every session's start and stop need.  Acks are awaited
 * once every lock is released, since the app thread needs them to read
 * the acks.
 */
#ifndef LTT_SESSIOND_UST_PUSH_H
#define LTT_SESSIOND_UST_PUSH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <urcu/list.h>

#include "sessiond/app/app.h"
#include "sessiond/model/session.h"
#include "sessiond/ust/ust-buffers.h"

#define LTT_UST_MAX_APPS 4096

/* The registered programs. */
struct ltt_ust_apps {
	pthread_mutex_t lock;		/* after the session locks */
	struct cds_list_head list;	/* ltt_app (app->node) */
	unsigned int nr;
};

/* Commands sent to programs, to wait for once every lock is released. */
struct ltt_ust_ack {
	struct ltt_app *app;		/* a reference */
	uint32_t seq;			/* this command and all before it */
};

struct ltt_ust_acks {
	struct ltt_ust_ack *v;
	size_t n;
	size_t cap;
};

/**
 * ltt_ust_push_prepare() - what @app needs to record in an active @session,
 * made: its trace and channel buffers, the event ids of those of @tps the
 * channels' rules want, each handed to the consumer (its calls may wait
 * for their deadlines)
 * @tps: @app's tracepoints, a copy of the array taken under apps->lock
 *       (the tracepoints live as long as @app)
 *
 * Session lock held, apps->lock NOT held: a stalled consumer then holds
 * only its owner's sessions, never the programs of others.
 */
void ltt_ust_push_prepare(struct ltt_ust_buffers *b, struct ltt_session *session,
			  struct ltt_app *app, struct ltt_app_tracepoint *const *tps, size_t nr);

/**
 * ltt_ust_push_wanted() - does @app get @session's channels and events
 * now?  The one decision: the session is active and has user-space
 * channels, the program is alive, and every process tracker of the
 * session's user-space domain includes it (its pid, uid and gid:
 * tracker.h).  Session lock held.
 */
bool ltt_ust_push_wanted(struct ltt_session *session, const struct ltt_app *app);

/**
 * ltt_ust_push_app() - bring @app up to date with an active @session: the
 * channels, the events, as far as ltt_ust_push_prepare() made their
 * buffers and ids (never calls the consumer); a program the session does
 * not want (ltt_ust_push_wanted(): untracked) gets nothing, and the
 * channels it had are disabled.  A channel it gets enabled is enabled
 * once more after its events (CHANNEL_ENABLE), for the program's state
 * dump, as at a restart.
 * @last: receives the seq of the last command sent, if any was
 *
 * Session lock and apps->lock held.
 */
void ltt_ust_push_app(struct ltt_ust_buffers *b, struct ltt_session *session, struct ltt_app *app,
		      uint32_t *last);

/**
 * ltt_ust_push_agent() - tell @app's python agent the rules of python
 * channel @channel (a session's, or a python trigger's rule) under @key
 * (AGENT_RULES), when they changed since @ac was last told; nothing for a
 * channel that is not python or a program without an agent
 * @last: receives the seq of the command sent, if one was
 *
 * apps->lock held.  Returns 0 or -errno.
 */
int ltt_ust_push_agent(struct ltt_app *app, struct ltt_app_chan *ac,
		       const struct ltt_channel *channel, uint64_t key, uint32_t *last);

/**
 * ltt_ust_push_one() - ltt_ust_push_prepare() then ltt_ust_push_app() for
 * one program (not waited for); session lock held, takes apps->lock
 * around each part but the consumer's
 */
void ltt_ust_push_one(struct ltt_ust_buffers *b, struct ltt_ust_apps *apps,
		      struct ltt_session *session, struct ltt_app *app);

/**
 * ltt_ust_push_one_now() - ltt_ust_push_app() for one program when that
 * is all its push needs: ltt_ust_push_prepare() would make nothing (the
 * trace its consumer holds, every channel, the class of each event the
 * channels' rules want) and no trace of @session owes its consumer, so
 * that no consumer is called; session lock held, takes apps->lock
 *
 * Returns whether it pushed; false: ltt_ust_push_one() is still to run.
 */
bool ltt_ust_push_one_now(struct ltt_ust_buffers *b, struct ltt_ust_apps *apps,
			  struct ltt_session *session, struct ltt_app *app);

/**
 * ltt_ust_push_all() - ltt_ust_push_app() for every program, then
 * ltt_ust_buffers_settle(); session lock held, takes apps->lock
 * @acks: receives what to wait for; NULL: nothing is waited for
 */
void ltt_ust_push_all(struct ltt_ust_buffers *b, struct ltt_ust_apps *apps,
		      struct ltt_session *session, struct ltt_ust_acks *acks);

/**
 * ltt_ust_push_statedump() - have every program record its state dump
 * (lttng_ust_statedump:*) again in each of @session's channels it has
 * enabled: CHANNEL_ENABLE of a channel enabled already (app-proto.h);
 * session lock held, takes apps->lock.  The sends never block; each
 * program acks once it recorded the dump, so waiting for @acks (no lock
 * held) is waiting for the dumps: a program that exits right after the
 * command returns has recorded its own (one asked but never waited for
 * could exit before reading the command, and its dump was lost).
 * @acks: as for ltt_ust_push_all()
 *
 * Returns the number of channels asked, over all programs.
 */
unsigned int ltt_ust_push_statedump(struct ltt_ust_apps *apps, struct ltt_session *session,
				    struct ltt_ust_acks *acks);

/**
 * ltt_ust_push_disable() - disable @session's channels in every program;
 * session lock held, takes apps->lock
 * @acks: as for ltt_ust_push_all()
 */
void ltt_ust_push_disable(struct ltt_ust_apps *apps, struct ltt_session *session,
			  struct ltt_ust_acks *acks);

/**
 * ltt_ust_push_remove() - remove @session's channels from every program
 * (not waited for); session lock held, takes apps->lock
 */
void ltt_ust_push_remove(struct ltt_ust_apps *apps, struct ltt_session *session);

/**
 * ltt_ust_push_acks_init() - nothing to wait for
 */
void ltt_ust_push_acks_init(struct ltt_ust_acks *acks);

/**
 * ltt_ust_push_acks_add() - also wait for @app's command @seq (and those
 * before it); @acks NULL, or no memory: not waited for
 */
void ltt_ust_push_acks_add(struct ltt_ust_acks *acks, struct ltt_app *app, uint32_t seq);

/**
 * ltt_ust_push_acks_wait() - wait (3 s at most for them all) until every
 * program confirmed what it was sent, then empty the set; no lock held
 * @what: named in the warning about a program that does not answer; NULL
 *        to empty the set without waiting
 */
void ltt_ust_push_acks_wait(struct ltt_ust_acks *acks, const char *what);

/**
 * ltt_ust_push_sync_loggers() - have each program with ltt's python agent
 * (its event, or loggers it reported) send the loggers it knows of now
 * (LOGGERS_SYNC: they come before its ack), and wait for them, 3 s at most
 * for them all; no lock held
 *
 * So a logger made before a listing is listed, as LTTng's daemon asks its
 * agents at list time.  A program that does not answer in time is logged
 * and kept (a question, not a change: not dropped); one before minor 9 is
 * not asked.
 */
void ltt_ust_push_sync_loggers(struct ltt_ust_apps *apps);

#endif /* LTT_SESSIOND_UST_PUSH_H */
