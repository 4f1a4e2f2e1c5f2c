// SPDX-License-Identifier: LGPL-2.1-only
/*
 * regenerate.c - lttctl regenerate metadata | statedump: write a
 * session's metadata (or a state dump) again.
 */
#include <string.h>

#include "ctl/ctl.h"

enum { VAL_SESSION, NR_VALUES };

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	char **values = arg;
	char current[LTT_NAME_MAX];
	enum ltt_regenerate_what what;
	struct ltt_ctl *ctl = NULL;
	const char *session, **args;
	int nr, ret;

	nr = ctl_util_args(pc, &args);
	if (nr != 1)
		return ctl_util_usage_error(ctx, "give what to regenerate: metadata or statedump");
	if (!strcmp(args[0], "metadata"))
		what = LTT_REGENERATE_METADATA;
	else if (!strcmp(args[0], "statedump"))
		what = LTT_REGENERATE_STATEDUMP;
	else
		return ctl_util_usage_error(ctx, "'%s' can't be regenerated: give metadata or statedump",
					    args[0]);
	ret = ctl_util_session_name(values[VAL_SESSION], current, sizeof(current), &session);
	if (!ret)
		ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_regenerate(ctl, session, what);
	ltt_ctl_disconnect(ctl);
	if (ret) {
		ctl_out_error(ret, "session '%s': %s", session, ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("%s regenerated for session %s.",
		     what == LTT_REGENERATE_METADATA ? "Metadata" : "State dump", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

int cmd_regenerate(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALUES] = { 0 };
	struct poptOption options[] = {
		{ "session", 's', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SESSION,
		  "the session (default: the current one)", "SESSION" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALUES, run, values);
}
