// SPDX-License-Identifier: GPL-2.0-only
/*
 * supervisor.c - a domain's consumer daemon, spawned and replaced (see
 * supervisor.h).
 */
#include <string.h>

#include "common/log.h"
#include "sessiond/supervisor.h"

void ltt_supervisor_init(struct ltt_supervisor *sup, const char *what, const char *path,
			 int verbose)
{
	memset(sup, 0, sizeof(*sup));
	pthread_mutex_init(&sup->lock, NULL);
	sup->what = what;
	sup->path = path;
	sup->verbose = verbose;
}

void ltt_supervisor_fini(struct ltt_supervisor *sup)
{
	ltt_consumer_destroy(sup->consumer, 10000);
	sup->consumer = NULL;
	while (sup->nr_dead)
		ltt_consumer_destroy(sup->dead[--sup->nr_dead], 0);
	pthread_mutex_destroy(&sup->lock);
}

struct ltt_consumer *ltt_supervisor_current(struct ltt_supervisor *sup, uint64_t *ret_gen)
{
	struct ltt_consumer *c;

	pthread_mutex_lock(&sup->lock);
	c = sup->consumer && ltt_consumer_alive(sup->consumer) ? sup->consumer : NULL;
	*ret_gen = c ? sup->gen : 0;
	pthread_mutex_unlock(&sup->lock);
	return c;
}

struct ltt_consumer *ltt_supervisor_get(struct ltt_supervisor *sup, uint64_t *ret_gen)
{
	const char *path = ltt_consumer_path(sup->path);
	struct ltt_consumer *c;

	pthread_mutex_lock(&sup->lock);
	if (sup->consumer && !ltt_consumer_alive(sup->consumer)) {
		LTT_ERR("the %s consumer daemon died; starting a new one for new traces", sup->what);
		/* Pointers to it may be in use: keep it until the end. */
		if (sup->nr_dead < LTT_SUPERVISOR_MAX_DEAD) {
			sup->dead[sup->nr_dead++] = sup->consumer;
			sup->consumer = NULL;
		}
	}
	if (!sup->consumer) {
		if (ltt_consumer_spawn(path, sup->verbose, &sup->consumer))
			LTT_ERR("can't start the %s consumer daemon %s", sup->what, path);
		else
			sup->gen++;
	}
	c = sup->consumer;
	*ret_gen = c ? sup->gen : 0;
	pthread_mutex_unlock(&sup->lock);
	return c;
}
