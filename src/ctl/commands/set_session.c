// SPDX-License-Identifier: LGPL-2.1-only
/*
 * set_session.c - lttctl set-session: change the current session.
 */
#include <stdlib.h>

#include "ctl/ctl.h"

/* Make @session current once the daemon has shown that it exists. */
static int set_session(const struct ctl_ctx *ctx, const char *session)
{
	struct ltt_session_detail *detail;
	int ret = ctl_util_fetch_session(ctx, session, &detail);

	if (ret)
		return ret;
	free(detail);
	ret = ctl_rc_write(session);
	if (ret) {
		ctl_util_rc_err(ret);
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Session set to %s.", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

int cmd_set_session(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	const char **args;
	poptContext pc;
	int ret, nr;

	ret = ctl_util_parse_args(ctx, argc, argv, 1, &pc, &args, &nr);
	if (ret != CTL_GO_ON)
		return ret;
	if (!nr)
		ret = ctl_util_usage_error(ctx, "a session name is needed");
	else
		ret = ctl_util_check_session_ref(args[0]);
	if (!ret)
		ret = set_session(ctx, args[0]);
	poptFreeContext(pc);
	return ret;
}
