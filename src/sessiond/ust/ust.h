/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust.h - the user-space domain of the session daemon: one implementation
 * of the domain interface (domain.h), fed by the app thread with the
 * programs' arrival, tracepoints and departure (ltt_app_listener).
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   ust.[ch]       its operations, programs coming and going
 *   ust-push.[ch]  its program push protocol (CHANNEL_ADD, EVENT_ENABLE, ...; acks; LOGGERS_SYNC)
 *   ust-trace-ops.c snapshots, rotations, regeneration, relay queries
 *   ust-buffers.[ch] its traces and channel buffers, per session
 *   ust-buffers-stats.c what they hold and lost: memory, reclaim, usage, losses
 *   ust-buffers-internal.h what ust-buffers*.c, ust-handover.c and ust-chan.c share
 *   ust-handover.c its traces in the consumer-trace layer; closing traces
 *   ust-chan.c     what both share of a trace and its channels: keys, paths, counters
 *   ust-meta.[ch]  its event ids and metadata text
 *   ust-shm.[ch]   its buffers as files (--shm-path), for ltt-crash
 *   ust-trigger.c  event-rule-matches triggers in programs (notifiers)
 *
 * Its parts, top down:
 *   ust.c          the domain's operations and the programs' lifecycle
 *   ust-push.[ch]  the program push protocol (CHANNEL_ADD, EVENT_ENABLE, ...; acks; LOGGERS_SYNC)
 *   ust-buffers.[ch] traces and channel buffers per session, and the
 *                  domain's consumer daemon (supervisor.h)
 *   ust-meta.[ch]  event ids and metadata text
 *
 * Objects:
 *   ltt_ust (one)              the programs, the buffers' shared state
 *    └─ ltt_app *N             a registered process (refcounted, app.h)
 *   ltt_session_domain.state   per session: its traces (ust-buffers.h)
 *
 * Lock order: registry, session, ust->apps.lock, app->lock, the
 * supervisor's, the consumer's.  Nothing waits for a program while holding
 * a lock: acks are awaited after every lock is released (the app thread
 * needs the locks to make progress).
 */
#ifndef LTT_SESSIOND_UST_H
#define LTT_SESSIOND_UST_H

#include "sessiond/app/app.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/lust/lust.h"
#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"
#include "sessiond/model/map.h"
#include "sessiond/model/trigger.h"
#include "sessiond/ust/ust-buffers.h"
#include "sessiond/ust/ust-push.h"

struct ltt_ust {
	struct ltt_domain_impl domain;	/* serves LTT_DOMAIN_USER */
	struct ltt_ust_apps apps;
	struct ltt_ust_buffers buffers;
	struct ltt_session_registry *registry;	/* borrowed: the sessions to push to */
	struct ltt_triggers *triggers;	/* borrowed: the daemon's, NULL for none */
	struct ltt_maps *maps;		/* borrowed: the daemon's map channels, NULL for none */
	struct ltt_lagent *lagent;	/* borrowed: LTTng's agents, NULL for none */
	struct ltt_lust *lust;		/* borrowed: LTTng-UST's own programs, NULL for none */
	unsigned int max_events;	/* events kept per program, <= LTT_APP_MAX_TRACEPOINTS */
};

/**
 * ltt_ust_init() - the user-space domain, no program yet; ust->domain
 * serves it, to register with ltt_domains_register() (released by its
 * ops->fini)
 * @registry: borrowed for the domain's life
 * @consumer: how to start the consumers (copied; its path is borrowed
 *            for the domain's life)
 */
void ltt_ust_init(struct ltt_ust *ust, struct ltt_session_registry *registry,
		  const struct ltt_consumer_config *consumer);

/**
 * ltt_ust_app_listener() - what the app thread calls as programs come,
 * announce tracepoints and go (app.h); @ust is borrowed
 */
void ltt_ust_app_listener(struct ltt_ust *ust, struct ltt_app_listener *ret_listener);

/* ust-trigger.c: event-rule-matches triggers in programs (notifiers) */

/**
 * ltt_ust_triggers_sync_app() - give @app the notifiers of the triggers
 * that may act on it and the events of its their rules take; take away
 * those of triggers gone.  No lock held; commands are sent, not awaited.
 */
void ltt_ust_triggers_sync_app(struct ltt_ust *ust, struct ltt_app *app);

/**
 * ltt_ust_triggers_sync_all() - ltt_ust_triggers_sync_app() for every
 * program and LTTng's agents, then wait (bounded) for their acks.  No
 * lock held.  Returns 0, or ltt_lagent_sync_triggers()'s failure (an
 * agent refused a rule).
 */
int ltt_ust_triggers_sync_all(struct ltt_ust *ust);

/**
 * ltt_ust_trigger_notified() - @app's notifier @m->key fired: fire its
 * trigger (ignored when removed, or when it may not act on @app).  The
 * app thread's, no lock held.
 */
void ltt_ust_trigger_notified(struct ltt_ust *ust, struct ltt_app *app,
			      const struct ltt_app_notify *m);

#endif /* LTT_SESSIOND_UST_H */
