/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * as-user.h - a root daemon's thread working on files with a user's
 * rights: its filesystem ids and supplementary groups, on the calling
 * thread only, so the kernel checks every path, symlink and permission
 * as it would for the user (file capabilities drop while the fsuid is
 * not 0).
 */
#ifndef LTT_COMMON_AS_USER_H
#define LTT_COMMON_AS_USER_H

#include <stdbool.h>
#include <sys/types.h>

/* The supplementary groups a thread had before it took a user's rights. */
#define LTT_AS_USER_GROUPS 256

struct ltt_as_user {
	bool changed;
	int nr_groups;
	gid_t groups[LTT_AS_USER_GROUPS];
};

/**
 * ltt_as_user_begin() - have this thread (only: raw system calls, not
 * glibc's wrappers that change every thread) work on files as @uid,
 * @gid and @uid's supplementary groups
 * @o: what ltt_as_user_end() restores (the caller's, embedded)
 *
 * Nothing to do when this process is not root, or for @uid 0.  Returns 0,
 * or -errno; the caller calls ltt_as_user_end() in either case.
 */
int ltt_as_user_begin(uid_t uid, gid_t gid, struct ltt_as_user *o);

/**
 * ltt_as_user_end() - back to this thread's own rights after
 * ltt_as_user_begin() (logs a failure to restore its groups)
 */
void ltt_as_user_end(struct ltt_as_user *o);

#endif /* LTT_COMMON_AS_USER_H */
