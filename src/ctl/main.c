// SPDX-License-Identifier: LGPL-2.1-only
/*
 * main.c - lttctl: global options, then one command from the table.
 *
 * The global options stop at the first word that is not an option: that
 * word names the command, and the command parses the rest itself.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "ctl/ctl.h"

enum {
	OPT_HELP = 1,
	OPT_VERSION,
	OPT_VERBOSE,
	OPT_QUIET,
	OPT_NO_SESSIOND,
	OPT_RUNDIR,
	OPT_TIMEOUT,
};

static const struct poptOption global_options[] = {
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help and the commands", NULL },
	{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION, "show the version of lttctl", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE, "more diagnostics (repeatable)", NULL },
	{ "quiet", 'q', POPT_ARG_NONE, NULL, OPT_QUIET, "no informational output, errors only",
	  NULL },
	{ "no-sessiond", 'n', POPT_ARG_NONE, NULL, OPT_NO_SESSIOND,
	  "never start a session daemon", NULL },
	{ "rundir", 0, POPT_ARG_STRING, NULL, OPT_RUNDIR,
	  "talk to the session daemon of run directory DIR (same as LTT_RUNDIR)", "DIR" },
	{ "timeout", 0, POPT_ARG_STRING, NULL, OPT_TIMEOUT,
	  "give up on a session daemon that has not answered a request within SEC seconds "
	  "(default 60, 0: never; same as LTT_CTL_TIMEOUT)", "SEC" },
	POPT_TABLEEND
};

static void print_global_help(void)
{
	ctl_util_print_usage(stdout, NULL);
	fputs("\nOptions:\n", stdout);
	ctl_util_print_options(stdout, global_options);
	fputc('\n', stdout);
	ctl_cmd_print_list(stdout);
}

/* --rundir DIR, made absolute: the daemon we may start runs elsewhere. */
static int set_rundir(struct ctl_ctx *ctx, const char *dir, char *buf, size_t len)
{
	if (ctl_util_abs_path(dir, buf, len))
		return ctl_util_usage_error(ctx, "invalid run directory '%s'", dir);
	ctx->rundir = buf;
	return CTL_EXIT_OK;
}

/*
 * Parse the global options into @ctx.  Returns -1 to go on with the
 * command, or the exit status (after --help, --version or a usage error).
 */
static int parse_global(poptContext pc, struct ctl_ctx *ctx, char *rundir, size_t len)
{
	unsigned int timeout_ms;
	char *arg;
	int opt = 0, ret = -1;

	while (ret < 0 && (opt = poptGetNextOpt(pc)) > 0) {
		switch (opt) {
		case OPT_HELP:
			print_global_help();
			ret = CTL_EXIT_OK;
			break;
		case OPT_VERSION:
			printf("lttctl %s\n", PACKAGE_VERSION);
			ret = CTL_EXIT_OK;
			break;
		case OPT_VERBOSE:
			ctx->verbose++;
			break;
		case OPT_QUIET:
			ctx->quiet = true;
			break;
		case OPT_NO_SESSIOND:
			ctx->no_sessiond = true;
			break;
		case OPT_TIMEOUT:
			arg = poptGetOptArg(pc);
			/* The library reads it from the environment, for every call. */
			if (setenv("LTT_CTL_TIMEOUT", arg, 1))
				ret = ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_NOMEM));
			free(arg);
			break;
		case OPT_RUNDIR:
			arg = poptGetOptArg(pc);
			if (set_rundir(ctx, arg, rundir, len))
				ret = CTL_EXIT_USAGE;
			free(arg);
			break;
		}
	}
	if (ret < 0 && opt < -1)
		ret = ctl_util_usage_error(ctx, "%s: %s", poptBadOption(pc, POPT_BADOPTION_NOALIAS),
					   poptStrerror(opt));
	if (ret < 0 && ltt_ctl_timeout_from_env(&timeout_ms))
		ret = ctl_util_usage_error(ctx, "invalid timeout '%s' (--timeout or LTT_CTL_TIMEOUT): "
					   "give seconds from 0 to 86400, e.g. 2.5 (0: never)",
					   getenv("LTT_CTL_TIMEOUT"));
	return ret;
}

int main(int argc, char **argv)
{
	struct ctl_ctx ctx = { 0 };
	char rundir[LTT_PATH_MAX];
	const char **args;
	poptContext pc;
	int nr, ret, level;

	pc = poptGetContext(NULL, argc, (const char **)argv, global_options,
			    POPT_CONTEXT_POSIXMEHARDER);
	if (!pc) {
		ctl_util_err("%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	ret = parse_global(pc, &ctx, rundir, sizeof(rundir));
	if (ret >= 0)
		goto end;
	level = LTT_LOG_WARN + ctx.verbose;
	ltt_log_init("lttctl", level > LTT_LOG_TRACE ? LTT_LOG_TRACE : level);
	nr = ctl_util_args(pc, &args);
	if (!nr) {
		ret = ctl_util_usage_error(&ctx, "no command given; 'lttctl help' lists them");
		goto end;
	}
	ctx.cmd = ctl_cmd_find(args[0]);
	if (!ctx.cmd) {
		ret = ctl_util_usage_error(&ctx, "unknown command '%s'; 'lttctl help' lists them",
					   args[0]);
		goto end;
	}
	ret = ctx.cmd->run(&ctx, nr, args);
end:
	poptFreeContext(pc);
	if (fflush(stdout) && !ret) {
		perror("lttctl: standard output");
		ret = CTL_EXIT_FAILURE;
	}
	return ret;
}
