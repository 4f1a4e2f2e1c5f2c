// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kernel_filter.c - the daemon's side of kernel filters without the
 * tracer: the rule matching of rule-filter.c as the kernel domain uses it
 * (an event's name and type, exclusions, several rules on one event, a
 * field the event lacks, fields that can't be had), and
 * ltt_kernel_filter_check_rule()'s refusals (module too old, floats,
 * contexts the kernel lacks).  The tracer's side is tests/kernel/
 * (test_kernel_filter.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/filter/filter-parse.h"
#include "sessiond/kernel/kernel-filter.h"
#include "sessiond/model/rule-filter.h"
#include "tests/unit/tap.h"

/* ltt_test_event's first fields, as the tracer describes them. */
static const struct ltt_filter_field_desc test_fields[] = {
	{ .name = "seq", .type = 1, .size = 8 },
	{ .name = "value", .type = 1, .size = 4, .is_signed = 1 },
	{ .name = "name", .type = 3, .size = 1 },
};

static int fields_calls;

static int get_fields(void *arg, const struct ltt_filter_field_desc **ret, uint32_t *nr)
{
	fields_calls++;
	if (arg)
		return -EIO;
	*ret = test_fields;
	*nr = 3;
	return 0;
}

static struct ltt_event_rule *add_rule(struct ltt_channel *ch, const char *pattern, int type,
				       const char *filter, const char *exclusions)
{
	struct ltt_event_rule *r = calloc(1, sizeof(*r));

	snprintf(r->attr.pattern, sizeof(r->attr.pattern), "%s", pattern);
	r->attr.type = type;
	r->attr.loglevel_type = LTT_LOGLEVEL_ALL;
	snprintf(r->attr.filter, sizeof(r->attr.filter), "%s", filter ? filter : "");
	snprintf(r->attr.exclusions, sizeof(r->attr.exclusions), "%s",
		 exclusions ? exclusions : "");
	if (filter && ltt_filter_parse(filter, &r->filter, NULL))
		abort();
	r->enabled = true;
	cds_list_add_tail(&r->node, &ch->rules);
	return r;
}

static void clear(struct ltt_channel *ch)
{
	struct ltt_event_rule *r, *tmp;

	cds_list_for_each_entry_safe(r, tmp, &ch->rules, node) {
		cds_list_del(&r->node);
		ltt_filter_free(r->filter);
		free(r);
	}
}

/* The programs of @name (@type) under @ch's rules. */
static void get(struct ltt_channel *ch, const char *name, int type, void *arg,
		struct ltt_ust_filters *f)
{
	const struct ltt_rule_event ev = {
		.name = name, .type = type, .fields = get_fields, .arg = arg,
	};

	ltt_rule_filters_get(ch, &ev, f);
}

static void matching(void)
{
	struct ltt_channel ch;
	struct ltt_ust_filters f;
	struct ltt_event_rule *r;

	CDS_INIT_LIST_HEAD(&ch.rules);
	r = add_rule(&ch, "sched_*", LTT_EVENT_TRACEPOINT, NULL, "sched_switch,sched_wak*");
	tap_ok(!ltt_rule_takes(r, "sched_switch", 0), "an excluded name is not taken");
	tap_ok(!ltt_rule_takes(r, "sched_wakeup_new", 0), "nor one an exclusion glob matches");
	tap_ok(ltt_rule_takes(r, "sched_process_free", 0), "another name the pattern matches is");
	get(&ch, "sched_process_free", LTT_EVENT_SYSCALL, NULL, &f);
	tap_ok(!f.want, "a system call event is not taken by a tracepoint rule");
	ltt_ust_filters_fini(&f);
	clear(&ch);

	add_rule(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, "seq < 5", NULL);
	add_rule(&ch, "ltt_*", LTT_EVENT_TRACEPOINT, "seq >= 995", NULL);
	add_rule(&ch, "ltt_test_*", LTT_EVENT_TRACEPOINT, "seq < 5", NULL);
	fields_calls = 0;
	get(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, NULL, &f);
	tap_ok(f.want && f.nr == 2 && f.sig, "three rules, two distinct filters: two programs");
	tap_is_int(fields_calls, 1, "the event's fields asked once");
	ltt_ust_filters_fini(&f);
	add_rule(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, "nosuch == 1", NULL);
	get(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, NULL, &f);
	tap_ok(f.want && f.nr == 2, "a rule whose filter names a field the event lacks adds nothing");
	ltt_ust_filters_fini(&f);
	add_rule(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, NULL, NULL);
	get(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, NULL, &f);
	tap_ok(f.want && f.nr == 0 && !f.sig, "a rule without filter: every event, no program");
	ltt_ust_filters_fini(&f);
	clear(&ch);

	add_rule(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, "name == 5", NULL);
	add_rule(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, "nosuch == 1", NULL);
	get(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, NULL, &f);
	tap_ok(!f.want && f.nr == 0, "no filter applies: the event is not taken");
	ltt_ust_filters_fini(&f);
	get(&ch, "ltt_test_event", LTT_EVENT_TRACEPOINT, (void *)1, &f);
	tap_ok(f.want && f.nr == 0, "fields that can't be had: recorded without filter");
	ltt_ust_filters_fini(&f);
	clear(&ch);
}

static enum ltt_error_code check(struct ltt_kernel *k, const char *pattern, const char *filter)
{
	struct ltt_rule_conf a;

	memset(&a, 0, sizeof(a));
	snprintf(a.pattern, sizeof(a.pattern), "%s", pattern);
	snprintf(a.filter, sizeof(a.filter), "%s", filter);
	return ltt_kernel_filter_check_rule(k, &a);
}

static void refusals(void)
{
	struct ltt_kernel k;

	memset(&k, 0, sizeof(k));
	k.backend = &ltt_kabi_module;
	k.version.major = 1;
	k.version.minor = 2;
	tap_is_int(check(&k, "ltt_*", "seq < 5"), LTT_ERR_FILTER_KERNEL_MODULE,
		   "a module of kernel ABI 1.2: FILTER_KERNEL_MODULE");
	tap_is_int(check(&k, "ltt_*", ""), LTT_ERR_OK, "... a rule without filter is fine");
	k.version.minor = LTT_KABI_MINOR_FILTER;
	tap_is_int(check(&k, "ltt_*", "seq < 5 || $ctx.vpid == 1 || name == \"a*\" || $ctx.procname == \"x\""),
		   LTT_ERR_OK, "integers, globs, kernel contexts: accepted");
	tap_is_int(check(&k, "ltt_*", "seq < 5 || value > -1.5"), LTT_ERR_FILTER_KERNEL_FLOAT,
		   "a float literal: FILTER_KERNEL_FLOAT");
	tap_is_int(check(&k, "ltt_*", "!($app.p:n == 1)"), LTT_ERR_FILTER_KERNEL_CONTEXT,
		   "$app: FILTER_KERNEL_CONTEXT");
	tap_is_int(check(&k, "ltt_*", "$ctx.pthread_id == 1"), LTT_ERR_FILTER_KERNEL_CONTEXT,
		   "$ctx.pthread_id: FILTER_KERNEL_CONTEXT");
	tap_is_int(check(&k, "ltt_*", "$ctx.nosuch == 1"), LTT_ERR_FILTER_KERNEL_CONTEXT,
		   "an unknown $ctx: FILTER_KERNEL_CONTEXT");
}

int main(void)
{
	tap_plan(17);
	matching();
	refusals();
	return tap_done();
}
