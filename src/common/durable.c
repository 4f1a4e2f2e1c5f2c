// SPDX-License-Identifier: GPL-2.0-only
/*
 * durable.c - files that survive a crash whole (see durable.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/durable.h"
#include "common/sock.h"

static pthread_once_t crash_once = PTHREAD_ONCE_INIT;
static char crash_at[64];
static unsigned long crash_nth = 1;	/* the hit that kills */
static unsigned long crash_hits;

/* LTT_CRASH_AT=NAME or NAME:N (the Nth time NAME is reached). */
static void crash_init(void)
{
	const char *env = getenv("LTT_CRASH_AT");
	const char *colon;
	size_t len;

	if (!env || !*env)
		return;
	colon = strchr(env, ':');
	len = colon ? (size_t)(colon - env) : strlen(env);
	if (len >= sizeof(crash_at))
		return;
	memcpy(crash_at, env, len);
	crash_at[len] = '\0';
	if (colon)
		crash_nth = strtoul(colon + 1, NULL, 10);
}

bool ltt_crash_due(const char *name)
{
	pthread_once(&crash_once, crash_init);
	return crash_at[0] && !strcmp(crash_at, name) &&
	       __atomic_add_fetch(&crash_hits, 1, __ATOMIC_RELAXED) == crash_nth;
}

void ltt_crash_now(void)
{
	kill(getpid(), SIGKILL);
	pause();
}

void ltt_crash_point(const char *name)
{
	if (ltt_crash_due(name))
		ltt_crash_now();
}

int ltt_fsync_parent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, ret = 0;

	if (!slash) {
		strcpy(dir, ".");
	} else if (slash == path) {
		strcpy(dir, "/");
	} else {
		if ((size_t)(slash - path) >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL)	/* EINVAL: a file system that can't */
		ret = -errno;
	close(fd);
	return ret;
}

int ltt_file_replace(const char *path, const void *data, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fchmod(fd, mode) ? -errno : 0;
	if (!ret)
		ret = ltt_io_write_all(fd, data, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ltt_crash_point("replace-written");
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	ltt_crash_point("replace-renamed");
	return ltt_fsync_parent(path);
}
