// SPDX-License-Identifier: GPL-2.0-only
/*
 * autoload.c - the sessions a daemon loads at start (autoload.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ltt/ltt-ctl.h>

#include "common/log.h"
#include "common/paths.h"
#include "sessiond/autoload.h"

/* Load @path on @ctl; log what was loaded, or why nothing was. */
static int load_path(struct ltt_ctl *ctl, const char *path)
{
	struct ltt_session_file *files;
	struct ltt_load_opts opts;
	size_t i, n;
	int ret;

	ltt_ctl_load_opts_init(&opts);
	opts.path = path;
	ret = ltt_ctl_load_sessions(ctl, &opts, &files, &n);
	if (ret) {
		const char *d = ltt_ctl_error_detail(ctl);

		LTT_ERR("no session loaded from %s: %s%s%s", path, d, *d ? ": " : "",
			ltt_strerror(ret));
		return ret;
	}
	for (i = 0; i < n; i++)
		LTT_INFO("session '%s' loaded from %s", files[i].name, files[i].path);
	free(files);
	return 0;
}

/* An autoload directory: skipped if missing, or if it holds no saved session. */
static void load_dir(struct ltt_ctl *ctl, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return;
	if (load_path(ctl, dir) == -LTT_ERR_CONFIG_NOT_FOUND)
		LTT_DBG("autoload: no saved session in %s", dir);
}

int ltt_autoload_run(const char *rundir, const char *path, bool root)
{
	char home[LTT_PATH_MAX], dir[LTT_PATH_MAX + 64];
	struct ltt_ctl *ctl;
	int ret;

	ret = ltt_ctl_connect(rundir, &ctl);
	if (ret) {
		LTT_ERR("can't load sessions: no connection to ourselves: %s", ltt_strerror(ret));
		return path ? -EINVAL : 0;
	}
	if (path) {
		ret = load_path(ctl, path) ? -EINVAL : 0;
		ltt_ctl_disconnect(ctl);
		return ret;
	}
	if (!ltt_home_dir(home, sizeof(home)) &&
	    snprintf(dir, sizeof(dir), "%s/%s/sessions/%s", home, LTT_PERSONAL_RUNDIR_NAME,
		     LTT_AUTOLOAD_DIR_NAME) < (int)sizeof(dir))
		load_dir(ctl, dir);
	if (root)
		load_dir(ctl, LTT_SYSCONFDIR "/ltt/sessions/" LTT_AUTOLOAD_DIR_NAME);
	ltt_ctl_disconnect(ctl);
	return 0;
}
