// SPDX-License-Identifier: LGPL-2.1-only
/*
 * destroy.c - lttctl destroy: stop sessions and destroy them.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

/* Stop @session (waiting for its data unless *@arg, --no-wait), then destroy it. */
static int destroy_one(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		       void *arg)
{
	bool wait = !*(const int *)arg;
	int ret;

	ret = ltt_ctl_stop_session(ctl, session, wait);
	/* The trace is cut short by its consumer: say so, destroy anyway. */
	if (ret == -LTT_ERR_CONSUMERD || ret == -LTT_ERR_CONSUMERD_REFUSED ||
	    ret == -LTT_ERR_CONSUMERD_LOST) {
		ctl_out_warn(ret, "session '%s': %s", session, ltt_strerror(ret));
		ret = 0;
	}
	/* what it lost, the events cut short among them: the last chance to say it */
	if (!ret)
		ctl_report_lost(ctl, session);
	if (ret == -LTT_ERR_SESSION_NOT_STARTED)
		ret = 0;
	/* Streamed: the relay gets everything before the connections close. */
	if (!ret && wait)
		ctl_report_wait_data(ctx, ctl, session, true);
	if (!ret)
		ret = ltt_ctl_destroy_session(ctl, session);
	if (ret)
		return ctl_util_object_error(ret, "session", session);
	ctl_util_forget_session(session);
	ctl_out_info("Session %s destroyed.", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

int cmd_destroy(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return ctl_util_sessions_wait_cmd(ctx, argc, argv, "destroy every session", destroy_one);
}
