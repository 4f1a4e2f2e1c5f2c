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
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_SESSION,
	NR_VALS,
};

struct disable_args {
	struct ctl_channel_opts opts;	/* first: ctl_util_channel_run()'s */
	char *values[NR_VALS];
};

/*
 * Is every channel of @t there and enabled?  Prints the first that is
 * not, with the daemon's reason when it has one (a domain it does not
 * serve): it is asked for that one, which changes nothing.
 */
static int check_channels(void *arg, struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			  const struct ctl_channel_target *t)
{
	const struct ltt_channel_info *ch;
	size_t i;
	int code;

	(void)arg;	/* disable-channel has no option of its own */
	for (i = 0; i < t->count; i++) {
		ch = ctl_util_find_channel(d, t->domain, t->names[i]);
		if (ch && ch->enabled)
			continue;
		code = ltt_ctl_disable_channel(ctl, d->info.name, t->domain, t->names[i]);
		if (!code)	/* enabled since we looked: disabled now, as asked */
			code = ch ? LTT_ERR_CHANNEL_DISABLED : LTT_ERR_CHANNEL_NOT_FOUND;
		ctl_out_error(code, "channel '%s' of session '%s': %s", t->names[i], d->info.name,
			     ltt_strerror(code));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/* Channel @i of @t disabled. */
static int disable_channel(void *arg, struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			   const struct ctl_channel_target *t, size_t i)
{
	(void)arg;
	return ctl_util_channel_done(ltt_ctl_disable_channel(ctl, t->session, t->domain,
							     t->names[i]),
				     t->session, d, t->domain,
				     &ctl_util_find_channel(d, t->domain, t->names[i])->attr, false);
}

static const struct ctl_channel_cmd disable_cmd = {
	.valid = ltt_channel_name_valid,
	.check = check_channels,
	.send = disable_channel,
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
