// SPDX-License-Identifier: LGPL-2.1-only
/*
 * as-user.c - a thread working on files with a user's rights (see
 * as-user.h).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/base/as-user.h"
#include "common/base/log.h"

int ltt_as_user_begin(uid_t uid, gid_t gid, struct ltt_as_user *o)
{
	gid_t groups[LTT_AS_USER_GROUPS];
	struct passwd pw, *res = NULL;
	int n = LTT_AS_USER_GROUPS;
	char buf[4096];

	o->changed = false;
	if (geteuid() != 0 || uid == 0)
		return 0;
	o->nr_groups = getgroups(LTT_AS_USER_GROUPS, o->groups);
	if (o->nr_groups < 0)
		return -errno;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) || !res ||
	    getgrouplist(res->pw_name, gid, groups, &n) < 0) {
		groups[0] = gid;	/* unknown user, or too many groups: the primary one */
		n = 1;
	}
	if (syscall(SYS_setgroups, (size_t)n, groups))
		return -errno;
	setfsgid(gid);
	setfsuid(uid);
	o->changed = true;
	if ((uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != gid)
		return -EPERM;
	return 0;
}

void ltt_as_user_end(struct ltt_as_user *o)
{
	if (!o->changed)
		return;
	setfsuid(0);
	setfsgid(0);
	if (syscall(SYS_setgroups, (size_t)o->nr_groups, o->groups))
		LTT_ERR("can't restore this thread's groups: %s", strerror(errno));
}
