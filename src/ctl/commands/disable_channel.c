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
	struct ctl_channel_opts opts;	/* first: ctl_util_channel_run()'s */
	char *values[NR_VALS];
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

/* Check every channel of @t, then disable them one by one. */
static int disable_channels(const struct ctl_ctx *ctx, void *arg,
			    const struct ctl_channel_target *t)
{
	enum ltt_domain domain = t->domain;
	const char *session = t->session;
	char **names = t->names;
	size_t count = t->count;
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	size_t i;
	int ret;

	(void)arg;	/* disable-channel has no option of its own */
	ret = ctl_util_connect(ctx, false, &ctl);
	if (!ret)
		ret = ctl_util_get_session(ctl, session, &d);
	if (!ret)
		ret = check_channels(ctl, d, domain, names, count);
	ctl_out_open("channels");	/* those disabled */
	for (i = 0; i < count && !ret; i++) {
		ret = ctl_util_channel_done(ltt_ctl_disable_channel(ctl, session, domain, names[i]),
					    session, d, domain,
					    &ctl_util_find_channel(d, domain, names[i])->attr, false);
	}
	ctl_out_close();
	free(d);
	ltt_ctl_disconnect(ctl);
	return ret;
}

static const struct ctl_channel_cmd disable_cmd = {
	.valid = ltt_channel_name_valid,
	.work = disable_channels,
};

int cmd_disable_channel(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct disable_args a = { .opts.cmd = &disable_cmd };
	struct poptOption options[] = {
		CTL_UTIL_CHANNEL_OPTIONS(a.opts, VAL_SESSION),
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	a.opts.session = &a.values[VAL_SESSION];
	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, ctl_util_channel_run,
			    &a);
}
