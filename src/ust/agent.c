// SPDX-License-Identifier: LGPL-2.1-only
/*
 * agent.c - what libltt-ust keeps for a language agent (agent.h): the
 * python rules of each channel (or notifier: a python trigger's rules
 * name its key), and the loggers to report.
 *
 * Locks: the rules and the loggers are under the ust lock (the comm
 * threads change them from their commands); the generation and its
 * condition are under agent_lock, a leaf taken after the ust lock, so
 * that an agent thread waits on it without holding anything else.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "ust/agent.h"
#include "ust/ust.h"

#define MAX_LOGGERS 65536

/* The python rules of one channel, one heap block. */
struct agent_chan {
	struct agent_chan *next;
	const void *owner;
	uint64_t key;
	size_t nr;
	size_t text;			/* bytes of the strings after the rules */
	struct ltt_ust_agent_rule rules[];
};

static struct agent_chan *chans;	/* ust lock */
static char **loggers;			/* ust lock */
static size_t nr_loggers, cap_loggers;
static void (*loggers_kick)(void);	/* ust_agent_set_kick() */

static pthread_mutex_t agent_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t agent_cond;
static pthread_once_t cond_once = PTHREAD_ONCE_INIT;
static bool cond_ready;
static uint64_t generation = 1;		/* agent_lock */

/* A condition on CLOCK_MONOTONIC, for bounded waits. */
static void cond_make(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&agent_cond, &attr);
	pthread_condattr_destroy(&attr);
	cond_ready = true;
}

void ust_agent_changed(void)
{
	pthread_once(&cond_once, cond_make);
	pthread_mutex_lock(&agent_lock);
	generation++;
	pthread_cond_broadcast(&agent_cond);
	pthread_mutex_unlock(&agent_lock);
}

static struct agent_chan **find(const void *owner, uint64_t key)
{
	struct agent_chan **p;

	for (p = &chans; *p; p = &(*p)->next)
		if ((*p)->owner == owner && (*p)->key == key)
			return p;
	return NULL;
}

void ust_agent_forget(const void *owner, uint64_t key)
{
	struct agent_chan **p = find(owner, key), *c;

	if (!p)
		return;
	c = *p;
	*p = c->next;
	free(c);
	ust_agent_changed();
}

void ust_agent_forget_owner(const void *owner)
{
	struct agent_chan **p = &chans, *c;
	bool changed = false;

	while (*p) {
		c = *p;
		if (c->owner != owner) {
			p = &c->next;
			continue;
		}
		*p = c->next;
		free(c);
		changed = true;
	}
	if (changed)
		ust_agent_changed();
}

int ust_agent_set_rules(const void *owner, struct ltt_rbuf *r)
{
	struct ltt_app_agent_rule *in = NULL;
	struct agent_chan *c, **old;
	size_t text = 0, i;
	uint32_t count;
	uint64_t key;
	char *s;
	int ret = -EPROTO;

	if (ltt_app_get_agent_rules_start(r, &key, &count))
		return -EPROTO;
	if (count) {
		in = calloc(count, sizeof(*in));
		if (!in)
			return -ENOMEM;
	}
	for (i = 0; i < count; i++) {
		if (ltt_app_get_agent_rule(r, &in[i])) {
			ret = -EINVAL;
			goto out;
		}
		text += strlen(in[i].pattern) + strlen(in[i].exclusions) + 2;
	}
	if (ltt_rbuf_end(r))
		goto out;
	ret = -ENOMEM;
	c = malloc(sizeof(*c) + count * sizeof(c->rules[0]) + text);
	if (!c)
		goto out;
	c->owner = owner;
	c->key = key;
	c->nr = count;
	c->text = text;
	s = (char *)&c->rules[count];
	for (i = 0; i < count; i++) {
		c->rules[i].loglevel_type = (int)in[i].loglevel_type;
		c->rules[i].loglevel = in[i].loglevel;
		c->rules[i].pattern = strcpy(s, in[i].pattern);
		s += strlen(s) + 1;
		c->rules[i].exclusions = strcpy(s, in[i].exclusions);
		s += strlen(s) + 1;
	}
	ust_lock();
	if (!ust_channel_find_target(owner, key)) {
		ust_unlock();
		free(c);
		ret = -ENOENT;
		goto out;
	}
	old = find(owner, key);
	if (old) {
		c->next = (*old)->next;
		free(*old);
		*old = c;
	} else {
		c->next = chans;
		chans = c;
	}
	ust_unlock();
	ust_agent_changed();
	ret = 0;
out:
	free(in);
	return ret;
}

uint64_t ltt_ust_agent_wait(uint64_t gen, int timeout_ms)
{
	struct timespec until;
	uint64_t now;

	pthread_once(&cond_once, cond_make);
	ltt_deadline_in(CLOCK_MONOTONIC, timeout_ms > 0 ? (uint64_t)timeout_ms * 1000000ULL : 0,
			&until);
	pthread_mutex_lock(&agent_lock);
	while (generation == gen && timeout_ms) {
		if (timeout_ms < 0)
			pthread_cond_wait(&agent_cond, &agent_lock);
		else if (pthread_cond_timedwait(&agent_cond, &agent_lock, &until) == ETIMEDOUT)
			break;
	}
	now = generation;
	pthread_mutex_unlock(&agent_lock);
	return now;
}

int ltt_ust_agent_rules(struct ltt_ust_agent_rule **ret_rules, size_t *ret_nr, uint64_t *ret_gen)
{
	struct ltt_ust_agent_rule *out = NULL;
	size_t nr = 0, text = 0, i, at = 0;
	const struct agent_chan *c;
	struct ust_channel *chan;
	char *s;

	ust_lock();
	pthread_mutex_lock(&agent_lock);
	*ret_gen = generation;
	pthread_mutex_unlock(&agent_lock);
	for (c = chans; c; c = c->next) {
		chan = ust_channel_find_target(c->owner, c->key);
		if (chan && chan->enabled != UST_CHAN_OFF) {
			nr += c->nr;
			text += c->text;
		}
	}
	if (nr) {
		out = malloc(nr * sizeof(*out) + text);
		if (!out) {
			ust_unlock();
			return -ENOMEM;
		}
		s = (char *)&out[nr];
		for (c = chans; c; c = c->next) {
			chan = ust_channel_find_target(c->owner, c->key);
			if (!chan || chan->enabled == UST_CHAN_OFF)
				continue;
			for (i = 0; i < c->nr; i++, at++) {
				out[at] = c->rules[i];
				out[at].pattern = strcpy(s, c->rules[i].pattern);
				s += strlen(s) + 1;
				out[at].exclusions = strcpy(s, c->rules[i].exclusions);
				s += strlen(s) + 1;
			}
		}
	}
	ust_unlock();
	*ret_rules = out;
	*ret_nr = nr;
	return 0;
}

int ltt_ust_agent_add_loggers(const char *const *names, size_t nr)
{
	size_t i, added = 0;
	int ret = 0;

	ust_lock();
	for (i = 0; i < nr && nr_loggers < MAX_LOGGERS; i++) {
		char *copy;

		if (!names[i] || !ltt_app_logger_name_valid(names[i]))
			continue;
		if (nr_loggers == cap_loggers) {
			size_t cap = cap_loggers ? 2 * cap_loggers : 64;
			char **grown = realloc(loggers, cap * sizeof(*grown));

			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			loggers = grown;
			cap_loggers = cap;
		}
		copy = strdup(names[i]);
		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		loggers[nr_loggers++] = copy;
		added++;
	}
	ust_unlock();
	if (added && loggers_kick)
		loggers_kick();
	return ret;
}

void ust_agent_set_kick(void (*kick)(void))
{
	loggers_kick = kick;
}

size_t ust_agent_nr_loggers(void)
{
	return nr_loggers;
}

size_t ust_agent_encode_loggers(struct ltt_wbuf *w, size_t from, size_t max, uint32_t *ret_count)
{
	size_t count = 0;

	if (from < nr_loggers)
		count = ltt_app_put_loggers(w, (const char *const *)loggers + from,
					    nr_loggers - from, max);
	else
		ltt_wbuf_put_u32(w, 0);
	*ret_count = (uint32_t)count;
	return from + count;
}

void ust_agent_fork_prepare(void)
{
	pthread_mutex_lock(&agent_lock);
}

void ust_agent_fork_parent(void)
{
	pthread_mutex_unlock(&agent_lock);
}

void ust_agent_fork_child(void)
{
	struct agent_chan *c;

	/* the parent's channels are not the child's; its loggers are */
	while (chans) {
		c = chans;
		chans = c->next;
		free(c);
	}
	pthread_mutex_init(&agent_lock, NULL);
	if (cond_ready)
		cond_make();	/* no waiter of the parent's is here */
	generation++;
}
