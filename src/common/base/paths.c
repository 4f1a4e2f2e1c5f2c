// SPDX-License-Identifier: LGPL-2.1-only
/*
 * paths.c - where ltt keeps its files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/paths.h"

/*
 * The first of @names set and not empty, else the passwd entry's home.
 * Not in a set-user-ID program (secure_getenv()): its user's environment
 * does not choose a privileged process's files.
 */
static const char *home_of(const char *const *names)
{
	struct passwd *pw;
	const char *home;

	for (; *names; names++) {
		home = secure_getenv(*names);
		if (home && *home)
			return home;
	}
	pw = getpwuid(getuid());
	return pw && pw->pw_dir[0] ? pw->pw_dir : NULL;
}

bool ltt_home_is_lttng(void)
{
	const char *ltt = secure_getenv("LTT_HOME"), *lttng = secure_getenv("LTTNG_HOME");

	return !(ltt && *ltt) && lttng && *lttng;
}

int ltt_home_find(enum ltt_home_file what, char *buf, size_t len)
{
	static const char *const ltt[] = { "LTT_HOME", "LTTNG_HOME", "HOME", NULL };
	static const char *const lttng[] = { "LTTNG_HOME", "HOME", NULL };
	static const char *const names[] = {
		[LTT_HOME_DIR] = "",
		[LTT_HOME_RUNDIR] = "/" LTT_PERSONAL_RUNDIR_NAME,
		[LTT_HOME_RC] = "/" LTT_RC_NAME,
		[LTT_HOME_TRACES] = "/" LTT_TRACES_DIR_NAME,
		[LTT_HOME_SESSIONS] = "/.lttng/sessions",
		[LTT_HOME_AUTOLOAD] = "/.lttng/sessions/auto",
		[LTT_HOME_AGENT_PORT] = "/.lttng/agent.port",
		[LTT_HOME_LTTNG_RUNDIR] = "/.lttng",
		[LTT_HOME_SESSIONS_OLD] = "/" LTT_PERSONAL_RUNDIR_NAME "/sessions",
		[LTT_HOME_AUTOLOAD_OLD] = "/" LTT_PERSONAL_RUNDIR_NAME "/sessions/auto",
	};
	/* LTTng's layout, where it differs */
	static const char *const lttng_names[] = {
		[LTT_HOME_TRACES] = "/" LTT_LTTNG_TRACES_DIR_NAME,
	};
	const char *home, *name;
	int n;

	if ((size_t)what >= sizeof(names) / sizeof(names[0]))
		return -EINVAL;
	home = home_of(what == LTT_HOME_AGENT_PORT || what == LTT_HOME_LTTNG_RUNDIR ? lttng : ltt);
	if (!home)
		return -ENOENT;
	name = names[what];
	if ((size_t)what < sizeof(lttng_names) / sizeof(lttng_names[0]) && lttng_names[what] &&
	    ltt_home_is_lttng())
		name = lttng_names[what];
	n = snprintf(buf, len, "%s%s", home, name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int ltt_home_traces(bool lttng, char *buf, size_t len)
{
	char home[PATH_MAX];
	int ret;

	if (!lttng || ltt_home_is_lttng())
		return ltt_home_find(LTT_HOME_TRACES, buf, len);
	ret = ltt_home_find(LTT_HOME_DIR, home, sizeof(home));
	return ret ? ret : ltt_path_join(buf, len, home, LTT_LTTNG_TRACES_DIR_NAME);
}

int ltt_path_join(char *buf, size_t len, const char *dir, const char *name)
{
	/* not snprintf(): a program's start-up would fault in its code */
	size_t d = strlen(dir), n = strlen(name);

	if (d >= len || n >= len - d - 1)
		return -ENAMETOOLONG;
	memmove(buf, dir, d);
	buf[d] = '/';
	memmove(buf + d + 1, name, n + 1);
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

int ltt_state_dir(const char *rundir, char *buf, size_t len)
{
	const char *env = getenv(LTT_STATEDIR_ENV);
	const char *dir = env && *env ? env : rundir;

	if (dir == env && env[0] != '/')
		return -EINVAL;
	if (strlen(dir) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, dir);
	return dir == env;
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
