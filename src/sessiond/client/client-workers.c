// SPDX-License-Identifier: GPL-2.0-only
/*
 * client-workers.c - the client thread's workers, one per user with
 * commands under way (client-workers.h): started on a user's first
 * command, kept WORKER_IDLE_NS after the last, stopped to make room.
 */
#include <stdint.h>
#include <sys/types.h>

#include "common/base/evloop.h"
#include "sessiond/client/client-workers.h"
#include "sessiond/client/worker.h"

/* Stop @t's worker @i, which has no job; its slot takes the last one. */
static void uid_worker_stop(struct ltt_client_thread *t, unsigned int i)
{
	ltt_worker_stop(t->workers[i].worker);	/* nothing left in it */
	t->workers[i] = t->workers[--t->nr_workers];
}

/*
 * Stop the workers idle since @before (all idle ones: UINT64_MAX) until
 * fewer than @max run.  Returns when the oldest idle one left became idle,
 * or 0 when none is.
 */
static uint64_t uid_workers_trim(struct ltt_client_thread *t, uint64_t before, unsigned int max)
{
	uint64_t oldest = 0;
	unsigned int i = 0;

	while (i < t->nr_workers) {
		struct uid_worker *w = &t->workers[i];

		if (!w->jobs && w->idle_since < before && t->nr_workers >= max) {
			uid_worker_stop(t, i);	/* the last one moved here: look at it */
			continue;
		}
		if (!w->jobs && (!oldest || w->idle_since < oldest))
			oldest = w->idle_since;
		i++;
	}
	return oldest;
}

/* The client thread's idle timer: stop the workers idle for WORKER_IDLE_NS. */
void ltt_client_workers_idle(struct ltt_evloop *loop, void *arg)
{
	struct ltt_client_thread *t = arg;
	uint64_t now = ltt_evloop_now_ns(), oldest;

	(void)loop;
	oldest = uid_workers_trim(t, now - WORKER_IDLE_NS + 1, 0);
	if (oldest)
		ltt_evloop_timer_arm(t->idle, oldest + WORKER_IDLE_NS - now, 0);
}

/*
 * The worker of @uid's commands, started if none runs; NULL when it can't
 * be (no memory, or @max workers run with a job).  Workers kept idle make
 * room for it.
 */
struct uid_worker *ltt_client_worker_get(struct ltt_client_thread *t, uid_t uid,
					  unsigned int max)
{
	struct uid_worker *w;
	unsigned int i;

	for (i = 0; i < t->nr_workers; i++)
		if (t->workers[i].uid == uid)
			return &t->workers[i];
	if (t->nr_workers >= max)
		uid_workers_trim(t, UINT64_MAX, max);
	if (t->nr_workers >= max)
		return NULL;
	w = &t->workers[t->nr_workers];
	if (ltt_worker_start(&w->worker))
		return NULL;
	w->uid = uid;
	w->jobs = 0;
	t->nr_workers++;
	return w;
}

/* @w, just started, was not used after all. */
void ltt_client_worker_put_idle(struct ltt_client_thread *t, struct uid_worker *w)
{
	uid_worker_stop(t, (unsigned int)(w - t->workers));
}

/*
 * One command of @uid's done: with the last one, its worker is idle, kept
 * for WORKER_IDLE_NS (stopped at once without the idle timer).
 */
void ltt_client_worker_put(struct ltt_client_thread *t, uid_t uid)
{
	unsigned int i;

	for (i = 0; i < t->nr_workers; i++) {
		if (t->workers[i].uid != uid)
			continue;
		if (--t->workers[i].jobs)
			return;
		if (!t->idle) {
			uid_worker_stop(t, i);
			return;
		}
		t->workers[i].idle_since = ltt_evloop_now_ns();
		if (!ltt_evloop_timer_armed(t->idle))
			ltt_evloop_timer_arm(t->idle, WORKER_IDLE_NS, 0);
		return;
	}
}
