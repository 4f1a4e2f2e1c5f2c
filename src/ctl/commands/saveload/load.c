// SPDX-License-Identifier: LGPL-2.1-only
/*
 * load.c - lttctl load: create sessions from saved configurations.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_INPUT, VAL_URL, VAL_NAME, NR_VALS };

/* load's arguments. */
struct load_args {
	char *values[NR_VALS];
	int all, force, no_triggers;
};

static int load(const struct ctl_ctx *ctx, struct ltt_load_opts *opts)
{
	struct ltt_session_file *files;
	struct ltt_ctl *ctl;
	size_t i, n;
	int ret;

	ret = ctl_util_connect(ctx, true, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_load_sessions(ctl, opts, &files, &n);
	if (ret) {
		ctl_util_config_err(ctl, "load", ret);
		ltt_ctl_disconnect(ctl);
		return CTL_EXIT_FAILURE;
	}
	for (i = 0; i < n; i++)
		ctl_out_info("Session %s loaded from %s", files[i].name, files[i].path);
	ctl_obj_config(true, files, n, opts->session, opts->override_name, opts->override_url);
	/* One session loaded becomes the current one, as create makes it. */
	if (n == 1 && ctl_rc_write(files[0].name))
		ctl_out_warn(LTT_ERR_CURRENT_SESSION_FILE, "session '%s' is not the current session: %s",
			     files[0].name, ltt_strerror(LTT_ERR_CURRENT_SESSION_FILE));
	free(files);
	ltt_ctl_disconnect(ctl);
	return CTL_EXIT_OK;
}

static int load_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct load_args *a = arg;
	const char *input = a->values[VAL_INPUT];
	char path[LTT_PATH_MAX];
	struct ltt_load_opts opts;
	int ret;

	ltt_ctl_load_opts_init(&opts);
	ret = ctl_util_session_or_all(ctx, pc, a->all, input, "-i", &opts.session);
	if (!ret && a->values[VAL_NAME])
		ret = ctl_util_check_session_name(a->values[VAL_NAME]);
	if (!ret && input && ctl_util_abs_path(input, path, sizeof(path))) {
		ctl_out_error(LTT_ERR_CONFIG_IO, "input path '%s': %s", input,
			      ltt_strerror(LTT_ERR_CONFIG_IO));
		ret = CTL_EXIT_FAILURE;
	}
	if (ret)
		return ret;
	opts.path = input ? path : NULL;
	opts.override_url = a->values[VAL_URL];
	opts.override_name = a->values[VAL_NAME];
	opts.force = a->force;
	opts.no_triggers = a->no_triggers;
	return load(ctx, &opts);
}

int cmd_load(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct load_args a = { .values = { NULL } };
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &a.all, 0, "load every session found (the default)",
		  NULL },
		{ "input-path", 'i', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_INPUT,
		  "load from FILE, or from the .lttng and .ltt files of DIR; default "
		  "$LTT_HOME/.lttng/sessions, then the system directory", "FILE|DIR" },
		{ "force", 'f', POPT_ARG_NONE, &a.force, 0,
		  "destroy an existing session of the same name first", NULL },
		{ "no-triggers", 0, POPT_ARG_NONE, &a.no_triggers, 0,
		  "add none of the files' triggers", NULL },
		{ "override-url", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_URL,
		  "the output of the loaded sessions: file:///PATH, net://, net4://, net6://", "URL" },
		{ "override-name", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_NAME,
		  "the name of the one session loaded", "NAME" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, load_run, &a);
}
