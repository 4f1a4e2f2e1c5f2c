// SPDX-License-Identifier: LGPL-2.1-only
/*
 * save.c - lttctl save: write sessions' configurations (XML) to files.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_OUTPUT, NR_VALS };

/* save's arguments. */
struct save_args {
	char *values[NR_VALS];
	int all, force, no_triggers;
};

static int save(const struct ctl_ctx *ctx, const char *session, const char *output, bool force,
		bool no_triggers)
{
	char path[LTT_PATH_MAX];
	struct ltt_session_file *files;
	struct ltt_save_opts opts;
	struct ltt_ctl *ctl;
	size_t i, n;
	int ret;

	ltt_ctl_save_opts_init(&opts);
	opts.session = session;
	opts.force = force;
	opts.no_triggers = no_triggers;
	if (output) {
		if (ctl_util_abs_path(output, path, sizeof(path)))
			return ctl_util_object_error(LTT_ERR_CONFIG_IO, "output path", output);
		/* "DIR/" names a directory even if it does not exist yet. */
		if (output[strlen(output) - 1] == '/' && strlen(path) + 2 < sizeof(path) &&
		    strcmp(path, "/"))
			strcat(path, "/");
		opts.path = path;
	}
	ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_save_sessions(ctl, &opts, &files, &n);
	if (ret) {
		ctl_util_config_err(ctl, "save", ret);
		ltt_ctl_disconnect(ctl);
		return CTL_EXIT_FAILURE;
	}
	if (!n)
		ctl_out_info("No sessions to save.");
	for (i = 0; i < n; i++) {
		if (files[i].not_lttng)
			ctl_out_info("Session %s saved to %s, in ltt's format: %s.", files[i].name,
				     files[i].path, files[i].not_lttng);
		else
			ctl_out_info("Session %s saved to %s", files[i].name, files[i].path);
	}
	if (n)
		ctl_obj_config(false, files, n, NULL, NULL, NULL);
	free(files);
	ltt_ctl_disconnect(ctl);
	return CTL_EXIT_OK;
}

static int save_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct save_args *a = arg;
	const char *session;
	int ret;

	ret = ctl_util_session_or_all(ctx, pc, a->all, a->values[VAL_OUTPUT], "-o", &session);
	return ret ? ret : save(ctx, session, a->values[VAL_OUTPUT], a->force, a->no_triggers);
}

int cmd_save(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct save_args a = { .values = { NULL } };
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &a.all, 0, "save every session (the default)", NULL },
		{ "output-path", 'o', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OUTPUT,
		  "save in directory DIR (NAME.lttng files, LTTng's format; NAME.ltt where it "
		  "can't hold the session) or in FILE (a path ending in .lttng or .ltt); "
		  "default $LTT_HOME/.lttng/sessions", "FILE|DIR" },
		{ "force", 'f', POPT_ARG_NONE, &a.force, 0, "overwrite existing files", NULL },
		{ "no-triggers", 0, POPT_ARG_NONE, &a.no_triggers, 0,
		  "save no trigger with the sessions", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, save_run, &a);
}
