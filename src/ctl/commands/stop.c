// SPDX-License-Identifier: LGPL-2.1-only
/*
 * stop.c - lttctl stop: stop tracing in a session.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"

/* Scheduled rotations that fail: what they should have archived is not yet. */
static void report_rotation(struct ltt_ctl *ctl, const char *session)
{
	struct ltt_rotation_info ri;

	if (ltt_ctl_rotation_info(ctl, session, &ri) || !ri.error)
		return;	/* an older daemon, or nothing failing */
	ctl_out_warn(ri.error,
		     "session '%s': its scheduled rotations fail ('lttctl list %s' says since when): %s The chunks not archived yet stay in its output directory; the next rotation that succeeds, or destroy, archives them.",
		     session, session, ltt_strerror(ri.error));
}

int cmd_stop(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session;
	poptContext pc;
	int ret, no_wait = 0;
	struct poptOption options[] = {
		{ "no-wait", 0, POPT_ARG_NONE, &no_wait, 0,
		  "do not wait for the recorded data to be on disk (or at the relay)", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
	if (ret)
		goto end;
	ret = ltt_ctl_stop_session(ctl, session, !no_wait);
	if (ret) {
		ctl_out_error(ret, "session '%s': %s", session, ltt_strerror(ret));
		ret = CTL_EXIT_FAILURE;
		goto end;
	}
	/* Streamed: once the relay has everything, as stop promises. */
	if (!no_wait)
		ret = ctl_report_wait_data(ctx, ctl, session, false);
	ctl_out_info("Tracing stopped for session %s.", session);
	ctl_obj_session_name(session);
	ctl_report_lost(ctl, session);
	report_rotation(ctl, session);
end:
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}
