// SPDX-License-Identifier: LGPL-2.1-only
/*
 * obj-trigger.c - a trigger as LTTng's machine interface writes one
 * (mi-lttng-4.1.xsd's trigger_type, doc/mi.md): add-trigger,
 * list-triggers and remove-trigger report it through out.h.
 *
 *   <trigger>
 *     <name/> <owner_uid/>
 *     <condition> <condition_event_rule_matches> ... or the others
 *     <action> <action_list> <action>... (LTTng's add-trigger always
 *       makes a list, so ltt's actions are one)
 *     <error_query_results>      ltt's notifications dropped (list-triggers'
 *                                only, as LTTng's): an event rule's are its
 *                                condition's, LTTng's "discarded tracer
 *                                messages", and the trigger's list is empty;
 *                                another condition's list is empty, and its
 *                                trigger's holds "dropped notifications"
 *                                (run as lttng: only when not 0)
 *   </trigger>
 *
 * What LTTng's schema has no place for is in list-triggers' text only:
 * how many times the trigger fired, how many times each action ran, an
 * action's last error, and the log level and exclusions of a kernel or
 * python rule's where its event_rule_* has none.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/lttng-words.h"
#include "common/probe/probe-loc.h"
#include "ctl/ctl.h"
#include "common/model/uri.h"
#include "ctl/util.h"

/* LTTng's element of the event rule of @c's domain and type. */
static const char *event_rule_element(const struct ltt_trigger_condition *c)
{
	if (c->domain == LTT_DOMAIN_KERNEL)
		return c->rule.type == LTT_EVENT_SYSCALL ? "event_rule_kernel_syscall" :
		       c->rule.type == LTT_EVENT_KPROBE ? "event_rule_kernel_kprobe" :
		       c->rule.type == LTT_EVENT_UPROBE ? "event_rule_kernel_uprobe" :
							  "event_rule_kernel_tracepoint";
	if (c->domain == LTT_DOMAIN_PYTHON)
		return "event_rule_python_logging";
	if (c->domain == LTT_DOMAIN_JUL)
		return "event_rule_jul_logging";
	if (c->domain == LTT_DOMAIN_LOG4J)
		return "event_rule_log4j_logging";
	return "event_rule_user_tracepoint";
}

/* A probe rule's event and location, as LTTng's kernel_probe_location or userspace_probe_location. */
static void put_probe(const struct ltt_trigger_condition *c)
{
	struct ltt_probe_loc *loc = malloc(sizeof(*loc));
	bool user = c->rule.type == LTT_EVENT_UPROBE;
	char why[64];

	ctl_out_str("event_name", c->rule.pattern);
	if (!loc || ltt_probe_loc_parse(c->rule.type, c->rule.location ? c->rule.location : "",
					loc, why, sizeof(why))) {
		free(loc);
		return;	/* the daemon checked it: not seen */
	}
	ctl_out_open(user ? "userspace_probe_location" : "kernel_probe_location");
	switch (loc->kind) {
	case LTT_PROBE_KADDR:
		ctl_out_open("kernel_probe_location_address");
		ctl_out_u64("address", loc->addr);
		break;
	case LTT_PROBE_KSYM:
		ctl_out_open("kernel_probe_location_symbol_offset");
		ctl_out_str("name", loc->symbol);
		ctl_out_u64("offset", loc->offset);
		break;
	case LTT_PROBE_SDT:
		ctl_out_open("userspace_probe_location_tracepoint");
		ctl_out_str("probe_name", loc->symbol);
		ctl_out_str("provider_name", loc->provider);
		ctl_out_str("binary_path", loc->path);
		ctl_out_open("userspace_probe_location_lookup_method");
		ctl_out_open("userspace_probe_location_lookup_method_tracepoint_sdt");
		ctl_out_close();
		ctl_out_close();
		break;
	default:
		ctl_out_open("userspace_probe_location_function");
		ctl_out_str("name", loc->symbol);
		ctl_out_str("binary_path", loc->path);
		ctl_out_str("instrumentation_type", "ENTRY");
		ctl_out_open("userspace_probe_location_lookup_method");
		ctl_out_open("userspace_probe_location_lookup_method_function_elf");
		ctl_out_close();
		ctl_out_close();
		break;
	}
	ctl_out_close();
	ctl_out_close();
	free(loc);
}

static void put_event_rule(const struct ltt_trigger_condition *c)
{
	const struct ltt_event_rule_attr *r = &c->rule;
	bool kernel = c->domain == LTT_DOMAIN_KERNEL;

	ctl_out_open("event_rule");
	ctl_out_open(event_rule_element(c));
	if (kernel && ltt_event_type_is_probe(r->type)) {
		put_probe(c);
		ctl_out_close();
		ctl_out_close();
		return;
	}
	if (kernel && r->type == LTT_EVENT_SYSCALL)	/* its location says which; LTTng's first */
		ctl_out_str("emission_site", r->location && *r->location ? r->location :
								       "entry+exit");
	ctl_out_str("name_pattern", r->pattern);
	if (r->filter && *r->filter)
		ctl_out_str("filter_expression", r->filter);
	if (!kernel && r->loglevel_type != LTT_LOGLEVEL_ALL) {
		ctl_out_open("log_level_rule");
		ctl_out_open(r->loglevel_type == LTT_LOGLEVEL_SINGLE ?
			     "log_level_rule_exactly" : "log_level_rule_at_least_as_severe_as");
		ctl_out_i64("level", r->loglevel);
		ctl_out_close();
		ctl_out_close();
	}
	if (c->domain == LTT_DOMAIN_USER && r->exclusions && *r->exclusions)
		ctl_obj_name_list("name_pattern_exclusions", "name_pattern_exclusion",
				  r->exclusions);
	ctl_out_close();
	ctl_out_close();
}

/*
 * <event_expr> of capture @s (@len bytes): "$ctx.NAME", "$app.P:T",
 * "FIELD[N]" (an element: the index, then the field's own expression)
 * or a payload field.
 */
static void put_event_expr(const char *s, size_t len)
{
	char text[LTT_CAPTURE_MAX];
	const char *colon, *open;
	unsigned long long index;

	snprintf(text, sizeof(text), "%.*s", (int)len, s);
	ctl_out_open("event_expr");
	open = len && text[len - 1] == ']' ? strrchr(text, '[') : NULL;
	if (open && sscanf(open, "[%llu]", &index) == 1) {
		ctl_out_open("event_expr_array_field_element");
		ctl_out_u64("index", index);
		put_event_expr(text, (size_t)(open - text));
	} else if (!strncmp(text, "$ctx.", 5)) {
		ctl_out_open("event_expr_channel_context_field");
		ctl_out_str("name", text + 5);
	} else if (!strncmp(text, "$app.", 5) && (colon = strchr(text + 5, ':'))) {
		char provider[LTT_CAPTURE_MAX];

		ctl_out_open("event_expr_app_specific_context_field");
		snprintf(provider, sizeof(provider), "%.*s", (int)(colon - text - 5), text + 5);
		ctl_out_str("provider_name", provider);
		ctl_out_str("type_name", colon + 1);
	} else {
		ctl_out_open("event_expr_payload_field");
		ctl_out_str("name", text);
	}
	ctl_out_close();
	ctl_out_close();
}

const char *ctl_obj_ratio(char *buf, size_t len, int digits, double ratio)
{
	snprintf(buf, len, "%.*f", digits, ratio);
	return buf;
}

/* <error_query_results> with one counter: @name, @description, @value. */
static void put_counter(const char *name, const char *description, uint64_t value)
{
	ctl_out_open("error_query_results");
	ctl_out_open("error_query_result");
	ctl_out_str("name", name);
	ctl_out_str("description", description);
	ctl_out_open("error_query_result_counter");
	ctl_out_u64("value", value);
	ctl_out_close();
	ctl_out_close();
	ctl_out_close();
}

static void put_buffer_usage(const struct ltt_trigger_condition *c)
{
	char ratio[32];

	ctl_out_open(c->type == LTT_CONDITION_BUFFER_USAGE_GE ? "condition_buffer_usage_high" :
								"condition_buffer_usage_low");
	ctl_out_str("session_name", c->session);
	ctl_out_str("channel_name", c->channel);
	ctl_out_str("domain", ltt_lttng_domain(c->domain));
	if (c->threshold_size) {
		ctl_out_u64("threshold_bytes", c->threshold_size);
	} else {	/* as LTTng's writer prints a double: %f */
		ctl_out_str("threshold_ratio",
			    ctl_obj_ratio(ratio, sizeof(ratio), 6, c->threshold_ratio));
	}
	ctl_out_close();
}

/*
 * LTTng's counters, as its MI names them: an event rule condition's lost
 * notifications (ltt's dropped ones), an action's failures.
 */
#define LTTNG_DISCARDED "discarded tracer messages"
#define LTTNG_DISCARDED_WHAT \
	"Count of messages discarded by the tracer due to a communication error with the session daemon"
#define LTTNG_FAILURES "total execution failures"
#define LTTNG_FAILURES_WHAT "Aggregated count of errors encountered when executing the action"

/*
 * @t's condition; @counters: with its <error_query_results>, as LTTng's
 * list-triggers: an event rule's counter, another condition's none.
 */
static void put_condition(const struct ltt_trigger_info *t, bool counters)
{
	const struct ltt_trigger_condition *c = &t->attr.condition;
	uint32_t i;

	ctl_out_open("condition");
	switch (c->type) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		ctl_out_open("condition_event_rule_matches");
		put_event_rule(c);
		ctl_out_open("capture_descriptors");
		for (i = 0; i < c->nr_captures + c->nr_more_captures; i++)
			put_event_expr(ctl_util_capture(c, i),
				       strnlen(ctl_util_capture(c, i), LTT_CAPTURE_MAX));
		ctl_out_close();
		ctl_out_close();
		if (counters)
			put_counter(LTTNG_DISCARDED, LTTNG_DISCARDED_WHAT, t->dropped);
		break;
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		put_buffer_usage(c);
		break;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		ctl_out_open("condition_session_consumed_size");
		ctl_out_str("session_name", c->session);
		ctl_out_u64("threshold_bytes", c->threshold_size);
		ctl_out_close();
		break;
	default:
		ctl_out_open(c->type == LTT_CONDITION_SESSION_ROTATION_STARTS ?
			     "condition_session_rotation_ongoing" :
			     "condition_session_rotation_completed");
		ctl_out_str("session_name", c->session);
		ctl_out_close();
		break;
	}
	if (counters && c->type != LTT_CONDITION_EVENT_RULE_MATCHES) {
		ctl_out_open("error_query_results");	/* none, as LTTng's */
		ctl_out_close();
	}
	ctl_out_close();
}

static const char *action_element(enum ltt_action_type type)
{
	switch (type) {
	case LTT_ACTION_START_SESSION:
		return "action_start";
	case LTT_ACTION_STOP_SESSION:
		return "action_stop";
	case LTT_ACTION_ROTATE_SESSION:
		return "action_rotate_session";
	case LTT_ACTION_SNAPSHOT_SESSION:
		return "action_snapshot_session";
	case LTT_ACTION_INCR_MAP_VALUE:
		return "action_incr_map_value";
	default:
		return "action_notify";
	}
}

/* A snapshot action's output, in LTTng's order; a pair as its two URLs. */
static void put_output(const struct ltt_trigger_action *a)
{
	char ctrl[LTT_URI_TEXT_SIZE], data[LTT_URI_TEXT_SIZE];
	bool pair = (a->output_flags & LTT_TRIGGER_OUTPUT_PAIR) &&
		    !ltt_uri_net_pair(a->output.output, ctrl, data, sizeof(ctrl));

	ctl_out_open("output");
	if (a->output.name[0])
		ctl_out_str("name", a->output.name);
	if (pair) {
		ctl_out_str("ctrl_url", ctrl);
		ctl_out_str("data_url", data);
	} else if (a->output.output[0]) {
		ctl_out_str("ctrl_url", a->output.output);
	}
	if (a->output.max_size)
		ctl_out_u64("max_size", a->output.max_size);
	ctl_out_close();
}

/* Action @i of @t: its session, output and rate policy, in LTTng's order. */
static void put_action(const struct ltt_trigger_info *t, uint32_t i, bool counters)
{
	const struct ltt_trigger_action *a = &t->attr.actions[i];

	ctl_out_open("action");
	ctl_out_open(action_element(a->type));
	if (a->type != LTT_ACTION_NOTIFY)
		ctl_out_str("session_name", a->session);
	if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
		ctl_out_str("map_channel_name", a->map.channel);
		ctl_out_str("key", a->map.key);
	}
	if (a->type == LTT_ACTION_SNAPSHOT_SESSION && a->has_output)
		put_output(a);
	ctl_out_open("rate_policy");
	if (a->rate_policy == LTT_RATE_ONCE_AFTER) {
		ctl_out_open("rate_policy_once_after_n");
		ctl_out_u64("threshold", a->rate_count);
	} else {
		ctl_out_open("rate_policy_every_n");
		ctl_out_u64("interval", a->rate_count);
	}
	ctl_out_close();
	ctl_out_close();
	ctl_out_close();
	if (counters)
		put_counter(LTTNG_FAILURES, LTTNG_FAILURES_WHAT, t->actions_failed[i]);
	ctl_out_close();
}

void ctl_obj_trigger(const struct ltt_trigger_info *t, unsigned int flags)
{
	bool counters = flags & CTL_OBJ_TRIGGER_COUNTERS;
	uint32_t i;

	ctl_out_open("trigger");
	ctl_out_str("name", t->attr.name);
	ctl_out_i64("owner_uid", t->attr.owner_uid >= 0 ? t->attr.owner_uid : (int64_t)geteuid());
	put_condition(t, counters);
	ctl_out_open("action");
	ctl_out_open("action_list");
	for (i = 0; i < t->attr.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++)
		put_action(t, i, counters);
	ctl_out_close();
	ctl_out_close();
	/*
	 * An event rule's lost notifications are its condition's, above.
	 * Another's are ltt's counter, which LTTng lacks: run as lttng, it is
	 * there only when not 0, as in the text, so that the list is LTTng's
	 * (empty) until a notification was lost.
	 */
	if (counters && (t->attr.condition.type == LTT_CONDITION_EVENT_RULE_MATCHES ||
			 ((flags & CTL_OBJ_TRIGGER_AS_LTTNG) && !t->dropped))) {
		ctl_out_open("error_query_results");
		ctl_out_close();
	} else if (counters) {
		put_counter("dropped notifications",
			    "times the condition held that the session daemon had no memory to act on",
			    t->dropped);
	}
	ctl_out_close();
}
