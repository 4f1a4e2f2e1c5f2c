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
	struct poptOption options[] = {
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret && nr) {
		ret = help_command(ctx, args[0]);
	} else if (!ret) {
		ctl_util_print_usage(stdout, NULL);
		putchar('\n');
		ctl_cmd_print_list(stdout);
		puts("'lttctl --help' also lists the global options.");
	}
	poptFreeContext(pc);
	return ret;
}
