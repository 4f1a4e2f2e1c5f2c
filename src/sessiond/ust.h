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
 *   ltt_session_domain.state   per session (user domain), under the session lock
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
#include "sessiond/domain.h"
#include "sessiond/session.h"

#define LTT_UST_MAX_APPS 4096
#define LTT_UST_MAX_DEAD_CONSUMERS 64	/* past it, no new consumer: said in the log */

struct ltt_app;

struct ltt_ust {
	struct ltt_domain_impl domain;	/* serves LTT_DOMAIN_USER (domain.h) */
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
 * ltt_ust_init() - empty user-space domain state; ust->domain serves it
 * (domain.h), to register with ltt_domains_register()
 */
void ltt_ust_init(struct ltt_ust *ust, const char *consumerd_path, int verbose);

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

#endif /* LTT_SESSIOND_UST_H */
