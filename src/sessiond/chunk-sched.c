// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk-sched.c - the rotation thread (see chunk-sched.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common/evloop.h"
#include "common/log.h"
#include "sessiond/chunk-sched.h"
#include "sessiond/chunk.h"

struct ltt_chunk_sched {
	struct ltt_session_registry *reg;
	const struct ltt_domains *set;
	struct ltt_evloop *loop;
	struct ltt_evloop_timer *tick;
	pthread_t thread;
};

/* Is @session due for a scheduled rotation?  Session lock held. */
static bool due(struct ltt_chunk_sched *cs, struct ltt_session *session)
{
	uint64_t written;

	if (session->destroyed || !session->active || !session->chunk_begin)
		return false;
	if (session->rotate_timer_us && ltt_evloop_now_ns() >= session->rotate_next_ns)
		return true;
	if (!session->rotate_size)
		return false;
	written = ltt_chunk_written(cs->set, session);
	return written > session->rotate_written &&
	       written - session->rotate_written >= session->rotate_size;
}

static void on_tick(struct ltt_evloop *loop, void *arg)
{
	struct ltt_chunk_sched *cs = arg;
	struct ltt_session **sessions;
	char archive[LTT_PATH_MAX];
	enum ltt_error_code code;
	size_t i, n;

	if (ltt_session_snapshot_list(cs->reg, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&sessions[i]->lock);
		if ((sessions[i]->rotate_timer_us || sessions[i]->rotate_size) &&
		    due(cs, sessions[i])) {
			code = ltt_chunk_rotate(cs->set, sessions[i], archive);
			if (code) {
				LTT_ERR("session '%s': scheduled rotation failed: %s",
					sessions[i]->name, ltt_strerror(code));
				/* not again at every tick: at the next period */
				sessions[i]->rotate_next_ns = ltt_evloop_now_ns() +
					(sessions[i]->rotate_timer_us ?
					 sessions[i]->rotate_timer_us * 1000 : 1000000000ULL);
				sessions[i]->rotate_written = ltt_chunk_written(cs->set,
										sessions[i]);
			}
		}
		pthread_mutex_unlock(&sessions[i]->lock);
		ltt_session_put(cs->reg, sessions[i]);
	}
	free(sessions);
}

static void *run(void *arg)
{
	struct ltt_chunk_sched *cs = arg;

	ltt_evloop_run(cs->loop);
	return NULL;
}

int ltt_chunk_sched_start(struct ltt_session_registry *reg, const struct ltt_domains *set,
			  struct ltt_chunk_sched **ret_sched)
{
	struct ltt_chunk_sched *cs = calloc(1, sizeof(*cs));
	sigset_t all, old;
	int ret;

	if (!cs)
		return -ENOMEM;
	cs->reg = reg;
	cs->set = set;
	ret = ltt_evloop_create(&cs->loop);
	if (!ret)
		ret = ltt_evloop_timer_create(cs->loop, on_tick, cs, &cs->tick);
	if (ret)
		goto fail;
	ltt_evloop_timer_arm(cs->tick, LTT_CHUNK_SCHED_TICK_MS * 1000000ULL,
			     LTT_CHUNK_SCHED_TICK_MS * 1000000ULL);
	/* signals go to the main thread's signalfd */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&cs->thread, NULL, run, cs);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto fail;
	*ret_sched = cs;
	return 0;
fail:
	ltt_evloop_timer_destroy(cs->tick);
	ltt_evloop_destroy(cs->loop);
	free(cs);
	return ret;
}

void ltt_chunk_sched_stop(struct ltt_chunk_sched *cs)
{
	if (!cs)
		return;
	ltt_evloop_stop(cs->loop);
	pthread_join(cs->thread, NULL);
	ltt_evloop_timer_destroy(cs->tick);
	ltt_evloop_destroy(cs->loop);
	free(cs);
}
