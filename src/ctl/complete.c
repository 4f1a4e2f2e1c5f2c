// SPDX-License-Identifier: LGPL-2.1-only
/*
 * complete.c - the names completion scripts ask lttctl for: those of the
 * sessions, of a session's channels and of the triggers, one per line, as
 * commands take them ("lttctl --list-sessions",
 * "lttctl --list-channels[=SESSION]", "lttctl --list-triggers").
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

int ctl_complete_sessions(const struct ctl_ctx *ctx)
{
	struct ltt_session_info *sessions;
	struct ltt_ctl *ctl;
	size_t count, i;
	int ret;

	ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	ret = ctl_util_list_sessions(ctl, &sessions, &count);
	ltt_ctl_disconnect(ctl);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		ctl_util_qualify_name(&sessions[i]);
		ctl_util_out("%s\n", sessions[i].name);
	}
	free(sessions);
	return CTL_EXIT_OK;
}

/* Was the name of channel @i already printed (a channel of the other domain)? */
static bool seen_before(const struct ltt_session_detail *d, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++) {
		if (!strcmp(d->channels[j].attr.name, d->channels[i].attr.name))
			return true;
	}
	return false;
}

int ctl_complete_channels(const struct ctl_ctx *ctx, const char *session)
{
	struct ltt_session_detail *detail;
	char current[LTT_NAME_MAX];
	size_t i;
	int ret;

	ret = ctl_util_session_name(session, current, sizeof(current), &session);
	if (!ret)
		ret = ctl_util_fetch_session(ctx, session, &detail);
	if (ret)
		return ret;
	for (i = 0; i < detail->nr_channels; i++) {
		if (!seen_before(detail, i))
			ctl_util_out("%s\n", detail->channels[i].attr.name);
	}
	free(detail);
	return CTL_EXIT_OK;
}

int ctl_complete_triggers(const struct ctl_ctx *ctx)
{
	struct ltt_trigger_info *triggers = NULL;
	size_t count = 0, i, j;
	int ret;

	ret = ctl_util_fetch_triggers(ctx, &triggers, &count);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		/* root's list may hold one name for several users */
		for (j = 0; j < i && strcmp(triggers[j].attr.name, triggers[i].attr.name); j++)
			;
		if (j == i)
			ctl_util_out("%s\n", triggers[i].attr.name);
	}
	free(triggers);
	return CTL_EXIT_OK;
}
