// SPDX-License-Identifier: LGPL-2.1-only
/*
 * disable_event.c - lttctl disable-event: disable the rules of exactly
 * the patterns given, or every rule of a channel.
 *
 * No rule is disabled unless every pattern of the list has an enabled
 * rule in the channel.  --tracepoint or --syscall (LTTng's) keep to the
 * rules of that type, each disabled on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"

enum {
	VAL_SESSION,
	VAL_CHANNEL,
	NR_VALS,
};

/* No --tracepoint or --syscall: rules of any type. */
#define ANY_TYPE (-1)

/* Is @r an enabled rule of @ev's channel, of @pattern (NULL: any) and @type? */
static bool is_target(const struct ltt_event_rule_info *r, const struct ctl_event_cmd *ev,
		      const char *pattern, int type)
{
	return r->domain == ev->domain && r->enabled &&
	       !strcmp(r->channel, ctl_util_event_channel(ev)) &&
	       (!pattern || !strcmp(r->attr.pattern, pattern)) &&
	       (type == ANY_TYPE || (int)r->attr.type == type);
}

/* Has the channel of @ev an enabled rule of @pattern (NULL: any) and @type? */
static bool has_enabled_rule(const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
			     const char *pattern, int type)
{
	size_t i;

	for (i = 0; i < d->nr_rules; i++)
		if (is_target(&d->rules[i], ev, pattern, type))
			return true;
	return false;
}

/*
 * Would every pattern disable something?  Prints the first that would not.
 * A channel that is not there: the daemon is asked, for its reason (a
 * domain it does not serve); that changes nothing.
 */
static int check_rules(struct ltt_ctl *ctl, const struct ltt_session_detail *d,
		       const struct ctl_event_cmd *ev, int type)
{
	const char *channel = ctl_util_event_channel(ev);
	size_t i;
	int code;

	if (ctl_util_need_channel(d, ev))
		return CTL_EXIT_FAILURE;
	if (!ctl_util_find_channel(d, ev->domain, channel)) {
		code = ltt_ctl_disable_event(ctl, ev->session, ev->domain, ev->channel, NULL);
		ctl_out_error(code ? code : LTT_ERR_CHANNEL_NOT_FOUND,
			      "channel '%s' of session '%s': %s", channel, ev->session,
			      ltt_strerror(code ? code : LTT_ERR_CHANNEL_NOT_FOUND));
		return CTL_EXIT_FAILURE;
	}
	if (ev->all && !has_enabled_rule(d, ev, NULL, type)) {
		ctl_out_error(LTT_ERR_EVENT_NOT_FOUND, "channel '%s' of session '%s': %s", channel,
			      ev->session, ltt_strerror(LTT_ERR_EVENT_NOT_FOUND));
		return CTL_EXIT_FAILURE;
	}
	for (i = 0; i < ev->count; i++) {
		if (has_enabled_rule(d, ev, ev->patterns[i], type))
			continue;
		ctl_out_error(LTT_ERR_EVENT_NOT_FOUND,
			      "event rule '%s' in channel '%s' of session '%s': %s",
			      ev->patterns[i], channel, ev->session,
			      ltt_strerror(LTT_ERR_EVENT_NOT_FOUND));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/* The rules of @d that disabling @pattern (NULL: all) turned off, as objects. */
static void out_disabled(const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
			 const char *pattern, int type)
{
	size_t i;

	for (i = 0; i < d->nr_rules; i++)
		if (is_target(&d->rules[i], ev, pattern, type))
			ctl_obj_rule(d->rules[i].domain, &d->rules[i].attr, false);
}

/* Disable the rules of @pattern (NULL: all) and @type one by one. */
static int disable_typed(struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			 const struct ctl_event_cmd *ev, const char *pattern, int type)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < d->nr_rules && !ret; i++)
		if (is_target(&d->rules[i], ev, pattern, type))
			ret = ltt_ctl_disable_event_rule(ctl, ev->session, ev->domain, ev->channel,
							 &d->rules[i].attr);
	return ret;
}

/* Disable the rules of @pattern, or all of them when NULL, of @type. */
static int disable_rules(const struct ctl_ctx *ctx, struct ltt_ctl *ctl,
			 const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
			 const char *pattern, int type)
{
	const char *channel = ctl_util_event_channel(ev);
	int ret;

	if (type == ANY_TYPE)
		ret = ltt_ctl_disable_event(ctl, ev->session, ev->domain, ev->channel, pattern);
	else
		ret = disable_typed(ctl, d, ev, pattern, type);
	if (ret && pattern)
		ctl_out_error(ret, "event rule '%s' in channel '%s' of session '%s': %s", pattern,
			     channel, ev->session, ltt_strerror(ret));
	else if (ret)
		ctl_out_error(ret, "channel '%s' of session '%s': %s", channel, ev->session,
			     ltt_strerror(ret));
	else if (pattern)
		ctl_out_info("Event rule %s disabled in channel %s of session %s (%s).",
			      pattern, channel, ev->session, ltt_domain_name(ev->domain));
	else
		ctl_out_info("All event rules disabled in channel %s of session %s (%s).",
			      channel, ev->session, ltt_domain_name(ev->domain));
	if (!ret)
		out_disabled(d, ev, pattern, type);
	return ret ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

static int disable(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev, int type)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	size_t i;
	int ret;

	ret = ctl_util_connect(ctx, false, &ctl);
	if (!ret)
		ret = ctl_util_get_session(ctl, ev->session, &d);
	if (!ret)
		ret = check_rules(ctl, d, ev, type);
	ctl_out_open("channel");	/* the rules disabled, in their channel */
	ctl_out_str("name", ctl_util_event_channel(ev));
	ctl_out_open("events");
	if (!ret && ev->all)
		ret = disable_rules(ctx, ctl, d, ev, NULL, type);
	for (i = 0; i < ev->count && !ret; i++)
		ret = disable_rules(ctx, ctl, d, ev, ev->patterns[i], type);
	ctl_out_close();
	ctl_out_close();
	free(d);
	ltt_ctl_disconnect(ctl);
	return ret;
}

int cmd_disable_event(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct ctl_event_cmd ev = { 0 };
	char *values[NR_VALS] = { NULL };
	int ret, type = ANY_TYPE;
	poptContext pc;
	struct poptOption options[] = {
		{ "kernel", 'k', POPT_ARG_NONE, &ev.d.kernel, 0, "kernel event rules", NULL },
		{ "userspace", 'u', POPT_ARG_NONE, &ev.d.user, 0, "user space event rules", NULL },
		CTL_UTIL_AGENT_OPTIONS(&ev.d.python, &ev.d.jul, &ev.d.log4j),
		{ "all", 'a', POPT_ARG_NONE, &ev.all, 0, "every rule of the channel", NULL },
		{ "all-events", 0, POPT_ARG_NONE, &ev.all, 0, "LTTng's spelling of --all", NULL },
		{ "tracepoint", 0, POPT_ARG_VAL, &type, LTT_EVENT_TRACEPOINT,
		  "only the tracepoint rules", NULL },
		{ "syscall", 0, POPT_ARG_VAL, &type, LTT_EVENT_SYSCALL,
		  "only the system call rules (-k)", NULL },
		{ "probe", 0, POPT_ARG_VAL, &type, LTT_EVENT_KPROBE,
		  "only the kernel probe rules (-k)", NULL },
		{ "function", 0, POPT_ARG_VAL, &type, LTT_EVENT_FUNCTION,
		  "only the kernel function probe rules (-k)", NULL },
		{ "session", 's', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SESSION,
		  "the session (default: the current one)", "SESSION" },
		{ "channel", 'c', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_CHANNEL,
		  "the channel (default: " LTT_DEFAULT_CHANNEL_NAME ", when the domain has no "
		  "other channel)", "CHANNEL" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_parse(ctx, argc, argv, options, values, &pc);
	if (ret != CTL_GO_ON)
		goto end;
	ret = ctl_util_event_cmd_init(ctx, pc, values[VAL_SESSION], values[VAL_CHANNEL], &ev);
	if (!ret)
		ret = disable(ctx, &ev, type);
	ctl_util_event_cmd_fini(&ev);
	poptFreeContext(pc);
end:
	ctl_util_free_values(values, NR_VALS);
	return ret;
}
