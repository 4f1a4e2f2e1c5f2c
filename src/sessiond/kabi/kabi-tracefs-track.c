// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-track.c - the pid tracker of the tracefs backend
 * (doc/kernel-tracefs.md): a session's tracker written to each of its
 * instances' set_event_pid.
 *
 * ftrace filters by task, i.e. by thread id, where the kernel domain's
 * pid tracker tracks processes: a tracked pid is written with the tids
 * of the threads its process has, and options/event-fork makes ftrace
 * add each task a listed one forks (threads and child processes alike)
 * and drop each listed task that exits.  The threads are listed after
 * the pids are written, again until a listing finds none new: a thread
 * born meanwhile was forked either by a listed task (ftrace added it)
 * or by one the next listing finds.  ALL is an empty set_event_pid;
 * NONE a pid no task can have (NO_TASK).
 *
 * ftrace only empties a set_event_pid (an open with O_TRUNC) or adds to
 * it, and an empty one records every task: a change that adds ids only
 * is written as additions; one that takes ids away turns the instance's
 * recording off while it empties and refills the set (if its session
 * records), so no untracked task is recorded meanwhile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-tracefs.h"

/* The kernel's PID_MAX_LIMIT (64-bit): pid_max is at most this, pids below it. */
#define PID_MAX_LIMIT (1u << 22)
/* PID_MAX_LIMIT itself: no task has it. */
#define NO_TASK "4194304"
/* Listings of a process's threads at most, until one finds none new. */
#define MAX_LISTINGS 16

/* ---- the tracker ---- */

static int by_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The module's checks of TRACKER_SET's argument; @ret_ids: its ids, sorted. */
static int check(const struct ltt_kabi_tracker *arg, uint32_t **ret_ids)
{
	const uint32_t *ids = (const uint32_t *)(uintptr_t)arg->ids;
	uint32_t i, *sorted;
	bool set = arg->policy == LTT_KABI_TRACKER_POLICY_SET;

	if (arg->type >= LTT_KABI_TRACKER_NR || arg->policy > LTT_KABI_TRACKER_POLICY_SET ||
	    arg->flags || arg->reserved[0] || arg->reserved[1] ||
	    (set && (!arg->nr || arg->nr > LTT_KABI_TRACKER_MAX_IDS || !ids)) ||
	    (!set && (arg->nr || arg->ids)))
		return -EINVAL;
	*ret_ids = NULL;
	if (!set)
		return 0;
	sorted = malloc(arg->nr * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, ids, arg->nr * sizeof(*sorted));
	qsort(sorted, arg->nr, sizeof(*sorted), by_id);
	for (i = 0; i < arg->nr; i++)
		if (sorted[i] > INT32_MAX || (i && sorted[i] == sorted[i - 1])) {
			free(sorted);
			return -EINVAL;
		}
	*ret_ids = sorted;
	return 0;
}

/* Does @new hold every task @old does (so the change only adds ids)? */
static bool adds_only(const struct tf_pids *old, const struct tf_pids *new)
{
	uint32_t i;

	if (new->policy == LTT_KABI_TRACKER_POLICY_ALL)
		return old->policy == LTT_KABI_TRACKER_POLICY_ALL;
	if (old->policy != LTT_KABI_TRACKER_POLICY_SET)
		return old->policy == LTT_KABI_TRACKER_POLICY_NONE;	/* NO_TASK stays */
	if (new->policy == LTT_KABI_TRACKER_POLICY_NONE)
		return false;
	for (i = 0; i < old->nr; i++)
		if (!bsearch(&old->ids[i], new->ids, new->nr, sizeof(*new->ids), by_id))
			return false;
	return true;
}

/* ---- set_event_pid ---- */

/* The tids written, one bit each: below PID_MAX_LIMIT (512 KiB). */
struct tids {
	uint8_t *bits;
};

static bool tids_has(const struct tids *w, uint32_t tid)
{
	return tid < PID_MAX_LIMIT && (w->bits[tid / 8] & (1u << (tid % 8)));
}

/* Append @tid to set_event_pid (@fd, opened for appending) and to @w. */
static int add_tid(int fd, struct tids *w, uint32_t tid)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u ", tid);

	errno = 0;
	if (write(fd, text, (size_t)len) != len)
		return errno ? -errno : -EIO;
	if (tid < PID_MAX_LIMIT)
		w->bits[tid / 8] |= (uint8_t)(1u << (tid % 8));
	return 0;
}

/*
 * Append the threads of process @pid not in @w; *@ret_new: how many.  A
 * process that is gone (or not yet born) has none.
 */
static int add_threads(int fd, struct tids *w, uint32_t pid, unsigned int *ret_new)
{
	char path[32];
	DIR *dir;
	struct dirent *d;
	unsigned long tid;
	char *end;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!ret && (d = readdir(dir))) {
		tid = strtoul(d->d_name, &end, 10);
		if (*end || !tid || tid >= PID_MAX_LIMIT || tids_has(w, (uint32_t)tid))
			continue;
		ret = add_tid(fd, w, (uint32_t)tid);
		(*ret_new)++;
	}
	closedir(dir);
	return ret;
}

/* Append @p's pids to @fd's set_event_pid, then their threads, until none is new. */
static int add_pids(int fd, const struct tf_pids *p)
{
	struct tids w = { .bits = calloc(PID_MAX_LIMIT / 8, 1) };
	unsigned int fresh = 1, round;
	uint32_t i;
	int ret = 0;

	if (!w.bits)
		return -ENOMEM;
	for (i = 0; !ret && i < p->nr; i++)
		ret = add_tid(fd, &w, p->ids[i]);
	for (round = 0; !ret && fresh && round < MAX_LISTINGS; round++)
		for (i = 0, fresh = 0; !ret && i < p->nr; i++)
			ret = add_threads(fd, &w, p->ids[i], &fresh);
	if (!ret && fresh)
		LTT_WARN("kernel: tracked processes still made threads after %d listings: a thread born since may be missed",
			 MAX_LISTINGS);
	free(w.bits);
	return ret;
}

/* Write @p to instance @dir_fd's set_event_pid: emptied first (@empty), or added to. */
static int write_pids(int dir_fd, const struct tf_pids *p, bool empty)
{
	int fd, ret;

	ret = ltt_write_control(dir_fd, "options/event-fork",
			    p->policy == LTT_KABI_TRACKER_POLICY_ALL ? "0" : "1");
	if (ret)
		return ret;
	fd = openat(dir_fd, "set_event_pid", O_WRONLY | O_CLOEXEC | (empty ? O_TRUNC : O_APPEND));
	if (fd < 0)
		return -errno;
	errno = 0;
	if (p->policy == LTT_KABI_TRACKER_POLICY_NONE)
		ret = write(fd, NO_TASK, strlen(NO_TASK)) == (ssize_t)strlen(NO_TASK) ? 0 :
		      errno ? -errno : -EIO;
	else if (p->policy == LTT_KABI_TRACKER_POLICY_SET)
		ret = add_pids(fd, p);
	close(fd);
	return ret;
}

/* Change @c's instance from @old to @new; @recording: its session records. */
static int chan_change(struct tf_chan *c, const struct tf_pids *old, const struct tf_pids *new,
		       bool recording)
{
	bool empty = !adds_only(old, new);
	bool pause = recording && empty && old->policy != LTT_KABI_TRACKER_POLICY_ALL &&
		     new->policy != LTT_KABI_TRACKER_POLICY_ALL;
	int ret = 0, err;

	if (pause)
		ret = ltt_write_control(c->dir_fd, "tracing_on", "0");
	if (!ret)
		ret = write_pids(c->dir_fd, new, empty);
	if (pause) {
		err = ltt_write_control(c->dir_fd, "tracing_on", "1");
		ret = ret ? ret : err;
	}
	if (ret)
		LTT_WARN("kernel: ftrace instance %s: the pid tracker not written: %s", c->name,
			 strerror(-ret));
	return ret;
}

/* ---- operations ---- */

int tracefs_track_set(struct tf_session *s, const struct ltt_kabi_tracker *arg)
{
	struct tf_pids new = { .policy = arg->policy, .nr = arg->nr };
	struct tf_chan *c;
	int ret = check(arg, &new.ids), err;

	if (ret)
		return ret;
	if (arg->type != LTT_KABI_TRACKER_PID) {
		free(new.ids);
		return arg->policy == LTT_KABI_TRACKER_POLICY_ALL ? 0 : -EOPNOTSUPP;
	}
	for (c = s->chans; c; c = c->next) {
		err = chan_change(c, &s->pids, &new, s->started);
		ret = ret ? ret : err;
		err = tracefs_bpf_track(c, &new);	/* its system calls with strings */
		ret = ret ? ret : err;
	}
	free(s->pids.ids);
	s->pids = new;
	return ret;
}

int tracefs_track_get(const struct tf_session *s, struct ltt_kabi_tracker *arg)
{
	uint32_t *ids = (uint32_t *)(uintptr_t)arg->ids;
	bool pid = arg->type == LTT_KABI_TRACKER_PID;
	uint32_t nr = pid ? s->pids.nr : 0;

	if (arg->type >= LTT_KABI_TRACKER_NR || arg->flags || (arg->nr && !ids))
		return -EINVAL;
	if (nr)
		memcpy(ids, s->pids.ids, (nr < arg->nr ? nr : arg->nr) * sizeof(*ids));
	arg->policy = pid ? s->pids.policy : LTT_KABI_TRACKER_POLICY_ALL;
	arg->nr = nr;
	return 0;
}

int tracefs_track_chan(const struct tf_session *s, struct tf_chan *c)
{
	static const struct tf_pids all = { .policy = LTT_KABI_TRACKER_POLICY_ALL };

	int ret;

	if (s->pids.policy == LTT_KABI_TRACKER_POLICY_ALL)
		return 0;
	ret = chan_change(c, &all, &s->pids, false);
	return ret ? ret : tracefs_bpf_track(c, &s->pids);
}

void tracefs_track_fini(struct tf_session *s)
{
	free(s->pids.ids);
	s->pids = (struct tf_pids){ 0 };
}

int tracefs_tracker_lacks(uint32_t type, const char *what, char *why, size_t why_size)
{
	if (type == LTT_KABI_TRACKER_PID)
		return 0;
	snprintf(why, why_size, "%s: the kernel tracing backend is tracefs, which tracks process ids only (track -k --pid): trace with ltt's module (ltt-sessiond --kernel-backend=module) to track by the others",
		 what);
	return -EOPNOTSUPP;
}
