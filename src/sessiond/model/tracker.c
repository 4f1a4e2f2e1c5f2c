// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracker.c - process trackers: inclusion sets of ids (see tracker.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sessiond/model/tracker.h"

/* Binary search: the index of @id in @t's set, or where it would go. */
static size_t find(const struct ltt_tracker *t, uint32_t id, bool *ret_found)
{
	size_t lo = 0, hi = t->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->ids[mid] == id) {
			*ret_found = true;
			return mid;
		}
		if (t->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*ret_found = false;
	return lo;
}

bool ltt_tracker_has(const struct ltt_tracker *t, uint32_t id)
{
	bool found = false;

	if (t->policy == LTT_TRACKER_SET)
		find(t, id, &found);
	return found;
}

static bool includes(const struct ltt_tracker *t, uint32_t id)
{
	switch (t->policy) {
	case LTT_TRACKER_ALL:
		return true;
	case LTT_TRACKER_SET:
		return ltt_tracker_has(t, id);
	default:
		return false;
	}
}

bool ltt_trackers_include(const struct ltt_trackers *trackers, pid_t pid, uid_t uid, gid_t gid)
{
	return includes(&trackers->t[LTT_TRACKER_VPID], (uint32_t)pid) &&
	       includes(&trackers->t[LTT_TRACKER_VUID], (uint32_t)uid) &&
	       includes(&trackers->t[LTT_TRACKER_VGID], (uint32_t)gid);
}

/* Insert or remove @id in @t (a set with room for one more); was it a change? */
static bool edit_one(struct ltt_tracker *t, bool add, uint32_t id)
{
	bool found;
	size_t i = find(t, id, &found);

	if (add == found)
		return false;
	if (add) {
		memmove(t->ids + i + 1, t->ids + i, (t->nr - i) * sizeof(*t->ids));
		t->ids[i] = id;
		t->nr++;
	} else {
		memmove(t->ids + i, t->ids + i + 1, (t->nr - i - 1) * sizeof(*t->ids));
		t->nr--;
	}
	return true;
}

int ltt_tracker_edit(const struct ltt_tracker *t, bool add, const uint32_t *ids, size_t nr,
		     struct ltt_tracker *ret, bool *ret_changed)
{
	struct ltt_tracker n = { .policy = LTT_TRACKER_SET };
	size_t i, cap;

	if (!add && t->policy != LTT_TRACKER_SET)
		return -EPERM;
	if (nr > LTT_TRACKER_MAX_IDS)
		return -ENOSPC;
	if (t->policy == LTT_TRACKER_SET)
		n.nr = t->nr;
	cap = n.nr + (add ? nr : 0);
	n.ids = malloc((cap ? cap : 1) * sizeof(*n.ids));
	if (!n.ids)
		return -ENOMEM;
	if (n.nr)
		memcpy(n.ids, t->ids, n.nr * sizeof(*n.ids));
	for (i = 0; i < nr; i++)
		ret_changed[i] = edit_one(&n, add, ids[i]);
	if (n.nr > LTT_TRACKER_MAX_IDS) {
		free(n.ids);
		return -ENOSPC;
	}
	if (!n.nr) {
		free(n.ids);
		n = (struct ltt_tracker){ .policy = LTT_TRACKER_NONE };
	}
	*ret = n;
	return 0;
}

void ltt_tracker_fini(struct ltt_tracker *t)
{
	free(t->ids);
	*t = (struct ltt_tracker){ .policy = LTT_TRACKER_ALL };
}

void ltt_trackers_fini(struct ltt_trackers *trackers)
{
	size_t i;

	for (i = 0; i < LTT_TRACKER_NR; i++)
		ltt_tracker_fini(&trackers->t[i]);
}
