// SPDX-License-Identifier: LGPL-2.1-only
/*
 * disable_rotation.c - lttctl disable-rotation: remove a session's timer
 * or size rotation schedule.
 */
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_SESSION, NR_VALUES };

/* disable-rotation's arguments. */
struct disable_args {
	char *values[NR_VALUES];
	int timer, size;		/* --timer, --size */
};

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct disable_args *a = arg;
	int timer = a->timer, size = a->size;
	char current[LTT_NAME_MAX];
	const char *session, **args;
	int ret;

	if (ctl_util_args(pc, &args))
		return ctl_util_usage_error(ctx, "unexpected argument '%s'", args[0]);
	if (!timer && !size)
		return ctl_util_usage_error(ctx, "give --timer, --size, or both");
	ret = ctl_util_rotation_schedule(ctx, a->values[VAL_SESSION], false, timer, size, current,
					 sizeof(current), &session);
	if (ret)
		return ret;
	ctl_out_info("Disabled the %s rotation of session %s.",
		      timer && size ? "timer and size" : timer ? "timer" : "size", session);
	return CTL_EXIT_OK;
}

int cmd_disable_rotation(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct disable_args a = { .values = { NULL } };
	struct poptOption options[] = {
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "timer", 0, POPT_ARG_NONE, &a.timer, 0, "remove the timer schedule", NULL },
		{ "size", 0, POPT_ARG_NONE, &a.size, 0, "remove the size schedule", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALUES, run, &a);
}
