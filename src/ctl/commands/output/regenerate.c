// SPDX-License-Identifier: LGPL-2.1-only
/*
 * regenerate.c - lttctl regenerate metadata | statedump: write a
 * session's metadata (or a state dump) again; and "metadata regenerate",
 * LTTng's older spelling of "regenerate metadata".
 */
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_SESSION, NR_VALUES };

/* Regenerate @what of the session of -s in @values (default: the current one). */
static int regenerate(const struct ctl_ctx *ctx, char **values, enum ltt_regenerate_what what)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session;
	int ret;

	ret = ctl_util_session_connect(ctx, values[VAL_SESSION], current, sizeof(current),
				       &session, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_regenerate(ctl, session, what);
	ltt_ctl_disconnect(ctl);
	if (ret)
		return ctl_util_object_error(ret, "session", session);
	ctl_out_info("%s regenerated for session %s.",
		     what == LTT_REGENERATE_METADATA ? "Metadata" : "State dump", session);
	if (!strcmp(ctx->cmd->name, "metadata")) {	/* LTTng's older command */
		ctl_out_open("metadata_action");
		ctl_out_str("name", "regenerate");
	} else {
		ctl_out_open("regenerate_action");
		ctl_out_str("name", what == LTT_REGENERATE_METADATA ? "metadata" : "statedump");
	}
	ctl_out_close();
	return CTL_EXIT_OK;
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	enum ltt_regenerate_what what;
	const char **args;
	int nr;

	nr = ctl_util_args(pc, &args);
	if (nr != 1)
		return ctl_util_usage_error(ctx, "give what to regenerate: metadata or statedump");
	if (!strcmp(args[0], "metadata"))
		what = LTT_REGENERATE_METADATA;
	else if (!strcmp(args[0], "statedump"))
		what = LTT_REGENERATE_STATEDUMP;
	else
		return ctl_util_usage_error(ctx, "'%s' can't be regenerated: give metadata or statedump",
					    args[0]);
	return regenerate(ctx, arg, what);
}

/* "metadata regenerate": the one action LTTng's deprecated command has. */
static int run_metadata(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const char **args;
	int nr;

	nr = ctl_util_args(pc, &args);
	if (nr != 1 || strcmp(args[0], "regenerate"))
		return ctl_util_usage_error(ctx, "'metadata' takes one action, regenerate: "
					    "'lttctl regenerate metadata' is its newer spelling");
	ctl_out_warn(LTT_ERR_DEPRECATED_SPELLING, "'metadata regenerate' is 'regenerate metadata': %s",
		     ltt_strerror(LTT_ERR_DEPRECATED_SPELLING));
	return regenerate(ctx, arg, LTT_REGENERATE_METADATA);
}

/* The options both commands take. */
#define SESSION_OPTIONS \
	CTL_UTIL_SESSION_OPTION(VAL_SESSION), \
	CTL_UTIL_HELP_OPTION, \
	POPT_TABLEEND

int cmd_regenerate(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALUES] = { 0 };
	struct poptOption options[] = { SESSION_OPTIONS };

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALUES, run, values);
}

int cmd_metadata(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALUES] = { 0 };
	struct poptOption options[] = { SESSION_OPTIONS };

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALUES, run_metadata, values);
}
