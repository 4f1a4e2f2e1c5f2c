// SPDX-License-Identifier: LGPL-2.1-only
/*
 * stop.c - lttctl stop: stop tracing in sessions.
 */
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

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

static int stop(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session, void *arg)
{
	bool wait = !*(int *)arg;
	int ret;

	ret = ltt_ctl_stop_session(ctl, session, wait);
	if (ret)
		return ctl_util_object_error(ret, "session", session);
	/* Streamed: once the relay has everything, as stop promises. */
	if (wait)
		ret = ctl_report_wait_data(ctx, ctl, session, false);
	ctl_out_info("Tracing stopped for session %s.", session);
	ctl_obj_session_state(session, false);
	ctl_report_lost(ctl, session);
	report_rotation(ctl, session);
	return ret;
}

int cmd_stop(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return ctl_util_sessions_wait_cmd(ctx, argc, argv, "stop every session", stop);
}
