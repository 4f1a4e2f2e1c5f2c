/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data-loop.h - a data thread as data.c starts it and data-loop.c runs it:
 * the thread's state and the two entries of its loop that data.c hands
 * over (the requests' job, the relays' live timer).  Private to data.c
 * and data-loop.c.
 */
#ifndef LTT_CONSUMERD_DATA_LOOP_H
#define LTT_CONSUMERD_DATA_LOOP_H

#include <pthread.h>
#include <stdbool.h>

#include "common/base/evloop.h"
#include "consumerd/data/data-relay.h"
#include "consumerd/data/data-req.h"
#include "consumerd/source/source.h"

struct ltt_chan_part;
struct ltt_relay;

struct ltt_data_thread {
	pthread_t thread;
	unsigned int index;		/* in all->threads */
	struct ltt_data_threads *all;	/* the consumer's data threads */
	struct ltt_evloop *loop;	/* requests are posted to it */

	pthread_mutex_t lock;		/* leaf; protects req->done, req->status, started */
	pthread_cond_t cond;		/* a request is done, or the thread started */
	bool started;			/* under lock: the thread has its scheduling */

	/* this data thread only */
	struct ltt_chan_part *parts;	/* added, not yet removed */
	struct ltt_data_relays relays;	/* LTT_DATA_RELAY_THREAD's (data-relay.c) */
	struct ltt_chan_part *ending;	/* removed, kernel streams not ended */
	unsigned int nr_busy;		/* streams with the busy flag */
	struct ltt_scratch scratch;	/* overwrite-mode copies */
	struct ltt_evloop_timer *publish_tick;	/* from the first statistics page */
	bool paused;			/* LTTng's test point: no stream is drained */
};

/* The consumer's data threads; immutable once started. */
struct ltt_data_threads {
	unsigned int nr;
	unsigned int nr_cpus;		/* configured: a channel has at most as many streams */
	struct ltt_data_thread *threads[LTT_DATA_THREADS_MAX];
};

/**
 * ltt_data_loop_request() - the job of a request posted to a data thread
 * (struct ltt_data_req's job): carry it out, then mark it done under the
 * thread's lock and wake its caller, now or later (a REMOVE_CHANNEL whose
 * kernel streams have not ended yet)
 *
 * The request's thread (req->dt), in its loop.  Each request type's
 * status is documented at its handler in data-loop.c.
 */
void ltt_data_loop_request(struct ltt_evloop *loop, struct ltt_evloop_job *job);

/**
 * ltt_data_loop_live_tick() - a relay's live timer expired: data-relay.h's
 * live_tick hook, which data.c sets
 *
 * @dt's thread (LTT_DATA_RELAY_THREAD).
 */
void ltt_data_loop_live_tick(struct ltt_data_thread *dt, const struct ltt_relay *relay);

/**
 * ltt_data_loop_live_pending() - data-relay.h's live_pending hook: does a
 * stream of @relay's channels hold events in its open packet?
 *
 * @dt's thread (LTT_DATA_RELAY_THREAD).
 */
bool ltt_data_loop_live_pending(struct ltt_data_thread *dt, const struct ltt_relay *relay);

/*
 * Set by LTTng's test point consumerd_thread_data_poll (its name is
 * LTTng's, exported for the point's function: common/base/testpoint.h):
 * while it is, the data threads drain no stream.  Atomic.
 */
extern int data_consumption_paused;

/**
 * ltt_data_loop_testpoints() - LTTng's test points in @dt's loop, when
 * they are on: consumerd_thread_data (thread 0, once), then
 * consumerd_thread_data_poll every LTT_TESTPOINT_POLL_MS
 *
 * @dt's thread, before its loop runs.
 */
void ltt_data_loop_testpoints(struct ltt_data_thread *dt);

#endif /* LTT_CONSUMERD_DATA_LOOP_H */
