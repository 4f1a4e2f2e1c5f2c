// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-map.c - kernel map channels: their counters kept by the kernel
 * (MAP objects of the kernel thread), the counting triggers' events put
 * in them (kernel-map.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-filter.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/kernel/kernel-map.h"

/* An event a trigger counts in a map, under a slot. */
struct kcount {
	uint64_t trigger;		/* its key */
	char event[LTT_KABI_NAME_MAX];
	uint32_t slot;
	char key[LTT_MAP_KEY_MAX];	/* arming: the slot's key, */
	bool new_key;			/* taken for this trigger */
};

struct kmap {
	struct kmap *next;
	uid_t owner;
	char session[LTT_NAME_MAX];
	char name[LTT_NAME_MAX];
	ltt_khandle h;
	struct kcount *counts;
	size_t nr_counts;
};

struct ltt_kmaps {
	pthread_mutex_t lock;		/* a leaf: taken inside the registry's */
	struct kmap *first;
	struct ltt_maps *maps;
};

static struct kmap *find(struct ltt_kmaps *km, uid_t owner, const char *session, const char *name)
{
	struct kmap *m;

	for (m = km->first; m; m = m->next)
		if (m->owner == owner && !strcmp(m->session, session) && !strcmp(m->name, name))
			return m;
	return NULL;
}

/* ---- the registry's hooks (its lock held) ---- */

static int map_create(void *arg, uid_t owner, const char *session, const struct ltt_map_attr *a,
		      bool active, void **ret_km)
{
	struct ltt_kernel *k = arg;
	char what[LTT_NAME_MAX + 64], why[1024];
	struct kmap *m;
	int err;

	snprintf(what, sizeof(what), "kernel map channel %s refused", a->name);
	if (ltt_kernel_lacks(k, LTT_KABI_FEAT_MAP, what, why, sizeof(why))) {
		LTT_WARN("%s", why);
		return -EOPNOTSUPP;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	err = ltt_kabi_map_create(k->kabi, &m->h);
	if (!err && active)
		err = ltt_kabi_map_ctl(k->kabi, m->h, LTT_KABI_MAP_CONT);
	if (err) {
		LTT_WARN("%s: the kernel tracer's counters can't be used: %s", what,
			 strerror(-err));
		ltt_kabi_release(k->kabi, m->h);
		free(m);
		return err == -ENOMEM ? err : -EOPNOTSUPP;
	}
	m->owner = owner;
	snprintf(m->session, sizeof(m->session), "%s", session);
	snprintf(m->name, sizeof(m->name), "%s", a->name);
	pthread_mutex_lock(&k->kmaps->lock);
	m->next = k->kmaps->first;
	k->kmaps->first = m;
	pthread_mutex_unlock(&k->kmaps->lock);
	*ret_km = m;
	return 0;
}

static void map_destroy(void *arg, void *km)
{
	struct ltt_kernel *k = arg;
	struct kmap **pm, *m = km;

	pthread_mutex_lock(&k->kmaps->lock);
	for (pm = &k->kmaps->first; *pm && *pm != m; pm = &(*pm)->next)
		;
	if (*pm)
		*pm = m->next;
	pthread_mutex_unlock(&k->kmaps->lock);
	ltt_kabi_release(k->kabi, m->h);	/* its counters with it */
	free(m->counts);
	free(m);
}

static void map_ctl(struct ltt_kernel *k, const struct kmap *m, uint32_t cmd)
{
	int err = ltt_kabi_map_ctl(k->kabi, m->h, cmd);

	if (err)
		LTT_WARN("kernel map channel %s of session %s: its counters were not all %s: %s",
			 m->name, m->session, cmd == LTT_KABI_MAP_CLEAR ? "cleared" :
			 cmd == LTT_KABI_MAP_PAUSE ? "paused" : "continued", strerror(-err));
}

static void map_activate(void *arg, void *km, bool on)
{
	map_ctl(arg, km, on ? LTT_KABI_MAP_CONT : LTT_KABI_MAP_PAUSE);
}

static void map_clear(void *arg, void *km)
{
	map_ctl(arg, km, LTT_KABI_MAP_CLEAR);
}

static int map_read(void *arg, void *km, uint64_t *values, uint32_t nr)
{
	struct ltt_kernel *k = arg;
	const struct kmap *m = km;
	int err = ltt_kabi_map_read(k->kabi, m->h, values, nr);

	if (err)
		LTT_WARN("kernel map channel %s of session %s: its counters were not read: %s",
			 m->name, m->session, strerror(-err));
	return err;
}

static const struct ltt_maps_kernel hooks = {
	.create = map_create,
	.destroy = map_destroy,
	.activate = map_activate,
	.clear = map_clear,
	.read = map_read,
};

int ltt_kmaps_attach(struct ltt_kernel *k, struct ltt_maps *maps)
{
	k->kmaps = calloc(1, sizeof(*k->kmaps));
	if (!k->kmaps)
		return -ENOMEM;
	pthread_mutex_init(&k->kmaps->lock, NULL);
	k->kmaps->maps = maps;
	ltt_maps_set_kernel(maps, &hooks, k);
	return 0;
}

void ltt_kmaps_detach(struct ltt_kernel *k)
{
	struct kmap *m, *next;

	if (!k->kmaps)
		return;
	ltt_maps_set_kernel(k->kmaps->maps, NULL, NULL);
	for (m = k->kmaps->first; m; m = next) {
		next = m->next;
		ltt_kabi_release(k->kabi, m->h);
		free(m->counts);
		free(m);
	}
	pthread_mutex_destroy(&k->kmaps->lock);
	free(k->kmaps);
	k->kmaps = NULL;
}

/* ---- the triggers' events ---- */

/* The events of a trigger's rule with their slots, found before the map is touched. */
struct arming {
	struct ltt_kernel *k;
	const struct ltt_trigger *t;
	struct kcount *v;
	size_t nr;
	int err;
};

static int collect(void *arg, const char *name)
{
	struct arming *a = arg;
	const struct ltt_action_conf *act = &a->t->conf.actions[0];
	char key[LTT_MAP_KEY_MAX];
	struct kcount *grown;
	bool taken;
	int64_t slot;

	if (!strncmp(name, "lttng_statedump_", strlen("lttng_statedump_")))
		return 0;	/* the daemon writes those: no kernel event */
	slot = ltt_maps_take_slot(a->k->kmaps->maps, a->t->owner, act->session, act->map,
				  ltt_map_key_expand(act->key, name, key, sizeof(key)), &taken);
	if (slot < 0)
		return (int)slot;
	grown = realloc(a->v, (a->nr + 1) * sizeof(*grown));
	if (!grown) {
		if (taken)
			ltt_maps_untake_slot(a->k->kmaps->maps, a->t->owner, act->session, act->map,
					     key);
		return -ENOMEM;
	}
	a->v = grown;
	a->v[a->nr].trigger = a->t->key;
	a->v[a->nr].new_key = taken;
	snprintf(a->v[a->nr].key, sizeof(a->v[a->nr].key), "%s", key);
	snprintf(a->v[a->nr].event, sizeof(a->v[a->nr].event), "%s", name);
	a->v[a->nr++].slot = (uint32_t)slot;
	return 0;
}

/* Stop counting what trigger @key counts in @m; kmaps lock held. */
static void uncount(struct ltt_kernel *k, struct kmap *m, uint64_t key)
{
	size_t i = 0;

	while (i < m->nr_counts) {
		if (m->counts[i].trigger != key) {
			i++;
			continue;
		}
		(void)ltt_kabi_map_event(k->kabi, m->h, m->counts[i].event, m->counts[i].slot,
					 true, NULL, NULL, 0);
		m->counts[i] = m->counts[--m->nr_counts];
	}
}

/* Count @c in @m with @t's filter; kmaps lock held.  0, 1 (not the kernel's), -errno. */
static int count_one(struct ltt_kernel *k, struct kmap *m, const struct ltt_trigger *t,
		     const struct kcount *c)
{
	struct ltt_ust_filters f;
	struct kcount *grown;
	int ret;

	ltt_kernel_rule_programs(k, k->kabi, &t->chan, c->event, &f);
	if (!f.want) {
		ltt_ust_filters_fini(&f);
		return 1;	/* a field its filter reads is not the event's */
	}
	ret = ltt_kabi_map_event(k->kabi, m->h, c->event, c->slot, false,
				 (uint8_t *const *)f.code, f.len, f.nr);
	ltt_ust_filters_fini(&f);
	if (ret == -ENOENT)
		return 1;	/* not an event of the tracer's */
	if (ret == -EOPNOTSUPP)
		LTT_WARN("trigger '%s': kernel event %s: ftrace's filter grammar can't say its filter exactly, which a histogram trigger needs",
			 t->conf.name, c->event);
	else if (ret == -EEXIST)
		LTT_WARN("trigger '%s': kernel event %s: another trigger counts it under key slot %u of this map already",
			 t->conf.name, c->event, c->slot);
	else if (ret)
		LTT_WARN("trigger '%s': kernel event %s: the kernel tracer refused to count it: %s",
			 t->conf.name, c->event, strerror(-ret));
	if (ret)
		return ret;
	grown = realloc(m->counts, (m->nr_counts + 1) * sizeof(*grown));
	if (!grown) {
		(void)ltt_kabi_map_event(k->kabi, m->h, c->event, c->slot, true, NULL, NULL, 0);
		return -ENOMEM;
	}
	m->counts = grown;
	m->counts[m->nr_counts++] = *c;
	return 0;
}

static bool counts_in(const struct kmap *m, uint64_t key)
{
	size_t i;

	for (i = 0; i < m->nr_counts; i++)
		if (m->counts[i].trigger == key)
			return true;
	return false;
}

/* @a's events counted in their map; kmaps lock held. */
static enum ltt_error_code count_all(struct ltt_kernel *k, struct arming *a)
{
	const struct ltt_action_conf *act = &a->t->conf.actions[0];
	struct kmap *m = find(k->kmaps, a->t->owner, act->session, act->map);
	size_t i, counted = 0;
	int ret = 0;

	if (!m || counts_in(m, a->t->key) || a->t->removed)
		return LTT_ERR_OK;	/* no map (yet: a sync brings it), or done */
	for (i = 0; i < a->nr && ret <= 0; i++) {
		ret = count_one(k, m, a->t, &a->v[i]);
		counted += ret == 0;
		ret = ret > 0 ? 0 : ret;
	}
	if (ret || !counted)
		uncount(k, m, a->t->key);
	if (!ret && !counted)
		LTT_WARN("trigger '%s': its kernel rule takes no event the kernel tracer has",
			 a->t->conf.name);
	else if (!ret)
		LTT_INFO("trigger '%s': %zu kernel event(s) counted by the kernel tracer in map %s",
			 a->t->conf.name, counted, m->name);
	return !ret && !counted ? LTT_ERR_KERNEL_EVENT_NOT_FOUND :
	       ret == -EOPNOTSUPP ? LTT_ERR_MAP_KERNEL_FILTER :
	       ret == -EEXIST ? LTT_ERR_MAP_KERNEL_TWICE :
	       ret == -ENOSPC ? LTT_ERR_MAP_KERNEL_EVENTS :
	       ret == -ENOMEM ? LTT_ERR_NOMEM : ret ? LTT_ERR_MAP_KERNEL : LTT_ERR_OK;
}

/* The keys @a took, given back (newest first): what it counted was refused. */
static void untake(struct arming *a)
{
	const struct ltt_action_conf *act = &a->t->conf.actions[0];
	size_t i;

	for (i = a->nr; i-- > 0;)
		if (a->v[i].new_key)
			ltt_maps_untake_slot(a->k->kmaps->maps, a->t->owner, act->session,
					     act->map, a->v[i].key);
}

enum ltt_error_code ltt_kmaps_arm(struct ltt_kernel *k, struct ltt_trigger *t)
{
	struct arming a = { .k = k, .t = t };
	enum ltt_error_code err;

	if (!k->kmaps)
		return LTT_ERR_MAP_KERNEL;
	a.err = ltt_kernel_for_each_event(k, cds_list_first_entry(&t->chan.rules,
								   struct ltt_event_rule, node),
					  collect, &a);
	if (a.err == -ENOENT)
		err = LTT_ERR_OK;	/* its map is gone: a sync brings it back */
	else if (a.err)
		err = LTT_ERR_NOMEM;
	if (!a.err) {
		pthread_mutex_lock(&k->kmaps->lock);
		err = count_all(k, &a);
		pthread_mutex_unlock(&k->kmaps->lock);
	}
	if (err)
		untake(&a);	/* outside the kmaps lock: it takes the registry's */
	free(a.v);
	return err;
}

void ltt_kmaps_sync(struct ltt_kernel *k)
{
	struct ltt_trigger **v = NULL;
	struct kmap *m;
	size_t nr, i, j;

	if (!k->kmaps || !k->triggers)
		return;
	nr = ltt_triggers_select(k->triggers, LTT_CONDITION_EVENT_RULE_MATCHES, LTT_DOMAIN_KERNEL,
				 &v);
	pthread_mutex_lock(&k->kmaps->lock);
	for (m = k->kmaps->first; m; m = m->next)
		for (i = 0; i < m->nr_counts; i++)
			if (!ltt_triggers_has_key(v, nr, m->counts[i].trigger)) {
				uncount(k, m, m->counts[i].trigger);
				i = (size_t)-1;	/* the list changed: again from its start */
			}
	pthread_mutex_unlock(&k->kmaps->lock);
	for (j = 0; j < nr; j++)
		if (ltt_trigger_counts(&v[j]->conf))
			(void)ltt_kmaps_arm(k, v[j]);	/* logged; a map not there: nothing */
	ltt_triggers_put_all(k->triggers, v, nr);
}
