// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rotate.c - lttctl rotate: archive a session's current trace chunk.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"

int cmd_rotate(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX], archive[LTT_PATH_MAX];
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
	ret = ltt_ctl_rotate_session(ctl, session, archive, sizeof(archive));
	if (ret) {
		if (!ctl_report_err_output(ctl, session, ret))
			ctl_out_error(ret, "session '%s': %s", session, ltt_strerror(ret));
		ret = CTL_EXIT_FAILURE;
		goto end;
	}
	if (ctx->quiet)
		ctl_out_text("%s\n", archive);	/* the path alone: for scripts */
	else
		ctl_out_text("Trace chunk archive for session %s is now readable at %s\n", session,
			     archive);
	ctl_out_open("session");
	ctl_out_str("name", session);
	ctl_out_open("rotation");
	ctl_out_str("archive", archive);
	ctl_out_close();
	ctl_out_close();
end:
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}
