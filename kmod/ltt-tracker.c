// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-tracker.c - a session's process trackers (LTT_KABI_TRACKER_SET and
 * _GET on the session fd, kernel ABI 1.5) and their test in the record
 * path.
 *
 * Each tracker of a session is an RCU pointer to a sorted array of ids:
 * NULL includes every task (ALL), an empty array none (NONE), otherwise
 * the tasks whose id is in it (SET).  Writers (the ioctls) hold ltt_mutex,
 * publish a new array, wait for a grace period and free the old one, so
 * that once TRACKER_SET returns no probe still uses the former set.
 * Probes read the arrays with preemption disabled (rcu_dereference_sched)
 * and binary-search them: no lock, no allocation, any context.
 *
 * The record path tests one word of the channel, chan->tracking (non-zero
 * while some tracker of its session is not ALL), before calling
 * ltt_tracker_pass(): with every tracker at ALL an event costs one load of
 * a cache line it reads anyway and one predictable branch.
 */
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "ltt-tracer.h"

struct ltt_tracker_set {
	u32 nr;
	u32 ids[];	/* increasing, none twice */
};

static struct ltt_tracker_set *set_of(const struct ltt_session *s, unsigned int type)
{
	return rcu_dereference_protected(s->trackers[type], lockdep_is_held(&ltt_mutex));
}

/* The current task's id for tracker @type. */
static u32 current_id(unsigned int type)
{
	switch (type) {
	case LTT_KABI_TRACKER_PID:
		return (u32)task_tgid_nr(current);
	case LTT_KABI_TRACKER_VPID:
		return (u32)task_tgid_vnr(current);
	case LTT_KABI_TRACKER_UID:
		return (u32)from_kuid_munged(&init_user_ns, current_uid());
	case LTT_KABI_TRACKER_VUID:
		return (u32)from_kuid_munged(current_user_ns(), current_uid());
	case LTT_KABI_TRACKER_GID:
		return (u32)from_kgid_munged(&init_user_ns, current_gid());
	default:	/* LTT_KABI_TRACKER_VGID */
		return (u32)from_kgid_munged(current_user_ns(), current_gid());
	}
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Is @id in @set?  A binary search, inline: no indirect call in probes. */
static bool set_has(const struct ltt_tracker_set *set, u32 id)
{
	u32 lo = 0, hi = set->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (set->ids[mid] == id)
			return true;
		if (set->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/**
 * ltt_tracker_pass() - does the current task pass every tracker of @s?
 *
 * Any context, preemption disabled by the caller (the probe).  Called
 * only when a channel of @s has ->tracking set.
 */
bool ltt_tracker_pass(const struct ltt_session *s)
{
	const struct ltt_tracker_set *set;
	unsigned int type;
	u32 id;

	for (type = 0; type < LTT_KABI_TRACKER_NR; type++) {
		set = rcu_dereference_sched(s->trackers[type]);
		if (!set)
			continue;
		id = current_id(type);
		if (!set_has(set, id))	/* an empty set (NONE) has none */
			return false;
	}
	return true;
}

/* Copy and check a TRACKER_SET request's ids into a new sorted set. */
static int set_from_user(const struct ltt_kabi_tracker *t, struct ltt_tracker_set **ret)
{
	u32 max = t->type == LTT_KABI_TRACKER_PID || t->type == LTT_KABI_TRACKER_VPID ?
		  S32_MAX : U32_MAX - 1;
	struct ltt_tracker_set *set;
	u32 i;

	set = kvmalloc(struct_size(set, ids, t->nr), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	set->nr = t->nr;
	if (copy_from_user(set->ids, u64_to_user_ptr(t->ids), t->nr * sizeof(u32))) {
		kvfree(set);
		return -EFAULT;
	}
	sort(set->ids, set->nr, sizeof(u32), cmp_u32, NULL);
	for (i = 0; i < set->nr; i++) {
		if (set->ids[i] > max || (i && set->ids[i] == set->ids[i - 1])) {
			kvfree(set);
			return -EINVAL;
		}
	}
	*ret = set;
	return 0;
}

static int arg_valid(const struct ltt_kabi_tracker *t, bool set)
{
	if (t->type >= LTT_KABI_TRACKER_NR || t->flags ||
	    memchr_inv(t->reserved, 0, sizeof(t->reserved)))
		return -EINVAL;
	if (!set)
		return t->policy ? -EINVAL : 0;
	switch (t->policy) {
	case LTT_KABI_TRACKER_POLICY_ALL:
	case LTT_KABI_TRACKER_POLICY_NONE:
		return t->nr || t->ids ? -EINVAL : 0;
	case LTT_KABI_TRACKER_POLICY_SET:
		return t->nr && t->nr <= LTT_KABI_TRACKER_MAX_IDS ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/* ltt_mutex held: publish @s's tracking flag to the session and its channels. */
static void tracking_update(struct ltt_session *s)
{
	struct ltt_channel *chan;
	unsigned int type;
	int tracking = 0;

	for (type = 0; type < LTT_KABI_TRACKER_NR; type++)
		tracking |= set_of(s, type) != NULL;
	s->tracking = tracking;
	list_for_each_entry(chan, &s->channels, node)
		WRITE_ONCE(chan->tracking, tracking);
}

static bool set_equal(const struct ltt_tracker_set *a, const struct ltt_tracker_set *b)
{
	if (!a || !b)
		return a == b;
	return a->nr == b->nr && !memcmp(a->ids, b->ids, a->nr * sizeof(u32));
}

static int tracker_set(struct ltt_session *s, const struct ltt_kabi_tracker *t)
{
	struct ltt_tracker_set *set = NULL, *old;
	int ret;

	if (t->policy == LTT_KABI_TRACKER_POLICY_SET) {
		ret = set_from_user(t, &set);
		if (ret)
			return ret;
	} else if (t->policy == LTT_KABI_TRACKER_POLICY_NONE) {
		set = kvzalloc(sizeof(*set), GFP_KERNEL);
		if (!set)
			return -ENOMEM;
	}
	mutex_lock(&ltt_mutex);
	old = set_of(s, t->type);
	if (set_equal(old, set)) {
		/* the daemon gives every tracker on each change: no grace period */
		mutex_unlock(&ltt_mutex);
		kvfree(set);
		return 0;
	}
	/* the set first, then the flag: a probe that sees the flag finds it */
	rcu_assign_pointer(s->trackers[t->type], set);
	tracking_update(s);
	mutex_unlock(&ltt_mutex);
	/* no probe uses @old once this returns (probes run preemption disabled) */
	synchronize_rcu();
	kvfree(old);
	return 0;
}

static int tracker_get(struct ltt_session *s, struct ltt_kabi_tracker *t)
{
	const struct ltt_tracker_set *set;
	u32 *copy = NULL, nr = 0, room = t->nr;
	int ret = 0;

	if (room > LTT_KABI_TRACKER_MAX_IDS)
		room = LTT_KABI_TRACKER_MAX_IDS;
	if (room) {
		copy = kvmalloc_array(room, sizeof(u32), GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
	}
	mutex_lock(&ltt_mutex);
	set = set_of(s, t->type);
	t->policy = !set ? LTT_KABI_TRACKER_POLICY_ALL :
		    set->nr ? LTT_KABI_TRACKER_POLICY_SET : LTT_KABI_TRACKER_POLICY_NONE;
	if (set) {
		nr = set->nr;
		memcpy(copy, set->ids, min(nr, room) * sizeof(u32));
	}
	mutex_unlock(&ltt_mutex);
	if (min(nr, room) &&
	    copy_to_user(u64_to_user_ptr(t->ids), copy, min(nr, room) * sizeof(u32)))
		ret = -EFAULT;
	t->nr = nr;
	kvfree(copy);
	return ret;
}

/**
 * ltt_tracker_ioctl() - LTT_KABI_TRACKER_SET and LTT_KABI_TRACKER_GET on
 * session @s
 *
 * Process context, takes ltt_mutex; SET waits for a grace period.
 * Return: 0, -EINVAL (see ltt-abi.h), -EFAULT, -ENOMEM, -ENOTTY for
 * another command.
 */
long ltt_tracker_ioctl(struct ltt_session *s, unsigned int cmd, void __user *uarg)
{
	struct ltt_kabi_tracker t;
	int ret;

	if (cmd != LTT_KABI_TRACKER_SET && cmd != LTT_KABI_TRACKER_GET)
		return -ENOTTY;
	if (copy_from_user(&t, uarg, sizeof(t)))
		return -EFAULT;
	ret = arg_valid(&t, cmd == LTT_KABI_TRACKER_SET);
	if (ret)
		return ret;
	if (cmd == LTT_KABI_TRACKER_SET)
		return tracker_set(s, &t);
	ret = tracker_get(s, &t);
	if (!ret && copy_to_user(uarg, &t, sizeof(t)))
		ret = -EFAULT;
	return ret;
}

/**
 * ltt_trackers_free() - free @s's tracker sets; its last reference is gone
 */
void ltt_trackers_free(struct ltt_session *s)
{
	unsigned int type;

	for (type = 0; type < LTT_KABI_TRACKER_NR; type++)
		kvfree(rcu_dereference_protected(s->trackers[type], 1));
}
