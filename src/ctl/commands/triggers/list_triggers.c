// SPDX-License-Identifier: LGPL-2.1-only
/*
 * list_triggers.c - lttctl list-triggers: the caller's triggers (root:
 * everyone's), sorted by name, each with its condition and its actions in
 * LTTng 2.13's layout (what its tests compare, line for line), their
 * errors included; --counters adds ltt's counters of each; in --mi xml,
 * LTTng's <triggers> (obj-trigger.c).
 *
 *   - name: NAME
 *     owner uid: UID
 *     condition: event rule matches
 *       rule: PATTERN (type: user tracepoint, filter: F, log level at least L)
 *       captures:
 *         - EXPR
 *       errors: none
 *     actions:
 *       notify, rate policy: every N occurrences
 *         errors: none
 *     errors: none
 *
 * The errors are LTTng's error counters, each named when it is not 0:
 * an action's "total execution failures", an event rule condition's
 * "discarded tracer messages" (LTTng's: what its programs could not pass
 * on), another trigger's "dropped notifications" (ltt's count of
 * notifications lost on their way).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/probe/probe-loc.h"
#include "ctl/ctl.h"
#include "common/model/trigger.h"
#include "common/model/uri.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

/* LTTng's words for the type of @c's rule. */
static const char *rule_type_words(const struct ltt_trigger_condition *c)
{
	switch (c->domain) {
	case LTT_DOMAIN_KERNEL:
		if (c->rule.type != LTT_EVENT_SYSCALL)
			return "kernel tracepoint";
		/* its location says which of a call's events it takes */
		switch (ltt_syscall_site_parse(c->rule.location ? c->rule.location : "")) {
		case LTT_SYSCALL_SITE_ENTRY:
			return "kernel:syscall:entry";
		case LTT_SYSCALL_SITE_EXIT:
			return "kernel:syscall:exit";
		default:
			return "kernel:syscall:entry+exit";
		}
	case LTT_DOMAIN_PYTHON:
		return "python:logging";
	case LTT_DOMAIN_JUL:
		return "jul:logging";
	case LTT_DOMAIN_LOG4J:
		return "log4j:logging";
	default:
		return "user tracepoint";
	}
}

/* LTTng's name of a domain in a buffer usage condition. */
static const char *domain_words(enum ltt_domain domain)
{
	bool ltt_words = domain == LTT_DOMAIN_KERNEL || domain == LTT_DOMAIN_PYTHON ||
			 domain == LTT_DOMAIN_JUL || domain == LTT_DOMAIN_LOG4J;

	/* ltt's names, but "ust" for user space (and anything else) */
	return ltt_words ? ltt_domain_name(domain) : "ust";
}

/* ", log level is L" or ", log level at least L" (a number without a name). */
static void show_log_level(const struct ltt_trigger_condition *c)
{
	const struct ltt_event_rule_attr *r = &c->rule;
	const char *name = ltt_loglevel_name_domain(c->domain, r->loglevel);
	const char *op = r->loglevel_type == LTT_LOGLEVEL_SINGLE ? "is" : "at least";

	if (r->loglevel_type == LTT_LOGLEVEL_ALL)
		return;
	if (strcmp(name, "UNKNOWN"))
		ctl_out_text(", log level %s %s", op, name);
	else
		ctl_out_text(", log level %s %d", op, r->loglevel);
}

/*
 * A probe rule's type and location, in LTTng's words: "kernel:kprobe,
 * location: SYMBOL[+0xOFFSET]" (or 0xADDR), "kernel:uprobe, location
 * type: ELF, location: PATH:FUNCTION" (SDT: PATH:PROVIDER:NAME).
 */
static void show_probe(const struct ltt_event_rule_attr *r)
{
	struct ltt_probe_loc *loc = malloc(sizeof(*loc));
	char why[64];

	if (!loc || ltt_probe_loc_parse(r->type, r->location ? r->location : "", loc, why,
					sizeof(why))) {
		ctl_out_text("type: %s, location: %s", r->type == LTT_EVENT_UPROBE ?
			     "kernel:uprobe" : "kernel:kprobe", r->location ? r->location : "");
		free(loc);
		return;
	}
	if (loc->kind == LTT_PROBE_KADDR)
		ctl_out_text("type: kernel:kprobe, location: 0x%" PRIx64, loc->addr);
	else if (loc->kind == LTT_PROBE_KSYM && loc->offset)
		ctl_out_text("type: kernel:kprobe, location: %s+0x%" PRIx64, loc->symbol,
			     loc->offset);
	else if (loc->kind == LTT_PROBE_KSYM)
		ctl_out_text("type: kernel:kprobe, location: %s", loc->symbol);
	else if (loc->kind == LTT_PROBE_SDT)
		ctl_out_text("type: kernel:uprobe, location type: SDT, location: %s:%s:%s",
			     loc->path, loc->provider, loc->symbol);
	else
		ctl_out_text("type: kernel:uprobe, location type: ELF, location: %s:%s", loc->path,
			     loc->symbol);
	free(loc);
}

/* "    rule: PATTERN (type: ..., filter: F, log level ..., exclusions: A,B)" and the captures. */
static void show_rule(const struct ltt_trigger_condition *c)
{
	const struct ltt_event_rule_attr *r = &c->rule;
	uint32_t i;

	if (ltt_event_type_is_probe(r->type)) {
		ctl_out_text("    rule: %s (", r->pattern);
		show_probe(r);
	} else {
		ctl_out_text("    rule: %s (type: %s", r->pattern, rule_type_words(c));
	}
	if (r->filter && *r->filter)
		ctl_out_text(", filter: %s", r->filter);
	show_log_level(c);
	if (r->exclusions && *r->exclusions)
		ctl_out_text(", exclusions: %s", r->exclusions);
	ctl_out_text(")\n");
	if (!c->nr_captures)
		return;
	ctl_out_text("    captures:\n");
	for (i = 0; i < c->nr_captures + c->nr_more_captures; i++)
		ctl_out_text("      - %s\n", ctl_util_capture(c, i));
}

/* The session, channel and threshold of the other conditions, a line each. */
static void show_session_condition(const struct ltt_trigger_condition *c)
{
	char ratio[32];

	ctl_out_text("    session name: %s\n", c->session);
	switch (c->type) {
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		ctl_out_text("    channel name: %s\n    domain: %s\n", c->channel,
			     domain_words(c->domain));
		if (c->threshold_size)
			ctl_out_text("    threshold (bytes): %" PRIu64 "\n", c->threshold_size);
		else	/* ctl_out_text() has no floating point conversion */
			ctl_out_text("    threshold (ratio): %s\n",
				     ctl_obj_ratio(ratio, sizeof(ratio), 2, c->threshold_ratio));
		break;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		ctl_out_text("    threshold: %" PRIu64 " bytes\n", c->threshold_size);
		break;
	default:
		break;
	}
}

/* LTTng's name of a condition type. */
static const char *condition_words(enum ltt_condition_type type)
{
	switch (type) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		return "event rule matches";
	case LTT_CONDITION_BUFFER_USAGE_GE:
		return "buffer usage high";
	case LTT_CONDITION_BUFFER_USAGE_LE:
		return "buffer usage low";
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		return "session consumed size";
	case LTT_CONDITION_SESSION_ROTATION_STARTS:
		return "session rotation ongoing";
	case LTT_CONDITION_SESSION_ROTATION_FINISHES:
		return "session rotation completed";
	default:
		return "unknown";
	}
}

/*
 * "errors: none" at @indent spaces, or "errors:" and a line "NAME: N" one
 * level deeper for a counter that is not 0 (@name NULL: none is kept).
 */
static void show_errors(int indent, const char *name, uint64_t value)
{
	if (!name || !value) {
		ctl_out_text("%*serrors: none\n", indent, "");
		return;
	}
	ctl_out_text("%*serrors:\n%*s%s: %" PRIu64 "\n", indent, "", indent + 2, "", name,
		     value);
}

/*
 * ", path: P" (a local directory), ", url: U", or ", control url: C, data
 * url: D" (given as the two, LTTng's --ctrl-url and --data-url), then the
 * name and the size.
 */
static void show_output(const struct ltt_trigger_action *a)
{
	const struct ltt_snapshot_output *o = &a->output;
	char ctrl[LTT_URI_TEXT_SIZE], data[LTT_URI_TEXT_SIZE];
	const char *where = o->output;

	if ((a->output_flags & LTT_TRIGGER_OUTPUT_PAIR) &&
	    !ltt_uri_net_pair(where, ctrl, data, sizeof(ctrl)))
		ctl_out_text(", control url: %s, data url: %s", ctrl, data);
	else if (!strncmp(where, "file://", 7))
		ctl_out_text(", path: %s", where + 7);
	else if (where[0] == '/')
		ctl_out_text(", path: %s", where);
	else if (where[0])
		ctl_out_text(", url: %s", where);
	if (o->name[0])
		ctl_out_text(", name: %s", o->name);
	if (o->max_size)
		ctl_out_text(", max size: %" PRIu64, o->max_size);
}

/* --counters: what ltt counts of action @i, a line under its errors. */
static void show_action_counters(const struct ltt_trigger_info *t, uint32_t i)
{
	char when[32];

	ctl_out_text("      runs: %" PRIu64 ", failures: %" PRIu64, t->actions_run[i],
		     t->actions_failed[i]);
	if (t->last_error[i])
		ctl_out_text(", last error: %s", ltt_error_name(t->last_error[i]));
	if (t->actions_pending[i]) {
		ctl_report_format_time(t->pending_since, when, sizeof(when));
		ctl_out_text(", pending: %u (waiting for the consumer since %s)",
			     (unsigned int)t->actions_pending[i], when);
	}
	ctl_out_text("\n");
}

static void show_action(const struct ltt_trigger_info *t, uint32_t i, bool counters)
{
	const struct ltt_trigger_action *a = &t->attr.actions[i];
	static const char *const verbs[] = {
		[LTT_ACTION_START_SESSION] = "start",
		[LTT_ACTION_STOP_SESSION] = "stop",
		[LTT_ACTION_ROTATE_SESSION] = "rotate",
		[LTT_ACTION_SNAPSHOT_SESSION] = "snapshot",
	};

	if (a->type == LTT_ACTION_INCR_MAP_VALUE)	/* ltt's: no rate policy */
		ctl_out_text("    incr-map-value session `%s`, map channel: %s, key: %s",
			     a->session, a->map.channel, a->map.key);
	else if (a->type >= LTT_ACTION_START_SESSION && a->type <= LTT_ACTION_SNAPSHOT_SESSION)
		ctl_out_text("    %s session `%s`", verbs[a->type], a->session);
	else
		ctl_out_text("    notify");
	if (a->type == LTT_ACTION_SNAPSHOT_SESSION && a->has_output)
		show_output(a);
	if (a->rate_policy == LTT_RATE_ONCE_AFTER)
		ctl_out_text(", rate policy: once after %" PRIu64 " occurrences", a->rate_count);
	else if (a->rate_count > 1)
		ctl_out_text(", rate policy: every %" PRIu64 " occurrences", a->rate_count);
	ctl_out_text("\n");
	show_errors(6, "total execution failures", t->actions_failed[i]);
	if (counters)
		show_action_counters(t, i);
}

static void show_trigger(const struct ltt_trigger_info *t, bool counters, bool as_lttng)
{
	const struct ltt_trigger_condition *c = &t->attr.condition;
	uint32_t i;
	bool erm;

	ctl_out_text("- name: %s\n  owner uid: %" PRId64 "\n", t->attr.name, t->attr.owner_uid);
	ctl_obj_trigger(t, CTL_OBJ_TRIGGER_COUNTERS | (as_lttng ? CTL_OBJ_TRIGGER_AS_LTTNG : 0));
	ctl_out_text("  condition: %s\n", condition_words(c->type));
	if (c->type == LTT_CONDITION_EVENT_RULE_MATCHES)
		show_rule(c);
	else
		show_session_condition(c);
	/* an event rule's lost notifications are its condition's, as LTTng's */
	erm = c->type == LTT_CONDITION_EVENT_RULE_MATCHES;
	show_errors(4, erm ? "discarded tracer messages" : NULL, t->dropped);
	if (counters)
		ctl_out_text("  fired: %" PRIu64 " time%s, notifications dropped: %" PRIu64 "\n",
			     t->fired, t->fired == 1 ? "" : "s", t->dropped);
	ctl_out_text("  actions:\n");
	for (i = 0; i < t->attr.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++)
		show_action(t, i, counters);
	show_errors(2, erm ? NULL : "dropped notifications", t->dropped);
}

/* By name, then by owner (root lists every user's), as LTTng sorts them. */
static int cmp_triggers(const void *a, const void *b)
{
	const struct ltt_trigger_attr *x = &((const struct ltt_trigger_info *)a)->attr;
	const struct ltt_trigger_attr *y = &((const struct ltt_trigger_info *)b)->attr;
	int ret = strcmp(x->name, y->name);

	if (ret)
		return ret;
	return (x->owner_uid > y->owner_uid) - (x->owner_uid < y->owner_uid);
}

static int list(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct ltt_trigger_info *triggers = NULL;
	const bool counters = *(int *)arg;
	const char **args;
	size_t count = 0, i;
	int ret, nr;

	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 0);
	if (ret)
		return ret;
	ret = ctl_util_fetch_triggers(ctx, &triggers, &count);
	if (ret)
		return ret;
	if (count > 1)
		qsort(triggers, count, sizeof(*triggers), cmp_triggers);
	ctl_out_open("triggers");
	for (i = 0; i < count; i++)
		show_trigger(&triggers[i], counters, ctx->lttng_name != NULL);
	ctl_out_close();
	free(triggers);
	return CTL_EXIT_OK;
}

int cmd_list_triggers(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	int counters = 0;
	struct poptOption options[] = {
		{ "counters", 0, POPT_ARG_NONE, &counters, 0,
		  "ltt's counters too: times each trigger fired, each action ran and failed "
		  "(its last error), runs waiting for the consumer", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, NULL, 0, list, &counters);
}
