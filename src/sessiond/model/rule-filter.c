// SPDX-License-Identifier: GPL-2.0-only
/*
 * rule-filter.c - user-space rule matching and filter programs (see
 * ust-filter.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/agent.h"
#include "common/filter/filter-compile.h"
#include "common/base/log.h"
#include "common/base/names.h"
#include "sessiond/model/rule-filter.h"

/* Is @name one of the comma-separated globs of @list? */
static bool excluded(const char *list, const char *name)
{
	char one[LTT_NAME_MAX];
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");

		/* Each was checked shorter than LTT_NAME_MAX (attr.c). */
		if (len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = '\0';
			if (ltt_glob_match(one, name))
				return true;
		}
		p += len;
		if (*p)
			p++;
	}
	return false;
}

bool ltt_rule_takes(const struct ltt_event_rule *rule, const char *name, int loglevel)
{
	/* an agent rule's loggers and level are in its filter (agent.h) */
	if (rule->agent)
		return rule->enabled && !strcmp(name, rule->agent->event);
	if (!rule->enabled || !ltt_glob_match(rule->attr.pattern, name))
		return false;
	switch (rule->attr.loglevel_type) {
	case LTT_LOGLEVEL_RANGE:
		if (loglevel > rule->attr.loglevel)
			return false;
		break;
	case LTT_LOGLEVEL_SINGLE:
		if (loglevel != rule->attr.loglevel)
			return false;
		break;
	default:
		break;
	}
	return !excluded(rule->attr.exclusions, name);
}

bool ltt_ust_rule_takes(const struct ltt_event_rule *rule, const struct ltt_app_tracepoint *tp)
{
	return ltt_rule_takes(rule, tp->name, tp->loglevel);
}

/* FNV-1a, 64 bits. */
static uint64_t hash(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Give up on filtering @f: the event is recorded whole (see the header). */
static void no_programs(struct ltt_ust_filters *f)
{
	uint32_t i;

	for (i = 0; i < f->nr; i++)
		free(f->code[i]);
	f->nr = 0;
}

/*
 * Add @rule's program for @tp to @f.  Returns 1 when the rule takes the
 * event with it (or an identical one is there), 0 when the rule does not
 * take the event (a field it lacks, a type that does not fit), -ENOMEM or
 * -E2BIG (too many programs).
 */
static int add_program(struct ltt_ust_filters *f, const struct ltt_event_rule *rule,
		       const char *name, const struct ltt_filter_field_desc *fields,
		       uint32_t nr_fields)
{
	struct ltt_filter_error err;
	uint8_t *code = NULL;
	size_t len = 0;
	uint32_t i;
	int ret;

	ret = ltt_filter_compile(rule->filter, fields, nr_fields, &code, &len, &err);
	if (ret == -ENOMEM || ret == -E2BIG)
		return ret;
	if (ret) {
		if (ret != -ENOENT)
			LTT_DBG("filter '%s' does not apply to %s: %s", rule->attr.filter,
				  name, err.msg);
		return 0;
	}
	for (i = 0; i < f->nr; i++) {
		if (f->len[i] == len && !memcmp(f->code[i], code, len)) {
			free(code);
			return 1;
		}
	}
	if (f->nr == LTT_APP_FILTER_MAX_PROGRAMS || len > LTT_APP_FILTER_MAX_LEN) {
		free(code);
		return -E2BIG;
	}
	f->code[f->nr] = code;
	f->len[f->nr++] = (uint32_t)len;
	return 1;
}

void ltt_rule_filters_get(const struct ltt_channel *channel, const struct ltt_rule_event *ev,
			  struct ltt_ust_filters *ret)
{
	const struct ltt_filter_field_desc *fields = NULL;
	const struct ltt_event_rule *rule;
	bool unfiltered = false, described = false;
	uint32_t i, nr_fields = 0;
	int err = 0;

	ret->want = false;
	ret->nr = 0;
	ret->sig = 0;
	cds_list_for_each_entry(rule, &channel->rules, node) {
		if ((int)rule->attr.type != ev->type || !ltt_rule_takes(rule, ev->name, ev->loglevel))
			continue;
		if (!rule->filter) {
			unfiltered = ret->want = true;
			continue;
		}
		if (unfiltered || err)
			continue;	/* no program will be sent: no need to compile */
		if (!described) {
			err = ev->fields(ev->arg, &fields, &nr_fields);
			described = true;
		}
		if (!err)
			err = add_program(ret, rule, ev->name, fields, nr_fields);
		if (err > 0)
			ret->want = true;
		if (err < 0) {
			LTT_WARN_RL("event %s: %s: it is recorded without filter", ev->name,
				    err == -ENOMEM ? "no memory to compile its filters" :
				    err == -E2BIG ? "its rules have more than 64 different filters" :
				    "its fields could not be read");
			ret->want = true;
		}
		if (err > 0)
			err = 0;
	}
	if (unfiltered || err)
		no_programs(ret);
	for (i = 0; i < ret->nr; i++) {
		ret->sig = hash(ret->sig ? ret->sig : 0xcbf29ce484222325ULL, &ret->len[i],
				sizeof(ret->len[i]));
		ret->sig = hash(ret->sig, ret->code[i], ret->len[i]);
	}
	if (ret->nr && !ret->sig)
		ret->sig = 1;
}

/* A program event's fields, for ltt_rule_filters_get(). */
struct ust_fields {
	const struct ltt_app_tracepoint *tp;
	struct ltt_filter_field_desc fields[LTT_APP_MAX_FIELDS];
};

static int ust_fields(void *arg, const struct ltt_filter_field_desc **ret, uint32_t *nr)
{
	struct ust_fields *u = arg;

	ltt_app_filter_fields(u->tp, u->fields);
	*ret = u->fields;
	*nr = u->tp->nr_fields;
	return 0;
}

void ltt_ust_filters_get(const struct ltt_channel *channel, const struct ltt_app_tracepoint *tp,
			 struct ltt_ust_filters *ret)
{
	struct ust_fields u = { .tp = tp };
	const struct ltt_rule_event ev = {
		.name = tp->name,
		.loglevel = tp->loglevel,
		.type = LTT_EVENT_TRACEPOINT,
		.fields = ust_fields,
		.arg = &u,
	};

	ltt_rule_filters_get(channel, &ev, ret);
}

void ltt_ust_filters_fini(struct ltt_ust_filters *f)
{
	no_programs(f);
}

void ltt_ust_filters_put(struct ltt_wbuf *w, uint64_t channel_key,
			 const struct ltt_app_tracepoint *tp, const struct ltt_ust_filters *f,
			 uint32_t minor)
{
	struct ltt_app_event_filter *m = calloc(1, sizeof(*m));
	uint32_t i;

	if (!m) {
		w->err = -ENOMEM;
		return;
	}
	m->channel_key = channel_key;
	m->name = tp->name;
	m->layout = tp->layout;
	m->nr_programs = f->nr;
	for (i = 0; i < f->nr; i++)
		m->programs[i] = (struct ltt_app_filter_program){ f->code[i], f->len[i] };
	ltt_app_put_event_filter_v(w, m, minor);
	free(m);
}

/* A rule of the python domain, which ltt's own agent follows (AGENT_RULES)? */
static bool is_python(const struct ltt_event_rule *rule)
{
	return rule->agent && rule->agent->domain == LTT_DOMAIN_PYTHON;
}

uint64_t ltt_agent_rules_put(struct ltt_wbuf *w, const struct ltt_channel *channel,
			     uint64_t channel_key)
{
	const struct ltt_event_rule *rule;
	uint64_t h = 0xcbf29ce484222325ULL;
	uint32_t count = 0;
	bool any = false;

	cds_list_for_each_entry(rule, &channel->rules, node)
		if (is_python(rule) && rule->enabled)
			count++;
	ltt_app_put_agent_rules_start(w, channel_key, count);
	cds_list_for_each_entry(rule, &channel->rules, node) {
		const struct ltt_rule_conf *a = &rule->attr;
		int level = a->loglevel_type == LTT_LOGLEVEL_ALL ? 0 : a->loglevel;

		if (!is_python(rule) || !rule->enabled)
			continue;
		ltt_app_put_agent_rule(w, &(struct ltt_app_agent_rule){
			.pattern = a->pattern,
			.loglevel_type = a->loglevel_type,
			.loglevel = level,
			.exclusions = a->exclusions,
		});
		h = hash(h, a->pattern, strlen(a->pattern) + 1);
		h = hash(h, &a->loglevel_type, sizeof(a->loglevel_type));
		h = hash(h, &level, sizeof(level));
		h = hash(h, a->exclusions, strlen(a->exclusions) + 1);
		any = true;
	}
	return any ? h | 1 : 0;
}
