// SPDX-License-Identifier: LGPL-2.1-only
/*
 * help.c - lttctl help: the command list, or one command's help.
 */
#include "ctl/ctl.h"

/* One command's help is what "lttctl CMD --help" prints. */
static int help_command(const struct ctl_ctx *ctx, const char *name)
{
	struct ctl_ctx cmd_ctx = *ctx;
	const char *argv[] = { name, "--help", NULL };

	cmd_ctx.cmd = ctl_cmd_find(name);
	if (!cmd_ctx.cmd)
		return ctl_util_usage_error(ctx, "unknown command '%s'", name);
	return cmd_ctx.cmd->run(&cmd_ctx, 2, argv);
}

int cmd_help(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	const char **args;
	poptContext pc;
	int ret, nr;

	ret = ctl_util_parse_args(ctx, argc, argv, 1, &pc, &args, &nr);
	if (ret != CTL_GO_ON)
		return ret;
	if (nr) {
		ret = help_command(ctx, args[0]);
	} else {
		ctl_util_help(NULL, NULL, "'lttctl --help' also lists the global options.\n");
		ret = CTL_EXIT_OK;
	}
	poptFreeContext(pc);
	return ret;
}
