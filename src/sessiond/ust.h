/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust.h - the user-space domain of the session daemon: registered
 * applications, the buffers (traces and channels) of each session, event
 * ids and metadata, and the flows that tie them together (start, stop,
 * rule changes, application arrival and departure, destroy).
 *
 * Objects:
 *   ltt_ust (one)              apps list, the consumer, key counter
 *    └─ ltt_app *N             a registered process (refcounted)
 *   ltt_session.ust            per session, under the session lock
 *    └─ ltt_ust_trace *N       one CTF trace: per-UID (session, uid) or
 *        │                     per-PID (session, app)
 *        └─ ltt_ust_chan *N    one channel's buffers in that trace:
 *                              shared-memory and wakeup fds per CPU, event
 *                              classes (id, layout)
 *
 * Lock order: registry, session, ust->apps_lock, app->lock, consumer.
 * Nothing waits for an application while holding a lock: acks are awaited
 * after every lock is released (the app thread needs the locks to make
 * progress).
 */
#ifndef LTT_SESSIOND_UST_H
#define LTT_SESSIOND_UST_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <urcu/list.h>
#include <uuid/uuid.h>

#include "common/app-proto.h"
#include "sessiond/consumer.h"
#include "sessiond/session.h"

#define LTT_UST_MAX_APPS 4096
#define LTT_UST_MAX_DEAD_CONSUMERS 64	/* past it, no new consumer: said in the log */

struct ltt_app;

struct ltt_ust {
	pthread_mutex_t apps_lock;
	struct cds_list_head apps;	/* ltt_app, under apps_lock */
	unsigned int nr_apps;
	pthread_mutex_t consumer_lock;	/* guards spawning; after apps_lock */
	struct ltt_consumer *consumer;	/* spawned on first need */
	uint64_t consumer_gen;		/* how many were spawned */
	/* Consumers found dead, freed at the end (pointers may be in use). */
	struct ltt_consumer *dead[LTT_UST_MAX_DEAD_CONSUMERS];
	unsigned int nr_dead;
	const char *consumerd_path;	/* NULL: ltt_consumer_path() default */
	int verbose;
	uint64_t next_key;		/* atomic */
	unsigned int nr_cpus;		/* streams per channel */
	char hostname[256];
	uuid_t boot_id;			/* the monotonic clock's UUID */
};

/**
 * ltt_ust_init() - empty user-space domain state
 */
void ltt_ust_init(struct ltt_ust *ust, const char *consumerd_path, int verbose);

/**
 * ltt_ust_fini() - release every application and stop the consumer; the
 * sessions must be destroyed first
 */
void ltt_ust_fini(struct ltt_ust *ust);

/* Commands sent to programs, to wait for once every lock is released. */
struct ltt_ust_ack {
	struct ltt_app *app;	/* a reference */
	uint32_t seq;
};

struct ltt_ust_acks {
	struct ltt_ust_ack *v;
	size_t n;
	size_t cap;
};

/**
 * ltt_ust_acks_init() - an empty set of acks to wait for
 */
void ltt_ust_acks_init(struct ltt_ust_acks *acks);

/**
 * ltt_ust_acks_wait() - wait (at most 3 s each) until every program
 * confirmed what it was sent, then release the set; no lock may be held
 * (the app thread needs them to read acks)
 * @what: named in the warning about a program that does not answer;
 *        NULL to release without waiting
 */
void ltt_ust_acks_wait(struct ltt_ust_acks *acks, const char *what);

/**
 * ltt_ust_session_start() - create the buffers of a session for every
 * registered application and enable recording; session lock held
 * @acks: receives the commands to wait for, after unlocking, before
 *        telling the user that tracing started
 *
 * Returns 0 or a negated ltt error code.
 */
int ltt_ust_session_start(struct ltt_ust *ust, struct ltt_session *session,
			  struct ltt_ust_acks *acks);

/**
 * ltt_ust_session_update() - push rule and channel changes of an active
 * session to the applications; session lock held
 * @acks: as for ltt_ust_session_start()
 */
void ltt_ust_session_update(struct ltt_ust *ust, struct ltt_session *session,
			    struct ltt_ust_acks *acks);

/**
 * ltt_ust_session_stop() - stop recording and, if @wait, return once
 * everything recorded is on disk
 * @session: a reference; NOT locked (this waits for applications)
 *
 * Returns 0 or a negated ltt error code.
 */
int ltt_ust_session_stop(struct ltt_ust *ust, struct ltt_session *session, bool wait);

/**
 * ltt_ust_session_destroy() - remove a stopped session's buffers from the
 * applications and the consumer; session lock held
 */
void ltt_ust_session_destroy(struct ltt_ust *ust, struct ltt_session *session);

/**
 * ltt_ust_channel_stats() - lost events and packets of a channel, summed
 * over its traces; session lock held
 */
void ltt_ust_channel_stats(struct ltt_ust *ust, struct ltt_session *session,
			   const struct ltt_channel *channel, uint64_t *ret_events_lost,
			   uint64_t *ret_packets_lost);

/*
 * Application lifecycle, called by the app thread (app.c).
 */

/**
 * ltt_ust_app_add() - record a newly registered application
 * Returns 0, -LTT_ERR_LIMIT or -LTT_ERR_NOMEM.
 */
int ltt_ust_app_add(struct ltt_ust *ust, struct ltt_app *app);

/**
 * ltt_ust_app_tracepoints() - an application announced tracepoints: keep
 * them and push what the active sessions want of them
 * @tps: @nr descriptions, taken
 */
void ltt_ust_app_tracepoints(struct ltt_ust *ust, struct ltt_session_registry *reg,
			     struct ltt_app *app, struct ltt_app_tracepoint **tps, size_t nr);

/**
 * ltt_ust_app_remove() - an application is gone: flush and close its
 * per-PID traces, forget its channels, drop the list's reference
 */
void ltt_ust_app_remove(struct ltt_ust *ust, struct ltt_session_registry *reg,
			struct ltt_app *app);

/**
 * ltt_ust_list_tracepoints() - every registered application's tracepoints
 * @with_fields: include field descriptions
 * @reply: receives {u32 count, count x {u32 pid, str procname, str name,
 *         i32 loglevel, u32 nr_fields, nr_fields x {str name, str type}}}
 */
void ltt_ust_list_tracepoints(struct ltt_ust *ust, bool with_fields, struct ltt_wbuf *reply);

#endif /* LTT_SESSIOND_UST_H */
