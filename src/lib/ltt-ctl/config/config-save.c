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
#include "lib/ltt-ctl/config/config-check.h"
#include "lib/ltt-ctl/config/config-module.h"
#include "lib/ltt-ctl/config/config-save.h"
#include "lib/ltt-ctl/config/config-trigger.h"
#include "lib/ltt-ctl/config/config-xml.h"
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

int ltt_cfg_user_dir(char *buf, size_t len)
{
	return ltt_home_find(LTT_HOME_SESSIONS, buf, len) ? -LTT_ERR_CONFIG_IO : 0;
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

/* Is @path a file of either format, by its name? */
static bool config_file_name(const char *path)
{
	return ltt_cfg_ends_with(path, LTT_CFG_SUFFIX) ||
	       ltt_cfg_ends_with(path, LTT_CFG_LTTNG_SUFFIX);
}

/* Where to save: @ret_dir true for a directory of one file per session. */
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
		dir = stat(path, &st) ? !config_file_name(path) : S_ISDIR(st.st_mode);
	}
	/* "DIR/" names a directory: files go in as "DIR/NAME.lttng". */
	for (n = strlen(buf); dir && n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = '\0';
	if (dir && ltt_mkdir_p(buf, 0700)) {
		ltt_cfg_detail(ctl, "%s: can't create the directory: %s", buf, strerror(errno));
		return -LTT_ERR_CONFIG_IO;
	}
	*ret_dir = dir;
	return 0;
}

/*
 * The file of @file's session in directory @dir: NAME.lttng, or NAME.ltt
 * for a session LTTng's format can't hold; with @other, the name of the
 * other format instead.  Returns 0 or -LTT_ERR_CONFIG_IO (too long).
 */
static int dir_file(struct ltt_ctl *ctl, const char *dir, const struct ltt_session_file *file,
		    bool other, char *buf, size_t len)
{
	bool lttng = other ? file->not_lttng != NULL : file->not_lttng == NULL;
	const char *sfx = lttng ? LTT_CFG_LTTNG_SUFFIX : LTT_CFG_SUFFIX;
	int n = snprintf(buf, len, "%s/%s%s", dir, file->name, sfx);

	if (n >= 0 && (size_t)n < len)
		return 0;
	ltt_cfg_detail(ctl, "%s/%s%s: path too long", dir, file->name, sfx);
	return -LTT_ERR_CONFIG_IO;
}

/*
 * The files to write, every one checked (exists and not @force) first,
 * and (@ret_dir) whether they are a directory's, one per session.  A
 * directory's NAME.lttng, or NAME.ltt where @gaps (one per session)
 * says why LTTng's format can't hold it; a file's format is its name's.
 */
static int save_files(struct ltt_ctl *ctl, const struct ltt_save_opts *o,
		      char (*names)[LTT_NAME_MAX], const char *const *gaps, size_t n,
		      struct ltt_session_file *files, bool *ret_dir)
{
	char target[LTT_PATH_MAX], other[LTT_PATH_MAX];
	size_t i;
	bool dir = false;
	int ret;

	ret = save_target(ctl, o->path, target, sizeof(target), &dir);
	for (i = 0; i < n && !ret; i++) {
		strcpy(files[i].name, names[i]);
		if (!dir && !ltt_cfg_ends_with(target, LTT_CFG_SUFFIX) && gaps[i]) {
			ltt_cfg_detail(ctl, "%s: session '%s': %s", target, names[i], gaps[i]);
			return -LTT_ERR_CONFIG_LTTNG_FORMAT;
		}
		if (!dir) {
			snprintf(files[i].path, sizeof(files[i].path), "%s", target);
			continue;
		}
		files[i].not_lttng = gaps[i];
		ret = dir_file(ctl, target, &files[i], false, files[i].path, sizeof(files[i].path));
		if (!ret)
			ret = dir_file(ctl, target, &files[i], true, other, sizeof(other));
		/* the other format's file would hold the session twice */
		if (!ret && !o->force && (!access(files[i].path, F_OK) || !access(other, F_OK))) {
			ltt_cfg_detail(ctl, "%s", access(files[i].path, F_OK) ? other : files[i].path);
			ret = -LTT_ERR_CONFIG_EXISTS;
		}
	}
	if (!ret && !dir && !o->force && !access(target, F_OK)) {
		ltt_cfg_detail(ctl, "%s", target);
		ret = -LTT_ERR_CONFIG_EXISTS;
	}
	*ret_dir = dir;
	return ret;
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

/* The writer of @path's format: ltt's for a .ltt file, else LTTng's. */
static int write_file(const struct ltt_cfg_module *m, const char *path,
		      struct ltt_session_detail *const *details, const struct ltt_cfg_extra *extras,
		      size_t n, char *err)
{
	if (ltt_cfg_ends_with(path, LTT_CFG_SUFFIX))
		return m->write(path, details, extras, n, err, LTT_LIB_DETAIL_MAX);
	return m->write_lttng(path, details, extras, n, err, LTT_LIB_DETAIL_MAX);
}

/*
 * Write the @n sessions' @details to @files with @m: one file each (a
 * directory's: the other format's file of a session, which -f let
 * through, removed once it is written), or all in one.
 */
static int save_write(struct ltt_ctl *ctl, const struct ltt_cfg_module *m,
		      struct ltt_session_detail **details, const struct ltt_cfg_extra *extras,
		      size_t n, struct ltt_session_file *files, bool dir)
{
	char *err = ltt_lib_detail(ctl), parent[LTT_PATH_MAX], other[LTT_PATH_MAX], *slash;
	size_t i;
	int ret = 0;

	if (!dir)
		return write_file(m, files[0].path, details, extras, n, err);
	for (i = 0; i < n && !ret; i++) {
		ret = write_file(m, files[i].path, &details[i], &extras[i], 1, err);
		snprintf(parent, sizeof(parent), "%s", files[i].path);
		slash = strrchr(parent, '/');
		if (!ret && slash) {
			*slash = '\0';
			if (!dir_file(ctl, parent, &files[i], true, other, sizeof(other)))
				unlink(other);
		}
	}
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
	const char **gaps = NULL;
	bool dir = false;
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
	gaps = calloc(n ? n : 1, sizeof(*gaps));
	if (!details || !files || !extras || !trackers || !gaps) {
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
	for (i = 0; !ret && i < n; i++)
		gaps[i] = ltt_cfg_lttng_gap(details[i], &extras[i]);
	if (!ret && n)
		ret = save_files(ctl, opts, names, gaps, n, files, &dir);
	if (!ret && n)
		ret = save_write(ctl, m, details, extras, n, files, dir);
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
	free(gaps);
	free(files);
	free(names);
	return ret;
}

int ltt_cfg_daemon_open(const char *rundir, char *err, size_t errlen, struct ltt_ctl **ret)
{
	if (err && errlen)
		err[0] = '\0';
	return ltt_ctl_connect(rundir, ret);
}

int ltt_cfg_daemon_close(struct ltt_ctl *ctl, int ret, char *err, size_t errlen)
{
	if (ret && err && errlen)
		snprintf(err, errlen, "%s", ltt_ctl_error_detail(ctl));
	ltt_ctl_disconnect(ctl);
	return ret;
}

int ltt_lib_save_lttng(const char *rundir, const char *session, const char *dir, bool force,
		       size_t *ret_count, char *err, size_t errlen)
{
	char (*names)[LTT_NAME_MAX] = NULL;
	char target[LTT_PATH_MAX], file[LTT_PATH_MAX];
	struct ltt_session_file *files;
	struct ltt_save_opts opts;
	struct ltt_ctl *ctl;
	size_t i, n = 0, got;
	int ret;

	*ret_count = 0;
	ret = ltt_cfg_daemon_open(rundir, err, errlen, &ctl);
	if (ret)
		return ret;
	if (dir)
		snprintf(target, sizeof(target), "%s", dir);
	else if (ltt_cfg_user_dir(target, sizeof(target))) {
		target[0] = '\0';
		ltt_cfg_detail(ctl, "no home directory: set LTTNG_HOME or HOME, or give a path");
	}
	ret = dir || target[0] ? save_names(ctl, session, &names, &n) : -LTT_ERR_CONFIG_IO;
	if (!ret && n && ltt_mkdir_p(target, 0700)) {
		ltt_cfg_detail(ctl, "%s: can't create the directory: %s", target, strerror(errno));
		ret = -LTT_ERR_CONFIG_IO;
	}
	/* one file each, so that a session LTTng's format can't hold is refused, not made .ltt */
	ltt_ctl_save_opts_init(&opts);
	opts.force = force;
	opts.no_triggers = true;	/* LTTng 2.13 saves none with a session */
	for (i = 0; !ret && i < n; i++) {
		/* the daemon's names: never a path (a root saver trusts no daemon) */
		if (names[i][0] == '.' || strchr(names[i], '/')) {
			ltt_cfg_detail(ctl, "the daemon named a session \"%s\": not a file name",
				       names[i]);
			ret = -LTT_ERR_CONFIG_IO;
			break;
		}
		if (snprintf(file, sizeof(file), "%s/%s%s", target, names[i],
			     LTT_CFG_LTTNG_SUFFIX) >= (int)sizeof(file)) {
			ltt_cfg_detail(ctl, "%s/%s%s: path too long", target, names[i],
				       LTT_CFG_LTTNG_SUFFIX);
			ret = -LTT_ERR_CONFIG_IO;
			break;
		}
		opts.session = names[i];
		opts.path = file;
		ret = ltt_ctl_save_sessions(ctl, &opts, &files, &got);
		if (!ret) {
			free(files);
			(*ret_count)++;
		}
	}
	free(names);
	return ltt_cfg_daemon_close(ctl, ret, err, errlen);
}

/* Load: reading */
