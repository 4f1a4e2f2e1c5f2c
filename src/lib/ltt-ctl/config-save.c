// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-save.c - libltt-ctl's save: which sessions, which files, each
 * session's detail, trackers, contexts and triggers handed to the XML
 * module (config-module.h), which writes them; and what load shares of
 * it (config-save.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/model/convert.h"
#include "common/base/paths.h"
#include "common/model/uri.h"
#include "lib/ltt-ctl/config-check.h"
#include "lib/ltt-ctl/config-module.h"
#include "lib/ltt-ctl/config-save.h"
#include "lib/ltt-ctl/config-trigger.h"
#include "lib/ltt-ctl/config-xml.h"
#include "lib/ltt-ctl/ctl-internal.h"


void ltt_cfg_detail(struct ltt_ctl *ctl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX, fmt, ap);
	va_end(ap);
}

bool ltt_cfg_reserved_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

void ltt_ctl_save_opts_init(struct ltt_save_opts *opts)
{
	if (opts)
		memset(opts, 0, sizeof(*opts));
}

/* $LTT_HOME/.ltt/sessions */
int ltt_cfg_user_dir(char *buf, size_t len)
{
	char home[LTT_PATH_MAX], dot[LTT_PATH_MAX + 8];

	if (ltt_home_dir(home, sizeof(home)) ||
	    ltt_path_join(dot, sizeof(dot), home, LTT_PERSONAL_RUNDIR_NAME) ||
	    ltt_path_join(buf, len, dot, SESSIONS_DIR_NAME))
		return -LTT_ERR_CONFIG_IO;
	return 0;
}

bool ltt_cfg_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* The names of the sessions to save: one, or every one of the caller's. */
static int save_names(struct ltt_ctl *ctl, const char *session, char (**ret_names)[LTT_NAME_MAX],
		      size_t *ret_n)
{
	struct ltt_session_info *sessions;
	char (*names)[LTT_NAME_MAX];
	size_t i, n = 0, count;
	int ret;

	if (session) {
		names = calloc(1, sizeof(*names));
		if (!names)
			return -LTT_ERR_NOMEM;
		snprintf(names[0], sizeof(names[0]), "%s", session);
		*ret_names = names;
		*ret_n = 1;
		return 0;
	}
	ret = ltt_ctl_list_sessions(ctl, &sessions, &count);
	if (ret)
		return ret;
	names = calloc(count ? count : 1, sizeof(*names));
	if (!names) {
		free(sessions);
		return -LTT_ERR_NOMEM;
	}
	/* Root's view of the root daemon holds other users' sessions: not theirs to save. */
	for (i = 0; i < count; i++)
		if (sessions[i].uid == geteuid())
			strcpy(names[n++], sessions[i].name);
	free(sessions);
	*ret_names = names;
	*ret_n = n;
	return 0;
}

/* Where to save: @ret_dir true for a directory of NAME.ltt files. */
static int save_target(struct ltt_ctl *ctl, const char *path, char *buf, size_t len,
		       bool *ret_dir)
{
	struct stat st;
	size_t n;
	bool dir;

	if (!path) {
		if (ltt_cfg_user_dir(buf, len)) {
			ltt_cfg_detail(ctl, "no home directory: set LTT_HOME or HOME, or give a path");
			return -LTT_ERR_CONFIG_IO;
		}
		dir = true;
	} else {
		if (strlen(path) >= len)
			return -LTT_ERR_INVAL;
		strcpy(buf, path);
		dir = stat(path, &st) ? !ltt_cfg_ends_with(path, LTT_CFG_SUFFIX) : S_ISDIR(st.st_mode);
	}
	/* "DIR/" names a directory: files go in as "DIR/NAME.ltt". */
	for (n = strlen(buf); dir && n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = '\0';
	if (dir && ltt_mkdir_p(buf, 0700)) {
		ltt_cfg_detail(ctl, "%s: can't create the directory: %s", buf, strerror(errno));
		return -LTT_ERR_CONFIG_IO;
	}
	*ret_dir = dir;
	return 0;
}

/* The files to write, every one checked (exists and not @force) first. */
static int save_files(struct ltt_ctl *ctl, const struct ltt_save_opts *o,
		      char (*names)[LTT_NAME_MAX], size_t n, struct ltt_session_file *files)
{
	char target[LTT_PATH_MAX];
	size_t i;
	bool dir;
	int ret;

	ret = save_target(ctl, o->path, target, sizeof(target), &dir);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		int len;

		strcpy(files[i].name, names[i]);
		len = dir ? snprintf(files[i].path, sizeof(files[i].path), "%s/%s%s", target,
				     names[i], LTT_CFG_SUFFIX)
			  : snprintf(files[i].path, sizeof(files[i].path), "%s", target);
		if (len < 0 || (size_t)len >= sizeof(files[i].path)) {
			ltt_cfg_detail(ctl, "%s/%s%s: path too long", target, names[i], LTT_CFG_SUFFIX);
			return -LTT_ERR_CONFIG_IO;
		}
		if (!o->force && !access(files[i].path, F_OK)) {
			ltt_cfg_detail(ctl, "%s", files[i].path);
			return -LTT_ERR_CONFIG_EXISTS;
		}
	}
	return 0;
}

/* @session's map channels' attributes into @x (none from a daemon without maps). */
static int cfg_maps(struct ltt_ctl *ctl, const char *session, struct ltt_cfg_extra *x)
{
	struct ltt_map_desc *maps;
	size_t i, n;
	int ret = ltt_ctl_list_maps(ctl, session, &maps, &n);

	if (ret)
		return ret == -LTT_ERR_NOT_SUPPORTED ? 0 : ret;
	x->maps = calloc(n ? n : 1, sizeof(*x->maps));
	for (i = 0; x->maps && i < n; i++)
		x->maps[x->nr_maps++] = maps[i].attr;
	ltt_ctl_maps_free(maps, n);
	return x->maps ? 0 : -LTT_ERR_NOMEM;
}

/*
 * What ltt_ctl_get_session() does not say about a session: its map
 * channels, the snapshot outputs of a session without output, a session's rotation
 * schedule.  A daemon without them (-LTT_ERR_NOT_SUPPORTED) has none to
 * save.  @x->maps and @x->snap_outputs are the caller's to free.  Returns
 * 0 or -LTT_ERR_*.
 */
int ltt_cfg_get_extra(struct ltt_ctl *ctl, const struct ltt_session_info *info,
		      struct ltt_cfg_extra *x)
{
	struct ltt_rotation_info rot;
	int ret;

	memset(x, 0, sizeof(*x));
	ret = cfg_maps(ctl, info->name, x);
	if (ret)
		return ret;
	/* a session without output, --snapshot or --no-output, may have one */
	if (info->output_type == LTT_OUTPUT_NONE)
		ret = ltt_ctl_snapshot_list_outputs(ctl, info->name, &x->snap_outputs,
						    &x->nr_snap_outputs);
	else if (!(ret = ltt_ctl_rotation_info(ctl, info->name, &rot))) {
		x->rotate_timer_us = rot.timer_us;
		x->rotate_size = rot.size;
	}
	/* an older daemon's --no-output session takes no snapshot output */
	return ret == -LTT_ERR_NOT_SUPPORTED || ret == -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT ? 0 : ret;
}

/* @session's @n trackers of @domain into @row.  Returns 0 or -LTT_ERR_*. */
static int save_domain_trackers(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
				size_t n, struct ltt_cfg_tracker *row)
{
	struct ltt_cfg_tracker *t;
	uint32_t *ids;
	size_t k, nr;
	int err;

	for (k = 0; k < n; k++) {
		t = &row[k];
		err = ltt_ctl_list_tracker(ctl, session, domain, (enum ltt_tracker_type)k,
					   &t->policy, &ids, &nr);
		if (err)
			return err;
		t->nr = nr <= LTT_TRACKER_MAX_IDS ? (uint32_t)nr : 0;
		if (t->nr)
			memcpy(t->ids, ids, t->nr * sizeof(*ids));
		free(ids);
	}
	return 0;
}

/*
 * @session's process trackers, into @ret (zeroed: every process).  A
 * daemon without trackers has none to save, one without the kernel
 * domain (it refuses it) no kernel trackers.  Returns 0 or -LTT_ERR_*.
 */
int ltt_cfg_get_trackers(struct ltt_ctl *ctl, const char *session, struct ltt_cfg_trackers *ret)
{
	int err = save_domain_trackers(ctl, session, LTT_DOMAIN_USER, LTT_TRACKER_NR_USER,
				       ret->t[1]);

	if (err == -LTT_ERR_NOT_SUPPORTED)
		return 0;
	if (err)
		return err;
	err = save_domain_trackers(ctl, session, LTT_DOMAIN_KERNEL, LTT_TRACKER_NR, ret->t[0]);
	if (err && err != -LTT_ERR_NOMEM) {
		memset(ret->t[0], 0, sizeof(ret->t[0]));	/* all: nothing to save */
		err = 0;
	}
	return err;
}

/* Write the @n sessions' @details to @files with @m: one file each, or all in one. */
static int save_write(struct ltt_ctl *ctl, const struct ltt_cfg_module *m,
		      struct ltt_session_detail **details, const struct ltt_cfg_extra *extras,
		      size_t n, struct ltt_session_file *files)
{
	char *err = ltt_lib_detail(ctl);
	size_t i;
	int ret = 0;

	if (n > 1 && !strcmp(files[0].path, files[1].path))
		return m->write(files[0].path, details, extras, n, err, LTT_LIB_DETAIL_MAX);
	for (i = 0; i < n && !ret; i++)
		ret = m->write(files[i].path, &details[i], &extras[i], 1, err,
			       LTT_LIB_DETAIL_MAX);
	return ret;
}

/* @session's contexts into @ret; none from a daemon older than contexts. */
int ltt_cfg_get_contexts(struct ltt_ctl *ctl, const char *session, struct ltt_cfg_contexts *ret)
{
	struct ltt_context_info *v = NULL;
	size_t n = 0;
	int err;

	err = ltt_ctl_list_contexts(ctl, session, &v, &n);
	if (err == -LTT_ERR_NOT_SUPPORTED)
		err = 0;
	ret->v = v;
	ret->n = err ? 0 : n;
	return err;
}

int ltt_ctl_save_sessions(struct ltt_ctl *ctl, const struct ltt_save_opts *opts,
			  struct ltt_session_file **ret_files, size_t *ret_count)
{
	struct ltt_session_detail **details = NULL;
	struct ltt_cfg_extra *extras = NULL;
	struct ltt_cfg_trackers *trackers = NULL;
	struct ltt_session_file *files = NULL;
	char (*names)[LTT_NAME_MAX] = NULL;
	const struct ltt_cfg_module *m;
	size_t i, n = 0;
	int ret;

	if (!ctl || !opts || !ret_files || !ret_count ||
	    (opts->session && strlen(opts->session) >= LTT_NAME_MAX))
		return -LTT_ERR_INVAL;
	ltt_lib_detail(ctl);
	if (!ltt_cfg_reserved_zero(opts->reserved, sizeof(opts->reserved)))
		return -LTT_ERR_NOT_SUPPORTED;
	ret = ltt_cfg_module_get(&m, ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX);
	if (!ret)
		ret = save_names(ctl, opts->session, &names, &n);
	if (ret)
		return ret;
	details = calloc(n ? n : 1, sizeof(*details));
	files = calloc(n ? n : 1, sizeof(*files));
	extras = calloc(n ? n : 1, sizeof(*extras));
	trackers = calloc(n ? n : 1, sizeof(*trackers));
	if (!details || !files || !extras || !trackers) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = ltt_ctl_get_session(ctl, names[i], &details[i]);
		if (!ret)
			ret = ltt_cfg_get_extra(ctl, &details[i]->info, &extras[i]);
		if (!ret)
			ret = ltt_cfg_get_trackers(ctl, names[i], &trackers[i]);
		extras[i].trackers = &trackers[i];
		if (!ret)
			ret = ltt_cfg_get_contexts(ctl, names[i], &extras[i].contexts);
		if (ret)
			ltt_cfg_detail(ctl, "session '%s'", names[i]);
	}
	if (!ret && n && !opts->no_triggers)
		ret = ltt_cfg_save_triggers(ctl, names, n, extras);
	if (!ret && n)
		ret = save_files(ctl, opts, names, n, files);
	if (!ret)
		ret = save_write(ctl, m, details, extras, n, files);
	if (!ret) {
		*ret_files = files;
		*ret_count = n;
		files = NULL;
	}
out:
	for (i = 0; details && i < n; i++)
		free(details[i]);
	for (i = 0; extras && i < n; i++) {
		free(extras[i].snap_outputs);
		free(extras[i].maps);
		free((void *)extras[i].contexts.v);
		free(extras[i].triggers);
	}
	free(extras);
	free(details);
	free(trackers);
	free(files);
	free(names);
	return ret;
}

/* Load: reading */
