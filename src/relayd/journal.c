// SPDX-License-Identifier: GPL-2.0-only
/*
 * journal.c - the session directories a relay writes, for the next relay
 * to repair after a death (journal.h).
 *
 * The file holds one absolute directory a line, rewritten whole at each
 * change (written from offset 0, then cut to its length): a death in the
 * middle of a rewrite leaves lines of the former list after the new
 * one, or a line cut short, which the recovery repairs for nothing or
 * passes over (not a directory).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/base/array.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/trace/trace-repair.h"
#include "relayd/journal.h"

#define JOURNAL_PREFIX "relayd-writing."
/* A journal being made: locked under this name, then renamed into place. */
#define JOURNAL_NEW_PREFIX "relayd-writing-new."
/* A dead relay's journal larger than this is not a journal of ours. */
#define JOURNAL_MAX (64u << 20)

struct ltt_relay_journal {
	pthread_mutex_t lock;
	int fd;
	char path[PATH_MAX];
	char **dirs;		/* strdup()ed, in the order added */
	size_t nr, cap;
};

/* The journal's lines written anew: 0 or -errno. */
static int rewrite_locked(struct ltt_relay_journal *j)
{
	size_t len = 0, i, n;
	struct iovec iov;
	char *buf, *p;
	int ret;

	for (i = 0; i < j->nr; i++)
		len += strlen(j->dirs[i]) + 1;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0, p = buf; i < j->nr; i++, p += n + 1) {
		n = strlen(j->dirs[i]);
		memcpy(p, j->dirs[i], n);
		p[n] = '\n';
	}
	iov = (struct iovec){ buf, len };
	ret = len ? ltt_io_pwritev_all(j->fd, &iov, 1, 0) : 0;
	if (!ret && ftruncate(j->fd, (off_t)len))
		ret = -errno;
	free(buf);
	return ret;
}

int ltt_relay_journal_open(const char *statedir, struct ltt_relay_journal **ret)
{
	struct ltt_relay_journal *j = calloc(1, sizeof(*j));
	char made[PATH_MAX];
	int n, m, err = 0, tries;
	bool locked;

	if (!j)
		return -ENOMEM;
	n = snprintf(j->path, sizeof(j->path), "%s/" JOURNAL_PREFIX "%ld", statedir, (long)getpid());
	m = snprintf(made, sizeof(made), "%s/" JOURNAL_NEW_PREFIX "%ld", statedir, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(j->path) || m < 0 || (size_t)m >= sizeof(made)) {
		free(j);
		return -ENAMETOOLONG;
	}
	/*
	 * Locked before its name is one a starting relay recovers: a relay
	 * that starts meanwhile never takes it for a dead one's.  Another
	 * relay's file of the same name (a pid namespace of its own) is
	 * neither emptied nor replaced.
	 */
	for (tries = 0; tries < 3; tries++) {
		j->fd = open(made, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		err = j->fd < 0 || flock(j->fd, LOCK_EX | LOCK_NB) ? -errno : 0;
		locked = j->fd >= 0 && !err;
		if (!err && ftruncate(j->fd, 0))
			err = -errno;
		if (!err && renameat2(AT_FDCWD, made, AT_FDCWD, j->path, RENAME_NOREPLACE))
			err = -errno;
		if (!err)
			break;
		if (locked && err != -ENOENT)
			unlink(made);	/* ours, locked: not left for the next start */
		ltt_fd_close(&j->fd);
		/* ENOENT: a starting relay took the file, not yet locked, for a dead one's */
		if (err != -ENOENT || !locked)
			break;
	}
	if (err) {
		free(j);
		return err;
	}
	pthread_mutex_init(&j->lock, NULL);
	*ret = j;
	return 0;
}

int ltt_relay_journal_add(struct ltt_relay_journal *j, const char *dir)
{
	char **grown, *copy;
	int ret = 0;

	if (dir[0] != '/' || strchr(dir, '\n')) {
		LTT_WARN("journal %s: %s is not an absolute path on one line: not journaled",
			 j->path, dir);
		return -EINVAL;
	}
	copy = strdup(dir);
	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&j->lock);
	if (j->nr == j->cap) {
		grown = ltt_array_grow(j->dirs, &j->cap, sizeof(*j->dirs));
		if (grown)
			j->dirs = grown;
		else
			ret = -ENOMEM;
	}
	if (!ret) {
		j->dirs[j->nr++] = copy;
		ret = rewrite_locked(j);
		if (ret)	/* not in the file: not in the list (the caller keeps it out) */
			free(j->dirs[--j->nr]);
	} else {
		free(copy);
	}
	pthread_mutex_unlock(&j->lock);
	if (ret)
		LTT_WARN("journal %s: %s not written (%s): a death of this relay would leave what it tears there unrepaired",
			 j->path, dir, strerror(-ret));
	return ret;
}

void ltt_relay_journal_remove(struct ltt_relay_journal *j, const char *dir)
{
	size_t i;
	int ret = 0;

	pthread_mutex_lock(&j->lock);
	for (i = 0; i < j->nr && strcmp(j->dirs[i], dir); i++)
		;
	if (i < j->nr) {
		free(j->dirs[i]);
		memmove(&j->dirs[i], &j->dirs[i + 1], (j->nr - i - 1) * sizeof(*j->dirs));
		j->nr--;
		ret = rewrite_locked(j);
	}
	pthread_mutex_unlock(&j->lock);
	if (ret)	/* an extra line: repaired for nothing after a death */
		LTT_WARN("journal %s: can't rewrite it (%s)", j->path, strerror(-ret));
}

void ltt_relay_journal_close(struct ltt_relay_journal *j)
{
	size_t i;

	if (!j)
		return;
	unlink(j->path);
	close(j->fd);
	for (i = 0; i < j->nr; i++)
		free(j->dirs[i]);
	free(j->dirs);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

/* Session directory @dir of a dead relay's journal repaired, into @r. */
static void repair_session(const char *dir, struct ltt_relay_recovered *r)
{
	struct ltt_repair_stats st = { 0 };
	struct stat sb;
	int ret;

	if (dir[0] != '/' || lstat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		LTT_DBG("a dead relay's journal names %s: not a directory now, passed over", dir);
		return;	/* gone since, or a line cut short or left by a shorter rewrite */
	}
	r->sessions++;
	ret = ltt_trace_repair(dir, &st);
	if (ret) {
		LTT_ERR("a dead relay's session directory %s can't be repaired: %s", dir,
			strerror(-ret));
		r->errors++;
		return;
	}
	r->cut += st.cut;
	r->bytes += st.bytes;
	r->busy += st.busy;
	r->errors += st.errors;
	if (st.cut || st.busy || st.errors)
		LTT_INFO("a dead relay's session directory %s: %u trace directories looked at, %u files cut (%" PRIu64
			 " bytes torn), %u still written, %u errors", dir, st.dirs, st.cut, st.bytes,
			 st.busy, st.errors);
}

/* The journal @name of @dir_fd (@statedir): a dead relay's repaired, then removed. */
static void recover_one(int dir_fd, const char *statedir, const char *name,
			struct ltt_relay_recovered *r)
{
	int fd = openat(dir_fd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	char *data = NULL, *line, *nl;
	struct stat held, named;
	size_t len = 0;
	int ret;

	if (fd < 0) {
		if (errno != ENOENT)	/* ENOENT: another relay recovered it */
			LTT_WARN("journal %s/%s can't be opened (%s): passed over", statedir, name,
				 strerror(errno));
		return;
	}
	/* its relay lives, or another relay recovers it now */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return;
	}
	/* still the file of that name (not one recovered and unlinked meanwhile) */
	if (fstat(fd, &held) || fstatat(dir_fd, name, &named, AT_SYMLINK_NOFOLLOW) ||
	    held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
		close(fd);
		return;
	}
	/* a journal this relay's user wrote: another's names no directory to cut here */
	if (!S_ISREG(held.st_mode) || held.st_uid != geteuid() || (held.st_mode & 022)) {
		LTT_WARN("journal %s/%s is not a file of this relay's user that only it may write: passed over",
			 statedir, name);
		close(fd);
		return;
	}
	ret = ltt_io_read_file(fd, JOURNAL_MAX, (void **)&data, &len);
	if (ret) {
		LTT_ERR("a dead relay's journal %s/%s can't be read (%s): removed, its sessions not repaired",
			statedir, name, strerror(-ret));
		r->errors++;
	}
	r->journals++;
	for (line = data; line && line < data + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(data + len - line));
		if (!nl)
			break;	/* cut short by the death */
		*nl = '\0';
		repair_session(line, r);
	}
	free(data);
	unlinkat(dir_fd, name, 0);
	close(fd);	/* its lock with it, after the unlink: none recovers it twice */
}

/* A journal a relay died making (before it named it anything): removed. */
static void drop_unborn(int dir_fd, const char *name)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return;
	if (!flock(fd, LOCK_EX | LOCK_NB))	/* not a live relay's, in the making */
		unlinkat(dir_fd, name, 0);
	close(fd);
}

int ltt_relay_journal_recover(const char *statedir, struct ltt_relay_recovered *ret)
{
	struct dirent *de;
	DIR *dir;

	*ret = (struct ltt_relay_recovered){ 0 };
	dir = opendir(statedir);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)))
			recover_one(dirfd(dir), statedir, de->d_name, ret);
		else if (!strncmp(de->d_name, JOURNAL_NEW_PREFIX, strlen(JOURNAL_NEW_PREFIX)))
			drop_unborn(dirfd(dir), de->d_name);
	}
	closedir(dir);
	return 0;
}
