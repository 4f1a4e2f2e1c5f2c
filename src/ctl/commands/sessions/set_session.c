// SPDX-License-Identifier: LGPL-2.1-only
/*
 * set_session.c - lttctl set-session: change the current session.
 */
#include <stdlib.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

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

static int run(const struct ctl_ctx *ctx, const char **args, int nr)
{
	int ret;

	if (!nr)
		return ctl_util_usage_error(ctx, "a session name is needed");
	ret = ctl_util_check_session_ref(args[0]);
	return ret ? ret : set_session(ctx, args[0]);
}

int cmd_set_session(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return ctl_util_run_args(ctx, argc, argv, 1, run);
}
