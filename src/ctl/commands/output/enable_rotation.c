// SPDX-License-Identifier: LGPL-2.1-only
/*
 * enable_rotation.c - lttctl enable-rotation: rotate a session on a timer
 * or each time it wrote a given size.
 */
#include <stdlib.h>

#include "common/base/size.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_SESSION, VAL_TIMER, VAL_SIZE, NR_VALUES };

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	char **values = arg;
	char current[LTT_NAME_MAX], buf[32];
	uint64_t timer_us = 0, size = 0;
	const char *session, **args;
	int ret;

	if (ctl_util_args(pc, &args))
		return ctl_util_usage_error(ctx, "unexpected argument '%s'", args[0]);
	if (!values[VAL_TIMER] && !values[VAL_SIZE])
		return ctl_util_usage_error(ctx, "give --timer US or --size SIZE");
	if (values[VAL_TIMER] && (ctl_util_parse_us(values[VAL_TIMER], UINT64_MAX / 1000,
						    &timer_us) || !timer_us))
		return ctl_util_usage_error(ctx, "--timer '%s': %s", values[VAL_TIMER],
					    ltt_strerror(LTT_ERR_ROTATION_VALUE));
	if (values[VAL_SIZE] && (ltt_size_parse(values[VAL_SIZE], &size) || !size))
		return ctl_util_usage_error(ctx, "--size '%s': %s", values[VAL_SIZE],
					    ltt_strerror(LTT_ERR_ROTATION_VALUE));
	ret = ctl_util_rotation_schedule(ctx, values[VAL_SESSION], true, timer_us, size, current,
					 sizeof(current), &session);
	if (ret)
		return ret;
	if (timer_us)
		ctl_out_info("Enabled rotation of session %s every %llu us.", session,
			      (unsigned long long)timer_us);
	if (size) {
		ltt_size_format(size, buf, sizeof(buf));
		ctl_out_info("Enabled rotation of session %s each time %s are written.",
			      session, buf);
	}
	return CTL_EXIT_OK;
}

int cmd_enable_rotation(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALUES] = { 0 };
	struct poptOption options[] = {
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "timer", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TIMER,
		  "rotate every US microseconds (above 0; under 50 ms: once each 50 ms), or a value with a unit: "
		  "us, ms, s, m, h (\"10s\")", "US" },
		{ "size", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SIZE,
		  "rotate each time SIZE bytes were written (above 0; k, M, G suffixes)",
		  "SIZE" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALUES, run, values);
}
