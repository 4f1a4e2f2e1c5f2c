// SPDX-License-Identifier: LGPL-2.1-only
/*
 * destroy.c - lttctl destroy: stop sessions and destroy them.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"

/* Stop @session (waiting for its data unless told not to), then destroy it. */
static int destroy_one(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		       bool wait)
{
	int ret;

	ret = ltt_ctl_stop_session(ctl, session, wait);
	if (!ret)
		ctl_util_report_lost(ctl, session);
	/* The trace is cut short where the consumer died: say so, destroy anyway. */
	if (ret == -LTT_ERR_CONSUMERD)
		ctl_out_warn(ret, "session '%s': %s", session, ltt_strerror(ret));
	if (ret == -LTT_ERR_SESSION_NOT_STARTED || ret == -LTT_ERR_CONSUMERD)
		ret = 0;
	/* Streamed: the relay gets everything before the connections close. */
	if (!ret && wait)
		ctl_util_wait_data(ctx, ctl, session, true);
	if (!ret)
		ret = ltt_ctl_destroy_session(ctl, session);
	if (ret) {
		ctl_out_error(ret, "session '%s': %s", session, ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_util_forget_session(session);
	ctl_out_info("Session %s destroyed.", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

/* Destroy every session this user can see; go on past a failure. */
static int destroy_all(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, bool wait)
{
	struct ltt_session_info *sessions;
	int ret, status = CTL_EXIT_OK;
	size_t count, i;

	ret = ltt_ctl_list_sessions(ctl, &sessions, &count);
	if (ret) {
		ctl_out_error(ret, "listing the sessions: %s", ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	if (!count)
		ctl_out_info("No sessions.");
	for (i = 0; i < count; i++) {
		/* Root's view holds other users' sessions, maybe of the same name. */
		ctl_util_qualify_name(&sessions[i]);
		if (destroy_one(ctx, ctl, sessions[i].name, wait))
			status = CTL_EXIT_FAILURE;
	}
	free(sessions);
	return status;
}

int cmd_destroy(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session, **args;
	int ret, all = 0, no_wait = 0;
	poptContext pc;
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "destroy every session", NULL },
		{ "no-wait", 0, POPT_ARG_NONE, &no_wait, 0,
		  "do not wait for the recorded data to be on disk (or at the relay)", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	ctl_out_open("sessions");	/* those destroyed */
	if (!all) {
		ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
		if (!ret)
			ret = destroy_one(ctx, ctl, session, !no_wait);
	} else if (ctl_util_args(pc, &args)) {
		ret = ctl_util_usage_error(ctx, "give a session name or -a, not both");
	} else {
		ret = ctl_util_connect(ctx, false, &ctl);
		if (!ret)
			ret = destroy_all(ctx, ctl, !no_wait);
	}
	ctl_out_close();
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}
