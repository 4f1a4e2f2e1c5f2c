// SPDX-License-Identifier: LGPL-2.1-only
/*
 * disable_channel.c - lttctl disable-channel: stop recording into channels.
 *
 * Every channel of the list must exist and be enabled before any is
 * disabled.
 */
#include <stdlib.h>

#include "common/base/names.h"
#include "ctl/ctl.h"

enum {
	VAL_SESSION,
	NR_VALS,
};

struct disable_args {
	char *values[NR_VALS];
	int kernel, user;
};

/*
 * Is every channel of @names there and enabled?  Prints the first that is
 * not, with the daemon's reason when it has one (a domain it does not
 * serve): it is asked for that one, which changes nothing.
 */
static int check_channels(struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			  enum ltt_domain domain, char **names, size_t count)
{
	const struct ltt_channel_info *ch;
	size_t i;
	int code;

	for (i = 0; i < count; i++) {
		ch = ctl_util_find_channel(d, domain, names[i]);
		if (ch && ch->enabled)
			continue;
		code = ltt_ctl_disable_channel(ctl, d->info.name, domain, names[i]);
		if (!code)	/* enabled since we looked: disabled now, as asked */
			code = ch ? LTT_ERR_CHANNEL_DISABLED : LTT_ERR_CHANNEL_NOT_FOUND;
		ctl_out_error(code, "channel '%s' of session '%s': %s", names[i], d->info.name,
			     ltt_strerror(code));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

static int disable_channels(const struct ctl_ctx *ctx, enum ltt_domain domain,
			    const char *session, char **names, size_t count)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	size_t i;
	int ret;

	ret = ctl_util_connect(ctx, false, &ctl);
	if (!ret)
		ret = ctl_util_get_session(ctl, session, &d);
	if (!ret)
		ret = check_channels(ctl, d, domain, names, count);
	ctl_out_open("channels");	/* those disabled */
	for (i = 0; i < count && !ret; i++) {
		ret = ltt_ctl_disable_channel(ctl, session, domain, names[i]);
		if (ret) {
			ctl_out_error(ret, "channel '%s' of session '%s': %s", names[i], session,
				     ltt_strerror(ret));
			ret = CTL_EXIT_FAILURE;
			break;
		}
		ctl_out_info("Channel %s disabled for session %s.", names[i], session);
		ctl_obj_channel_open(&d->info, domain, &ctl_util_find_channel(d, domain, names[i])->attr,
				     false,
				     0, 0);
		ctl_out_bool("success", true);
		ctl_out_close();
	}
	ctl_out_close();
	free(d);
	ltt_ctl_disconnect(ctl);
	return ret;
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct disable_args *a = arg;
	struct ctl_channel_target t;
	int ret;

	ret = ctl_util_channel_target(ctx, pc, a->kernel, a->user, a->values[VAL_SESSION],
				      ltt_channel_name_valid, NULL, NULL, NULL, &t);
	if (!ret)
		ret = disable_channels(ctx, t.domain, t.session, t.names, t.count);
	free(t.names);
	return ret;
}

int cmd_disable_channel(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct disable_args a = { 0 };
	struct poptOption options[] = {
		{ "kernel", 'k', POPT_ARG_NONE, &a.kernel, 0, "a kernel channel", NULL },
		{ "userspace", 'u', POPT_ARG_NONE, &a.user, 0, "a user space channel", NULL },
		{ "session", 's', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SESSION,
		  "the session (default: the current one)", "SESSION" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, run, &a);
}
