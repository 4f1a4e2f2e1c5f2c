// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rotate.c - lttctl rotate: archive a session's current trace chunk.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

static int rotate(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session, void *arg)
{
	char archive[LTT_PATH_MAX];
	int ret;

	ret = ltt_ctl_rotate_session(ctl, session, archive, sizeof(archive));
	if (ret) {
		ctl_report_error(ctl, session, ret);
		return CTL_EXIT_FAILURE;
	}
	if (ctx->quiet)
		ctl_out_text("%s\n", archive);	/* the path alone: for scripts */
	else
		ctl_out_text("Trace chunk archive for session %s is now readable at %s\n", session,
			     archive);
	ctl_out_open("rotation");
	ctl_out_str("session_name", session);
	ctl_out_str("state", "COMPLETED");
	if (archive[0] == '/') {	/* else on the relay's host */
		ctl_out_open("location");
		ctl_out_open("local");
		ctl_out_str("absolute_path", archive);
		ctl_out_close();
		ctl_out_close();
	}
	ctl_out_close();
	return CTL_EXIT_OK;
}

int cmd_rotate(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	int no_wait = 0;	/* taken: the archive is complete when the call returns */
	struct poptOption options[] = {
		{ "no-wait", 'n', POPT_ARG_NONE, &no_wait, 0,
		  "LTTng's return before the archive is complete: taken, and lttctl returns "
		  "once it is (one request to the daemon)", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_session_cmd(ctx, argc, argv, options, rotate, NULL);
}
