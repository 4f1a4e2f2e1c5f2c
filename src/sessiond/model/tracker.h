/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracker.h - process trackers: per session and domain, one inclusion set
 * per process attribute (vpid, vuid, vgid).  A tracker includes every
 * process (ALL, the default: a zeroed tracker), none (NONE), or the
 * processes whose id is in its set (SET, never empty: a set emptied by
 * removals is NONE).  A program records for a session when every tracker
 * of the session's domain includes it (ltt_trackers_include()).
 *
 * Pure data under the session lock; no allocation but the sets.
 */
#ifndef LTT_SESSIOND_TRACKER_H
#define LTT_SESSIOND_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt-ctl.h>

struct ltt_tracker {
	enum ltt_tracker_policy policy;
	uint32_t nr;		/* SET: ids in increasing order, none twice */
	uint32_t *ids;
};

struct ltt_trackers {
	struct ltt_tracker t[LTT_TRACKER_NR];
};

/**
 * ltt_trackers_include() - does every tracker of @trackers include a
 * process of these ids?
 */
bool ltt_trackers_include(const struct ltt_trackers *trackers, pid_t pid, uid_t uid, gid_t gid);

/**
 * ltt_tracker_has() - is @id in @t's set?  (false for ALL and NONE)
 */
bool ltt_tracker_has(const struct ltt_tracker *t, uint32_t id);

/**
 * ltt_tracker_edit() - @t with @ids added (@add) or removed, into @ret,
 * @t unchanged
 * @ret_changed: @nr booleans: whether each id changed the set (false for
 *               one already there, or not there, or given twice)
 *
 * Adding to ALL or NONE starts from an empty set.  Returns 0, -EPERM
 * (removing from ALL or NONE: no set), -ENOSPC (more than
 * LTT_TRACKER_MAX_IDS), -ENOMEM.  On success @ret owns a new set (release
 * @t's with ltt_tracker_fini() once @ret replaces it).
 */
int ltt_tracker_edit(const struct ltt_tracker *t, bool add, const uint32_t *ids, size_t nr,
		     struct ltt_tracker *ret, bool *ret_changed);

/**
 * ltt_tracker_fini() - free @t's set; @t then includes every process
 */
void ltt_tracker_fini(struct ltt_tracker *t);

/**
 * ltt_trackers_fini() - ltt_tracker_fini() for each
 */
void ltt_trackers_fini(struct ltt_trackers *trackers);

#endif /* LTT_SESSIOND_TRACKER_H */
