/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-tracker.h - libltt-ctl, process trackers: which processes a
 * session's domain traces.
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_TRACKER_H
#define LTT_CTL_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Process trackers (client protocol minor 9; lttctl track, untrack): per
 * session and domain, one tracker per process attribute.  A tracker
 * includes every process (ALL, the default), none (NONE), or those whose
 * attribute is in its set of ids (SET, never empty).  A program records
 * for a session when every tracker of the session's domain includes it.
 * The user-space domain has VPID, VUID and VGID; the kernel domain (client
 * protocol minor 12) all six, where a kernel event is recorded when the
 * task that runs the probe passes every tracker.
 */
enum ltt_tracker_type {
	LTT_TRACKER_VPID = 0,		/* the process id (in its pid namespace) */
	LTT_TRACKER_VUID = 1,		/* the user id (in its user namespace) */
	LTT_TRACKER_VGID = 2,		/* the group id (in its user namespace) */
	LTT_TRACKER_PID = 3,		/* kernel: the process id in the initial namespace */
	LTT_TRACKER_UID = 4,		/* kernel: the user id in the initial namespace */
	LTT_TRACKER_GID = 5,		/* kernel: the group id in the initial namespace */
};

/* Tracker types: the user-space domain's are the first LTT_TRACKER_NR_USER. */
#define LTT_TRACKER_NR 6
#define LTT_TRACKER_NR_USER 3

enum ltt_tracker_policy {
	LTT_TRACKER_ALL = 0,
	LTT_TRACKER_NONE = 1,
	LTT_TRACKER_SET = 2,
};

/* The most ids a tracker's set holds. */
#define LTT_TRACKER_MAX_IDS 1024

/**
 * ltt_ctl_track() - add ids to a tracker's set; a tracker that includes
 * all processes or none first becomes an empty set (so tracking one pid
 * on a fresh session includes that pid only)
 * @values: @nr decimal ids, or for VUID and VGID user and group names,
 *          which the session daemon resolves now (a later change of the
 *          name's id does not follow)
 * @ret_changed: NULL, or @nr booleans: false for a value whose id was
 *               already in the set (or given twice)
 *
 * All or nothing: on any error the tracker is unchanged.  An active
 * session's programs follow before this returns (doc/trackers.md).
 * Returns 0, -LTT_ERR_TRACKER_VALUE (not a valid id), -LTT_ERR_TRACKER_NAME
 * (no such user or group), -LTT_ERR_TRACKER_LIMIT (more than
 * LTT_TRACKER_MAX_IDS, or @nr 0), -LTT_ERR_NOT_SUPPORTED (a daemon before
 * protocol minor 9, or 12 for the kernel domain and the kernel trackers),
 * -LTT_ERR_TRACKER_DOMAIN (PID, UID or GID in the user-space domain),
 * -LTT_ERR_TRACKER_KERNEL (a kernel tracer too old to track), -LTT_ERR_SESSION_NOT_FOUND...
 */
int ltt_ctl_track(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		  enum ltt_tracker_type type, const char *const *values, size_t nr,
		  bool *ret_changed);

/**
 * ltt_ctl_untrack() - remove ids from a tracker's set; a set left empty
 * includes no process (NONE)
 * @ret_changed: NULL, or @nr booleans: false for a value whose id was not
 *               in the set
 *
 * Returns as ltt_ctl_track(), and -LTT_ERR_TRACKER_POLICY when the
 * tracker includes all processes or none (it has no set to remove from).
 */
int ltt_ctl_untrack(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		    enum ltt_tracker_type type, const char *const *values, size_t nr,
		    bool *ret_changed);

/**
 * ltt_ctl_tracker_set_policy() - make a tracker include every process
 * (LTT_TRACKER_ALL: track --all) or none (LTT_TRACKER_NONE: untrack
 * --all); its set is dropped
 *
 * Returns 0, -LTT_ERR_INVAL (LTT_TRACKER_SET or an unknown value), or as
 * ltt_ctl_track().
 */
int ltt_ctl_tracker_set_policy(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			       enum ltt_tracker_type type, enum ltt_tracker_policy policy);

/**
 * ltt_ctl_list_tracker() - a tracker's policy and, for SET, its ids
 * @ret_ids: NULL when the set is empty, else @ret_nr ids in increasing
 *           order: free() it
 *
 * Returns 0, -LTT_ERR_NOT_SUPPORTED (see ltt_ctl_track()),
 * -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOMEM...
 */
int ltt_ctl_list_tracker(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			 enum ltt_tracker_type type, enum ltt_tracker_policy *ret_policy,
			 uint32_t **ret_ids, size_t *ret_nr);

/**
 * ltt_tracker_type_name() - "vpid", "vuid", "vgid", "pid", "uid", "gid",
 * or "unknown"
 */
const char *ltt_tracker_type_name(enum ltt_tracker_type type);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_TRACKER_H */
