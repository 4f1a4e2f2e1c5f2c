// SPDX-License-Identifier: LGPL-2.1-only
/*
 * clear.c - lttctl clear: discard what sessions recorded so far.
 */
#include <stdlib.h>

#include "ctl/ctl.h"

static int clear_one(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session)
{
	int ret = ltt_ctl_clear_session(ctl, session);

	if (ret == -LTT_ERR_NOT_SUPPORTED) {
		ctl_out_error(ret, "session '%s': clearing is not supported for it (a snapshot session, or a session daemon without trace chunks)",
			      session);
		return CTL_EXIT_FAILURE;
	}
	if (ret) {
		ctl_out_error(ret, "session '%s': %s", session, ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Session %s cleared.", session);
	ctl_obj_session_name(session);
	return CTL_EXIT_OK;
}

/* Every session this user can see; go on past a failure. */
static int clear_all(const struct ctl_ctx *ctx, struct ltt_ctl *ctl)
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
		ctl_util_qualify_name(&sessions[i]);
		if (clear_one(ctx, ctl, sessions[i].name))
			status = CTL_EXIT_FAILURE;
	}
	free(sessions);
	return status;
}

int cmd_clear(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session, **args;
	poptContext pc;
	int ret, all = 0;
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &all, 0, "clear every session", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	if (!all) {
		ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
		if (!ret)
			ret = clear_one(ctx, ctl, session);
	} else if (ctl_util_args(pc, &args)) {
		ret = ctl_util_usage_error(ctx, "give a session name or -a, not both");
	} else {
		ret = ctl_util_connect(ctx, false, &ctl);
		if (!ret)
			ret = clear_all(ctx, ctl);
	}
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}
