// SPDX-License-Identifier: LGPL-2.1-only
/*
 * start.c - lttctl start: start tracing in a session.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"

static int start(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session, void *arg)
{
	int ret;

	ret = ltt_ctl_start_session(ctl, session);
	if (ret) {
		ctl_report_error(ctl, session, ret);	/* an output failure names the directory */
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Tracing started for session %s.", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

int cmd_start(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct poptOption options[] = {
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_session_cmd(ctx, argc, argv, options, start, NULL);
}
