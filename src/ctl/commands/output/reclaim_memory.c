// SPDX-License-Identifier: LGPL-2.1-only
/*
 * reclaim-memory.c - lttctl reclaim-memory: give back the memory of the
 * sub-buffers the consumer has read of user-space channels, while the
 * session records (doc/memory.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/size.h"
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum { VAL_SESSION, VAL_OLDER_THAN, NR_VALS };

/* What reclaim-memory was asked. */
struct reclaim_args {
	int user, all;
	uint64_t older_than_us;
	char *values[NR_VALS];
};

/* @channel's (NULL: every discard-mode one's) memory given back, said; CTL_EXIT_*. */
static int reclaim_one(struct ltt_ctl *ctl, const char *session, const char *channel,
		       const struct reclaim_args *a)
{
	uint64_t subbufs, bytes;
	char size[32];
	int ret;

	ret = ltt_ctl_reclaim_memory(ctl, session, channel, a->older_than_us * 1000, &subbufs,
				     &bytes);
	if (ret) {
		ctl_report_error(ctl, session, ret);
		return CTL_EXIT_FAILURE;
	}
	ltt_size_format(bytes, size, sizeof(size));
	ctl_out_text("Session %s, %s: %" PRIu64 " sub-buffers reclaimed, %" PRIu64
		     " bytes (%s) given back\n", session,
		     channel ? channel : "every user space channel", subbufs, bytes, size);
	ctl_out_open("reclaim");
	ctl_out_str("session", session);
	if (channel)
		ctl_out_str("channel", channel);
	ctl_out_u64("subbuffers", subbufs);
	ctl_out_u64("bytes", bytes);
	ctl_out_close();
	return CTL_EXIT_OK;
}

static int reclaim(const struct ctl_ctx *ctx, struct reclaim_args *a, const char **channels,
		   int nr)
{
	char current[LTT_NAME_MAX];
	const char *session;
	struct ltt_ctl *ctl;
	int i, ret;

	if (!a->user)
		return ctl_util_usage_error(ctx, "reclaim-memory gives back user-space buffers' "
					    "memory: give -u/--userspace");
	if (a->all == (nr > 0))
		return ctl_util_usage_error(ctx, "name the channels, or give -a/--all for every "
					    "user space channel of the session");
	if (a->values[VAL_OLDER_THAN] &&
	    ctl_util_parse_us(a->values[VAL_OLDER_THAN], UINT64_MAX / 1000, &a->older_than_us))
		return ctl_util_usage_error(ctx, "invalid --older-than '%s': use microseconds, or "
					    "a value with a unit: us, ms, s, m, h",
					    a->values[VAL_OLDER_THAN]);
	ret = ctl_util_session_connect(ctx, a->values[VAL_SESSION], current, sizeof(current),
				       &session, &ctl);
	if (ret)
		return ret;
	ctl_out_open("reclaims");
	if (a->all)
		ret = reclaim_one(ctl, session, NULL, a);
	for (i = 0; i < nr && !ret; i++)
		ret = reclaim_one(ctl, session, channels[i], a);
	ctl_out_close();
	ltt_ctl_disconnect(ctl);
	return ret;
}

static int reclaim_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const char **args;
	int nr = ctl_util_args(pc, &args);

	return reclaim(ctx, arg, args, nr);
}

int cmd_reclaim_memory(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct reclaim_args a = { 0 };
	struct poptOption options[] = {
		{ "userspace", 'u', POPT_ARG_NONE, &a.user, 0,
		  "user space channels (the only ones whose memory can be given back)", NULL },
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "all", 'a', POPT_ARG_NONE, &a.all, 0,
		  "every discard-mode user space channel of the session", NULL },
		{ "older-than", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OLDER_THAN,
		  "only sub-buffers closed this long ago at least (microseconds, or with a unit: "
		  "us, ms, s, m, h)", "AGE" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, reclaim_run, &a);
}
