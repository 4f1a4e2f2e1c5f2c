// SPDX-License-Identifier: GPL-2.0-only
/*
 * data.c - the data threads: starting and stopping them, placing a
 * channel's parts on them, and the command thread's calls.  A call posts
 * its request to a thread's loop, which runs it (data-loop.c), and waits
 * for it to be done.  A channel request is posted to each of the
 * channel's parts' threads, each with its own copy (ltt_data_call()), and
 * the copies' results are summed.  data.h says which thread runs what.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/testpoint.h"
#include "common/proto/lttng-health.h"
#include "common/base/log.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/data/data-loop.h"
#include "consumerd/data/data-relay.h"
#include "consumerd/data/data.h"
#include "consumerd/data/prio.h"
#include "consumerd/trace/channel.h"

static void *data_main(void *arg)
{
	struct ltt_data_thread *dt = arg;
	int ret;

	/*
	 * The data thread must get the CPU soon after a wakeup: writers that
	 * fill the buffers meanwhile lose events (prio.h).  Asked before the
	 * start returns: a consumer that then leaves root's credentials keeps
	 * what it was granted.
	 */
	ltt_prio_raise();
	ltt_data_loop_testpoints(dt);	/* before the consumer drops its rights */
	pthread_mutex_lock(&dt->lock);
	dt->started = true;
	pthread_cond_broadcast(&dt->cond);
	pthread_mutex_unlock(&dt->lock);
	ret = ltt_evloop_run(dt->loop);
	if (ret && ret != -ECANCELED) {	/* that one: a failed test point */
		LTT_ERR("data thread: epoll_wait: %s", strerror(-ret));
		abort();	/* only EBADF, EFAULT, EINVAL: our bug */
	}
	return NULL;
}

/* One data thread, started and with its scheduling; NULL-safe stop below. */
static int thread_start(struct ltt_data_threads *all, unsigned int index, uint64_t health_tag,
			struct ltt_data_thread **ret_dt)
{
	struct ltt_data_thread *dt;
	char name[16];
	int ret;

	dt = calloc(1, sizeof(*dt));
	if (!dt)
		return -ENOMEM;
	dt->index = index;
	dt->all = all;
	ret = ltt_evloop_create(&dt->loop);
	if (ret)
		goto fail;
	ltt_evloop_set_tag(dt->loop, health_tag);
	if (health_tag) {	/* LTTng's metadata timer thread's test point */
		static struct ltt_testpoint tp = LTT_TESTPOINT_INIT(consumerd_thread_metadata_timer);
		static const struct ltt_evloop_point points[] = {
			{ &tp, LTT_LTTNG_HEALTH_CONSUMERD_METADATA_TIMER }
		};

		ltt_evloop_set_points(dt->loop, points, 1);
	}
	dt->relays.loop = dt->loop;
	dt->relays.dt = dt;
	dt->relays.live_tick = ltt_data_loop_live_tick;
	dt->relays.live_pending = ltt_data_loop_live_pending;
	pthread_mutex_init(&dt->lock, NULL);
	pthread_cond_init(&dt->cond, NULL);
	ret = -pthread_create(&dt->thread, NULL, data_main, dt);
	if (ret) {
		pthread_cond_destroy(&dt->cond);
		pthread_mutex_destroy(&dt->lock);
		goto fail;
	}
	snprintf(name, sizeof(name), "data-%u", index);
	pthread_setname_np(dt->thread, name);	/* for top -H; a failure is harmless */
	pthread_mutex_lock(&dt->lock);
	while (!dt->started)
		pthread_cond_wait(&dt->cond, &dt->lock);
	pthread_mutex_unlock(&dt->lock);
	*ret_dt = dt;
	return 0;
fail:
	ltt_evloop_destroy(dt->loop);
	free(dt);
	return ret;
}

static void post(struct ltt_data_thread *dt, struct ltt_data_req *req);
static int wait_done(struct ltt_data_req *req);

static void thread_stop(struct ltt_data_thread *dt)
{
	struct ltt_data_req req = { .type = LTT_DATA_STOP };

	if (!dt)
		return;
	post(dt, &req);
	wait_done(&req);
	pthread_join(dt->thread, NULL);
	pthread_cond_destroy(&dt->cond);
	pthread_mutex_destroy(&dt->lock);
	ltt_evloop_destroy(dt->loop);
	free(dt->scratch.buf);
	free(dt);
}

int ltt_data_threads_start(unsigned int n, uint64_t health_tag, struct ltt_data_threads **ret_dts)
{
	struct ltt_data_threads *dts;
	unsigned int i;
	int ret = 0;
	long cpus;

	if (n < 1 || n > LTT_DATA_THREADS_MAX || !ret_dts)
		return -EINVAL;
	dts = calloc(1, sizeof(*dts));
	if (!dts)
		return -ENOMEM;
	cpus = sysconf(_SC_NPROCESSORS_CONF);
	dts->nr_cpus = cpus > 0 ? (unsigned int)cpus : 1;
	for (i = 0; i < n && !ret; i++) {
		ret = thread_start(dts, i, health_tag, &dts->threads[i]);
		if (!ret)
			dts->nr = i + 1;
	}
	if (ret) {
		ltt_data_threads_stop(dts);
		return ret;
	}
	*ret_dts = dts;
	return 0;
}

void ltt_data_threads_stop(struct ltt_data_threads *dts)
{
	unsigned int i;

	if (!dts)
		return;
	for (i = 0; i < dts->nr; i++)
		thread_stop(dts->threads[i]);
	free(dts);
}

void ltt_data_place(const struct ltt_data_threads *dts, struct ltt_channel_cfg *cfg,
		    bool relayed, bool snapshot)
{
	cfg->nr_parts = 1;
	if (relayed || snapshot) {
		cfg->first_thread = LTT_DATA_RELAY_THREAD;
	} else if (cfg->domain == LTT_CONSUMER_DOMAIN_TRACEFS) {
		cfg->first_thread = (unsigned int)(cfg->key % dts->nr);
	} else {
		/* a part per thread, but none without a CPU to read: its timers would idle */
		cfg->first_thread = 0;
		cfg->nr_parts = dts->nr < dts->nr_cpus ? dts->nr : dts->nr_cpus;
	}
}

/* Post @req to @dt; wait_done() waits for it. */
static void post(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	req->done = false;
	req->status = 0;
	req->dt = dt;
	req->job.fn = ltt_data_loop_request;
	ltt_evloop_post(dt->loop, &req->job);
}

/* The status of @req, once its thread carried it out. */
static int wait_done(struct ltt_data_req *req)
{
	struct ltt_data_thread *dt = req->dt;

	pthread_mutex_lock(&dt->lock);
	while (!req->done)
		pthread_cond_wait(&dt->cond, &dt->lock);
	pthread_mutex_unlock(&dt->lock);
	return req->status;
}

/* What one part's request reported, added to the whole request's. */
static void add_part_result(struct ltt_data_req *req, const struct ltt_data_req *one)
{
	ltt_channel_stats_add(&req->stats, &one->stats);
	req->snap.packets += one->snap.packets;
	req->snap.bytes += one->snap.bytes;
	req->snap.packets_dropped += one->snap.packets_dropped;
	req->reclaimed += one->reclaimed;
}

/*
 * A channel request: a copy for each part, all posted before the first is
 * waited for, so the parts' threads carry it out at once.  Returns the
 * first part's error, or 0.
 */
static int call_parts(struct ltt_data_threads *dts, struct ltt_data_req *req)
{
	struct ltt_data_req one[LTT_DATA_THREADS_MAX];
	struct ltt_channel *chan = req->chan;
	unsigned int i, n = chan->nr_parts;
	int status = 0, ret;

	if (n < 1 || n > LTT_DATA_THREADS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (chan->parts[i].thread >= dts->nr)
			return -EINVAL;
	for (i = 0; i < n; i++) {
		one[i] = *req;
		one[i].part = &chan->parts[i];
		one[i].stats = (struct ltt_channel_stats){ 0 };
		one[i].snap = (struct ltt_snapshot_counts){ 0 };
		one[i].reclaimed = 0;
		post(dts->threads[chan->parts[i].thread], &one[i]);
	}
	for (i = 0; i < n; i++) {
		ret = wait_done(&one[i]);
		if (ret && !status)
			status = ret;
		add_part_result(req, &one[i]);
	}
	if (status && req->type == LTT_DATA_ADD_CHANNEL) {
		/* all or nothing: the parts that were added go again */
		for (i = 0; i < n; i++) {
			if (one[i].status)
				continue;
			one[i].type = LTT_DATA_REMOVE_CHANNEL;
			post(dts->threads[chan->parts[i].thread], &one[i]);
			wait_done(&one[i]);
		}
	}
	return status;
}

/* A stream request: to its CPU's part; the channel counts what was added. */
static int call_stream(struct ltt_data_threads *dts, struct ltt_data_req *req)
{
	struct ltt_channel *chan = req->chan;
	int ret;

	req->part = ltt_channel_part_of(chan, req->cpu);
	if (req->part->thread >= dts->nr)
		return -EINVAL;
	req->chan_streams = chan->nr_streams;
	req->stream_id = chan->added_stream_id;
	post(dts->threads[req->part->thread], req);
	ret = wait_done(req);
	if (!ret) {
		chan->nr_streams++;
		chan->added_stream_id = req->stream_id;
	}
	return ret;
}

int ltt_data_call(struct ltt_data_threads *dts, struct ltt_data_req *req)
{
	switch (req->type) {
	case LTT_DATA_ADD_STREAM:
	case LTT_DATA_ADD_KERNEL_STREAM:
	case LTT_DATA_ADD_FTRACE_STREAM:
		return call_stream(dts, req);
	case LTT_DATA_ADD_RELAY:
	case LTT_DATA_REMOVE_RELAY:
		req->part = NULL;
		post(dts->threads[LTT_DATA_RELAY_THREAD], req);
		return wait_done(req);
	case LTT_DATA_STOP:
		return -EINVAL;		/* ltt_data_threads_stop()'s */
	default:
		return call_parts(dts, req);
	}
}
