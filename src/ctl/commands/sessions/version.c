// SPDX-License-Identifier: LGPL-2.1-only
/*
 * version.c - lttctl version: lttctl's version, and the daemon's when one
 * is reachable.
 */
#include "config.h"

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

/* The daemon's version; none running is not an error here. */
static int print_daemon_version(const struct ctl_ctx *ctx)
{
	char version[128], rundir[LTT_PATH_MAX];
	struct ltt_ctl *ctl;
	int ret;

	ret = ltt_ctl_connect(ctx->rundir, &ctl);
	if (ret == -LTT_ERR_SESSIOND_NOT_RUNNING) {
		ctl_out_text("No session daemon is running (run directory %s).\n",
		       ctl_util_rundir(ctx, rundir, sizeof(rundir)));
		return CTL_EXIT_OK;
	}
	if (ret) {
		ctl_out_error(ret, "session daemon (run directory %s): %s",
			     ctl_util_rundir(ctx, rundir, sizeof(rundir)), ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ret = ltt_ctl_daemon_version(ctl, version, sizeof(version));
	if (ret)
		ctl_out_error(ret, "session daemon (run directory %s): %s", ltt_ctl_rundir(ctl),
			     ltt_strerror(ret));
	else
		ctl_out_text("ltt-sessiond %s (run directory %s)\n", version, ltt_ctl_rundir(ctl));
	ltt_ctl_disconnect(ctl);
	return ret ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

static int run(const struct ctl_ctx *ctx, const char **args, int nr)
{
	(void)args;
	(void)nr;	/* none: ctl_util_run_args() allowed 0 */
	ctl_obj_version_text(ctx, PACKAGE_VERSION, false);
	ctl_obj_version(PACKAGE_VERSION, ctx->lttng_name != NULL);
	return print_daemon_version(ctx);
}

int cmd_version(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return ctl_util_run_args(ctx, argc, argv, 0, run);
}
