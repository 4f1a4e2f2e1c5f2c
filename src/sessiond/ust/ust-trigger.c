// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-trigger.c - event-rule-matches triggers in programs: each program a
 * trigger may act on (its owner's, or every program for root's) gets a
 * notifier (app protocol minor 4: NOTIFIER_ADD) and, for each event the
 * trigger's rule takes, the rule's filter programs and EVENT_ENABLE under
 * the notifier's key, as a channel would (a python rule: lttng_python:event,
 * and AGENT_RULES under that key for the program's agent, ltt's; LTTng's
 * agents are told it on their TCP connections, lagent.h).  The program
 * evaluates the rule and writes one message per match on its notification
 * socket; the app thread reads it and ltt_ust_trigger_notified() fires
 * the trigger.
 *
 * A trigger whose action is incr-map-value (doc/maps.md) is a counter
 * instead (app protocol minor 7: COUNTER_ADD, with the counter area of
 * its map for the program's user, model/map.h): each event its rule
 * takes is enabled with the slot of its key (the action's template for
 * that event) as its id, and the program adds to that slot's counter
 * itself: no message, no firing.  A program of an older minor gets no
 * counter (it could not count).
 *
 * What a program was given is kept as a channel record of @app
 * (ltt_app_chan, session_id 0, its key the notifier's), so the same
 * records tell which events it has, and which notifiers are left over
 * when triggers go.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/model/rule-filter.h"
#include "sessiond/ust/ust.h"

/*
 * May @t act on @app's events?  A user-space or agent (python, JUL,
 * log4j) rule, on its owner's programs; root's: on every one.
 */
static bool applies(const struct ltt_trigger *t, const struct ltt_app *app)
{
	return (t->conf.domain == LTT_DOMAIN_USER || t->chan.agent) &&
	       (t->owner == 0 || t->owner == app->uid);
}

static bool is_notifier(const struct ltt_app_chan *ac)
{
	return (ac->key & LTT_APP_NOTIFIER_KEY_BIT) != 0;
}

/* NOTIFIER_ADD for @t, with @app's notification socket. */
static int send_add(struct ltt_app *app, const struct ltt_trigger *t, uint32_t *last)
{
	struct ltt_app_notifier_add m = { .key = t->key, .nr_captures = t->conf.nr_captures };
	struct ltt_wbuf w;
	uint32_t i;
	int fd, ret;

	fd = ltt_app_notify_fd(app);
	if (fd < 0)
		return fd;
	for (i = 0; i < m.nr_captures; i++)
		m.captures[i] = t->conf.captures[i];
	ltt_wbuf_init(&w);
	ltt_app_put_notifier_add(&w, &m);
	ret = ltt_app_send(app, LTT_APP_MSG_NOTIFIER_ADD, &w, &fd, 1, last);
	ltt_wbuf_fini(&w);
	return ret;
}

/* COUNTER_ADD for counting trigger @t: the area of its map for @app's user. */
static int send_counter(struct ltt_ust *ust, struct ltt_app *app, const struct ltt_trigger *t,
			uint32_t *last)
{
	const struct ltt_action_conf *a = &t->conf.actions[0];
	struct ltt_app_counter_add m = { .key = t->key };
	struct ltt_wbuf w;
	int fd, ret;

	if (!ust->maps)
		return -ENOENT;
	ret = ltt_maps_area(ust->maps, t->owner, a->session, a->map, app->uid, app->pid, &fd,
			    &m.nr_cpus, &m.nr_slots);
	if (ret)
		return ret;
	ltt_wbuf_init(&w);
	ltt_app_put_counter_add(&w, &m);
	ret = ltt_app_send(app, LTT_APP_MSG_COUNTER_ADD, &w, &fd, 1, last);
	ltt_wbuf_fini(&w);
	close(fd);
	return ret;
}

/*
 * The id @t enables event @name with: 0 for a notifier; for a counter,
 * the slot of the event's key in its map (taken now if new).  0 or a
 * negative errno (the map is gone: its session was destroyed).
 */
static int event_id(struct ltt_ust *ust, const struct ltt_trigger *t, const char *name,
		    uint32_t *ret_id)
{
	const struct ltt_action_conf *a = &t->conf.actions[0];
	char key[LTT_MAP_KEY_MAX];
	int64_t slot;

	if (!ltt_trigger_counts(&t->conf)) {
		*ret_id = 0;
		return 0;
	}
	if (!ust->maps)
		return -ENOENT;
	slot = ltt_maps_slot(ust->maps, t->owner, a->session, a->map,
			     ltt_map_key_expand(a->key, name, key, sizeof(key)));
	if (slot < 0)
		return (int)slot;
	*ret_id = (uint32_t)slot;
	return 0;
}

/*
 * EVENT_FILTER (when @f has programs) then EVENT_ENABLE of description
 * @tp under @key with @id.
 */
static int send_enable(struct ltt_app *app, uint64_t key, const struct ltt_app_tracepoint *tp,
		       uint32_t id, const struct ltt_ust_filters *f, uint32_t *last)
{
	struct ltt_app_event_msg ev = {
		.channel_key = key, .name = tp->name, .layout = tp->layout, .event_id = id,
	};
	struct ltt_wbuf w;
	int ret = 0;

	ltt_wbuf_init(&w);
	if (f->nr) {
		ltt_ust_filters_put(&w, key, tp, f, app->minor);
		ret = ltt_app_send(app, LTT_APP_MSG_EVENT_FILTER, &w, NULL, 0, last);
		ltt_wbuf_reset(&w);
	}
	if (!ret) {
		ltt_app_put_event_enable_v(&w, &ev, app->minor);
		ret = ltt_app_send(app, LTT_APP_MSG_EVENT_ENABLE, &w, NULL, 0, last);
	}
	ltt_wbuf_fini(&w);
	return ret;
}

/* Enable in @app's notifier @ac each of its events @t's rule takes and it lacks. */
static int sync_events(struct ltt_ust *ust, struct ltt_app *app, struct ltt_app_chan *ac,
		       const struct ltt_trigger *t, uint32_t *last)
{
	struct ltt_ust_filters f;
	uint32_t id = 0;
	size_t i;
	int ret = 0;

	for (i = 0; i < app->nr_tps && !ret; i++) {
		const struct ltt_app_tracepoint *tp = app->tps[i];

		if (ltt_app_chan_event(ac, tp))
			continue;	/* a trigger never changes: what it has stays right */
		ltt_ust_filters_get(&t->chan, tp, &f);
		if (f.want)
			ret = event_id(ust, t, tp->name, &id);
		if (!ret && f.want && !ltt_app_chan_event_add(ac, &(struct ltt_app_event){
				.name = tp->name, .layout = tp->layout, .id = id,
				.filter_sig = f.sig })) {
			ret = send_enable(app, t->key, tp, id, &f, last);
			if (ret)
				ltt_app_chan_event_remove(ac, ltt_app_chan_event(ac, tp));
		}
		ltt_ust_filters_fini(&f);
	}
	return ret;
}

/*
 * Give @app notifier @t if it has none, then the events it lacks, then
 * (a python rule) its agent the rule.
 */
static int sync_one(struct ltt_ust *ust, struct ltt_app *app, const struct ltt_trigger *t,
		    uint32_t *last)
{
	struct ltt_app_chan *ac = ltt_app_find_chan(app, t->key);
	bool counts = ltt_trigger_counts(&t->conf);
	int ret;

	if (counts && app->minor < LTT_APP_MINOR_COUNTER)
		return 0;	/* it can't count */
	if (!ac) {
		ac = ltt_app_chan_new();
		if (!ac)
			return -ENOMEM;
		ret = counts ? send_counter(ust, app, t, last) : send_add(app, t, last);
		if (ret) {
			ltt_app_chan_free(ac);
			return ret;
		}
		ac->key = t->key;
		ac->enabled = true;
		cds_list_add_tail(&ac->node, &app->chans);
	}
	ret = sync_events(ust, app, ac, t, last);
	return ret ? ret : ltt_ust_push_agent(app, ac, &t->chan, t->key, last);
}

/* Does counting trigger @t's map exist (a notifier's: always true)? */
static bool map_there(const struct ltt_ust *ust, const struct ltt_trigger *t)
{
	const struct ltt_action_conf *a = &t->conf.actions[0];

	return !ltt_trigger_counts(&t->conf) ||
	       (ust->maps && ltt_maps_exists(ust->maps, t->owner, a->session, a->map));
}

/* Is @key one of @v's, a counter's only while its map exists? */
static bool wanted(const struct ltt_ust *ust, uint64_t key, struct ltt_trigger *const *v,
		   size_t n, const struct ltt_app *app)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->key == key && applies(v[i], app))
			return map_there(ust, v[i]);
	return false;
}

/*
 * NOTIFIER_REMOVE for each notifier of @app no trigger of @v wants (a
 * counter whose map went with its session included: a map of that name
 * added again gets a counter of its own at the next sync).
 */
static void drop_stale(const struct ltt_ust *ust, struct ltt_app *app,
		       struct ltt_trigger *const *v, size_t n, uint32_t *last)
{
	struct ltt_app_chan *ac, *tmp;
	struct ltt_wbuf w;

	cds_list_for_each_entry_safe(ac, tmp, &app->chans, node) {
		if (!is_notifier(ac) || wanted(ust, ac->key, v, n, app))
			continue;
		ltt_wbuf_init(&w);
		ltt_app_put_channel_key(&w, ac->key);
		(void)ltt_app_send(app, LTT_APP_MSG_NOTIFIER_REMOVE, &w, NULL, 0, last);
		ltt_wbuf_fini(&w);
		cds_list_del(&ac->node);
		ltt_app_chan_free(ac);
	}
}

/* The event-rule triggers now, of every domain (applies() tells): a referenced array. */
static size_t current(struct ltt_ust *ust, struct ltt_trigger ***ret)
{
	if (!ust->triggers) {
		*ret = NULL;
		return 0;
	}
	return ltt_triggers_select(ust->triggers, LTT_CONDITION_EVENT_RULE_MATCHES, 0, ret);
}

/* Make @app's notifiers those of @v (apps lock held); true when a command was sent. */
static bool sync_app(struct ltt_ust *ust, struct ltt_app *app, struct ltt_trigger *const *v,
		     size_t n, uint32_t *last)
{
	uint32_t before;
	size_t i;

	if (app->minor < LTT_APP_MINOR_NOTIFIER || ltt_app_ended(app, last))
		return false;
	before = *last;
	drop_stale(ust, app, v, n, last);
	for (i = 0; i < n; i++) {
		if (applies(v[i], app) && map_there(ust, v[i]) &&
		    sync_one(ust, app, v[i], last) == -EPIPE)
			break;
	}
	return *last != before;
}

void ltt_ust_triggers_sync_app(struct ltt_ust *ust, struct ltt_app *app)
{
	struct ltt_trigger **v;
	size_t n = current(ust, &v);
	uint32_t last;

	pthread_mutex_lock(&ust->apps.lock);
	sync_app(ust, app, v, n, &last);
	pthread_mutex_unlock(&ust->apps.lock);
	if (ust->triggers)
		ltt_triggers_put_all(ust->triggers, v, n);
}

int ltt_ust_triggers_sync_all(struct ltt_ust *ust)
{
	struct ltt_ust_acks acks;
	struct ltt_trigger **v;
	struct ltt_app *app;
	size_t n = current(ust, &v);
	uint32_t last;
	int err;

	ltt_ust_push_acks_init(&acks);
	pthread_mutex_lock(&ust->apps.lock);
	cds_list_for_each_entry(app, &ust->apps.list, node)
		if (sync_app(ust, app, v, n, &last))
			ltt_ust_push_acks_add(&acks, app, last);
	pthread_mutex_unlock(&ust->apps.lock);
	/* LTTng's agents (python3-lttngust) hand their records on for the python rules too */
	err = ltt_lagent_sync_triggers(ust->lagent, v, n);
	if (ust->triggers)
		ltt_triggers_put_all(ust->triggers, v, n);
	/* the triggers are in the programs when the command returns */
	ltt_ust_push_acks_wait(&acks, "trigger change");
	return err;
}

/*
 * Copy @m's captures (at most @t's number of them) into @f: their strings
 * and arrays' elements into its room, which a message always fits.
 */
static void take_captures(struct ltt_firing *f, const struct ltt_trigger *t,
			  const struct ltt_app_notify *m)
{
	size_t room = sizeof(f->strings), len;
	char *p = f->strings;
	const void *from;
	uint32_t i;

	f->n.nr_captures = m->nr_captures < t->conf.nr_captures ? m->nr_captures :
								  t->conf.nr_captures;
	for (i = 0; i < f->n.nr_captures; i++) {
		struct ltt_capture_desc *c = &f->n.captures[i];

		*c = m->captures[i];
		if (c->type == LTT_CAPTURE_STRING) {
			from = c->str;
			len = strlen(c->str) + 1;
		} else if (c->type == LTT_CAPTURE_ARRAY) {
			from = c->elems;
			len = c->elems_len;
		} else {
			continue;
		}
		if (len > room) {	/* can't be: the message was smaller than the room */
			*c = (struct ltt_capture_desc){ .type = LTT_CAPTURE_UNAVAILABLE };
			continue;
		}
		memcpy(p, from, len);
		if (c->type == LTT_CAPTURE_STRING)
			c->str = p;
		else
			c->elems = (const uint8_t *)p;
		p += len;
		room -= len;
	}
}

void ltt_ust_trigger_notified(struct ltt_ust *ust, struct ltt_app *app,
			      const struct ltt_app_notify *m)
{
	struct ltt_trigger *t = ust->triggers ? ltt_triggers_find_key(ust->triggers, m->key) : NULL;
	struct ltt_firing *f;

	if (!t)
		return;	/* removed since: it fires no more */
	if (!applies(t, app)) {
		LTT_WARN_RL("%s (pid %ld) notified a trigger it was not given: ignored",
			    app->procname, (long)app->pid);
		goto out;
	}
	if (!m->event[0]) {	/* a count only: what the program could not write before */
		ltt_triggers_count_dropped(ust->triggers, t, m->dropped);
		goto out;
	}
	f = ltt_firing_new(ust->triggers, t);
	if (!f) {
		ltt_triggers_count_dropped(ust->triggers, t, 1 + m->dropped);
		goto out;
	}
	snprintf(f->event, sizeof(f->event), "%s", m->event);
	f->n.pid = app->pid;
	take_captures(f, t, m);
	ltt_triggers_fire(ust->triggers, f, m->dropped);
out:
	ltt_triggers_put(ust->triggers, t);
}
