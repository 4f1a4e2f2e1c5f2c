// SPDX-License-Identifier: LGPL-2.1-only
/*
 * enable_event.c - lttctl enable-event: add event rules to a channel, or
 * enable disabled ones.
 *
 * The list is checked first (a channel to name, exclusions).  Then each
 * rule is sent in turn, as LTTng's lttng does: one enabled already, or
 * one whose pattern the daemon refuses (a kernel event this kernel
 * lacks), is named in an error and the others are sent all the same; the
 * status says some failed.  A refusal that is not the pattern's (the
 * domain off, the session gone) ends the list there.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/attr.h"
#include "common/base/names.h"
#include "ctl/ctl.h"
#include "ctl/util-event.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_SESSION,
	VAL_CHANNEL,
	VAL_LOGLEVEL,		/* this level and more severe */
	VAL_LOGLEVEL_ONLY,	/* this level only */
	VAL_FILTER,
	VAL_EXCLUDE,
	VAL_USERSPACE_PROBE,	/* the three probe options: one at most */
	VAL_PROBE,
	VAL_FUNCTION,
	NR_VALS,
};

/* The probe options, their values (VAL_*) and the rules' type. */
static const struct {
	const char *option;
	int val;
	enum ltt_event_type type;
} probe_options[] = {
	{ "--userspace-probe", VAL_USERSPACE_PROBE, LTT_EVENT_UPROBE },
	{ "--probe", VAL_PROBE, LTT_EVENT_KPROBE },
	{ "--function", VAL_FUNCTION, LTT_EVENT_FUNCTION },
};

/* Exclusions of one pattern, in their one form (attr.h). */
struct rule_text {
	const char *filter;		/* NULL: none */
	const char *exclude;		/* as given; NULL: none */
	char exclusions[LTT_EXCLUSIONS_MAX];
};

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/*
 * --filter and --exclude: the filter parsed here first (a syntax error is
 * shown with a caret under the bad token); the daemon checks its types
 * against each event (and, in the kernel domain, what the kernel tracer
 * can evaluate).
 */
static int check_filter(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev,
			char **values, struct rule_text *text)
{
	(void)ctx;
	(void)ev;
	text->filter = values[VAL_FILTER];
	text->exclude = values[VAL_EXCLUDE];
	return text->filter ? ctl_util_check_filter(text->filter) : CTL_EXIT_OK;
}

/* The exclusions of --exclude for @attr's pattern, into @text and @attr. */
static int set_exclusions(const struct ctl_event_cmd *ev, struct rule_text *text,
			  struct ltt_event_rule_attr *attr)
{
	attr->filter = text->filter;
	attr->exclusions = NULL;
	if (!text->exclude)
		return CTL_EXIT_OK;
	if (strlen(text->exclude) >= sizeof(text->exclusions) ||
	    ltt_attr_normalize_exclusions(attr->pattern, strcpy(text->exclusions, text->exclude),
					  sizeof(text->exclusions))) {
		ctl_out_error(LTT_ERR_EXCLUSION, "--exclude '%s' for event rule '%s' of session '%s': %s",
			      text->exclude, attr->pattern, ev->session,
			      !ltt_event_pattern_is_glob(attr->pattern) ?
			      "exclusions need a pattern with an unescaped '*' (e.g. 'prov:*')" :
			      "each exclusion, separated by commas, must be an event name or pattern that does not take all the names the rule's pattern takes");
		return CTL_EXIT_FAILURE;
	}
	ctl_util_warn_idle_exclusion(attr->pattern, text->exclusions);
	attr->exclusions = text->exclusions;
	return CTL_EXIT_OK;
}

/* The log level condition of the options into @attr. */
static int set_loglevel(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev, char **values,
			struct ltt_event_rule_attr *attr)
{
	const char *text = values[VAL_LOGLEVEL] ? values[VAL_LOGLEVEL] : values[VAL_LOGLEVEL_ONLY];
	char level[64];
	bool ranged;
	size_t len;

	if (values[VAL_LOGLEVEL] && values[VAL_LOGLEVEL_ONLY])
		return ctl_util_usage_error(ctx, "choose --loglevel or --loglevel-only, not both");
	if (!text) {
		attr->loglevel_type = LTT_LOGLEVEL_ALL;
		return CTL_EXIT_OK;
	}
	attr->loglevel_type = values[VAL_LOGLEVEL] ? LTT_LOGLEVEL_RANGE : LTT_LOGLEVEL_SINGLE;
	/* LTTng's "LEVEL..": LEVEL or more severe, what --loglevel means */
	len = strlen(text);
	ranged = len > 2 && !strcmp(text + len - 2, "..");
	if (ranged && values[VAL_LOGLEVEL_ONLY])
		return ctl_util_usage_error(ctx, "--loglevel-only '%s': one level only; "
					    "'LEVEL..' (LEVEL or more severe) goes with --loglevel",
					    text);
	snprintf(level, sizeof(level), "%.*s", (int)(ranged ? len - 2 : len), text);
	if (len >= sizeof(level) || ltt_loglevel_parse_domain(ev->domain, level, &attr->loglevel))
		return ctl_util_object_error(LTT_ERR_LOGLEVEL, "log level", text);
	return CTL_EXIT_OK;
}

/* Is a rule like @attr already enabled in the channel of @ev? */
static bool rule_enabled(const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
			 const struct ltt_event_rule_attr *attr)
{
	const char *channel = ctl_util_event_channel(ev);
	size_t i;

	for (i = 0; i < d->nr_rules; i++) {
		const struct ltt_event_rule_info *r = &d->rules[i];

		if (r->domain == ev->domain && r->enabled && !strcmp(r->channel, channel) &&
		    !strcmp(r->attr.pattern, attr->pattern) &&
		    r->attr.loglevel_type == attr->loglevel_type && r->attr.type == attr->type &&
		    (attr->loglevel_type == LTT_LOGLEVEL_ALL || r->attr.loglevel == attr->loglevel) &&
		    same_str(r->attr.filter, attr->filter) &&
		    same_str(r->attr.exclusions, attr->exclusions) &&
		    same_str(r->attr.location, attr->location))
			return true;
	}
	return false;
}

/* The kinds of event the rules name: -k -a alone means both. */
struct rule_types {
	enum ltt_event_type v[2];
	size_t n;
};

static const char *type_label(enum ltt_event_type type)
{
	return type == LTT_EVENT_SYSCALL ? "system call " :
	       type == LTT_EVENT_UPROBE ? "user-space probe " :
	       type == LTT_EVENT_KPROBE ? "kernel probe " :
	       type == LTT_EVENT_FUNCTION ? "kernel function probe " : "";
}

/*
 * Would every rule be accepted?  Prints the first that would not.  One
 * enabled already is not refused here: as LTTng's, the others of the
 * list are enabled, and it is said to have failed (enable_rules()).
 */
static int check_rules(const struct ltt_session_detail *d, const struct ctl_event_cmd *ev,
		       struct ltt_event_rule_attr *attr, struct rule_text *text)
{
	size_t i;

	if (ctl_util_need_channel(d, ev))
		return CTL_EXIT_FAILURE;
	/* a channel named and missing is made by the daemon, as LTTng's does */
	for (i = 0; i < ev->count; i++) {
		strcpy(attr->pattern, ev->patterns[i]);
		if (set_exclusions(ev, text, attr))
			return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/* What an error of the daemon means here. */
static const char *enable_error(int ret, const struct ltt_event_rule_attr *attr)
{
	static char why[LTT_LOCATION_MAX + 128];
	bool kernel_probe = attr->type == LTT_EVENT_KPROBE || attr->type == LTT_EVENT_FUNCTION;

	if (ret == -LTT_ERR_NOT_SUPPORTED && (attr->filter || attr->exclusions))
		return "the session daemon is too old for filters and exclusions (they need client protocol 1.7); upgrade ltt-sessiond";
	if (ret == -LTT_ERR_PROBE_NOT_FOUND && kernel_probe) {
		snprintf(why, sizeof(why), "the running kernel has no symbol to probe at '%s' (/proc/kallsyms lists those it has)",
			 attr->location);
		return why;
	}
	if (ret == -LTT_ERR_PROBE_TRACER && kernel_probe)
		return "this kernel has no kprobe_events (CONFIG_KPROBE_EVENTS), which the tracefs backend places kernel probes with, or ltt's module is loaded without kprobes: trace with the module on a kernel with CONFIG_KPROBES, or on a kernel with kprobe_events";
	return ltt_strerror(ret);
}

/*
 * Is @ret a refusal of the pattern alone (an event this kernel lacks, a
 * kernel filter that does not type-check against the one event a name
 * names, a rule that exists), after which the list's other rules may
 * still be taken?  Any other refusal (the domain off, the channel, the
 * session) would be the others' too.
 */
static bool pattern_refused(int ret)
{
	return ret == -LTT_ERR_KERNEL_EVENT_NOT_FOUND || ret == -LTT_ERR_EVENT_NAME ||
	       ret == -LTT_ERR_FILTER_KERNEL_TYPE || ret == -LTT_ERR_EVENT_EXISTS;
}

static int enable_rules(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev,
			struct ltt_event_rule_attr *attr, const struct rule_types *types,
			struct rule_text *text)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	bool some_enabled = false, failed = false;
	size_t i, t;
	int ret;

	ret = ctl_util_open_detail(ctx, ev->session, &ctl, &d);
	for (t = 0; t < types->n && !ret; t++) {
		attr->type = types->v[t];
		ret = check_rules(d, ev, attr, text);
	}
	ctl_out_open("events");	/* those enabled, and those enabled already (success false) */
	for (t = 0; t < types->n && !ret; t++) {
		attr->type = types->v[t];
		for (i = 0; i < ev->count && !ret; i++) {
			strcpy(attr->pattern, ev->patterns[i]);
			ret = set_exclusions(ev, text, attr);
			if (ret)
				break;
			if (rule_enabled(d, ev, attr)) {
				ctl_out_error(LTT_ERR_EVENT_EXISTS,
					      "%sevent rule '%s' in channel '%s' of session '%s': %s",
					      type_label(attr->type), attr->pattern,
					      ctl_util_event_channel(ev), ev->session,
					      ltt_strerror(LTT_ERR_EVENT_EXISTS));
				ctl_obj_rule_open(ev->domain, attr, true);
				ctl_out_bool("success", false);
				ctl_out_close();
				some_enabled = true;
				continue;
			}
			ret = ltt_ctl_enable_event(ctl, ev->session, ev->domain, ev->channel, attr);
			if (ret) {
				ctl_out_error(ret,
					      "%sevent rule '%s' in channel '%s' of session '%s': %s",
					      type_label(attr->type), attr->pattern,
					      ctl_util_event_channel(ev), ev->session,
					      enable_error(ret, attr));
				ctl_obj_rule_open(ev->domain, attr, false);
				ctl_out_bool("success", false);
				ctl_out_close();
				if (!pattern_refused(ret)) {
					ret = CTL_EXIT_FAILURE;	/* the others would be refused alike */
					break;
				}
				/* as LTTng's: the list's other rules are tried all the same */
				failed = true;
				ret = 0;
				continue;
			}
			ctl_out_info("%s %s enabled in channel %s of session %s (%s).",
				      attr->type == LTT_EVENT_SYSCALL ? "System call rule" :
				      attr->type == LTT_EVENT_UPROBE ? "User-space probe" :
				      attr->type == LTT_EVENT_KPROBE ? "Kernel probe" :
				      attr->type == LTT_EVENT_FUNCTION ? "Kernel function probe" :
				      "Event rule", attr->pattern, ctl_util_event_channel(ev),
				      ev->session, ltt_domain_name(ev->domain));
			ctl_obj_rule_open(ev->domain, attr, true);
			ctl_out_bool("success", true);
			ctl_out_close();
		}
	}
	ctl_out_close();
	free(d);
	ltt_ctl_disconnect(ctl);
	return ret ? ret : failed || some_enabled ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

/* --probe's or --function's location (SYMBOL[+OFFSET] or 0xADDR), checked, into @buf. */
static int kprobe_location(const struct ctl_ctx *ctx, const char *option, int type,
			   const char *text, char *buf, size_t size)
{
	char why[256];

	if (strlen(text) >= size)
		return ctl_util_usage_error(ctx, "%s '%s': the location is too long", option, text);
	if (ctl_util_probe_loc_why(type, text, why, sizeof(why)))
		return ctl_util_usage_error(ctx, "%s '%s': %s", option, text, why);
	snprintf(buf, size, "%s", text);
	return CTL_EXIT_OK;
}

/*
 * The probe rule of --userspace-probe, --probe or --function (probe
 * option @i): one event name, kernel domain.
 */
static int set_probe(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev, char **values,
		     size_t i, int tracepoint, int syscall, struct ltt_event_rule_attr *attr,
		     char *location, size_t size)
{
	const char *option = probe_options[i].option, *text = values[probe_options[i].val];
	size_t j;

	for (j = 0; j < sizeof(probe_options) / sizeof(probe_options[0]); j++)
		if (j != i && values[probe_options[j].val])
			return ctl_util_usage_error(ctx, "choose one of --userspace-probe, --probe and --function");
	if (ev->domain != LTT_DOMAIN_KERNEL)
		return ctl_util_usage_error(ctx, "%s places a probe through the kernel: use it with -k",
					    option);
	if (tracepoint || syscall || ev->all || ev->count != 1 ||
	    ltt_event_pattern_is_glob(ev->patterns[0]))
		return ctl_util_usage_error(ctx, "%s names one event (no '*', no -a, no --tracepoint or --syscall)",
					    option);
	if (values[VAL_EXCLUDE])
		return ctl_util_usage_error(ctx, "--exclude goes with a pattern of tracepoints, not with %s",
					    option);
	attr->location = location;
	return probe_options[i].type == LTT_EVENT_UPROBE ?
	       ctl_util_uprobe_location(ctx, "--userspace-probe", text, location, size) :
	       kprobe_location(ctx, option, probe_options[i].type, text, location, size);
}

/* Which probe option was given (an index of probe_options[]), or -1. */
static int probe_given(char **values)
{
	size_t i;

	for (i = 0; i < sizeof(probe_options) / sizeof(probe_options[0]); i++)
		if (values[probe_options[i].val])
			return (int)i;
	return -1;
}

/* Which kinds of event: --tracepoint, --syscall, or by default. */
static int set_types(const struct ctl_ctx *ctx, const struct ctl_event_cmd *ev, int tracepoint,
		     int syscall, struct rule_types *types)
{
	if (tracepoint && syscall)
		return ctl_util_usage_error(ctx, "choose --tracepoint or --syscall, not both");
	if (syscall && ev->domain != LTT_DOMAIN_KERNEL)
		return ctl_util_usage_error(ctx, "--syscall names kernel system calls: use it with -k");
	types->n = 0;
	if (!syscall)
		types->v[types->n++] = LTT_EVENT_TRACEPOINT;
	/* As LTTng's: -k -a alone is every tracepoint and every system call. */
	if (syscall || (ev->domain == LTT_DOMAIN_KERNEL && ev->all && !tracepoint))
		types->v[types->n++] = LTT_EVENT_SYSCALL;
	return CTL_EXIT_OK;
}

/* enable-event's arguments. */
struct enable_args {
	struct ctl_event_cmd ev;	/* first: ctl_util_event_run()'s */
	char *values[NR_VALS];
	int tracepoint, syscall;	/* --tracepoint, --syscall */
};

/* The rules of the line, checked, then enabled. */
static int enable_work(const struct ctl_ctx *ctx, void *arg)
{
	struct enable_args *a = arg;
	struct ctl_event_cmd *ev = &a->ev;
	struct ltt_event_rule_attr attr = { .pattern = "" };
	struct rule_types types = { .n = 0 };
	struct rule_text text = { NULL, NULL, "" };
	char location[LTT_LOCATION_MAX];
	int probe = probe_given(a->values);
	int ret;

	if (probe >= 0) {
		ret = set_probe(ctx, ev, a->values, (size_t)probe, a->tracepoint, a->syscall, &attr,
				location, sizeof(location));
		types = (struct rule_types){ .v = { probe_options[probe].type }, .n = 1 };
	} else {
		ret = set_types(ctx, ev, a->tracepoint, a->syscall, &types);
	}
	if (!ret)
		ret = set_loglevel(ctx, ev, a->values, &attr);
	if (!ret)
		ret = check_filter(ctx, ev, a->values, &text);
	if (!ret && ev->all)
		ret = ctl_util_name_list(ctx, "*", "event rule", ltt_event_pattern_valid,
					 LTT_ERR_EVENT_NAME, &ev->patterns, &ev->count);
	if (!ret)
		ret = enable_rules(ctx, ev, &attr, &types, &text);
	return ret;
}

int cmd_enable_event(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct enable_args a = { .ev.work = enable_work };
	struct poptOption options[] = {
		{ "kernel", 'k', POPT_ARG_NONE, &a.ev.d.kernel, 0, "kernel events", NULL },
		{ "tracepoint", 0, POPT_ARG_NONE, &a.tracepoint, 0,
		  "tracepoints (the default)", NULL },
		{ "syscall", 0, POPT_ARG_NONE, &a.syscall, 0,
		  "kernel system calls, entry and exit (with -k)", NULL },
		{ "probe", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_PROBE,
		  "a kprobe at a kernel instruction, recorded as the event named, field ip "
		  "(with -k; the kernel's kprobe_events or ltt's module)", "SYMBOL[+OFFSET]|0xADDR" },
		{ "function", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_FUNCTION,
		  "a kretprobe on a kernel function: events NAME_entry and NAME_exit, fields ip "
		  "and parent_ip (with -k)", "SYMBOL[+OFFSET]|0xADDR" },
		{ "userspace-probe", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_USERSPACE_PROBE,
		  "a probe on a function of an ELF file or on an SDT probe, recorded as the event "
		  "named (with -k; tracefs backend)", "[elf:]PATH:FUNCTION|sdt:PATH:PROVIDER:NAME" },
		{ "userspace", 'u', POPT_ARG_NONE, &a.ev.d.user, 0, "user space events", NULL },
		CTL_UTIL_AGENT_OPTIONS(&a.ev.d.python, &a.ev.d.jul, &a.ev.d.log4j),
		{ "all", 'a', POPT_ARG_NONE, &a.ev.all, 0, "every event: the pattern '*'", NULL },
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "channel", 'c', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_CHANNEL,
		  "an existing channel (default: " LTT_DEFAULT_CHANNEL_NAME
		  ", created if needed, when the domain has no other channel)", "CHANNEL" },
		{ "loglevel", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_LOGLEVEL,
		  "events of LEVEL or more severe (EMERG ... DEBUG, LTTng's TRACE_EMERG ... "
		  "TRACE_DEBUG, or 0 to 14; LEVEL.. as LTTng writes it; with -p Python's "
		  "CRITICAL ... DEBUG or a number)", "LEVEL" },
		{ "loglevel-only", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_LOGLEVEL_ONLY,
		  "events of LEVEL only", "LEVEL" },
		{ "filter", 'f', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_FILTER,
		  "only events for which EXPR is true (user space)", "EXPR" },
		{ "exclude", 'x', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_EXCLUDE,
		  "not these events (names or patterns, comma-separated; user space, with a '*' pattern)",
		  "NAME[,NAME]..." },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	a.ev.opt_session = &a.values[VAL_SESSION];
	a.ev.opt_channel = &a.values[VAL_CHANNEL];
	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, ctl_util_event_run, &a);
}
