// SPDX-License-Identifier: LGPL-2.1-only
/*
 * status.c - lttctl status: the current session in full, or the parts
 * list NAME's options choose (LTTng 2.15's status takes them too).
 */
#include "ctl/ctl.h"
#include "ctl/util-event.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

struct status_args {
	struct ctl_domain_opts d;	/* -k, -u, -p, -j, -l */
	char *values[2];		/* -c, --map-channel */
	int no_truncate;		/* LTTng's: changes nothing */
};

static int status(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct status_args *a = arg;
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session, **args;
	int ret, nr;

	/* No NAME: the current session is the point of this command. */
	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 0);
	if (!ret)
		ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
	if (!ret)
		ret = a->values[1] ? ctl_maps_list_one(ctl, session, a->values[1]) :
			cmd_list_show_session(ctl, session, cmd_list_domains(&a->d), a->values[0],
					      false);
	ltt_ctl_disconnect(ctl);
	return ret;
}

int cmd_status(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct status_args a = { 0 };
	struct poptOption options[] = {
		CMD_LIST_SESSION_OPTIONS(&a.d, CTL_OPT_VALUE + 0, &a.no_truncate, CTL_OPT_VALUE + 1),
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, 2, status, &a);
}
