// SPDX-License-Identifier: GPL-2.0-only
/*
 * trigger.c - the daemon's triggers (see trigger.h).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/model/agent.h"
#include "common/filter/filter-parse.h"
#include "common/base/log.h"
#include "sessiond/model/trigger.h"

void ltt_triggers_init(struct ltt_triggers *trs, unsigned int max_per_uid)
{
	memset(trs, 0, sizeof(*trs));
	pthread_mutex_init(&trs->lock, NULL);
	CDS_INIT_LIST_HEAD(&trs->list);
	trs->max_per_uid = max_per_uid ? max_per_uid : LTT_TRIGGERS_MAX_PER_UID;
	trs->rule_slots[0] = LTT_TRIGGER_RULE_SLOTS;
	trs->rule_slots[1] = LTT_TRIGGER_RULE_SLOTS;
	trs->next_key = 1;
}

static void trigger_free(struct ltt_trigger *t)
{
	ltt_filter_free(t->rule.filter);
	free(t);
}

void ltt_triggers_fini(struct ltt_triggers *trs)
{
	struct ltt_trigger *t, *tmp;

	cds_list_for_each_entry_safe(t, tmp, &trs->list, node) {
		cds_list_del(&t->node);
		if (--t->refs == 0)
			trigger_free(t);
	}
	pthread_mutex_destroy(&trs->lock);
}

/* @uid's trigger @name; lock held */
static struct ltt_trigger *find_locked(struct ltt_triggers *trs, const char *name, uid_t uid)
{
	struct ltt_trigger *t, *found = NULL;
	unsigned int n = 0;

	cds_list_for_each_entry(t, &trs->list, node) {
		if (strcmp(t->conf.name, name))
			continue;
		if (t->owner == uid)
			return t;
		found = t;
		n++;
	}
	/* root names another user's trigger plainly only when it is the only one */
	return uid == 0 && n == 1 ? found : NULL;
}

static unsigned int count_of(struct ltt_triggers *trs, uid_t owner)
{
	struct ltt_trigger *t;
	unsigned int n = 0;

	cds_list_for_each_entry(t, &trs->list, node)
		n += t->owner == owner;
	return n;
}

/* Which of rule_slots an event-rule-matches trigger of @domain takes. */
static int slot_class(uint32_t domain)
{
	return domain == LTT_DOMAIN_KERNEL ? 0 : 1;
}

/* Are @c's domain's error counter slots all taken?  Lock held. */
static bool slots_full(struct ltt_triggers *trs, const struct ltt_trigger_conf *c)
{
	struct ltt_trigger *t;
	unsigned int n = 0;

	if (c->cond != LTT_CONDITION_EVENT_RULE_MATCHES)
		return false;
	cds_list_for_each_entry(t, &trs->list, node)
		n += t->conf.cond == LTT_CONDITION_EVENT_RULE_MATCHES &&
		     slot_class(t->conf.domain) == slot_class(c->domain);
	return n >= trs->rule_slots[slot_class(c->domain)];
}

/* The first free "triggerN" of @owner; lock held. */
static void auto_name(struct ltt_triggers *trs, uid_t owner, char *name)
{
	struct ltt_trigger *t;
	unsigned int i;
	bool taken;

	for (i = 0;; i++) {
		snprintf(name, LTT_NAME_MAX, "trigger%u", i);
		taken = false;
		cds_list_for_each_entry(t, &trs->list, node)
			if (t->owner == owner && !strcmp(t->conf.name, name))
				taken = true;
		if (!taken)
			return;
	}
}

/* The rule of an event-rule-matches trigger as a channel of one rule. */
static int make_rule(struct ltt_trigger *t)
{
	struct ltt_channel *chan = &t->chan;
	int ret = 0;

	CDS_INIT_LIST_HEAD(&chan->rules);
	chan->enabled = true;
	chan->agent = ltt_agent_domain((enum ltt_domain)t->conf.domain);
	if (t->conf.cond != LTT_CONDITION_EVENT_RULE_MATCHES)
		return 0;
	t->rule.attr = t->conf.rule;
	t->rule.enabled = true;
	t->rule.agent = chan->agent;
	ret = ltt_event_rule_parse_filter(&t->rule);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	cds_list_add(&t->rule.node, &chan->rules);
	chan->nr_rules = 1;
	return 0;
}

int ltt_triggers_add(struct ltt_triggers *trs, const struct ltt_trigger_conf *c, uid_t owner,
		     char *ret_name)
{
	struct ltt_trigger *t = calloc(1, sizeof(*t));
	int ret = 0;

	if (!t)
		return -ENOMEM;
	t->conf = *c;
	t->owner = owner;
	t->conf.owner_uid = owner;
	t->refs = 1;	/* the list's */
	ret = make_rule(t);
	if (ret) {
		trigger_free(t);
		return ret;
	}
	pthread_mutex_lock(&trs->lock);
	if (trs->nr >= LTT_TRIGGERS_MAX)
		ret = -ENOSPC;
	else if (owner != 0 && count_of(trs, owner) >= trs->max_per_uid)
		ret = -EDQUOT;
	else if (slots_full(trs, c))
		ret = -EMLINK;
	else if (c->name[0] && find_locked(trs, c->name, owner) &&
		 find_locked(trs, c->name, owner)->owner == owner)
		ret = -EEXIST;
	if (!ret) {
		if (!c->name[0])
			auto_name(trs, owner, t->conf.name);
		t->key = LTT_APP_NOTIFIER_KEY_BIT | trs->next_key++;
		cds_list_add_tail(&t->node, &trs->list);
		trs->nr++;
		trs->generation++;
		strcpy(ret_name, t->conf.name);
	}
	pthread_mutex_unlock(&trs->lock);
	if (ret)
		trigger_free(t);
	return ret;
}

struct ltt_trigger *ltt_triggers_find(struct ltt_triggers *trs, const char *name, uid_t uid)
{
	struct ltt_trigger *t;

	pthread_mutex_lock(&trs->lock);
	t = find_locked(trs, name, uid);
	if (t)
		t->refs++;
	pthread_mutex_unlock(&trs->lock);
	return t;
}

struct ltt_trigger *ltt_triggers_find_key(struct ltt_triggers *trs, uint64_t key)
{
	struct ltt_trigger *t, *found = NULL;

	pthread_mutex_lock(&trs->lock);
	cds_list_for_each_entry(t, &trs->list, node) {
		if (t->key == key) {
			found = t;
			t->refs++;
			break;
		}
	}
	pthread_mutex_unlock(&trs->lock);
	return found;
}

void ltt_triggers_get(struct ltt_triggers *trs, struct ltt_trigger *t)
{
	pthread_mutex_lock(&trs->lock);
	t->refs++;
	pthread_mutex_unlock(&trs->lock);
}

void ltt_triggers_put(struct ltt_triggers *trs, struct ltt_trigger *t)
{
	bool last;

	if (!t)
		return;
	pthread_mutex_lock(&trs->lock);
	last = --t->refs == 0;
	pthread_mutex_unlock(&trs->lock);
	if (last)
		trigger_free(t);
}

int ltt_triggers_remove(struct ltt_triggers *trs, const char *name, uid_t uid)
{
	struct ltt_trigger *t;

	pthread_mutex_lock(&trs->lock);
	t = find_locked(trs, name, uid);
	if (t) {
		cds_list_del(&t->node);
		t->removed = true;
		trs->nr--;
		trs->generation++;
	}
	pthread_mutex_unlock(&trs->lock);
	if (!t)
		return -ENOENT;
	if (trs->hooks.removed)
		trs->hooks.removed(trs->hooks.arg, t);
	ltt_triggers_put(trs, t);	/* the list's */
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct ltt_trigger_desc *x = a, *y = b;
	int c = strcmp(x->conf.name, y->conf.name);

	if (c)
		return c;
	return x->conf.owner_uid < y->conf.owner_uid ? -1 : x->conf.owner_uid > y->conf.owner_uid;
}

int ltt_triggers_list(struct ltt_triggers *trs, uid_t uid, struct ltt_trigger_desc **ret,
		      size_t *ret_n)
{
	struct ltt_trigger_desc *v;
	struct ltt_trigger *t;
	size_t n = 0;

	if (trs->sync)
		trs->sync(trs->sync_arg);
	pthread_mutex_lock(&trs->lock);
	v = calloc(trs->nr ? trs->nr : 1, sizeof(*v));
	if (!v) {
		pthread_mutex_unlock(&trs->lock);
		return -ENOMEM;
	}
	cds_list_for_each_entry(t, &trs->list, node) {
		if (uid != 0 && t->owner != uid)
			continue;
		v[n].conf = t->conf;
		v[n].fired = t->fired;
		v[n].dropped = t->dropped;
		memcpy(v[n].runs, t->runs, sizeof(t->runs));
		memcpy(v[n].failures, t->failures, sizeof(t->failures));
		memcpy(v[n].last_error, t->last_error, sizeof(t->last_error));
		memcpy(v[n].pending, t->pending, sizeof(t->pending));
		v[n].pending_since = t->pending_since;
		n++;
	}
	pthread_mutex_unlock(&trs->lock);
	qsort(v, n, sizeof(*v), by_name);
	if (!n) {
		free(v);
		v = NULL;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

size_t ltt_triggers_select(struct ltt_triggers *trs, uint32_t cond, uint32_t domain,
			   struct ltt_trigger ***ret)
{
	struct ltt_trigger **v, *t;
	size_t n = 0;

	*ret = NULL;
	pthread_mutex_lock(&trs->lock);
	v = malloc((trs->nr ? trs->nr : 1) * sizeof(*v));
	cds_list_for_each_entry(t, &trs->list, node) {
		if (!v || t->conf.cond != cond || (domain && t->conf.domain != domain))
			continue;
		t->refs++;
		v[n++] = t;
	}
	pthread_mutex_unlock(&trs->lock);
	if (!n) {
		free(v);
		return 0;
	}
	*ret = v;
	return n;
}

void ltt_triggers_put_all(struct ltt_triggers *trs, struct ltt_trigger **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ltt_triggers_put(trs, v[i]);
	free(v);
}

bool ltt_triggers_has_key(struct ltt_trigger *const *v, size_t n, uint64_t key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->key == key)
			return true;
	return false;
}

uint64_t ltt_triggers_generation(struct ltt_triggers *trs)
{
	uint64_t g;

	pthread_mutex_lock(&trs->lock);
	g = trs->generation;
	pthread_mutex_unlock(&trs->lock);
	return g;
}

struct ltt_firing *ltt_firing_new(struct ltt_triggers *trs, struct ltt_trigger *t)
{
	struct ltt_firing *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	pthread_mutex_lock(&trs->lock);
	t->refs++;
	pthread_mutex_unlock(&trs->lock);
	f->trigger = t;
	f->n.trigger = t->conf.name;
	f->n.cond = t->conf.cond;
	f->n.session = f->session;
	f->n.event = f->event;
	f->n.path = f->path;
	return f;
}

void ltt_firing_free(struct ltt_triggers *trs, struct ltt_firing *f)
{
	if (!f)
		return;
	ltt_triggers_put(trs, f->trigger);
	free(f);
}

/* Does action @a run the @count-th time its condition held? */
static bool rate_says(const struct ltt_action_conf *a, uint64_t count)
{
	if (a->rate_policy == LTT_RATE_ONCE_AFTER)
		return count == a->rate_count;
	return count % a->rate_count == 0;
}

void ltt_triggers_fire(struct ltt_triggers *trs, struct ltt_firing *f, uint64_t dropped)
{
	struct ltt_trigger *t = f->trigger;
	struct timespec now;
	bool live;
	uint32_t i;

	clock_gettime(CLOCK_REALTIME, &now);
	f->n.time_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	pthread_mutex_lock(&trs->lock);
	live = !t->removed;
	if (live) {
		t->dropped += dropped;
		f->n.seq = ++t->fired;
		f->n.dropped = dropped;
		for (i = 0; i < t->conf.nr_actions; i++) {
			if (!rate_says(&t->conf.actions[i], f->n.seq))
				continue;
			f->run |= 1u << i;
			t->runs[i]++;
		}
	}
	pthread_mutex_unlock(&trs->lock);
	if (!live || !f->run || !trs->hooks.fired) {
		ltt_firing_free(trs, f);
		return;
	}
	trs->hooks.fired(trs->hooks.arg, f);
}

void ltt_triggers_count_dropped(struct ltt_triggers *trs, struct ltt_trigger *t, uint64_t n)
{
	pthread_mutex_lock(&trs->lock);
	t->dropped += n;
	pthread_mutex_unlock(&trs->lock);
}

/* Action @i of @t failed with @err.  @trs->lock held. */
static void action_failed(struct ltt_trigger *t, uint32_t i, int err)
{
	t->failures[i]++;
	t->last_error[i] = err;
}

void ltt_triggers_action_done(struct ltt_triggers *trs, struct ltt_trigger *t, uint32_t i,
			      int err)
{
	if (i >= LTT_TRIGGER_MAX_ACTIONS || !err)
		return;
	pthread_mutex_lock(&trs->lock);
	action_failed(t, i, err);
	pthread_mutex_unlock(&trs->lock);
}

void ltt_triggers_firing_lost(struct ltt_triggers *trs, const struct ltt_firing *f, int err)
{
	uint32_t i;

	pthread_mutex_lock(&trs->lock);
	for (i = 0; i < LTT_TRIGGER_MAX_ACTIONS; i++)
		if (f->run & (1u << i))
			action_failed(f->trigger, i, err);
	pthread_mutex_unlock(&trs->lock);
}

bool ltt_triggers_action_pending(struct ltt_triggers *trs, struct ltt_trigger *t, uint32_t i,
				 bool pending)
{
	bool ret = true;
	uint32_t j, n = 0;

	if (i >= LTT_TRIGGER_MAX_ACTIONS)
		return false;
	pthread_mutex_lock(&trs->lock);
	if (pending && t->removed) {
		ret = false;
	} else if (pending) {
		for (j = 0; j < LTT_TRIGGER_MAX_ACTIONS; j++)
			n += t->pending[j];
		if (!n)
			t->pending_since = (int64_t)time(NULL);
		t->pending[i]++;
	} else {
		assert(t->pending[i]);
		t->pending[i]--;
		for (j = 0; j < LTT_TRIGGER_MAX_ACTIONS; j++)
			n += t->pending[j];
		if (!n)
			t->pending_since = 0;
	}
	pthread_mutex_unlock(&trs->lock);
	return ret;
}

bool ltt_triggers_removed(struct ltt_triggers *trs, struct ltt_trigger *t)
{
	bool ret;

	pthread_mutex_lock(&trs->lock);
	ret = t->removed;
	pthread_mutex_unlock(&trs->lock);
	return ret;
}

bool ltt_trigger_on_session(const struct ltt_trigger *t, const struct ltt_session *session,
			    uint32_t cond)
{
	return t->conf.cond == cond && t->owner == session->uid &&
	       !strcmp(t->conf.session, session->name);
}

/* Fire @t, a condition on @session, with its archive @path and @value. */
static void fire_session(struct ltt_triggers *trs, struct ltt_trigger *t,
			 const struct ltt_session *session, const char *path, uint64_t value,
			 uint64_t capacity)
{
	struct ltt_firing *f = ltt_firing_new(trs, t);

	if (!f) {
		ltt_triggers_count_dropped(trs, t, 1);
		return;
	}
	snprintf(f->session, sizeof(f->session), "%s", session->name);
	snprintf(f->path, sizeof(f->path), "%s", path ? path : "");
	f->n.value = value;
	f->capacity = capacity;
	ltt_triggers_fire(trs, f, 0);
}

void ltt_triggers_session_event(struct ltt_triggers *trs, const struct ltt_session *session,
				uint32_t cond, const char *path)
{
	struct ltt_trigger **v;
	size_t i, n;

	if (!trs)
		return;
	n = ltt_triggers_select(trs, cond, 0, &v);
	for (i = 0; i < n; i++) {
		if (!ltt_trigger_on_session(v[i], session, cond))
			continue;
		/* the rotation's id: the chunk it makes, which the session writes after it */
		fire_session(trs, v[i], session, path,
			     cond == LTT_CONDITION_SESSION_ROTATION_STARTS ? session->chunk_id + 1 :
									    session->chunk_id, 0);
	}
	ltt_triggers_put_all(trs, v, n);
}

bool ltt_triggers_watch(struct ltt_triggers *trs, const struct ltt_session *session,
			uint32_t cond)
{
	struct ltt_trigger *t;
	bool any = false;

	if (!trs)
		return false;
	pthread_mutex_lock(&trs->lock);
	cds_list_for_each_entry(t, &trs->list, node)
		if (ltt_trigger_on_session(t, session, cond))
			any = true;
	pthread_mutex_unlock(&trs->lock);
	return any;
}

void ltt_triggers_level(struct ltt_triggers *trs, struct ltt_trigger *t,
			const struct ltt_session *session, bool holds, uint64_t value,
			uint64_t capacity)
{
	bool crossed;

	pthread_mutex_lock(&trs->lock);
	crossed = holds && !t->held;
	t->held = holds;
	pthread_mutex_unlock(&trs->lock);
	if (crossed)
		fire_session(trs, t, session, "", value, capacity);
}

void ltt_triggers_consumed(struct ltt_triggers *trs, const struct ltt_session *session,
			   uint64_t written)
{
	struct ltt_trigger **v;
	size_t i, n;

	n = ltt_triggers_select(trs, LTT_CONDITION_SESSION_CONSUMED_SIZE_GE, 0, &v);
	for (i = 0; i < n; i++)
		if (ltt_trigger_on_session(v[i], session, LTT_CONDITION_SESSION_CONSUMED_SIZE_GE))
			ltt_triggers_level(trs, v[i], session,
					   written >= v[i]->conf.threshold_size, written, 0);
	ltt_triggers_put_all(trs, v, n);
}
