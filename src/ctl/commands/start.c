// SPDX-License-Identifier: LGPL-2.1-only
/*
 * start.c - lttctl start: start tracing in a session.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"

int cmd_start(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session;
	poptContext pc;
	int ret;
	struct poptOption options[] = {
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
	if (ret)
		goto end;
	ret = ltt_ctl_start_session(ctl, session);
	if (ret) {
		/* an output failure names the directory */
		if (!ctl_report_err_output(ctl, session, ret))
			ctl_out_error(ret, "session '%s': %s", session, ltt_strerror(ret));
		ret = CTL_EXIT_FAILURE;
		goto end;
	}
	ctl_out_info("Tracing started for session %s.", session);
	ctl_obj_session_name(session);
end:
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}
