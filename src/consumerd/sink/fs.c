// SPDX-License-Identifier: GPL-2.0-only
/*
 * fs.c - directories and files created for a trace's owner.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/sock.h"
#include "consumerd/sink/fs.h"

/*
 * Act on the filesystem as @owner: a root consumer working for another
 * user takes that user's filesystem ids for the calling thread (setfsuid
 * is per thread), which also drops its filesystem capabilities, so the
 * kernel checks every path, link and permission as it would for the user,
 * and what is created belongs to the user.  Returns whether it switched.
 */
static bool as_owner(const struct ltt_owner *owner)
{
	if (geteuid() != 0 || owner->uid == 0)
		return false;
	setfsgid(owner->gid);
	setfsuid(owner->uid);
	return true;
}

static void as_self(bool switched)
{
	if (!switched)
		return;
	setfsuid(0);
	setfsgid(0);
}

/* Give @fd to @owner unless it is @owner's already (or we act as @owner). */
static int give(int fd, const struct ltt_owner *owner, bool switched)
{
	if (switched || (owner->uid == geteuid() && owner->gid == getegid()))
		return 0;
	return fchown(fd, owner->uid, owner->gid) ? -errno : 0;
}

static int mkdirat_owned(int dir_fd, const char *name, const struct ltt_owner *owner,
			 bool switched, int *ret_fd)
{
	bool created = false;
	int fd, ret;

	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	/* An existing component is used as it is, symbolic links included. */
	fd = openat(dir_fd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(dir_fd, name, LTT_FS_DIR_MODE) == 0)
			created = true;
		else if (errno != EEXIST)
			return -errno;
		/* Ours, or a racer's: never follow a link that appeared. */
		fd = openat(dir_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	if (created) {
		ret = give(fd, owner, switched);
		if (ret) {
			close(fd);
			return ret;
		}
	}
	*ret_fd = fd;
	return 0;
}

int ltt_fs_mkdirat(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd)
{
	bool switched = as_owner(owner);
	int ret = mkdirat_owned(dir_fd, name, owner, switched, ret_fd);

	as_self(switched);
	return ret;
}

int ltt_fs_mkdir_path(const char *path, const struct ltt_owner *owner, int *ret_fd)
{
	char buf[PATH_MAX], *comp, *save = NULL;
	int fd, next, ret = 0;
	bool switched;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	/* the whole path is checked before anything is created */
	strcpy(buf, path);
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save))
		if (!strcmp(comp, ".") || !strcmp(comp, ".."))
			return -EINVAL;
	strcpy(buf, path);
	switched = as_owner(owner);
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		ret = -errno;
	for (comp = strtok_r(buf, "/", &save); !ret && comp; comp = strtok_r(NULL, "/", &save)) {
		ret = mkdirat_owned(fd, comp, owner, switched, &next);
		close(fd);
		fd = ret ? -1 : next;
	}
	as_self(switched);
	if (ret)
		return ret;
	*ret_fd = fd;
	return 0;
}

/* Remove the regular files of directory @fd (closed here). */
static int remove_files(int fd)
{
	struct dirent *e;
	int ret = 0;
	DIR *d;

	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((e = readdir(d)))
		if (e->d_type == DT_REG && unlinkat(dirfd(d), e->d_name, 0) && !ret)
			ret = -errno;
	closedir(d);
	return ret;
}

int ltt_fs_remove_trace_files(int dir_fd, int index_fd, const struct ltt_owner *owner)
{
	bool switched = as_owner(owner);
	int fd, ret = 0;

	fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = fd < 0 ? -errno : remove_files(fd);
	if (!ret && index_fd >= 0) {
		fd = openat(index_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = fd < 0 ? -errno : remove_files(fd);
	}
	as_self(switched);
	return ret;
}

int ltt_fs_open_dir(int dir_fd, const struct ltt_owner *owner, int *ret_fd)
{
	bool switched = as_owner(owner);
	int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = fd < 0 ? -errno : 0;

	as_self(switched);
	if (!ret)
		*ret_fd = fd;
	return ret;
}

static int create_owned(int dir_fd, const char *name, const struct ltt_owner *owner,
			bool switched, bool replace, int *ret_fd)
{
	int fd, ret;

	if (!name || !*name || strchr(name, '/'))
		return -EINVAL;
	if (replace && unlinkat(dir_fd, name, 0) && errno != ENOENT)
		return -errno;
	fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    LTT_FS_FILE_MODE);
	if (fd < 0)
		return -errno;
	ret = give(fd, owner, switched);
	if (ret) {
		close(fd);
		unlinkat(dir_fd, name, 0);
		return ret;
	}
	*ret_fd = fd;
	return 0;
}

int ltt_fs_create(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd)
{
	bool switched = as_owner(owner);
	int ret = create_owned(dir_fd, name, owner, switched, true, ret_fd);

	as_self(switched);
	return ret;
}

int ltt_fs_create_new(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd)
{
	bool switched = as_owner(owner);
	int ret = create_owned(dir_fd, name, owner, switched, false, ret_fd);

	as_self(switched);
	return ret;
}

int ltt_fs_reopen(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd,
		  uint64_t *ret_size)
{
	bool switched;
	struct stat st;
	int fd, ret = 0;

	if (!name || !*name || strchr(name, '/'))
		return -EINVAL;
	switched = as_owner(owner);
	fd = openat(dir_fd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	as_self(switched);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	/* what we made: a plain file of the owner's, no other name to it */
	else if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != owner->uid ||
		 st.st_size < 0)
		ret = -EPERM;
	else if (fcntl(fd, F_SETFL, 0))
		ret = -errno;
	if (ret) {
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	*ret_size = (uint64_t)st.st_size;
	return 0;
}

/* Write a page to a file no one sees (O_TMPFILE), or to a named one removed at once. */
static int probe_write(int dir_fd)
{
	static const char page[4096];
	char name[64];
	bool named = false;
	ssize_t n;
	int fd, ret = 0;

	fd = openat(dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, LTT_FS_FILE_MODE);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		snprintf(name, sizeof(name), ".ltt-probe-%ld", (long)getpid());
		fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    LTT_FS_FILE_MODE);
		named = fd >= 0;
	}
	if (fd < 0)
		return -errno;
	do
		n = pwrite(fd, page, sizeof(page), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n < sizeof(page))
		ret = -ENOSPC;
	close(fd);
	if (named)
		unlinkat(dir_fd, name, 0);
	return ret;
}

int ltt_fs_probe(const char *path, const struct ltt_owner *owner)
{
	bool switched;
	int dir_fd, fd, ret;

	ret = ltt_fs_mkdir_path(path, owner, &dir_fd);
	if (ret)
		return ret;
	/* an O_PATH descriptor: a real one checks that we may search it */
	switched = as_owner(owner);
	fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		ret = -errno;
	else
		ret = probe_write(fd);
	as_self(switched);
	ltt_fd_close(&fd);
	close(dir_fd);
	return ret;
}
