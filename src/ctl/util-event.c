// SPDX-License-Identifier: LGPL-2.1-only
/*
 * util-event.c - the steps enable-event and disable-event share: their
 * session, domain and event names, and the channel their rules go to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/agent.h"
#include "common/base/names.h"
#include "common/probe/probe-loc.h"
#include "ctl/ctl.h"
#include "ctl/util-event.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

int ctl_util_any_domain(const struct ctl_ctx *ctx, const struct ctl_domain_opts *o,
			enum ltt_domain *ret_domain)
{
	const struct {
		int set;
		enum ltt_domain domain;
	} v[] = {
		{ o->kernel, LTT_DOMAIN_KERNEL }, { o->user, LTT_DOMAIN_USER },
		{ o->python, LTT_DOMAIN_PYTHON }, { o->jul, LTT_DOMAIN_JUL },
		{ o->log4j, LTT_DOMAIN_LOG4J },
	};
	enum ltt_domain domain = LTT_DOMAIN_NONE;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (!v[i].set)
			continue;
		if (domain != LTT_DOMAIN_NONE)
			return ctl_util_usage_error(ctx, "choose one domain of -k, -u, -p, -j "
						    "and -l, not two");
		domain = v[i].domain;
	}
	*ret_domain = domain;
	return CTL_EXIT_OK;
}

/* ctl_util_event_run()'s line, into @ev (ev->patterns: free() it, also on failure). */
static int event_cmd_init(const struct ctl_ctx *ctx, poptContext pc, const char *session,
			  const char *channel, struct ctl_event_cmd *ev)
{
	const struct ltt_agent_domain *agent;
	const char **args;
	int ret, nr;

	nr = ctl_util_args(pc, &args);
	if (ev->all && nr)
		return ctl_util_usage_error(ctx, "give event patterns or -a, not both");
	if (!ev->all && !nr)
		return ctl_util_usage_error(ctx, "an event pattern (or -a) is needed");
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret)
		ret = ctl_util_any_domain(ctx, &ev->d, &ev->domain);
	if (!ret && ev->domain == LTT_DOMAIN_NONE)
		ret = ctl_util_usage_error(ctx, "a domain is needed: -k (kernel), -u (user space), "
					   "-p (python), -j (JUL) or -l (log4j)");
	agent = ltt_agent_domain(ev->domain);
	if (!ret && channel && !ltt_channel_name_valid(channel)) {
		ctl_out_error(LTT_ERR_CHANNEL_NAME, "channel '%s': %s", channel,
			      ltt_strerror(LTT_ERR_CHANNEL_NAME));
		ret = CTL_EXIT_FAILURE;
	}
	/* LTTng ignores -c with an agent domain: its rules go to their channel */
	if (!ret && channel && agent && strcmp(channel, agent->channel)) {
		ctl_out_warn(LTT_ERR_AGENT_CHANNEL, "-c %s ignored: %s", channel,
			     ltt_strerror(LTT_ERR_AGENT_CHANNEL));
		channel = NULL;
	}
	ev->channel = channel;
	if (!ret && nr)
		ret = ctl_util_name_list(ctx, args[0], agent ? "logger" : "event rule",
					 ltt_event_pattern_valid,
					 agent ? LTT_ERR_PYTHON_NAME : LTT_ERR_EVENT_NAME,
					 &ev->patterns, &ev->count);
	if (!ret)
		ret = ctl_util_session_name(session, ev->current, sizeof(ev->current),
					    &ev->session);
	return ret;
}

int ctl_util_need_channel(const struct ltt_session_detail *detail,
			  const struct ctl_event_cmd *ev)
{
	enum ltt_domain domain = ev->domain;
	size_t i;

	if (ev->channel || ltt_agent_domain(domain))
		return CTL_EXIT_OK;
	for (i = 0; i < detail->nr_channels; i++) {
		const struct ltt_channel_info *ch = &detail->channels[i];

		if (ch->domain == domain && strcmp(ch->attr.name, LTT_DEFAULT_CHANNEL_NAME) &&
		    !ltt_agent_domain_of_channel(ch->attr.name)) {
			ctl_out_error(LTT_ERR_NEED_CHANNEL_NAME,
				      "session '%s', %s domain (it has channel '%s'): %s", ev->session,
				      ltt_domain_name(domain), ch->attr.name,
				      ltt_strerror(LTT_ERR_NEED_CHANNEL_NAME));
			return CTL_EXIT_FAILURE;
		}
	}
	return CTL_EXIT_OK;
}

int ctl_util_event_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct ctl_event_cmd *ev = arg;
	int ret;

	ret = event_cmd_init(ctx, pc, *ev->opt_session, *ev->opt_channel, ev);
	if (!ret)
		ret = ev->work(ctx, arg);
	free(ev->patterns);
	ev->patterns = NULL;
	return ret;
}

const char *ctl_util_event_channel(const struct ctl_event_cmd *ev)
{
	const struct ltt_agent_domain *agent = ltt_agent_domain(ev->domain);

	if (ev->channel)
		return ev->channel;
	return agent ? agent->channel : LTT_DEFAULT_CHANNEL_NAME;
}

/* The directory of $PATH ("DIR/") holding the program of @len bytes at @name, into @dir. */
static bool which(const char *name, size_t len, char *dir, size_t size)
{
	const char *p = getenv("PATH");
	char file[LTT_PATH_MAX];
	size_t n;

	while (p && *p) {
		n = strcspn(p, ":");
		if (n && (size_t)snprintf(file, sizeof(file), "%.*s/%.*s", (int)n, p, (int)len,
					  name) < sizeof(file) && !access(file, X_OK)) {
			snprintf(dir, size, "%.*s/", (int)n, p);
			return true;
		}
		p += n + (p[n] == ':');
	}
	return false;
}

int ctl_util_probe_loc_why(int type, const char *text, char *why, size_t len)
{
	struct ltt_probe_loc *loc = malloc(sizeof(*loc));	/* large: paths */
	int err;

	if (!loc) {
		snprintf(why, len, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return -1;
	}
	err = ltt_probe_loc_parse(type, text, loc, why, len);
	free(loc);
	return err ? -1 : 0;
}

int ctl_util_uprobe_location(const struct ctl_ctx *ctx, const char *option, const char *text,
			     char *buf, size_t size)
{
	const char *kind = !strncmp(text, "sdt:", 4) ? "sdt:" : !strncmp(text, "elf:", 4) ? "elf:" : "";
	const char *path = text + strlen(kind);
	char why[256], dir[LTT_PATH_MAX] = "";
	int n;

	if (path[0] != '/' && !strchr(path, ':'))
		return ctl_util_usage_error(ctx, "%s '%s': give [elf:]PATH:FUNCTION or sdt:PATH:PROVIDER:NAME",
					    option, text);
	if (path[0] != '/' && memchr(path, '/', strcspn(path, ":")))
		n = getcwd(dir, sizeof(dir)) ? snprintf(buf, size, "%s%s/%s", kind, dir, path) : -1;
	else if (path[0] != '/')
		n = which(path, strcspn(path, ":"), dir, sizeof(dir)) ?
		    snprintf(buf, size, "%s%s%s", kind, dir, path) :
		    snprintf(buf, size, "%s/%s", kind, path);	/* refused by the daemon: not found */
	else
		n = snprintf(buf, size, "%s", text);
	if (n < 0 || (size_t)n >= size)
		return ctl_util_usage_error(ctx, "%s '%s': the location is too long", option,
					    text);
	if (ctl_util_probe_loc_why(LTT_EVENT_UPROBE, buf, why, sizeof(why)))
		return ctl_util_usage_error(ctx, "%s '%s': %s", option, text, why);
	return CTL_EXIT_OK;
}
