// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_attr.c - the checks the control library and the session daemon
 * share (common/model/attr.c, trigger.c, convert.c) say what is wrong with the
 * public code itself, as the daemon answers it; libltt-ctl's functions
 * give the same code negated, at their API only.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/model/trigger.h"
#include "tests/unit/tap.h"

static struct ltt_channel_conf channel(void)
{
	struct ltt_channel_conf c;

	tap_is_int(ltt_attr_channel_defaults(&c, LTT_DOMAIN_USER), LTT_ERR_OK,
		   "user space has default channel attributes");
	return c;
}

/* --buffer-allocation: per channel in user space only, nothing past the enum. */
static void allocations(void)
{
	static const struct {
		uint8_t allocation;
		enum ltt_domain domain;
		enum ltt_error_code want;
		const char *what;
	} cases[] = {
		{ LTT_ALLOC_PER_CHANNEL, LTT_DOMAIN_USER, LTT_ERR_OK,
		  "one ring buffer per channel in user space: valid" },
		{ LTT_ALLOC_PER_CHANNEL, LTT_DOMAIN_KERNEL, LTT_ERR_KERNEL_PER_CHANNEL,
		  "and in the kernel: KERNEL_PER_CHANNEL" },
		{ 2, LTT_DOMAIN_USER, LTT_ERR_BUFFER_ALLOCATION,
		  "an allocation that is no enum ltt_buffer_allocation: BUFFER_ALLOCATION" },
	};
	struct ltt_channel_conf c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = channel();
		c.buffer_type = LTT_BUFFER_DEFAULT;	/* the domain's */
		c.allocation = cases[i].allocation;
		tap_is_int(ltt_attr_check_channel(&c, cases[i].domain), cases[i].want, "%s",
			   cases[i].what);
	}
}

static void channels(void)
{
	struct ltt_channel_conf c;

	tap_is_int(ltt_attr_channel_defaults(&c, (enum ltt_domain)99), LTT_ERR_DOMAIN,
		   "no defaults for an unknown domain: DOMAIN");
	c = channel();
	tap_is_int(ltt_attr_check_channel(&c, LTT_DOMAIN_USER), LTT_ERR_OK, "the defaults are valid");
	c = channel();
	c.subbuf_size = 3000;
	tap_is_int(ltt_attr_check_channel(&c, LTT_DOMAIN_USER), LTT_ERR_SUBBUF_SIZE,
		   "a sub-buffer size not a power of two: SUBBUF_SIZE");
	c = channel();
	c.num_subbuf = 1;
	tap_is_int(ltt_attr_check_channel(&c, LTT_DOMAIN_USER), LTT_ERR_SUBBUF_COUNT,
		   "one sub-buffer: SUBBUF_COUNT");
	c = channel();
	c.buffer_type = LTT_BUFFER_GLOBAL;
	tap_is_int(ltt_attr_check_channel(&c, LTT_DOMAIN_USER), LTT_ERR_BUFFER_TYPE,
		   "global buffers in user space: BUFFER_TYPE");
	c = channel();
	c.read_timer_us = 1;
	tap_is_int(ltt_attr_check_channel(&c, LTT_DOMAIN_USER), LTT_ERR_TIMER_MIN,
		   "a read timer of 1 us: TIMER_MIN");
	allocations();
}

/*
 * LTTng's exclusion rules (lttng-tools' tools/exclusion): an exclusion
 * glob that takes some of the pattern's names is taken; one that takes
 * all of them is refused (one that takes none is kept: the client warns).
 */
static void exclusions(struct ltt_rule_conf *r)
{
	static const char *const taken[] = {
		"tp:tptest2", "tp*tptest*", "*test2", "*p***test*", "tp*test3,*2",
		"**tp*test3,*2", "*3",
	};
	char list[LTT_EXCLUSIONS_MAX];
	size_t i;

	strcpy(r->pattern, "tp:*");
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		strcpy(list, taken[i]);
		tap_is_int(ltt_attr_normalize_exclusions(r->pattern, list, sizeof(list)),
			   LTT_ERR_OK, "'tp:*' excluding '%s' is taken", taken[i]);
	}
	strcpy(list, "tp*test3,*2,*2");
	ltt_attr_normalize_exclusions(r->pattern, list, sizeof(list));
	tap_is_str(list, "*2,tp*test3", "and its exclusions sorted, once each");
	strcpy(r->pattern, "allo*");
	strcpy(r->exclusions, "all*");
	tap_is_int(ltt_attr_check_rule(r), LTT_ERR_EXCLUSION,
		   "'allo*' excluding 'all*' (every name it takes): EXCLUSION");
	strcpy(r->exclusions, "ze,all*,yes");
	tap_is_int(ltt_attr_check_rule(r), LTT_ERR_EXCLUSION,
		   "'allo*' excluding 'ze,all*,yes': EXCLUSION");
	strcpy(r->pattern, "allo");
	strcpy(r->exclusions, "z*em");
	tap_is_int(ltt_attr_check_rule(r), LTT_ERR_EXCLUSION,
		   "a pattern without a star ('allo'): EXCLUSION");
	strcpy(r->pattern, "allo\\*");
	strcpy(r->exclusions, "allo");
	tap_is_int(ltt_attr_check_rule(r), LTT_ERR_EXCLUSION,
		   "a pattern whose only star is escaped ('allo\\*'): EXCLUSION");
	strcpy(r->pattern, "app:*");
}

static void rules(void)
{
	struct ltt_rule_conf r = { .type = LTT_EVENT_TRACEPOINT };
	char msg[128], name[LTT_NAME_MAX];

	strcpy(r.pattern, "app:*");
	tap_is_int(ltt_attr_check_rule(&r), LTT_ERR_OK, "'app:*' is a valid rule");
	strcpy(r.filter, "x ==");
	tap_is_int(ltt_attr_check_rule(&r), LTT_ERR_FILTER, "a filter that does not parse: FILTER");
	tap_is_int(ltt_attr_check_filter("x ==", msg, sizeof(msg)), LTT_ERR_FILTER,
		   "ltt_attr_check_filter(): FILTER");
	tap_ok(msg[0] != '\0', "with a message that says where");
	tap_is_int(ltt_ctl_filter_check("x ==", NULL, 0), -LTT_ERR_FILTER,
		   "libltt-ctl gives the same code negated");
	r.filter[0] = '\0';
	strcpy(r.exclusions, "other:x");
	tap_is_int(ltt_attr_check_rule(&r), LTT_ERR_OK,
		   "an exclusion the pattern does not match is kept, as LTTng's daemon keeps it");
	tap_is_str(ltt_attr_idle_exclusion(r.pattern, "app:b,other:x", name, sizeof(name)),
		   "other:x", "... and the first exclusion that takes none of its names is said");
	tap_ok(!ltt_attr_idle_exclusion(r.pattern, "app:b,app:c*", name, sizeof(name)),
	       "none is said when each exclusion takes some of its names");
	exclusions(&r);
	r.exclusions[0] = '\0';
	r.type = LTT_EVENT_SYSCALL;
	tap_is_int(ltt_attr_check_rule_domain(&r, LTT_DOMAIN_USER), LTT_ERR_EVENT_TYPE,
		   "a system call rule in user space: EVENT_TYPE");
}

/*
 * Each domain's log levels, where ltt_attr_check_rule_domain() bounds
 * them (the decoder takes any 32-bit level): the lowest and the highest
 * taken, one past each refused where a 32-bit number has room.
 */
static void levels(void)
{
	static const struct {
		enum ltt_domain domain;
		int min, max;
	} bounds[] = {
		{ LTT_DOMAIN_USER, LTT_LOGLEVEL_EMERG, LTT_LOGLEVEL_DEBUG },
		{ LTT_DOMAIN_PYTHON, 0, LTT_PYTHON_LOGLEVEL_MAX },
		{ LTT_DOMAIN_JUL, INT32_MIN, INT32_MAX },
		{ LTT_DOMAIN_LOG4J, INT32_MIN, INT32_MAX },
	};
	struct ltt_rule_conf r = { .type = LTT_EVENT_TRACEPOINT, .pattern = "p" };
	const char *name, *type;
	size_t i;

	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		name = ltt_domain_name(bounds[i].domain);
		for (r.loglevel_type = LTT_LOGLEVEL_RANGE; r.loglevel_type <= LTT_LOGLEVEL_SINGLE;
		     r.loglevel_type++) {
			type = r.loglevel_type == LTT_LOGLEVEL_RANGE ? "RANGE" : "SINGLE";
			r.loglevel = bounds[i].min;
			tap_is_int(ltt_attr_check_rule_domain(&r, bounds[i].domain), LTT_ERR_OK,
				   "%s, %s: level %d taken", name, type, r.loglevel);
			r.loglevel = bounds[i].max;
			tap_is_int(ltt_attr_check_rule_domain(&r, bounds[i].domain), LTT_ERR_OK,
				   "%s, %s: level %d taken", name, type, r.loglevel);
			if (bounds[i].min == INT32_MIN)
				continue;
			r.loglevel = bounds[i].min - 1;
			tap_is_int(ltt_attr_check_rule_domain(&r, bounds[i].domain), LTT_ERR_LOGLEVEL,
				   "%s, %s: level %d refused: LOGLEVEL", name, type, r.loglevel);
			r.loglevel = bounds[i].max + 1;
			tap_is_int(ltt_attr_check_rule_domain(&r, bounds[i].domain), LTT_ERR_LOGLEVEL,
				   "%s, %s: level %d refused: LOGLEVEL", name, type, r.loglevel);
		}
	}
	r.loglevel_type = LTT_LOGLEVEL_ALL;
	r.loglevel = INT32_MIN;
	tap_is_int(ltt_attr_check_rule_domain(&r, LTT_DOMAIN_USER), LTT_ERR_OK,
		   "user: no level condition, its number ignored");
	tap_is_int(ltt_attr_check_rule_domain(&r, LTT_DOMAIN_KERNEL), LTT_ERR_OK,
		   "kernel: no level condition taken");
	r.loglevel_type = LTT_LOGLEVEL_RANGE;
	r.loglevel = 0;
	tap_is_int(ltt_attr_check_rule_domain(&r, LTT_DOMAIN_KERNEL), LTT_ERR_KERNEL_LOGLEVEL,
		   "kernel: any level condition refused: KERNEL_LOGLEVEL");
}

static void sessions(void)
{
	struct ltt_session_conf s = { .output_type = LTT_OUTPUT_LOCAL };
	struct ltt_snapshot_output_conf o = { .output_type = LTT_OUTPUT_NET };

	strcpy(s.name, "s1");
	strcpy(s.output, "/tmp/s1");
	tap_is_int(ltt_attr_check_session(&s), LTT_ERR_OK, "a local session is valid");
	strcpy(s.output, "relative");
	tap_is_int(ltt_attr_check_session(&s), LTT_ERR_OUTPUT_PATH,
		   "a relative output: OUTPUT_PATH");
	s.output_type = LTT_OUTPUT_NET;
	strcpy(s.output, "http://x");
	tap_is_int(ltt_attr_check_session(&s), LTT_ERR_URL, "a URL not net://: URL");
	s.name[0] = '\0';
	tap_is_int(ltt_attr_check_session(&s), LTT_ERR_SESSION_NAME, "no name: SESSION_NAME");
	tap_is_int(ltt_attr_check_rotation(0, 0), LTT_ERR_ROTATION_VALUE,
		   "a rotation with neither timer nor size: ROTATION_VALUE");
	tap_is_int(ltt_attr_check_rotation(0, 1), LTT_ERR_OK,
		   "a rotation each byte written is valid (LTTng's sizes have no minimum)");
	tap_is_int(ltt_attr_check_rotation(1, 0), LTT_ERR_OK,
		   "a period of 1 us is valid (LTTng's periods have no minimum)");
	strcpy(o.output, "file:///x");
	tap_is_int(ltt_attr_check_snapshot_output(&o, true), LTT_ERR_URL,
		   "a snapshot output to a file:// URL: URL");
}

static void more_captures(struct ltt_trigger_attr *a);

static void triggers(void)
{
	struct ltt_trigger_attr a = { .condition = { .type = LTT_CONDITION_EVENT_RULE_MATCHES } };
	struct ltt_trigger_conf c;
	struct ltt_capture_expr e;

	tap_ok(!ltt_capture_parse("$ctx.nope", &e) && e.kind == LTT_CAPTURE_KIND_UNAVAILABLE,
	       "a context ltt lacks: taken, as LTTng, its value unavailable");
	tap_ok(!ltt_capture_parse("$app.prov:type[2]", &e) &&
	       e.kind == LTT_CAPTURE_KIND_UNAVAILABLE && e.index == 2,
	       "an app context's element: taken, unavailable");
	tap_ok(!ltt_capture_parse("$ctx.vpid[1]", &e) && e.kind == LTT_CAPTURE_KIND_UNAVAILABLE,
	       "an element of a context: taken, unavailable");
	tap_is_int(ltt_capture_parse("$app.nope", &e), LTT_ERR_TRIGGER_CAPTURE,
		   "an app context without its ':TYPE': TRIGGER_CAPTURE");
	tap_is_int(ltt_capture_parse("$app.p:", &e), LTT_ERR_TRIGGER_CAPTURE,
		   "... or with an empty type: TRIGGER_CAPTURE");
	tap_is_int(ltt_capture_parse("field[3]", &e), LTT_ERR_OK, "'field[3]' is a capture");
	a.reserved[0] = 1;
	tap_is_int(ltt_conv_trigger_attr_to_conf(&a, &c), LTT_ERR_NOT_SUPPORTED,
		   "a reserved byte set: NOT_SUPPORTED");
	a.reserved[0] = 0;
	a.condition.domain = LTT_DOMAIN_USER;
	strcpy(a.condition.rule.pattern, "app:*");
	tap_is_int(ltt_conv_trigger_attr_to_conf(&a, &c), LTT_ERR_OK, "converted");
	tap_is_int(ltt_trigger_check(&c), LTT_ERR_TRIGGER_ACTION, "no action: TRIGGER_ACTION");
	more_captures(&a);
}

/* Captures past the public array's (client protocol 1.33): more_captures, in and out. */
static void more_captures(struct ltt_trigger_attr *a)
{
	static char text[LTT_TRIGGER_CAPTURES_LIMIT + 1][16];
	static struct ltt_trigger_conf c;
	static struct ltt_trigger_desc d;
	static struct ltt_trigger_info info;
	static struct ltt_notification out;
	const char *more[LTT_TRIGGER_CAPTURES_LIMIT + 1];
	const char *room[LTT_TRIGGER_CAPTURES_LIMIT - LTT_TRIGGER_MAX_CAPTURES];
	struct ltt_capture_value values[LTT_TRIGGER_CAPTURES_LIMIT - LTT_TRIGGER_MAX_CAPTURES];
	struct ltt_notif_desc n = { .trigger = "t", .session = "", .event = "e", .path = "" };
	uint32_t i;

	for (i = 0; i <= LTT_TRIGGER_CAPTURES_LIMIT; i++) {
		snprintf(text[i], sizeof(text[i]), "c%u", i);
		more[i] = text[i];
	}
	a->condition.nr_captures = 2;
	strcpy(a->condition.captures[0], "c0");
	strcpy(a->condition.captures[1], "c1");
	a->condition.more_captures = more + 2;
	a->condition.nr_more_captures = 38;
	tap_ok(!ltt_conv_trigger_attr_to_conf(a, &c) && c.nr_captures == 40 &&
	       !strcmp(c.captures[1], "c1") && !strcmp(c.captures[2], "c2") &&
	       !strcmp(c.captures[39], "c39"),
	       "2 captures in the array, 38 in more_captures: 40, in order");
	a->condition.nr_more_captures = LTT_TRIGGER_CAPTURES_LIMIT - 1;
	tap_is_int(ltt_conv_trigger_attr_to_conf(a, &c), LTT_ERR_TRIGGER_CAPTURES,
		   "65 in all: TRIGGER_CAPTURES");
	a->condition.nr_more_captures = 1;
	a->condition.more_captures = NULL;
	tap_is_int(ltt_conv_trigger_attr_to_conf(a, &c), LTT_ERR_INVAL,
		   "a count of more_captures without the array: INVAL");
	a->condition.nr_more_captures = 0;
	a->condition.pad = 1;
	tap_is_int(ltt_conv_trigger_attr_to_conf(a, &c), LTT_ERR_NOT_SUPPORTED,
		   "its padding set: NOT_SUPPORTED, as a reserved byte");
	a->condition.pad = 0;
	a->condition.nr_captures = 0;

	d.conf.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	d.conf.nr_captures = 40;
	for (i = 0; i < 40; i++)
		strcpy(d.conf.captures[i], text[i]);
	ltt_conv_trigger_desc_to_info(&d, &info, room);
	tap_ok(info.attr.condition.nr_captures == 16 && info.attr.condition.nr_more_captures == 24 &&
	       !strcmp(info.attr.condition.captures[15], "c15") &&
	       !strcmp(info.attr.condition.more_captures[0], "c16") &&
	       !strcmp(info.attr.condition.more_captures[23], "c39"),
	       "listed: the first 16 in the array (an older caller's view), the 24 others after");

	n.nr_captures = 20;
	for (i = 0; i < 20; i++)
		n.captures[i] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_SIGNED, .bits = i };
	n.captures[19] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_STRING, .str = "last" };
	ltt_conv_notif_to_notification(&n, &out, values, NULL, text[LTT_TRIGGER_CAPTURES_LIMIT]);
	tap_ok(out.nr_captures == 16 && out.nr_more_captures == 4 && out.captures[15].s == 15 &&
	       out.more_captures == values && values[0].s == 16 &&
	       values[3].type == LTT_CAPTURE_STRING && !strcmp(values[3].str, "last"),
	       "a notification of 20: 16 in the array, 4 in more_captures, the string copied");
}

int main(void)
{
	tap_plan(88);
	channels();
	rules();
	levels();
	sessions();
	triggers();
	return tap_done();
}
