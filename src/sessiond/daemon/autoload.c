// SPDX-License-Identifier: GPL-2.0-only
/*
 * autoload.c - the sessions a daemon loads at start (autoload.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/ltt-error.h>

#include "common/base/daemon.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/sock.h"
#include "lib/ltt-ctl/ctl-internal.h"
#include "sessiond/daemon/autoload.h"

static void loaded(const char *name, const char *file)
{
	LTT_INFO("session '%s' loaded from %s", name, file);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * Load @path through our own socket; log why nothing was loaded.  A
 * directory without saved sessions is no error (an autoload one, or
 * --load's: LTTng's daemon starts with no session then); a --load path
 * that does not exist, or holds a file that can't be loaded, is.
 */
static int load_path(const char *rundir, const char *path, bool autoload)
{
	char err[LTT_LIB_DETAIL_MAX];
	int ret;

	ret = ltt_lib_load_path(rundir, path, loaded, err, sizeof(err));
	if (ret == -LTT_ERR_CONFIG_NOT_FOUND && autoload) {
		LTT_DBG("no saved session in %s", path);
		return 0;
	}
	if (ret == -LTT_ERR_CONFIG_NOT_FOUND && is_dir(path)) {
		LTT_INFO("no saved session in %s: starting without one", path);
		return 0;
	}
	if (ret)
		LTT_ERR("no session loaded from %s: %s%s%s", path, err, *err ? ": " : "",
			ltt_strerror(ret));
	return ret;
}

/* An autoload directory: skipped if missing. */
static void load_dir(const char *rundir, const char *dir)
{
	if (is_dir(dir))
		load_path(rundir, dir, true);
}

int ltt_autoload_run(const char *rundir, const char *path, bool root)
{
	char dir[LTT_PATH_MAX];

	if (path)
		return load_path(rundir, path, false) ? -EINVAL : 0;
	if (!ltt_home_find(LTT_HOME_AUTOLOAD, dir, sizeof(dir)))
		load_dir(rundir, dir);
	if (!ltt_home_find(LTT_HOME_AUTOLOAD_OLD, dir, sizeof(dir)))
		load_dir(rundir, dir);
	if (root)
		load_dir(rundir, LTT_SYSCONFDIR "/ltt/sessions/" LTT_AUTOLOAD_DIR_NAME);
	return 0;
}

int ltt_autoload_fork(const char *rundir, const char *path, bool root,
		      struct ltt_autoload_child *ret)
{
	int p[2];
	pid_t pid;
	char go;

	pid = ltt_fork_split(p, false, 0);
	if (pid < 0)
		return pid;
	if (pid == 0) {
		/*
		 * Nothing of the daemon's kept (its sockets, the chunk
		 * journals' lock: a daemon started after its death finds them
		 * free), but the pipe, now descriptor 3
		 */
		if (ltt_fd_keep_only(p[0]))
			_exit(1);
		if (read(3, &go, 1) != 1)
			_exit(0);	/* the daemon failed, or died */
		_exit(ltt_autoload_run(rundir, path, root) ? 1 : 0);
	}
	*ret = (struct ltt_autoload_child){ .pid = pid, .go_fd = p[1] };
	return 0;
}

int ltt_autoload_finish(struct ltt_autoload_child *c, bool go)
{
	int status = 0;

	if (c->pid <= 0)
		return 0;
	if (go && write(c->go_fd, "g", 1) != 1)
		go = false;
	close(c->go_fd);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	c->pid = 0;
	return go && !(WIFEXITED(status) && WEXITSTATUS(status) == 0) ? -EINVAL : 0;
}
