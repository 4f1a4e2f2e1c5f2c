// SPDX-License-Identifier: LGPL-2.1-only
/*
 * clear.c - lttctl clear: discard what sessions recorded so far.
 */
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

static int clear_one(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		     void *arg)
{
	int ret = ltt_ctl_clear_session(ctl, session);

	if (ret == -LTT_ERR_NOT_SUPPORTED) {
		ctl_out_error(ret, "session '%s': clearing is not supported for it (a session daemon without trace chunks, or an older one for a snapshot session)",
			      session);
		return CTL_EXIT_FAILURE;
	}
	if (ret)
		return ctl_util_object_error(ret, "session", session);
	ctl_out_info("Session %s cleared.", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

int cmd_clear(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	int all = 0;
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "clear every session", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	/* MI: the sessions in a <sessions>, one or all, as LTTng's */
	return ctl_util_sessions_cmd(ctx, argc, argv, options, &all, true, clear_one, NULL);
}
