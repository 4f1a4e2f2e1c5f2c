// SPDX-License-Identifier: GPL-2.0-only
/*
 * app-object.c - an application's object (see app.h): its last reference,
 * which frees it, and its channel records with their events.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/base/array.h"
#include "sessiond/app/app.h"

static void app_free(struct ltt_app *app)
{
	struct ltt_app_chan *ac, *tmp;
	size_t i;

	cds_list_for_each_entry_safe(ac, tmp, &app->chans, node) {
		cds_list_del(&ac->node);
		ltt_app_chan_free(ac);
	}
	for (i = 0; i < app->nr_tps; i++)
		free(app->tps[i]);
	free(app->tps);
	for (i = 0; i < app->nr_loggers; i++)
		free(app->loggers[i]);
	free(app->loggers);
	ltt_app_outq_free(app);
	if (app->fd >= 0)
		close(app->fd);
	if (app->notify_rd >= 0) {
		close(app->notify_rd);
		close(app->notify_wr);
	}
	pthread_mutex_destroy(&app->lock);
	pthread_cond_destroy(&app->acked_cond);
	free(app);
}

void ltt_app_put(struct ltt_app *app)
{
	if (app && __atomic_sub_fetch(&app->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		app_free(app);
}

struct ltt_app_chan *ltt_app_find_chan(struct ltt_app *app, uint64_t key)
{
	struct ltt_app_chan *ac;

	cds_list_for_each_entry(ac, &app->chans, node)
		if (ac->key == key)
			return ac;
	return NULL;
}

static const char *event_name_at(const void *ac, size_t pos)
{
	return ((const struct ltt_app_chan *)ac)->events[pos].name;
}

static uint64_t event_layout_at(const void *ac, size_t pos)
{
	return ((const struct ltt_app_chan *)ac)->events[pos].layout;
}

struct ltt_app_chan *ltt_app_chan_new(void)
{
	struct ltt_app_chan *ac = calloc(1, sizeof(*ac));

	if (ac)
		ltt_name_index_init_tagged(&ac->by_name, event_name_at, event_layout_at, ac);
	return ac;
}

void ltt_app_chan_free(struct ltt_app_chan *ac)
{
	ltt_name_index_fini(&ac->by_name);
	free(ac->events);
	free(ac);
}

struct ltt_app_event *ltt_app_chan_event(const struct ltt_app_chan *ac,
					 const struct ltt_app_tracepoint *tp)
{
	long at = ltt_name_index_find_tagged(&ac->by_name, tp->name, tp->layout);

	return at < 0 ? NULL : &ac->events[at];
}

int ltt_app_chan_event_add(struct ltt_app_chan *ac, const struct ltt_app_event *ev)
{
	struct ltt_app_event *events;
	int ret;

	if (ac->nr_events == ac->cap_events) {
		events = ltt_array_grow(ac->events, &ac->cap_events, sizeof(*events));
		if (!events)
			return -ENOMEM;
		ac->events = events;
	}
	ac->events[ac->nr_events] = *ev;
	ret = ltt_name_index_add(&ac->by_name, ac->nr_events);
	if (ret)
		return ret;
	ac->nr_events++;
	return 0;
}

void ltt_app_chan_event_remove(struct ltt_app_chan *ac, struct ltt_app_event *ev)
{
	size_t i = (size_t)(ev - ac->events), last = ac->nr_events - 1;

	ltt_name_index_remove_tagged(&ac->by_name, ev->name, ev->layout);
	if (i != last) {
		ltt_name_index_move(&ac->by_name, last, i);
		*ev = ac->events[last];
	}
	ac->nr_events--;
}
