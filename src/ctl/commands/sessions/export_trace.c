// SPDX-License-Identifier: LGPL-2.1-only
/*
 * export_trace.c - lttctl export-trace: traces into SQL (doc/sql.md).
 * The trace directories given, or the local trace of a session (-s, or
 * the current one), handed to ltt-export (src/export), which lttctl runs
 * in its place: lttctl itself links no trace reader, so its start-up
 * does not pay for one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

#define MAX_DIRS 256

enum { VAL_SESSION, VAL_TO, VAL_FOLLOW, NR_VALS };

struct export_args {
	char *values[NR_VALS];
	int progress;
	int quiet;
};

/* The program: $LTT_EXPORT_PATH (tests, an uninstalled build), else the installed one. */
static const char *export_path(void)
{
	const char *p = getenv("LTT_EXPORT_PATH");

	return p && *p ? p : LTT_LIBEXECDIR "/ltt-export";
}

static int exec_export(const struct export_args *a, const char **dirs, int nr)
{
	const char *argv[MAX_DIRS + 8];
	char to[LTT_PATH_MAX + 16], follow[64];
	int argc = 0, i;

#ifndef HAVE_EXPORT
	(void)argv, (void)to, (void)follow, (void)argc, (void)i, (void)dirs, (void)nr, (void)a;
	ctl_out_error(LTT_ERR_NOT_SUPPORTED, "export-trace: this lttctl was built without ltt-export "
		      "(%s): install libbabeltrace2-dev and libsqlite3-dev and build ltt again",
		      LTT_EXPORT_WHY);
	return CTL_EXIT_FAILURE;
#else
	snprintf(to, sizeof(to), "--to=%s", a->values[VAL_TO]);
	argv[argc++] = "ltt-export";
	argv[argc++] = to;
	if (a->progress)
		argv[argc++] = "--progress";
	if (a->quiet)
		argv[argc++] = "--quiet";
	if (a->values[VAL_FOLLOW]) {
		snprintf(follow, sizeof(follow), "--follow=%s", a->values[VAL_FOLLOW]);
		argv[argc++] = follow;
	}
	argv[argc++] = "--";
	for (i = 0; i < nr; i++)
		argv[argc++] = dirs[i];
	argv[argc] = NULL;
	fflush(stdout);
	execv(export_path(), (char *const *)argv);
	ctl_out_error(LTT_ERR_UNKNOWN, "export-trace: can't run %s: %s%s", export_path(),
		      strerror(errno), errno == ENOENT ? " (install ltt-export: Debian's package "
		      "of that name, or make install of an ltt built with libbabeltrace2-dev and "
		      "libsqlite3-dev)" : "");
	return CTL_EXIT_FAILURE;
#endif
}

/* --to's URL: sqlite:FILE or clickhouse://...; ltt-export checks the rest. */
static bool known_url(const char *to)
{
	return (!strncmp(to, "sqlite:", 7) && to[7]) || (!strncmp(to, "clickhouse://", 13) && to[13]);
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct export_args *a = arg;
	char dir[LTT_PATH_MAX];
	const char *one[1] = { dir };
	const char **args;
	int nr, ret;

	if (ctl_out_format() != CTL_OUT_TEXT) {
		ctl_out_error(LTT_ERR_MI_UNSUPPORTED, "export-trace: %s",
			      ltt_strerror(LTT_ERR_MI_UNSUPPORTED));
		return CTL_EXIT_FAILURE;
	}
	if (!a->values[VAL_TO] || !known_url(a->values[VAL_TO]))
		return ctl_util_usage_error(ctx, "export-trace: %s%s%s: give where to, "
					    "--to=sqlite:FILE or --to=clickhouse://HOST[:PORT]/DATABASE",
					    a->values[VAL_TO] ? "--to '" : "no --to",
					    a->values[VAL_TO] ? a->values[VAL_TO] : "",
					    a->values[VAL_TO] ? "'" : "");
	if (a->progress && a->quiet)
		return ctl_util_usage_error(ctx, "export-trace: --progress or --quiet, not both");
	if (a->progress && a->values[VAL_FOLLOW])
		return ctl_util_usage_error(ctx, "export-trace: --follow says each round, not a "
					    "progress line: no --progress with it");
	nr = ctl_util_args(pc, &args);
	if (nr > 0 && a->values[VAL_SESSION])
		return ctl_util_usage_error(ctx, "export-trace: a session (-s) or trace directories, "
					    "not both");
	if (nr > MAX_DIRS)
		return ctl_util_usage_error(ctx, "export-trace: at most %d directories at once: give "
					    "the directory above them", MAX_DIRS);
	if (nr > 0)
		return exec_export(a, args, nr);
	ret = ctl_util_local_trace(ctx, a->values[VAL_SESSION], dir, sizeof(dir), NULL, NULL);
	return ret ? ret : exec_export(a, one, 1);
}

int cmd_export_trace(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct export_args a = { { NULL }, 0, 0 };
	struct poptOption options[] = {
		{ "session", 's', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SESSION,
		  "the session whose local trace to export (default: the current one)", "NAME" },
		{ "to", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TO,
		  "where: sqlite:FILE (made if new) or clickhouse://HOST[:PORT]/DATABASE (its HTTP "
		  "port, 8123 by default)", "URL" },
		{ "follow", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_FOLLOW,
		  "export the traces as they grow (a live session's, a relay's output), a round "
		  "every SECONDS, until interrupted", "SECONDS" },
		{ "progress", 0, POPT_ARG_NONE, &a.progress, 0,
		  "show the progress line even when stderr is not a terminal", NULL },
		{ "quiet", 0, POPT_ARG_NONE, &a.quiet, 0,
		  "show neither the progress line nor the summary", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, run, &a);
}
