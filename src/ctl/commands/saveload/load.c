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

int cmd_load(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALS] = { NULL };
	char path[LTT_PATH_MAX];
	struct ltt_load_opts opts;
	const char **args;
	int ret, all = 0, force = 0, no_triggers = 0, nr;
	poptContext pc;
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "load every session found (the default)", NULL },
		{ "input-path", 'i', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_INPUT,
		  "load from FILE, or from the .lttng and .ltt files of DIR; default "
		  "$LTT_HOME/.lttng/sessions, then the system directory", "FILE|DIR" },
		{ "force", 'f', POPT_ARG_NONE, &force, 0,
		  "destroy an existing session of the same name first", NULL },
		{ "no-triggers", 0, POPT_ARG_NONE, &no_triggers, 0,
		  "add none of the files' triggers", NULL },
		{ "override-url", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_URL,
		  "the output of the loaded sessions: file:///PATH, net://, net4://, net6://", "URL" },
		{ "override-name", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_NAME,
		  "the name of the one session loaded", "NAME" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, values, &pc);
	if (ret != CTL_GO_ON)
		goto end;
	ltt_ctl_load_opts_init(&opts);
	nr = ctl_util_args(pc, &args);
	if (nr && all)
		ret = ctl_util_usage_error(ctx, "give a session name or -a, not both");
	else if (values[VAL_INPUT] && !values[VAL_INPUT][0])
		ret = ctl_util_usage_error(ctx, "-i needs a path");
	else
		ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret && nr)
		ret = ctl_util_check_session_name(args[0]);
	if (!ret && values[VAL_NAME])
		ret = ctl_util_check_session_name(values[VAL_NAME]);
	if (!ret && values[VAL_INPUT] && ctl_util_abs_path(values[VAL_INPUT], path, sizeof(path))) {
		ctl_out_error(LTT_ERR_CONFIG_IO, "input path '%s': %s", values[VAL_INPUT],
			      ltt_strerror(LTT_ERR_CONFIG_IO));
		ret = CTL_EXIT_FAILURE;
	}
	if (!ret) {
		opts.session = nr ? args[0] : NULL;
		opts.path = values[VAL_INPUT] ? path : NULL;
		opts.override_url = values[VAL_URL];
		opts.override_name = values[VAL_NAME];
		opts.force = force;
		opts.no_triggers = no_triggers;
		ret = load(ctx, &opts);
	}
	poptFreeContext(pc);
end:
	ctl_util_free_values(values, NR_VALS);
	return ret;
}
