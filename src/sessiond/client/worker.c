// SPDX-License-Identifier: GPL-2.0-only
/*
 * worker.c - a thread running posted jobs (see worker.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "common/proto/lttng-health.h"
#include "sessiond/client/worker.h"

struct ltt_worker {
	pthread_t tid;
	struct ltt_evloop *loop;
};

int ltt_worker_start(struct ltt_worker **ret_worker)
{
	struct ltt_worker *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	ret = ltt_evloop_create(&w->loop);
	/* the client threads' command workers: LTTng's command thread's health slot */
	if (!ret)
		ltt_evloop_set_tag(w->loop, LTT_LTTNG_HEALTH_CMD);
	if (!ret)
		ret = ltt_evloop_thread_start(w->loop, "worker", &w->tid);
	if (ret) {
		ltt_evloop_destroy(w->loop);
		free(w);
		return ret;
	}
	*ret_worker = w;
	return 0;
}

void ltt_worker_submit(struct ltt_worker *w, struct ltt_evloop_job *job)
{
	ltt_evloop_post(w->loop, job);
}

struct ltt_evloop_job *ltt_worker_stop(struct ltt_worker *w)
{
	struct ltt_evloop_job *left;

	if (!w)
		return NULL;
	ltt_evloop_stop(w->loop);
	pthread_join(w->tid, NULL);
	left = ltt_evloop_take_jobs(w->loop);
	ltt_evloop_destroy(w->loop);
	free(w);
	return left;
}
