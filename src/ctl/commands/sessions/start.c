// SPDX-License-Identifier: LGPL-2.1-only
/*
 * start.c - lttctl start: start tracing in sessions.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

static int start(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session, void *arg)
{
	int ret;

	ret = ltt_ctl_start_session(ctl, session);
	if (ret) {
		ctl_report_error(ctl, session, ret);	/* an output failure names the directory */
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Tracing started for session %s.", session);
	ctl_obj_session_state(session, true);
	return CTL_EXIT_OK;
}

int cmd_start(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	int all = 0;
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "start every session", NULL },
		CTL_UTIL_GLOB_OPTION(CTL_OPT_VALUE + 0),
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_sessions_cmd(ctx, argc, argv, options, &all, true, start, NULL);
}
