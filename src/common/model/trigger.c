// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger.c - triggers' checks and names (see trigger.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-error.h>

#include "common/base/names.h"
#include "common/model/agent.h"
#include "common/model/map.h"
#include "common/model/attr.h"
#include "common/model/trigger.h"
#include "filter-vm/filter-bytecode.h"

static const char *const cond_names[] = {
	[LTT_CONDITION_EVENT_RULE_MATCHES] = "event-rule-matches",
	[LTT_CONDITION_BUFFER_USAGE_GE] = "channel-buffer-usage-ge",
	[LTT_CONDITION_BUFFER_USAGE_LE] = "channel-buffer-usage-le",
	[LTT_CONDITION_SESSION_CONSUMED_SIZE_GE] = "session-consumed-size-ge",
	[LTT_CONDITION_SESSION_ROTATION_STARTS] = "session-rotation-starts",
	[LTT_CONDITION_SESSION_ROTATION_FINISHES] = "session-rotation-finishes",
};

static const char *const action_names[] = {
	[LTT_ACTION_NOTIFY] = "notify",
	[LTT_ACTION_START_SESSION] = "start-session",
	[LTT_ACTION_STOP_SESSION] = "stop-session",
	[LTT_ACTION_ROTATE_SESSION] = "rotate-session",
	[LTT_ACTION_SNAPSHOT_SESSION] = "snapshot-session",
	[LTT_ACTION_INCR_MAP_VALUE] = "incr-map-value",
};

#define NR_CONDS (sizeof(cond_names) / sizeof(cond_names[0]))
#define NR_ACTIONS (sizeof(action_names) / sizeof(action_names[0]))

const char *ltt_condition_type_name(enum ltt_condition_type type)
{
	return (unsigned int)type < NR_CONDS ? cond_names[type] : NULL;
}

const char *ltt_action_type_name(enum ltt_action_type type)
{
	return (unsigned int)type < NR_ACTIONS ? action_names[type] : NULL;
}

static uint32_t parse_name(const char *const *names, uint32_t nr, const char *name)
{
	uint32_t i;

	for (i = 1; name && i < nr; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return 0;
}

uint32_t ltt_condition_type_parse(const char *name)
{
	return parse_name(cond_names, NR_CONDS, name);
}

uint32_t ltt_action_type_parse(const char *name)
{
	return parse_name(action_names, NR_ACTIONS, name);
}

bool ltt_trigger_name_valid(const char *name)
{
	size_t i, n = name ? strlen(name) : 0;

	/* LTTng's: any text ("some name that is hopefully unique"), but lines and tabs */
	if (!n || n >= LTT_NAME_MAX)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

static bool is_ident(const char *s, size_t n)
{
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return false;
	}
	return true;
}

/* The context named @name (filter-bytecode.h's table), or -1. */
static int ctx_id(const char *name)
{
#define CTX_NAME_(n, id, text, type) [id] = text,
	static const char *const names[] = { LTT_FILTER_CTX_TABLE(CTX_NAME_) };
#undef CTX_NAME_
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	return -1;
}

/* "[INDEX]" ending @text at @br: its index into @ret; -1 if malformed. */
static int parse_index(const char *br, int64_t *ret)
{
	char *end;
	long v;

	if (br[1] < '0' || br[1] > '9')
		return -1;
	errno = 0;
	v = strtol(br + 1, &end, 10);
	if (errno || v < 0 || v > INT32_MAX || end[0] != ']' || end[1])
		return -1;
	*ret = v;
	return 0;
}

/*
 * $ctx.NAME (@n bytes from @s) of a context ltt lacks or indexed,
 * $app.PROVIDER:TYPE: as LTTng, taken, their values unavailable.
 */
static bool other_context(const char *s, size_t n)
{
	const char *colon;

	if (n > 5 && !strncmp(s, "$ctx.", 5))
		return !memchr(s + 5, '$', n - 5);
	if (n <= 5 || strncmp(s, "$app.", 5))
		return false;
	colon = memchr(s + 5, ':', n - 5);
	return colon && colon > s + 5 && colon < s + n - 1 && !memchr(s + 5, '$', n - 5);
}

enum ltt_error_code ltt_capture_parse(const char *text, struct ltt_capture_expr *ret)
{
	const char *br;
	size_t n;
	int id;

	if (!text || !*text || strlen(text) >= LTT_CAPTURE_MAX)
		return LTT_ERR_TRIGGER_CAPTURE;
	memset(ret, 0, sizeof(*ret));
	ret->index = -1;
	br = strchr(text, '[');
	n = br ? (size_t)(br - text) : strlen(text);
	if (br && parse_index(br, &ret->index))
		return LTT_ERR_TRIGGER_CAPTURE;
	if (!br && !strncmp(text, "$ctx.", 5) && (id = ctx_id(text + 5)) >= 0) {
		ret->kind = LTT_CAPTURE_KIND_CONTEXT;
		ret->ctx = (uint32_t)id;
		return LTT_ERR_OK;
	}
	if (other_context(text, n)) {
		ret->kind = LTT_CAPTURE_KIND_UNAVAILABLE;
		return LTT_ERR_OK;
	}
	if (!is_ident(text, n))
		return LTT_ERR_TRIGGER_CAPTURE;
	ret->kind = LTT_CAPTURE_KIND_PAYLOAD;
	memcpy(ret->field, text, n);
	return LTT_ERR_OK;
}

static const char *const site_names[] = {
	[LTT_SYSCALL_SITE_BOTH] = "", [LTT_SYSCALL_SITE_ENTRY] = "entry",
	[LTT_SYSCALL_SITE_EXIT] = "exit",
};

int ltt_syscall_site_parse(const char *location)
{
	int i;

	for (i = 0; i < (int)(sizeof(site_names) / sizeof(site_names[0])); i++)
		if (!strcmp(site_names[i], location))
			return i;
	return -1;
}

const char *ltt_syscall_site_name(int site)
{
	return site >= 0 && site < (int)(sizeof(site_names) / sizeof(site_names[0])) ?
	       site_names[site] : NULL;
}

bool ltt_trigger_needs_session(uint32_t cond)
{
	return cond != LTT_CONDITION_EVENT_RULE_MATCHES;
}

static enum ltt_error_code check_rule(struct ltt_trigger_conf *c)
{
	struct ltt_capture_expr e;
	uint32_t i;
	enum ltt_error_code ret;
	int site;

	/* user space, the kernel, or an agent's domain (python, JUL, log4j) */
	if (c->domain != LTT_DOMAIN_USER && c->domain != LTT_DOMAIN_KERNEL &&
	    !ltt_agent_domain((enum ltt_domain)c->domain))
		return LTT_ERR_TRIGGER_CONDITION;
	/* the exclusions in their one form first: the rule's check wants them so */
	ret = ltt_attr_normalize_exclusions(c->rule.pattern, c->rule.exclusions,
					    sizeof(c->rule.exclusions));
	/* a system call rule's site, in its location, is a trigger's only */
	site = c->rule.type == LTT_EVENT_SYSCALL && c->domain == LTT_DOMAIN_KERNEL &&
	       memchr(c->rule.location, '\0', sizeof(c->rule.location)) ?
	       ltt_syscall_site_parse(c->rule.location) : 0;
	if (!ret && site < 0)
		ret = LTT_ERR_TRIGGER_CONDITION;
	if (!ret && site > 0)
		c->rule.location[0] = '\0';
	if (!ret)
		ret = ltt_attr_check_rule(&c->rule);
	if (site > 0)
		strcpy(c->rule.location, ltt_syscall_site_name(site));
	if (!ret)
		ret = ltt_attr_check_rule_domain(&c->rule, (enum ltt_domain)c->domain);
	if (ret)
		return ret;
	if (c->nr_captures > LTT_TRIGGER_CAPTURES_LIMIT)
		return LTT_ERR_TRIGGER_CAPTURES;
	for (i = 0; i < c->nr_captures; i++)
		if (ltt_capture_parse(c->captures[i], &e))
			return LTT_ERR_TRIGGER_CAPTURE;
	return LTT_ERR_OK;
}

static enum ltt_error_code check_condition(struct ltt_trigger_conf *c)
{
	switch (c->cond) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		return check_rule(c);
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		if (!ltt_channel_name_valid(c->channel) ||
		    (c->domain != LTT_DOMAIN_USER && c->domain != LTT_DOMAIN_KERNEL))
			return LTT_ERR_TRIGGER_CONDITION;
		if (!c->threshold_size && c->threshold_ppm > LTT_TRIGGER_PPM)
			return LTT_ERR_TRIGGER_THRESHOLD;
		break;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		if (!c->threshold_size)
			return LTT_ERR_TRIGGER_THRESHOLD;
		break;
	case LTT_CONDITION_SESSION_ROTATION_STARTS:
	case LTT_CONDITION_SESSION_ROTATION_FINISHES:
		break;
	default:
		return LTT_ERR_TRIGGER_CONDITION;
	}
	if (!ltt_session_name_valid(c->session) || c->nr_captures)
		return LTT_ERR_TRIGGER_CONDITION;
	return LTT_ERR_OK;
}

static enum ltt_error_code check_action(const struct ltt_action_conf *a)
{
	if (!a->type || a->type >= NR_ACTIONS || a->rate_count < 1 ||
	    (a->rate_policy != LTT_RATE_EVERY && a->rate_policy != LTT_RATE_ONCE_AFTER))
		return LTT_ERR_TRIGGER_ACTION;
	if (a->type == LTT_ACTION_NOTIFY)
		return a->session[0] || a->has_output ? LTT_ERR_TRIGGER_ACTION : LTT_ERR_OK;
	if (!ltt_session_name_valid(a->session))
		return LTT_ERR_TRIGGER_ACTION;
	if (a->has_output && a->type != LTT_ACTION_SNAPSHOT_SESSION)
		return LTT_ERR_TRIGGER_ACTION;
	/* a pair's output is the net URL of its two */
	if ((a->output_flags && !a->has_output) || (a->output_flags & ~LTT_TRIGGER_OUTPUTS_KNOWN) ||
	    ((a->output_flags & LTT_TRIGGER_OUTPUT_PAIR) && a->output.output_type != LTT_OUTPUT_NET))
		return LTT_ERR_TRIGGER_ACTION;
	if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
		if (!ltt_channel_name_valid(a->map))
			return LTT_ERR_TRIGGER_ACTION;
		if (!ltt_map_key_valid(a->key))
			return LTT_ERR_MAP_KEY;
		return a->rate_policy == LTT_RATE_EVERY && a->rate_count == 1 ? LTT_ERR_OK :
										LTT_ERR_MAP_ACTION;
	}
	return a->has_output ? ltt_attr_check_snapshot_output(&a->output, false) : LTT_ERR_OK;
}

enum ltt_error_code ltt_trigger_check(struct ltt_trigger_conf *c)
{
	uint32_t i;
	enum ltt_error_code ret;

	if (c->name[0] && !ltt_trigger_name_valid(c->name))
		return LTT_ERR_TRIGGER_NAME;
	if (c->owner_uid < -1 || c->owner_uid > (int64_t)UINT32_MAX - 1)
		return LTT_ERR_TRIGGER_OWNER;
	ret = check_condition(c);
	if (ret)
		return ret;
	if (!c->nr_actions || c->nr_actions > LTT_TRIGGER_MAX_ACTIONS)
		return LTT_ERR_TRIGGER_ACTION;
	for (i = 0; i < c->nr_actions; i++) {
		ret = check_action(&c->actions[i]);
		if (ret)
			return ret;
		if (c->actions[i].type == LTT_ACTION_INCR_MAP_VALUE &&
		    (c->nr_actions != 1 || c->cond != LTT_CONDITION_EVENT_RULE_MATCHES ||
		     (c->domain != LTT_DOMAIN_USER && c->domain != LTT_DOMAIN_KERNEL) ||
		     c->nr_captures))
			return LTT_ERR_MAP_ACTION;
	}
	return LTT_ERR_OK;
}

bool ltt_trigger_counts(const struct ltt_trigger_conf *c)
{
	return c->nr_actions == 1 && c->actions[0].type == LTT_ACTION_INCR_MAP_VALUE;
}
