// SPDX-License-Identifier: LGPL-2.1-only
/*
 * status.c - lttctl status: the current session in full.
 */
#include "ctl/ctl.h"

int cmd_status(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session, **args;
	poptContext pc;
	int ret, nr;

	/* No NAME: the current session is the point of this command. */
	ret = ctl_util_parse_args(ctx, argc, argv, 0, &pc, &args, &nr);
	if (ret != CTL_GO_ON)
		return ret;
	ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
	if (!ret)
		ret = cmd_list_show_session(ctl, session, 0, NULL);
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}
