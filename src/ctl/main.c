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
#include <string.h>
#include <unistd.h>

#include "common/base/daemon.h"
#include "common/base/log.h"
#include "ctl/ctl.h"

enum {
	OPT_HELP = 1,
	OPT_VERSION,
	OPT_VERBOSE,
	OPT_QUIET,
	OPT_NO_SESSIOND,
	OPT_RUNDIR,
	OPT_TIMEOUT,
	OPT_MI,
	OPT_LIST_COMMANDS,
	OPT_LIST_OPTIONS,
	OPT_LIST_SESSIONS,
	OPT_LIST_CHANNELS,
	OPT_LIST_TRIGGERS,
	OPT_GROUP,
	OPT_SESSIOND_PATH,
	OPT_RELAYD_PATH,
};

/*
 * The names a completion script asked for with --list-sessions,
 * --list-channels or --list-triggers: listed once every global option is
 * read (--rundir may come after them).
 */
static struct {
	bool sessions;
	bool channels;
	bool triggers;
	char *session;		/* --list-channels=SESSION, NULL: the current one */
} list_names;

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
	{ "group", 'g', POPT_ARG_STRING, NULL, OPT_GROUP,
	  "the tracing group: of the root daemon lttctl uses or starts (default: tracing; "
	  "same as LTT_SESSIOND_GROUP)", "GROUP" },
	{ "sessiond-path", 0, POPT_ARG_STRING, NULL, OPT_SESSIOND_PATH,
	  "the session daemon program lttctl starts (same as LTT_SESSIOND_PATH)", "PATH" },
	{ "relayd-path", 0, POPT_ARG_STRING, NULL, OPT_RELAYD_PATH,
	  "the relay daemon program lttctl starts for --live (same as LTT_RELAYD_PATH)", "PATH" },
	{ "mi", 'm', POPT_ARG_STRING, NULL, OPT_MI,
	  "machine interface: print one XML document (TYPE: xml) instead of text", "TYPE" },
	{ "list-commands", 0, POPT_ARG_NONE, NULL, OPT_LIST_COMMANDS,
	  "list the commands, one per line (for completion scripts)", NULL },
	{ "list-options", 0, POPT_ARG_NONE, NULL, OPT_LIST_OPTIONS,
	  "list these options, one per line; 'lttctl COMMAND --list-options' lists a "
	  "command's", NULL },
	{ "list-sessions", 0, POPT_ARG_NONE, NULL, OPT_LIST_SESSIONS,
	  "list the names of the sessions, one per line", NULL },
	{ "list-channels", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_LIST_CHANNELS,
	  "list the names of the channels of session NAME (default: the current session), "
	  "one per line", "NAME" },
	{ "list-triggers", 0, POPT_ARG_NONE, NULL, OPT_LIST_TRIGGERS,
	  "list the names of the triggers, one per line", NULL },
	POPT_TABLEEND
};

static void print_global_help(void)
{
	ctl_cmd_help(global_options, NULL);
}

/* --rundir DIR, made absolute: the daemon we may start runs elsewhere. */
static int set_rundir(struct ctl_ctx *ctx, const char *dir, char *buf, size_t len)
{
	if (ctl_util_abs_path(dir, buf, len))
		return ctl_util_usage_error(ctx, "invalid run directory '%s'", dir);
	ctx->rundir = buf;
	return CTL_EXIT_OK;
}

/* Options that stand for an environment variable the library reads. */
static const char *const option_env[] = {
	[OPT_TIMEOUT] = "LTT_CTL_TIMEOUT",
	[OPT_GROUP] = "LTT_SESSIOND_GROUP",
	[OPT_SESSIOND_PATH] = "LTT_SESSIOND_PATH",
	[OPT_RELAYD_PATH] = "LTT_RELAYD_PATH",
};

/*
 * LTTng's LTTNG_SESSIOND_PATH names the daemon program when ltt's own
 * LTT_SESSIOND_PATH (or --sessiond-path) does not: LTTng's tests set it
 * to /bin/true so that no command starts a daemon behind their back.
 * Neither set, and run as lttng (the ltt-lttng-compat package's
 * /usr/bin/lttng, a link to lttctl): the lttng-sessiond beside that link
 * (the installed one when run by a bare name), which serves LTTng's
 * clients too, so that the user's python3-lttng and liblttng-ctl
 * programs find the daemon `lttng create` started.
 * Returns 0, or -1 when out of memory.
 */
static int lttng_sessiond_path(const char *argv0)
{
	const char *lttng = getenv("LTTNG_SESSIOND_PATH"), *ltt = getenv("LTT_SESSIOND_PATH");
	char path[LTT_PATH_MAX];
	const char *slash;

	if (ltt && *ltt)
		return 0;
	if (lttng && *lttng)
		return setenv("LTT_SESSIOND_PATH", lttng, 1);
	if (!argv0 || !ltt_daemon_started_as(1, &argv0, "lttng"))
		return 0;
	slash = strrchr(argv0, '/');
	if (slash)
		snprintf(path, sizeof(path), "%.*s/lttng-sessiond", (int)(slash - argv0), argv0);
	else
		snprintf(path, sizeof(path), "%s/lttng-sessiond", LTT_BINDIR);
	return access(path, X_OK) ? 0 : setenv("LTT_SESSIOND_PATH", path, 1);
}

/*
 * Parse the global options into @ctx.  Returns -1 to go on with the
 * command, or the exit status (after --help, --version or a usage error).
 */
static int parse_global(poptContext pc, struct ctl_ctx *ctx, char *rundir, size_t len)
{
	enum ctl_out_format format;
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
			ctl_obj_version_text(ctx, PACKAGE_VERSION, true);
			ctl_out_begin("version");	/* LTTng's document of version */
			ctl_obj_version(PACKAGE_VERSION, ctx->lttng_name != NULL);
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
		case OPT_GROUP:
		case OPT_SESSIOND_PATH:
		case OPT_RELAYD_PATH:
			arg = poptGetOptArg(pc);
			/* The library reads it from the environment, for every call. */
			if (setenv(option_env[opt], arg, 1))
				ret = ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_NOMEM));
			free(arg);
			break;
		case OPT_MI:
			/* Applied by find_mi() before parsing, unless grouped (-qm xml). */
			arg = poptGetOptArg(pc);
			if (ctl_out_format_parse(arg, &format) || format != ctl_out_format())
				ret = ctl_util_usage_error(ctx, "--mi '%s': give it as a word of its "
							   "own before the command: --mi xml", arg);
			free(arg);
			break;
		case OPT_LIST_COMMANDS:
			ret = ctl_util_names_only("--list-commands");
			if (!ret)
				ctl_cmd_print_names(stdout);
			break;
		case OPT_LIST_OPTIONS:
			ret = ctl_util_names_only("--list-options");
			if (!ret)
				ctl_util_list_options(stdout, global_options);
			break;
		case OPT_LIST_SESSIONS:
			list_names.sessions = true;
			break;
		case OPT_LIST_TRIGGERS:
			list_names.triggers = true;
			break;
		case OPT_LIST_CHANNELS:
			list_names.channels = true;
			free(list_names.session);
			list_names.session = poptGetOptArg(pc);
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

/*
 * --mi TYPE (or -m TYPE) among the global options, before popt parses
 * them: a usage error in any global option is then reported in the
 * chosen format.  Returns CTL_GO_ON, or CTL_EXIT_USAGE after refusing an
 * unknown TYPE (in text: there is no other format to say it in).
 */
static int find_mi(int argc, char **argv, enum ctl_out_format *ret_format)
{
	static const struct ctl_ctx no_command;
	const char *type = NULL;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--mi=", 5))
			type = argv[i] + 5;
		else if ((!strcmp(argv[i], "--mi") || !strcmp(argv[i], "-m")) && i + 1 < argc)
			type = argv[++i];
		else if (!strncmp(argv[i], "-m", 2) && argv[i][2])
			type = argv[i] + 2;
		else if (!strcmp(argv[i], "--rundir") || !strcmp(argv[i], "--timeout"))
			i++;
	}
	if (type && ctl_out_format_parse(type, ret_format))
		return ctl_util_usage_error(&no_command, "--mi '%s': %s", type,
					    ltt_strerror(LTT_ERR_MI_FORMAT));
	return CTL_GO_ON;
}

/* --list-sessions, --list-channels, --list-triggers: alone, without a command. */
static int list_names_of(const struct ctl_ctx *ctx, poptContext pc)
{
	const char *what = list_names.sessions ? "sessions" :
			   list_names.channels ? "channels" : "triggers";
	char option[32];
	const char **args;

	snprintf(option, sizeof(option), "--list-%s", what);
	if (ctl_util_names_only(option))
		return CTL_EXIT_FAILURE;
	if (list_names.sessions + list_names.channels + list_names.triggers > 1)
		return ctl_util_usage_error(ctx, "--list-sessions, --list-channels and "
					    "--list-triggers: give one of them");
	if (ctl_util_args(pc, &args))
		return ctl_util_usage_error(ctx, "%s takes no command ('%s')", option, args[0]);
	if (list_names.sessions)
		return ctl_complete_sessions(ctx);
	if (list_names.triggers)
		return ctl_complete_triggers(ctx);
	return ctl_complete_channels(ctx, list_names.session);
}

int main(int argc, char **argv)
{
	enum ltt_lttng_gap gap;
	enum ctl_out_format format = CTL_OUT_TEXT;
	struct ctl_ctx ctx = { 0 };
	char rundir[LTT_PATH_MAX];
	const char **args;
	poptContext pc;
	int nr, ret, level;

	ret = find_mi(argc, argv, &format);
	if (ret != CTL_GO_ON)
		return ret;
	ctl_out_init(format, false);
	if (argc > 0 && ltt_daemon_started_as(1, (const char **)argv, "lttng"))
		ctx.lttng_name = argv[0];
	pc = poptGetContext(NULL, argc, (const char **)argv, global_options,
			    POPT_CONTEXT_POSIXMEHARDER);
	if (!pc) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return ctl_out_end(CTL_EXIT_FAILURE);
	}
	ret = lttng_sessiond_path(argv[0]) ? ctl_util_usage_error(&ctx, "%s", ltt_strerror(LTT_ERR_NOMEM)) :
				      parse_global(pc, &ctx, rundir, sizeof(rundir));
	ctl_out_init(format, ctx.quiet);
	if (ret >= 0)
		goto end;
	level = LTT_LOG_WARN + ctx.verbose;
	ltt_log_init("lttctl", level > LTT_LOG_TRACE ? LTT_LOG_TRACE : level);
	if (list_names.sessions || list_names.channels || list_names.triggers) {
		ret = list_names_of(&ctx, pc);
		goto end;
	}
	nr = ctl_util_args(pc, &args);
	if (!nr) {
		ret = ctl_util_usage_error(&ctx, "no command given; 'lttctl help' lists them");
		goto end;
	}
	ctx.cmd = ctl_cmd_find(args[0]);
	ctl_out_begin(ctx.cmd ? ctx.cmd->name : NULL);
	if (!ctx.cmd && ctl_cmd_lttng_gap(args[0], &gap)) {
		ret = ctl_util_refuse_gap(gap);
		goto end;
	}
	if (!ctx.cmd) {
		ret = ctl_util_usage_error(&ctx, "unknown command '%s'; 'lttctl help' lists them",
					   args[0]);
		goto end;
	}
	ret = ctx.cmd->run(&ctx, nr, args);
end:
	poptFreeContext(pc);
	free(list_names.session);
	return ctl_out_end(ret);
}
