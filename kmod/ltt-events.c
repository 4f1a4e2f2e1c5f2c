// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-events.c - the events the tracer knows (from kmod/probes/, whose
 * table module init gives it), where each is enabled (its targets), kernel
 * tracepoint attachment, and the record path every probe goes through.
 */
#include <linux/mm.h>		/* kvmalloc() */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "ltt-tracer.h"
#include "wrapper/ltt-wrapper.h"	/* put_unaligned() */

#define SYSCALL_ENTRY_PREFIX	LTT_KABI_SYSCALL_ENTRY_PREFIX

/* Every probe group, as module init gives them (ltt_events_init()). */
static struct ltt_probe * const *ltt_probes;
static unsigned int ltt_nr_probes;

static LIST_HEAD(ltt_events);		/* every struct ltt_event_desc, ltt_mutex */
static unsigned int ltt_tp_attached;	/* tracepoint probes attached, ltt_mutex */

/* Recursion guard: a probe firing inside our own record path. */
static DEFINE_PER_CPU(int, ltt_nesting);

/* The session whose START runs the state dump (ltt_mutex held). */
struct ltt_session *ltt_statedump_session;

static struct ltt_event_desc *event_find(const char *name)
{
	struct ltt_event_desc *desc;

	list_for_each_entry(desc, &ltt_events, node)
		if (!strcmp(desc->name, name))
			return desc;
	return NULL;
}

/* The events LIST shows changed (an external group came or went) this many times. */
static u32 ltt_catalog_gen;

/* Can this event be enabled on this kernel? */
static bool event_available(const struct ltt_event_desc *desc)
{
	if (desc->group && desc->group->external && !desc->group->present)
		return false;
	return !desc->tp_name || desc->tp;
}

/**
 * ltt_probe_set_present() - an external group's events come (@present) or
 * go: listed, described and enabled from now on, or no longer (where they
 * are enabled they stay so, recorded by nobody, until disabled)
 *
 * Context: process context, takes ltt_mutex.
 */
void ltt_probe_set_present(struct ltt_probe *probe, bool present)
{
	mutex_lock(&ltt_mutex);
	if (probe->external && probe->present != present) {
		probe->present = present;
		WRITE_ONCE(ltt_catalog_gen, ltt_catalog_gen + 1);
	}
	mutex_unlock(&ltt_mutex);
}

/**
 * ltt_catalog_generation() - how many times LIST's events changed since
 * the module loaded (ltt_kabi_version.catalog)
 */
u32 ltt_catalog_generation(void)
{
	return READ_ONCE(ltt_catalog_gen);	/* written under ltt_mutex */
}

static void find_tracepoint(struct tracepoint *tp, void *priv)
{
	struct ltt_event_desc *desc;

	list_for_each_entry(desc, &ltt_events, node)
		if (desc->tp_name && !strcmp(desc->tp_name, tp->name))
			desc->tp = tp;
}

static bool desc_valid(const struct ltt_event_desc *desc)
{
	return strlen(desc->name) < LTT_KABI_NAME_MAX && desc->probe &&
	       desc->nr_fields <= LTT_KABI_MAX_FIELDS && !event_find(desc->name);
}

/* pr_err() the valid probe group names after @what. */
static void probes_report(const char *what)
{
	char names[256] = "";
	unsigned int i;

	for (i = 0; i < ltt_nr_probes; i++) {
		if (i)
			strlcat(names, ",", sizeof(names));
		strlcat(names, ltt_probes[i]->name, sizeof(names));
	}
	pr_err("ltt: probes=: %s; valid names: %s (empty or absent: all)\n", what, names);
}

/*
 * Mark the probe groups the comma-separated list @list names as selected
 * (NULL or blank: all of them).  Return: 0, or -EINVAL (reported) for an
 * unknown or empty name, -ENOMEM.
 */
static int probes_select(const char *list)
{
	char *copy, *rest, *item, what[LTT_KABI_NAME_MAX + 32];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ltt_nr_probes; i++)
		ltt_probes[i]->selected = !list || !*skip_spaces(list);
	if (!list || !*skip_spaces(list))
		return 0;
	copy = kstrdup(list, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	rest = copy;
	while (!ret && (item = strsep(&rest, ","))) {
		item = strim(item);
		for (i = 0; i < ltt_nr_probes; i++)
			if (!strcmp(item, ltt_probes[i]->name))
				break;
		if (i < ltt_nr_probes) {
			ltt_probes[i]->selected = true;
			continue;
		}
		if (*item)
			snprintf(what, sizeof(what), "unknown probe group \"%.*s\"",
				 LTT_KABI_NAME_MAX, item);
		else
			strscpy(what, "an empty name in the list", sizeof(what));
		probes_report(what);
		ret = -EINVAL;
	}
	kfree(copy);
	return ret;
}

/**
 * ltt_events_init() - register the events of the selected probe groups
 * @table: every probe group of the module (kept until ltt_events_exit())
 * @nr: how many
 * @probes: the probes= module parameter: comma-separated group names
 *          (LTT_PROBES), or NULL or blank for every group
 *
 * Finds each event's kernel tracepoint and runs each selected group's
 * init().  Context: module init.  Return: 0; -EINVAL an unknown group in
 * @probes or an invalid event (both reported with pr_err()); -ENOMEM; or
 * the error of a group's init().  Nothing stays registered on error.
 */
int ltt_events_init(struct ltt_probe * const *table, unsigned int nr, const char *probes)
{
	unsigned int i, j;
	int ret;

	ltt_probes = table;
	ltt_nr_probes = nr;
	ret = probes_select(probes);
	if (ret)
		return ret;
	mutex_lock(&ltt_mutex);
	for (i = 0; i < ltt_nr_probes; i++) {
		struct ltt_probe *probe = ltt_probes[i];

		probe->nr_active = 0;
		probe->inited = false;
		probe->present = false;
		for (j = 0; probe->selected && j < probe->nr_events; j++) {
			struct ltt_event_desc *desc = probe->events[j];

			if (!desc_valid(desc)) {
				pr_err("ltt: probe %s: event %s is invalid or a duplicate\n",
				       probe->name, desc->name);
				ret = -EINVAL;
				goto fail;
			}
			desc->group = probe;
			list_add_tail(&desc->node, &ltt_events);
		}
	}
	for_each_kernel_tracepoint(find_tracepoint, NULL);
	mutex_unlock(&ltt_mutex);
	for (i = 0; i < ltt_nr_probes; i++) {
		struct ltt_probe *probe = ltt_probes[i];

		if (!probe->selected || !probe->init) {
			probe->inited = probe->selected;
			continue;
		}
		ret = probe->init();
		if (ret) {
			pr_err("ltt: probe %s: init failed (%d)\n", probe->name, ret);
			ltt_events_exit();
			return ret;
		}
		probe->inited = true;
	}
	return 0;
fail:
	INIT_LIST_HEAD(&ltt_events);
	mutex_unlock(&ltt_mutex);
	return ret;
}

/**
 * ltt_events_exit() - run the exit() of every group whose init() ran, in
 * reverse order, and forget every event
 *
 * Context: module exit (no session left, so no event is enabled).
 */
void ltt_events_exit(void)
{
	unsigned int i = ltt_nr_probes;

	while (i--) {
		struct ltt_probe *probe = ltt_probes[i];

		if (probe->inited && probe->exit)
			probe->exit();
		probe->inited = false;
	}
	mutex_lock(&ltt_mutex);
	INIT_LIST_HEAD(&ltt_events);
	mutex_unlock(&ltt_mutex);
}

/**
 * ltt_tracepoint_attach() - tracepoint_probe_register(), counted
 * @tp: a kernel tracepoint
 * @probe: the probe function (its prototype is the tracepoint's)
 * @data: its first argument
 *
 * For the core and for probe groups' activate hooks, so that
 * ltt_tracepoints_attached() can tell how many probes the tracer has in
 * the kernel.  Context: ltt_mutex held, may sleep.  Return: 0 or the
 * registration's -errno.
 */
int ltt_tracepoint_attach(struct tracepoint *tp, void *probe, void *data)
{
	int ret;

	lockdep_assert_held(&ltt_mutex);
	ret = tracepoint_probe_register(tp, probe, data);
	if (!ret)
		ltt_tp_attached++;
	return ret;
}

/**
 * ltt_tracepoint_detach() - undo ltt_tracepoint_attach()
 *
 * Context: ltt_mutex held, may sleep.  The probe may still run on another
 * CPU until tracepoint_synchronize_unregister().
 */
void ltt_tracepoint_detach(struct tracepoint *tp, void *probe, void *data)
{
	lockdep_assert_held(&ltt_mutex);
	tracepoint_probe_unregister(tp, probe, data);
	ltt_tp_attached--;
}

/**
 * ltt_tracepoints_attached() - how many tracepoint probes the tracer has
 * attached now (0 while nothing is enabled: the proof of lazy attachment
 * that /proc/ltt-test reports)
 *
 * Context: takes ltt_mutex.
 */
unsigned int ltt_tracepoints_attached(void)
{
	unsigned int n;

	mutex_lock(&ltt_mutex);
	n = ltt_tp_attached;
	mutex_unlock(&ltt_mutex);
	return n;
}

/* ---- targets ---- */

static struct ltt_targets *targets_of(struct ltt_event_desc *desc)
{
	return rcu_dereference_protected(desc->targets, lockdep_is_held(&ltt_mutex));
}

/* How many of @tg's targets filter. */
static unsigned int count_filtered(const struct ltt_targets *tg)
{
	unsigned int i, n = 0;

	for (i = 0; i < tg->nr; i++)
		n += !!tg->t[i].filter;
	return n;
}

/* How many of @tg's targets are map counters (NULL: none). */
static unsigned int map_targets(const struct ltt_targets *tg)
{
	unsigned int i, n = 0;

	for (i = 0; tg && i < tg->nr; i++)
		n += !!tg->t[i].entry;
	return n;
}

/* Are @a and @b the same channel's, or the same map counter's? */
static bool target_same(const struct ltt_target *a, const struct ltt_target *b)
{
	return a->chan == b->chan && a->entry == b->entry;
}

/*
 * Publish @desc's targets with @tgt (a channel's, or a map counter's)
 * added, or removed (@add false: only its chan and entry are read).
 * -ENOSPC: a map counter past LTT_KABI_MAP_EVENT_MAX_COUNTERS (channels
 * are bounded by sessions and their channels); -ENOMEM.
 */
static int targets_update(struct ltt_event_desc *desc, const struct ltt_target *tgt, bool add)
{
	struct ltt_targets *old = targets_of(desc), *new = NULL;
	unsigned int n = old ? old->nr : 0, i, k = 0;

	if (!add && n == 1 && !target_same(&old->t[0], tgt))
		return 0;
	if (add && tgt->entry && map_targets(old) >= LTT_KABI_MAP_EVENT_MAX_COUNTERS)
		return -ENOSPC;
	if (add || n > 1) {
		new = kvmalloc(struct_size(new, t, n + 1), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		for (i = 0; i < n; i++)
			if (add || !target_same(&old->t[i], tgt))
				new->t[k++] = old->t[i];
		if (add)
			new->t[k++] = *tgt;
		new->nr = k;
		new->nr_filtered = count_filtered(new);
		if (!k) {
			kvfree(new);
			new = NULL;
		}
	}
	rcu_assign_pointer(desc->targets, new);
	if (old)
		kvfree_rcu(old, rcu);
	return 0;
}

/*
 * Attach or detach the kernel tracepoint (arm or disarm the probe's) as
 * @desc gains or loses targets.
 */
static int tracepoint_sync(struct ltt_event_desc *desc)
{
	bool want = desc->tp && targets_of(desc);
	int ret;

	if (desc->kprobe)
		return desc->sync(desc);
	if (want == desc->tp_registered)
		return 0;
	if (want) {
		ret = ltt_tracepoint_attach(desc->tp, desc->probe, desc);
		if (ret)
			return ret;
	} else {
		ltt_tracepoint_detach(desc->tp, desc->probe, desc);
	}
	desc->tp_registered = want;
	return 0;
}

/* @desc gains its first channel: its group's activate() on the group's first. */
static int group_get(struct ltt_event_desc *desc)
{
	struct ltt_probe *g = desc->group;
	int ret;

	if (!g || g->nr_active++ || !g->activate)
		return 0;
	ret = g->activate();
	if (ret)
		g->nr_active--;
	return ret;
}

/* @desc lost its last channel: its group's deactivate() after the last one. */
static void group_put(struct ltt_event_desc *desc)
{
	struct ltt_probe *g = desc->group;

	if (g && !--g->nr_active && g->deactivate)
		g->deactivate();
}

/* Forget @e, an event of @chan whose target is gone. */
static void enabled_free(struct ltt_channel *chan, struct ltt_enabled *e)
{
	list_del(&e->node);
	chan->nr_events--;
	ltt_kfilter_free_rcu(e->filter);
	kfree(e);
}

/* @e's target in @chan was just removed: detach if it was the last, forget @e. */
static void enabled_remove(struct ltt_channel *chan, struct ltt_enabled *e)
{
	struct ltt_event_desc *desc = e->desc;

	tracepoint_sync(desc);	/* unregistering cannot fail */
	if (!targets_of(desc))
		group_put(desc);
	enabled_free(chan, e);
}

/* Remove @tgt from @desc's targets (cannot fail: retried), then detach. */
static void target_remove(struct ltt_event_desc *desc, const struct ltt_target *tgt)
{
	/* removing allocates only when other targets remain: retry-safe */
	while (targets_update(desc, tgt, false))
		cond_resched();
	tracepoint_sync(desc);	/* unregistering cannot fail */
	if (!targets_of(desc))
		group_put(desc);
}

static void event_remove_target(struct ltt_event_desc *desc, struct ltt_channel *chan)
{
	target_remove(desc, &(struct ltt_target){ .chan = chan });
}

/*
 * Add @tgt to @desc's targets, its group activated and its tracepoint
 * attached as needed.  Nothing changes on error (@tgt's filter stays
 * the caller's: no probe saw it).
 */
static int target_add(struct ltt_event_desc *desc, const struct ltt_target *tgt)
{
	bool first = !targets_of(desc);
	int ret;

	if (first) {
		ret = group_get(desc);
		if (ret)
			return ret;
	}
	ret = targets_update(desc, tgt, true);
	if (ret)
		goto put;
	ret = tracepoint_sync(desc);
	if (ret) {
		/* removing allocates only when other targets remain: retry-safe */
		while (targets_update(desc, tgt, false))
			cond_resched();
		synchronize_rcu();	/* the filter stays the caller's: no probe sees it */
		goto put;
	}
	return 0;
put:
	if (first)
		group_put(desc);
	return ret;
}

static struct ltt_enabled *enabled_find(struct ltt_channel *chan,
					const struct ltt_event_desc *desc)
{
	struct ltt_enabled *e;

	list_for_each_entry(e, &chan->events, node)
		if (e->desc == desc)
			return e;
	return NULL;
}

/**
 * ltt_event_enable() - record the event @name in @chan with id @id
 * @chan: the channel (its fd is open)
 * @name: a NUL-terminated event name
 * @id: the event's id in the channel, chosen by the daemon
 *
 * Context: ltt_mutex held, process context.
 * Return: 0; -ENOENT no such event on this kernel; -EEXIST already enabled
 * in @chan; -EINVAL @id used by another event of @chan; -ENOSPC too many
 * events; -ENOMEM; or the error of the tracepoint's registration or of
 * the group's activate().  Nothing changes on error.
 */
int ltt_event_enable(struct ltt_channel *chan, const char *name, u32 id)
{
	struct ltt_event_desc *desc = ltt_event_lookup(name);

	return desc ? ltt_event_enable_filtered(chan, desc, id, NULL) : -ENOENT;
}

/**
 * ltt_event_lookup() - the event named @name, if this kernel can record it
 *
 * Context: ltt_mutex held.  Return: the event, or NULL.
 */
struct ltt_event_desc *ltt_event_lookup(const char *name)
{
	struct ltt_event_desc *desc = event_find(name);

	lockdep_assert_held(&ltt_mutex);
	return desc && event_available(desc) ? desc : NULL;
}

/**
 * ltt_event_enable_filtered() - ltt_event_enable() with @filter set at once
 * @filter: validated for @desc (ltt-filter.c), or NULL; taken on success
 *
 * Context and return: as ltt_event_enable().
 */
int ltt_event_enable_filtered(struct ltt_channel *chan, struct ltt_event_desc *desc, u32 id,
			      struct ltt_kfilter *filter)
{
	struct ltt_enabled *e;
	int ret;

	lockdep_assert_held(&ltt_mutex);
	if (desc->session && desc->session != chan->session)
		return -ENOENT;		/* another session's probe */
	if (enabled_find(chan, desc))
		return -EEXIST;
	list_for_each_entry(e, &chan->events, node)
		if (e->id == id)
			return -EINVAL;
	if (chan->nr_events >= LTT_MAX_CHANNEL_EVENTS)
		return -ENOSPC;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	ret = target_add(desc, &(struct ltt_target){ .chan = chan, .id = id, .filter = filter });
	if (ret) {
		kfree(e);
		return ret;
	}
	e->desc = desc;
	e->id = id;
	e->filter = filter;
	list_add_tail(&e->node, &chan->events);
	chan->nr_events++;
	return 0;
}

/**
 * ltt_event_count() - count @e->desc's firings in @e's map counter
 * @e: a map counter (ltt-map.c) not counting yet; its desc, id and
 *     filter (NULL: none) set; the probes read it until ltt_event_uncount()
 *
 * Context: ltt_mutex held, process context.  Return: 0; -ENOENT a probe
 * of a session's (maps belong to none); -ENOSPC the event counts under
 * LTT_KABI_MAP_EVENT_MAX_COUNTERS counters already, all maps together;
 * or as ltt_event_enable().
 */
int ltt_event_count(struct ltt_kmap_entry *e)
{
	lockdep_assert_held(&ltt_mutex);
	if (e->desc->session)
		return -ENOENT;
	return target_add(e->desc, &(struct ltt_target){ .entry = e, .id = e->id,
							 .filter = e->filter });
}

/**
 * ltt_event_uncount() - undo ltt_event_count()
 *
 * Context: ltt_mutex held.  A probe may still be counting in @e on
 * another CPU until a grace period.
 */
void ltt_event_uncount(struct ltt_kmap_entry *e)
{
	lockdep_assert_held(&ltt_mutex);
	target_remove(e->desc, &(struct ltt_target){ .entry = e });
}

/**
 * ltt_event_disable() - stop recording the event @name in @chan
 *
 * Context: ltt_mutex held.  Return: 0, or -ENOENT when it is not enabled
 * there.  An event being recorded on another CPU may still land.
 */
int ltt_event_disable(struct ltt_channel *chan, const char *name)
{
	struct ltt_event_desc *desc = event_find(name);
	struct ltt_enabled *e;
	int ret;

	lockdep_assert_held(&ltt_mutex);
	e = desc ? enabled_find(chan, desc) : NULL;
	if (!e)
		return -ENOENT;
	ret = targets_update(desc, &(struct ltt_target){ .chan = chan }, false);
	if (ret)
		return ret;
	enabled_remove(chan, e);
	return 0;
}

/**
 * ltt_event_add() - make @desc, an event placed at run time (a probe's),
 * known by its name: EVENT_DESC describes it, EVENT_ENABLE enables it; it
 * is never listed (LIST)
 * @desc: its name, probe, fields and flags set (LTT_EVENT_PROBE); owned
 *        by the caller, who calls ltt_event_remove() before freeing it
 *
 * Context: ltt_mutex held.  Return: 0, or -EEXIST (the name is taken).
 */
int ltt_event_add(struct ltt_event_desc *desc)
{
	lockdep_assert_held(&ltt_mutex);
	if (event_find(desc->name))
		return -EEXIST;
	desc->flags |= LTT_EVENT_PROBE;
	list_add_tail(&desc->node, &ltt_events);
	return 0;
}

/**
 * ltt_event_remove() - undo ltt_event_add(): disable @desc in every
 * channel that has it, and forget it
 *
 * Context: ltt_mutex held.  A probe may still be running it on another
 * CPU until the caller's grace period.
 */
void ltt_event_remove(struct ltt_event_desc *desc)
{
	struct ltt_targets *tg;

	lockdep_assert_held(&ltt_mutex);
	while ((tg = targets_of(desc))) {
		struct ltt_channel *chan = tg->t[0].chan;
		struct ltt_enabled *e = enabled_find(chan, desc);

		event_remove_target(desc, chan);
		if (!WARN_ON_ONCE(!e))
			enabled_free(chan, e);
	}
	list_del_init(&desc->node);
}

/**
 * ltt_event_set_filter() - replace the filter of @desc in @chan
 * @filter: validated for @desc, or NULL (none); taken on success
 *
 * Publishes a copy of the event's targets with @chan's filter replaced: a
 * probe running meanwhile uses the old filter or the new one, and the old
 * one is freed after a grace period.  Context: ltt_mutex held.  Return: 0,
 * -ENOENT (not enabled in @chan), -ENOMEM; nothing changes on error.
 */
int ltt_event_set_filter(struct ltt_channel *chan, struct ltt_event_desc *desc,
			 struct ltt_kfilter *filter)
{
	struct ltt_targets *old = targets_of(desc), *new;
	struct ltt_enabled *e = enabled_find(chan, desc);
	unsigned int i;

	lockdep_assert_held(&ltt_mutex);
	if (!e || !old)
		return -ENOENT;
	new = kvmalloc(struct_size(new, t, old->nr), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	memcpy(new->t, old->t, old->nr * sizeof(old->t[0]));
	new->nr = old->nr;
	for (i = 0; i < new->nr; i++)
		if (new->t[i].chan == chan)
			new->t[i].filter = filter;
	new->nr_filtered = count_filtered(new);
	rcu_assign_pointer(desc->targets, new);
	kvfree_rcu(old, rcu);
	ltt_kfilter_free_rcu(e->filter);
	e->filter = filter;
	return 0;
}

/**
 * ltt_events_detach_channel() - remove @chan from every event
 *
 * Context: ltt_mutex held.  The caller waits for a grace period
 * (tracepoint_synchronize_unregister()) before freeing the channel.
 */
void ltt_events_detach_channel(struct ltt_channel *chan)
{
	struct ltt_enabled *e, *tmp;

	list_for_each_entry_safe(e, tmp, &chan->events, node) {
		event_remove_target(e->desc, chan);
		enabled_free(chan, e);
	}
	WARN_ON_ONCE(chan->nr_events);
}

/* Is @desc enabled in a channel of @session?  ltt_mutex held. */
bool ltt_event_enabled_in_session(const struct ltt_event_desc *desc,
				  const struct ltt_session *session)
{
	struct ltt_targets *tg = rcu_dereference_protected(desc->targets,
							   lockdep_is_held(&ltt_mutex));
	unsigned int i;

	for (i = 0; tg && i < tg->nr; i++)
		if (tg->t[i].chan && tg->t[i].chan->session == session)
			return true;
	return false;
}

/* ---- LIST and EVENT_DESC ---- */

static bool listed(const struct ltt_event_desc *desc, u32 kind)
{
	if (!event_available(desc) || (desc->flags & LTT_EVENT_PROBE))
		return false;
	if (kind == LTT_KABI_LIST_SYSCALLS)
		return (desc->flags & LTT_EVENT_SYSCALL) &&
		       !strncmp(desc->name, SYSCALL_ENTRY_PREFIX, strlen(SYSCALL_ENTRY_PREFIX));
	return !(desc->flags & LTT_EVENT_SYSCALL);
}

/**
 * ltt_events_list() - fill @list's user array and count
 * @list: validated by the caller (kind, reserved)
 *
 * Context: takes ltt_mutex.  Return: 0 or -EFAULT.
 */
int ltt_events_list(struct ltt_kabi_list *list)
{
	struct ltt_kabi_list_entry __user *out = u64_to_user_ptr(list->entries);
	struct ltt_kabi_list_entry entry;
	struct ltt_event_desc *desc;
	u32 count = 0;
	int ret = 0;

	mutex_lock(&ltt_mutex);
	list_for_each_entry(desc, &ltt_events, node) {
		if (!listed(desc, list->kind))
			continue;
		if (count < list->capacity) {
			const char *name = desc->name;

			if (list->kind == LTT_KABI_LIST_SYSCALLS)
				name += strlen(SYSCALL_ENTRY_PREFIX);
			memset(&entry, 0, sizeof(entry));
			strscpy(entry.name, name, sizeof(entry.name));
			entry.nr_fields = desc->nr_fields;
			if (copy_to_user(&out[count], &entry, sizeof(entry))) {
				ret = -EFAULT;
				break;
			}
		}
		count++;
	}
	mutex_unlock(&ltt_mutex);
	list->count = count;
	return ret;
}

/**
 * ltt_events_describe() - the fields of the event named @d->name
 *
 * Context: takes ltt_mutex.  Return: 0, or -ENOENT (unknown or not on
 * this kernel).
 */
int ltt_events_describe(struct ltt_kabi_event_desc *d)
{
	struct ltt_event_desc *desc;
	int ret = -ENOENT;

	mutex_lock(&ltt_mutex);
	desc = event_find(d->name);
	if (desc && event_available(desc)) {
		d->nr_fields = desc->nr_fields;
		memcpy(d->fields, desc->fields, desc->nr_fields * sizeof(d->fields[0]));
		ret = 0;
	}
	mutex_unlock(&ltt_mutex);
	return ret;
}

/* ---- the record path ---- */

/**
 * ltt_event_reserve() - room for one event of @desc in @t's channel
 * @desc: the event
 * @t: one of its targets (RCU, read with preemption disabled)
 * @payload: the payload's size in bytes
 * @ctx: filled on success; the caller writes @payload bytes through it,
 *       then calls ltt_event_commit()
 *
 * Any context, NMI included; preemption disabled by the caller.  Writes
 * the event header (compact when the id is below 31 and the timestamp
 * fits, as the ring buffer decides).  Return: 0, or a negative errno when
 * the event is not recorded (channel inactive, dropped and counted).
 */
int ltt_event_reserve(const struct ltt_event_desc *desc, const struct ltt_target *t,
		      size_t payload, struct ltt_ctx *ctx)
{
	struct ltt_channel *chan = t->chan;
	size_t long_len, short_len;
	struct ltt_rb_buf *buf;
	char *p;
	int ret;

	if (unlikely(t->entry)) {
		ltt_kmap_count(t->entry);	/* a map's counter: no record */
		return -EAGAIN;
	}
	if (unlikely(!READ_ONCE(chan->active)))
		return -EAGAIN;
	/* trackers (ltt-tracker.c); state dump events describe every task */
	if (unlikely(READ_ONCE(chan->tracking)) && !(desc->flags & LTT_EVENT_STATEDUMP) &&
	    !ltt_tracker_pass(chan->session))
		return -EAGAIN;
	payload += chan->ctx.len;	/* the context fields: 0 without */
	long_len = payload + 13;
	short_len = t->id < 31 ? payload + 4 : long_len;
	if (unlikely(desc->flags & LTT_EVENT_STATEDUMP) &&
	    chan->session != READ_ONCE(ltt_statedump_session))
		return -EAGAIN;
	/*
	 * Never NULL: a CPU's buffer is added before it comes up (or it does
	 * not come up) and kept after it goes down.  A guard, not a path.
	 */
	buf = READ_ONCE(chan->bufs[smp_processor_id()]);
	if (WARN_ON_ONCE(!buf))
		return -ENOBUFS;
	if (unlikely(this_cpu_inc_return(ltt_nesting) > LTT_MAX_NESTING)) {
		local_inc(&buf->events_lost);
		ret = -EBUSY;
		goto out;
	}
	ret = ltt_rb_reserve(buf, short_len, long_len, &ctx->slot);
	if (ret)
		goto out;
	p = ctx->slot.data;
	if (ctx->slot.len == short_len && t->id < 31) {
		put_unaligned(t->id | (u32)(ctx->slot.ts & ((1U << LTT_RB_COMPACT_BITS) - 1)) << 5,
			      (u32 *)p);
		p += 4;
	} else {
		*p = 31;
		put_unaligned(t->id, (u32 *)(p + 1));
		put_unaligned(ctx->slot.ts, (u64 *)(p + 5));
		p += 13;
	}
	if (unlikely(chan->ctx.nr))
		p = ltt_context_write(chan, desc, p);
	ctx->buf = buf;
	ctx->p = p;
	return 0;
out:
	this_cpu_dec(ltt_nesting);
	return ret;
}

void ltt_event_commit(struct ltt_ctx *ctx)
{
	ltt_rb_commit(ctx->buf, &ctx->slot);
	this_cpu_dec(ltt_nesting);
}

/*
 * Copy a string field of exactly @len bytes (NUL included), measured
 * before: if the string changed meanwhile, an early NUL becomes '#', so
 * the field keeps the length that was reserved and readers stay in step.
 */
void ltt_ctx_write_string(struct ltt_ctx *ctx, const char *s, size_t len)
{
	char *p = ctx->p, *z;

	memcpy(p, s, len - 1);
	p[len - 1] = '\0';
	while ((z = memchr(p, '\0', len - 1)))
		*z = '#';
	ctx->p += len;
}
