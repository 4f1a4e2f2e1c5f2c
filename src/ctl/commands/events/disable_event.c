// SPDX-License-Identifier: LGPL-2.1-only
/*
 * disable_event.c - lttctl disable-event: disable the rules of exactly
 * the patterns given, or every rule of a channel.
 *
 * The patterns of a list are disabled one by one, as LTTng does: a
 * pattern whose rules are disabled already succeeds, one without a rule
 * fails with its error and the others are still disabled; the command
 * then exits 1.  The channel is checked first: without it nothing is
 * done.  --tracepoint or --syscall (LTTng's) keep to the rules of that
 * type, each disabled on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util-event.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_SESSION,
	VAL_CHANNEL,
	NR_VALS,
};

/* No --tracepoint or --syscall: rules of any type. */
#define ANY_TYPE (-1)

/* Is @r a rule of @ev's channel, of @pattern (NULL: any) and @type? */
static bool is_rule_of(const struct ltt_event_rule_info *r, const struct ctl_event_cmd *ev,
		       const char *pattern, int type)
{
	return r->domain == ev->domain && !strcmp(r->channel, ctl_util_event_channel(ev)) &&
	       (!pattern || !strcmp(r->attr.pattern, pattern)) &&
	       (type == ANY_TYPE || (int)r->attr.type == type);
}

/* Is @r an enabled rule of @ev's channel, of @pattern (NULL: any) and @type? */
static bool is_target(const struct ltt_event_rule_info *r, const struct ctl_event_cmd *ev,
		      const char *pattern, int type)
{
	return r->enabled && is_rule_of(r, ev, pattern, type);
}

/*
 * Has the channel of @ev a rule of @pattern (NULL: any) and @type, an
 * enabled one when @enabled?
 */
static bool has_rule(const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
		     const char *pattern, int type, bool enabled)
{
	size_t i;

	for (i = 0; i < d->nr_rules; i++)
		if (enabled ? is_target(&d->rules[i], ev, pattern, type) :
			      is_rule_of(&d->rules[i], ev, pattern, type))
			return true;
	return false;
}

/*
 * Is the channel there, and has it an enabled rule for -a?  Prints why
 * not.  A channel that is not there: the daemon is asked, for its reason
 * (a domain it does not serve); that changes nothing.
 */
static int check_rules(struct ltt_ctl *ctl, const struct ltt_session_detail *d,
		       const struct ctl_event_cmd *ev, int type)
{
	const char *channel = ctl_util_event_channel(ev);
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
	if (ev->all && !has_rule(d, ev, NULL, type, true)) {
		ctl_out_error(LTT_ERR_EVENT_NOT_FOUND, "channel '%s' of session '%s': %s", channel,
			      ev->session, ltt_strerror(LTT_ERR_EVENT_NOT_FOUND));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/*
 * The rules of @d that disabling @pattern (NULL: all) turned off, as
 * objects with LTTng's <success> (lttng-tools' test_mi counts them);
 * @any: those disabled already too.
 */
static void out_disabled(const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
			 const char *pattern, int type, bool any)
{
	size_t i;

	for (i = 0; i < d->nr_rules; i++) {
		if (any ? !is_rule_of(&d->rules[i], ev, pattern, type) :
			  !is_target(&d->rules[i], ev, pattern, type))
			continue;
		ctl_obj_rule_open(d->rules[i].domain, &d->rules[i].attr, false);
		ctl_out_bool("success", true);
		ctl_out_close();
	}
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
	bool enabled = !pattern || has_rule(d, ev, pattern, type, true);
	int ret = 0;

	/* A pattern whose rules are all disabled already succeeds, as LTTng's. */
	if (!enabled && !has_rule(d, ev, pattern, type, false))
		ret = LTT_ERR_EVENT_NOT_FOUND;	/* LTTng's error: the others go on */
	else if (enabled && type == ANY_TYPE)
		ret = ltt_ctl_disable_event(ctl, ev->session, ev->domain, ev->channel, pattern);
	else if (enabled)
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
	if (!ret) {
		out_disabled(d, ev, pattern, type, !enabled);
	} else if (pattern) {	/* LTTng's <event> of a pattern it could not disable */
		ctl_out_open("event");
		ctl_out_str("name", pattern);
		ctl_out_bool("success", false);
		ctl_out_close();
	}
	return ret ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

static int disable(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev, int type)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	size_t i;
	bool go;
	int ret;

	ret = ctl_util_open_detail(ctx, ev->session, &ctl, &d);
	if (!ret)
		ret = check_rules(ctl, d, ev, type);
	go = !ret;
	ctl_out_open("channel");	/* the rules disabled, in their channel */
	ctl_out_str("name", ctl_util_event_channel(ev));
	ctl_out_open("events");
	if (!ret && ev->all)
		ret = disable_rules(ctx, ctl, d, ev, NULL, type);
	/* Each pattern, whatever the others did (LTTng's way): 1 if one failed. */
	for (i = 0; go && i < ev->count; i++)
		if (disable_rules(ctx, ctl, d, ev, ev->patterns[i], type))
			ret = CTL_EXIT_FAILURE;
	ctl_out_close();
	ctl_out_close();
	free(d);
	ltt_ctl_disconnect(ctl);
	return ret;
}

/* disable-event's arguments. */
struct disable_args {
	struct ctl_event_cmd ev;	/* first: ctl_util_event_run()'s */
	char *values[NR_VALS];
	int type;			/* --tracepoint, --syscall...: ANY_TYPE when none */
};

static int disable_work(const struct ctl_ctx *ctx, void *arg)
{
	const struct disable_args *a = arg;

	return disable(ctx, &a->ev, a->type);
}

int cmd_disable_event(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct disable_args a = { .ev.work = disable_work, .type = ANY_TYPE };
	struct poptOption options[] = {
		{ "kernel", 'k', POPT_ARG_NONE, &a.ev.d.kernel, 0, "kernel event rules", NULL },
		{ "userspace", 'u', POPT_ARG_NONE, &a.ev.d.user, 0, "user space event rules",
		  NULL },
		CTL_UTIL_AGENT_OPTIONS(&a.ev.d.python, &a.ev.d.jul, &a.ev.d.log4j),
		{ "all", 'a', POPT_ARG_NONE, &a.ev.all, 0, "every rule of the channel", NULL },
		{ "all-events", 0, POPT_ARG_NONE, &a.ev.all, 0, "LTTng's spelling of --all", NULL },
		{ "tracepoint", 0, POPT_ARG_VAL, &a.type, LTT_EVENT_TRACEPOINT,
		  "only the tracepoint rules", NULL },
		{ "syscall", 0, POPT_ARG_VAL, &a.type, LTT_EVENT_SYSCALL,
		  "only the system call rules (-k)", NULL },
		{ "probe", 0, POPT_ARG_VAL, &a.type, LTT_EVENT_KPROBE,
		  "only the kernel probe rules (-k)", NULL },
		{ "function", 0, POPT_ARG_VAL, &a.type, LTT_EVENT_FUNCTION,
		  "only the kernel function probe rules (-k)", NULL },
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "channel", 'c', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_CHANNEL,
		  "the channel (default: " LTT_DEFAULT_CHANNEL_NAME ", when the domain has no "
		  "other channel)", "CHANNEL" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	a.ev.opt_session = &a.values[VAL_SESSION];
	a.ev.opt_channel = &a.values[VAL_CHANNEL];
	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, ctl_util_event_run, &a);
}
