// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-map.c - map fds (LTT_KABI_MAP, ABI 1.9): counters of events that
 * the probes increment, no record written (kernel map channels of the
 * session daemon, doc/maps.md).
 *
 * Each (event, counter) pair is an entry, a target of the event
 * (ltt-events.c) with a per-CPU count: a probe adds 1 on its own CPU, no
 * lock, no atomic operation, exact.  A counter's value is the sum of its
 * entries' counts less what they had at the last CLEAR (@base), so that
 * no CPU writes another's count.  Entries live under the map's lock,
 * indexed by counter id (so that MAP_READ sums only the entries of the
 * counters it returns, and takes no global lock), their places in their
 * events' targets under ltt_mutex; a removed one is freed after a grace
 * period (the probes run with preemption disabled).
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "ltt-filter.h"
#include "ltt-tracer.h"

/* The sum of @e's per-CPU counts. */
static u64 entry_sum(const struct ltt_kmap_entry *e)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(e->count, cpu));
	return sum;
}

/* Free @e, out of its event's targets for a grace period already. */
static void entry_free(struct ltt_kmap_entry *e)
{
	free_percpu(e->count);
	kvfree(e->filter);
	kfree(e);
}

/* The entry counting @name under @id; m->lock held. */
static struct ltt_kmap_entry *entry_find(struct ltt_kmap *m, const char *name, u32 id)
{
	struct ltt_kmap_entry *e;

	for (e = xa_load(&m->ids, id); e; e = e->same)
		if (!strcmp(e->desc->name, name))
			return e;
	return NULL;
}

/* Take @e out of its counter's entries; m->lock held. */
static void entry_unlink(struct ltt_kmap *m, struct ltt_kmap_entry *e)
{
	struct ltt_kmap_entry *p = xa_load(&m->ids, e->id);

	if (p != e) {
		while (p->same != e)
			p = p->same;
		p->same = e->same;
	} else if (e->same) {
		xa_store(&m->ids, e->id, e->same, GFP_KERNEL);	/* replaces: no allocation */
	} else {
		xa_erase(&m->ids, e->id);
	}
	list_del(&e->node);
	m->nr_entries--;
}

/* MAP_EVENT: count the event under a counter, its programs validated. */
static int map_event(struct ltt_kmap *m, const void __user *uarg)
{
	struct ltt_kabi_event_filter a;
	struct ltt_kmap_entry *e;
	struct ltt_kfilter *f;
	int ret = ltt_filter_get(&a, uarg, &f);

	if (ret)
		return ret;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (e)
		e->count = alloc_percpu(u64);
	ret = e && e->count ? 0 : -ENOMEM;
	mutex_lock(&m->lock);
	if (!ret && a.event.id >= LTT_KABI_MAP_MAX_COUNTERS)
		ret = -ENOSPC;
	if (!ret && entry_find(m, a.event.name, a.event.id))
		ret = -EEXIST;
	if (!ret && m->nr_entries >= LTT_KABI_MAP_MAX_EVENTS)
		ret = -ENOSPC;
	/* a new counter's slot, so that storing @e below cannot fail */
	if (!ret && !xa_load(&m->ids, a.event.id))
		ret = xa_reserve(&m->ids, a.event.id, GFP_KERNEL);
	mutex_lock(&ltt_mutex);
	if (!ret) {
		e->desc = ltt_event_lookup(a.event.name);
		/* a state dump's events belong to the session being dumped */
		if (e->desc && (e->desc->flags & LTT_EVENT_STATEDUMP))
			e->desc = NULL;
		ret = e->desc ? ltt_kfilter_validate(f, e->desc) : -ENOENT;
	}
	if (!ret) {
		e->map = m;
		e->id = a.event.id;
		e->filter = f;
		ret = ltt_event_count(e);
	}
	mutex_unlock(&ltt_mutex);
	if (!ret) {
		e->same = xa_load(&m->ids, e->id);
		xa_store(&m->ids, e->id, e, GFP_KERNEL);
		list_add_tail(&e->node, &m->entries);
		m->nr_entries++;
	} else {
		xa_release(&m->ids, a.event.id);	/* if reserved above */
	}
	mutex_unlock(&m->lock);
	if (!ret)
		return 0;
	kvfree(f);		/* never published */
	if (e)
		free_percpu(e->count);
	kfree(e);
	return ret;
}

/* MAP_UNEVENT: stop counting the event under a counter. */
static int map_unevent(struct ltt_kmap *m, const void __user *uarg)
{
	struct ltt_kmap_entry *e;
	struct ltt_kabi_event ev;

	if (copy_from_user(&ev, uarg, sizeof(ev)))
		return -EFAULT;
	if (memchr_inv(ev.reserved, 0, sizeof(ev.reserved)) ||
	    !memchr(ev.name, '\0', sizeof(ev.name)) || !ev.name[0])
		return -EINVAL;
	mutex_lock(&m->lock);
	e = entry_find(m, ev.name, ev.id);
	if (e) {
		mutex_lock(&ltt_mutex);
		ltt_event_uncount(e);
		mutex_unlock(&ltt_mutex);
		entry_unlink(m, e);
	}
	mutex_unlock(&m->lock);
	if (!e)
		return -ENOENT;
	synchronize_rcu();	/* no probe counts in it any more */
	entry_free(e);
	return 0;
}

/*
 * MAP_READ: the counters [first, first + READ_MAX), each the sum of its
 * own entries: the time of one is that of the pairs it returns.
 */
static int map_read(struct ltt_kmap *m, void __user *uarg)
{
	struct ltt_kmap_entry *head, *e;
	struct ltt_kabi_map_read *a;
	unsigned long id, last;
	u32 slot;
	int ret = 0;
	u64 v;

	a = memdup_user(uarg, sizeof(*a));
	if (IS_ERR(a))
		return PTR_ERR(a);
	if (a->nr || memchr_inv(a->reserved, 0, sizeof(a->reserved)) ||
	    memchr_inv(a->values, 0, sizeof(a->values))) {
		ret = -EINVAL;
		goto out;
	}
	last = min_t(u64, (u64)a->first + LTT_KABI_MAP_READ_MAX, LTT_KABI_MAP_MAX_COUNTERS) - 1;
	mutex_lock(&m->lock);
	xa_for_each_range(&m->ids, id, head, a->first, last) {
		slot = id - a->first;
		for (e = head; e; e = e->same) {
			v = entry_sum(e);
			a->values[slot] += v > e->base ? v - e->base : 0;
		}
		a->nr = slot + 1;
	}
	mutex_unlock(&m->lock);
	if (copy_to_user(uarg, a, sizeof(*a)))
		ret = -EFAULT;
out:
	kfree(a);
	return ret;
}

/* MAP_CTL: pause, continue, or zero every counter. */
static int map_ctl(struct ltt_kmap *m, const void __user *uarg)
{
	struct ltt_kmap_entry *e;
	struct ltt_kabi_map_ctl c;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	if (memchr_inv(c.reserved, 0, sizeof(c.reserved)) ||
	    c.cmd < LTT_KABI_MAP_PAUSE || c.cmd > LTT_KABI_MAP_CLEAR)
		return -EINVAL;
	mutex_lock(&m->lock);
	if (c.cmd == LTT_KABI_MAP_CLEAR) {
		list_for_each_entry(e, &m->entries, node)
			e->base = entry_sum(e);
	} else {
		WRITE_ONCE(m->active, c.cmd == LTT_KABI_MAP_CONT);
	}
	mutex_unlock(&m->lock);
	return 0;
}

static long map_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ltt_kmap *m = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case LTT_KABI_MAP_EVENT:
		return map_event(m, uarg);
	case LTT_KABI_MAP_UNEVENT:
		return map_unevent(m, uarg);
	case LTT_KABI_MAP_READ:
		return map_read(m, uarg);
	case LTT_KABI_MAP_CTL:
		return map_ctl(m, uarg);
	default:
		return -ENOTTY;
	}
}

/*
 * The fd is closed (no ioctl of it runs): every entry out of its event,
 * freed after a grace period.
 */
static int map_release(struct inode *inode, struct file *file)
{
	struct ltt_kmap *m = file->private_data;
	struct ltt_kmap_entry *e, *tmp;

	mutex_lock(&ltt_mutex);
	list_for_each_entry(e, &m->entries, node)
		ltt_event_uncount(e);
	mutex_unlock(&ltt_mutex);
	/* the probes run with preemption disabled; tracepoints detached above too */
	tracepoint_synchronize_unregister();
	list_for_each_entry_safe(e, tmp, &m->entries, node)
		entry_free(e);
	xa_destroy(&m->ids);
	mutex_destroy(&m->lock);
	kfree(m);
	return 0;
}

static const struct file_operations map_fops = {
	.owner = THIS_MODULE,
	.release = map_release,
	.unlocked_ioctl = map_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/**
 * ltt_map_create_fd() - LTT_KABI_MAP: a new map, paused, with no counter
 *
 * Context: process.  Return: its fd (closing it removes the map), or
 * -ENOMEM, -EMFILE.
 */
int ltt_map_create_fd(void)
{
	struct ltt_kmap *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int fd;

	if (!m)
		return -ENOMEM;
	mutex_init(&m->lock);
	INIT_LIST_HEAD(&m->entries);
	xa_init(&m->ids);
	fd = anon_inode_getfd("[ltt_map]", &map_fops, m, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		kfree(m);
	return fd;
}
