// SPDX-License-Identifier: LGPL-2.1-only
/*
 * paths.c - where ltt keeps its files.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/paths.h"

int ltt_home_dir(char *buf, size_t len)
{
	const char *home = getenv("LTT_HOME");
	struct passwd *pw;

	if (!home || !*home)
		home = getenv("HOME");
	if (!home || !*home) {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || !*home)
		return -ENOENT;
	if (strlen(home) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, home);
	return 0;
}

int ltt_path_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int ltt_path_absolute(char *buf, size_t len, const char *path)
{
	char cwd[4096];

	if (path[0] == '/') {
		if (strlen(path) >= len)
			return -ENAMETOOLONG;
		strcpy(buf, path);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return ltt_path_join(buf, len, cwd, path);
}

int ltt_mkdir_p(const char *path, mode_t mode)
{
	char tmp[4096];
	struct stat st;
	char *p;

	if (strlen(path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	strcpy(tmp, path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	if (stat(tmp, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* @text in one write() to @path opened with @flags (O_TRUNC or O_APPEND). */
static int write_control(int dir_fd, const char *path, const char *text, int flags)
{
	int fd = openat(dir_fd, path, O_WRONLY | flags | O_CLOEXEC);
	size_t len = strlen(text);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	close(fd);
	return err;
}

int ltt_write_control(int dir_fd, const char *path, const char *text)
{
	return write_control(dir_fd, path, text, O_TRUNC);
}

int ltt_append_control(int dir_fd, const char *path, const char *text)
{
	return write_control(dir_fd, path, text, O_APPEND);
}
