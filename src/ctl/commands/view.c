// SPDX-License-Identifier: LGPL-2.1-only
/*
 * view.c - lttctl view: read a session's trace, or the trace directory
 * of -t, with babeltrace2 (or another reader given with -e).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/ctl.h"

#define MAX_READER_ARGS 32

enum { VAL_READER, VAL_TRACE_PATH, NR_VALS };

/* Run @reader (split on spaces) with @path as its last argument. */
static int run_reader(const char *reader, const char *path)
{
	char *copy = strdup(reader), *save = NULL, *word;
	char *argv[MAX_READER_ARGS + 2];
	int argc = 0;

	if (!copy) {
		ctl_out_error(LTT_ERR_NOMEM, "out of memory");
		return CTL_EXIT_FAILURE;
	}
	for (word = strtok_r(copy, " \t", &save); word && argc < MAX_READER_ARGS;
	     word = strtok_r(NULL, " \t", &save))
		argv[argc++] = word;
	if (!argc) {
		free(copy);
		ctl_out_error(LTT_ERR_USAGE, "the reader command is empty");
		return CTL_EXIT_USAGE;
	}
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	fflush(stdout);
	execvp(argv[0], argv);
	ctl_out_error(LTT_ERR_UNKNOWN, "can't run the trace reader '%s': %s%s", argv[0],
		      strerror(errno),
		      errno == ENOENT ? " (install babeltrace2, or give another reader with -e)" : "");
	free(copy);
	return CTL_EXIT_FAILURE;
}

/* view -t DIR: the reader on DIR, no session asked (LTTng's --trace-path). */
static int view_path(const struct ctl_ctx *ctx, poptContext pc, const char *reader,
		     const char *dir)
{
	const char **args;

	if (ctl_util_args(pc, &args))
		return ctl_util_usage_error(ctx, "give a session NAME or -t DIR, not both");
	if (access(dir, F_OK)) {
		ctl_out_error(LTT_ERR_UNKNOWN, "trace directory '%s': %s: give the directory of a "
			      "trace (a session's output)", dir, strerror(errno));
		return CTL_EXIT_FAILURE;
	}
	return run_reader(reader, dir);
}

int cmd_view(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char current[LTT_NAME_MAX], *values[NR_VALS] = { NULL };
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	const char *session, *reader;
	poptContext pc;
	int ret;
	struct poptOption options[] = {
		{ "viewer", 'e', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_READER,
		  "the trace reader to run, with its options (default: babeltrace2)", "CMD" },
		{ "trace-path", 't', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TRACE_PATH,
		  "read the trace in DIR instead of a session's", "DIR" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, values, &pc);
	if (ret != CTL_GO_ON)
		goto out;
	/* The reader writes the terminal's text: nothing a document could hold. */
	if (ctl_out_format() != CTL_OUT_TEXT) {
		ctl_out_error(LTT_ERR_MI_UNSUPPORTED, "view: %s",
			      ltt_strerror(LTT_ERR_MI_UNSUPPORTED));
		ret = CTL_EXIT_FAILURE;
		goto end;
	}
	reader = values[VAL_READER] ? values[VAL_READER] : "babeltrace2";
	if (values[VAL_TRACE_PATH]) {
		ret = view_path(ctx, pc, reader, values[VAL_TRACE_PATH]);
		goto end;
	}
	ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
	if (ret)
		goto end;
	ret = ctl_util_get_session(ctl, session, &d);
	if (ret)
		goto end;
	ltt_ctl_disconnect(ctl);
	ctl = NULL;
	if (d->info.output_type != LTT_OUTPUT_LOCAL) {
		ctl_out_error(LTT_ERR_UNKNOWN,
			      "session '%s' has no local trace to view (its output is %s)", session,
			      d->info.output_type == LTT_OUTPUT_NONE ? "none" : d->info.output);
		ret = CTL_EXIT_FAILURE;
		goto end;
	}
	if (access(d->info.output, F_OK)) {
		ctl_out_error(LTT_ERR_UNKNOWN,
			      "session '%s' has no trace yet in %s: start it and run a traced program first",
			      session, d->info.output);
		ret = CTL_EXIT_FAILURE;
		goto end;
	}
	ret = run_reader(reader, d->info.output);
end:
	free(d);
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
out:
	ctl_util_free_values(values, NR_VALS);
	return ret;
}
