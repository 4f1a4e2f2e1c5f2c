// SPDX-License-Identifier: LGPL-2.1-only
/*
 * list_triggers.c - lttctl list-triggers: the caller's triggers (root:
 * everyone's), each with its condition, its actions and their counters,
 * as LTTng's list-triggers shows them; in --mi xml, LTTng's <triggers>
 * (obj-trigger.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/base/size.h"
#include "ctl/ctl.h"
#include "ctl/report.h"

/* How add-trigger's --type spells the rule's kind. */
static const char *rule_type_name(const struct ltt_trigger_condition *c)
{
	if (c->domain == LTT_DOMAIN_KERNEL)
		return c->rule.type == LTT_EVENT_SYSCALL ? "kernel:syscall" : "kernel:tracepoint";
	return c->domain == LTT_DOMAIN_PYTHON ? "python" : "user";
}

/* "rule: PATTERN (type: user, ...)" and the captures. */
static void show_rule(const struct ltt_trigger_condition *c)
{
	const struct ltt_event_rule_attr *r = &c->rule;
	const char *level = ltt_loglevel_name_domain(c->domain, r->loglevel);
	uint32_t i;

	ctl_out_text("    rule: %s (type: %s", r->pattern, rule_type_name(c));
	if (r->exclusions && *r->exclusions)
		ctl_out_text(", exclusions: %s", r->exclusions);
	if (r->loglevel_type == LTT_LOGLEVEL_RANGE)
		ctl_out_text(", log level: %s or more severe", level);
	else if (r->loglevel_type == LTT_LOGLEVEL_SINGLE)
		ctl_out_text(", log level: exactly %s", level);
	if (r->filter && *r->filter)
		ctl_out_text(", filter: %s", r->filter);
	ctl_out_text(")\n");
	if (!c->nr_captures)
		return;
	ctl_out_text("    captures:");
	for (i = 0; i < c->nr_captures && i < LTT_TRIGGER_MAX_CAPTURES; i++)
		ctl_out_text("%s %s", i ? "," : "", c->captures[i]);
	ctl_out_text("\n");
}

/* The session, channel and threshold of the other conditions. */
static void show_session_condition(const struct ltt_trigger_condition *c)
{
	char size[32], ratio[32];
	bool buffers = c->type == LTT_CONDITION_BUFFER_USAGE_GE ||
		       c->type == LTT_CONDITION_BUFFER_USAGE_LE;

	ctl_out_text("    session: %s", c->session);
	if (buffers)
		ctl_out_text(", channel: %s (%s)", c->channel, ltt_domain_name(c->domain));
	if (buffers && !c->threshold_size) {
		snprintf(ratio, sizeof(ratio), "%.6g", c->threshold_ratio);
		ctl_out_text(", threshold: %s of the buffers", ratio);
	} else if (c->threshold_size) {
		ltt_size_format(c->threshold_size, size, sizeof(size));
		ctl_out_text(", threshold: %s", size);
	}
	ctl_out_text("\n");
}

static void show_condition(const struct ltt_trigger_condition *c)
{
	const char *type = ltt_condition_type_name(c->type);

	ctl_out_text("  condition: %s\n", type ? type : "unknown");
	if (c->type == LTT_CONDITION_EVENT_RULE_MATCHES)
		show_rule(c);
	else
		show_session_condition(c);
}

/* A snapshot-session action's own output. */
static void show_output(const struct ltt_snapshot_output *o)
{
	char size[32];

	ctl_out_text("      output: %s", o->output[0] ? o->output : "the session's");
	if (o->name[0])
		ctl_out_text(", name: %s", o->name);
	if (o->max_size) {
		ltt_size_format(o->max_size, size, sizeof(size));
		ctl_out_text(", max size: %s", size);
	}
	ctl_out_text("\n");
}

static void show_action(const struct ltt_trigger_info *t, uint32_t i)
{
	const struct ltt_trigger_action *a = &t->attr.actions[i];
	const char *type = ltt_action_type_name(a->type);
	const char *policy = a->rate_policy == LTT_RATE_ONCE_AFTER ? "once-after" : "every";
	char when[32];

	type = type ? type : "unknown";
	if (a->type == LTT_ACTION_NOTIFY)
		ctl_out_text("    %s", type);
	else
		ctl_out_text("    %s %s", type, a->session);
	if (a->type == LTT_ACTION_INCR_MAP_VALUE)	/* counted in the programs: no run */
		ctl_out_text(", map channel: %s, key: %s\n", a->map.channel, a->map.key);
	else
		ctl_out_text(", rate policy: %s:%" PRIu64 "\n", policy, a->rate_count);
	if (a->has_output)
		show_output(&a->output);
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

static void show_trigger(const struct ltt_trigger_info *t)
{
	uint32_t i;

	ctl_out_text("- name: %s\n  owner uid: %" PRId64 "\n", t->attr.name, t->attr.owner_uid);
	ctl_obj_trigger(t);
	show_condition(&t->attr.condition);
	ctl_out_text("  fired: %" PRIu64 " time%s, notifications dropped: %" PRIu64 "\n",
		     t->fired, t->fired == 1 ? "" : "s", t->dropped);
	ctl_out_text("  actions:\n");
	for (i = 0; i < t->attr.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++)
		show_action(t, i);
}

int cmd_list_triggers(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct ltt_trigger_info *triggers = NULL;
	struct ltt_ctl *ctl = NULL;
	const char **args;
	size_t count = 0, i;
	poptContext pc;
	int ret, nr;

	ret = ctl_util_parse_args(ctx, argc, argv, 0, &pc, &args, &nr);
	if (ret != CTL_GO_ON)
		return ret;
	poptFreeContext(pc);
	ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	ret = ltt_ctl_list_triggers(ctl, &triggers, &count);
	ltt_ctl_disconnect(ctl);
	if (ret == -LTT_ERR_NOT_SUPPORTED)
		ctl_util_trigger_error(NULL, ret);
	else if (ret)
		ctl_out_error(ret, "listing the triggers: %s", ltt_strerror(ret));
	if (ret)
		return CTL_EXIT_FAILURE;
	ctl_out_open("triggers");
	for (i = 0; i < count; i++)
		show_trigger(&triggers[i]);
	ctl_out_close();
	if (!count)
		ctl_out_info("No trigger.");
	free(triggers);
	return CTL_EXIT_OK;
}
