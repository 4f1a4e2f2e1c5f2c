// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger.c - triggers' checks and wire forms (see trigger.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-error.h>

#include "common/base/names.h"
#include "common/model/map.h"
#include "common/model/attr.h"
#include "common/model/trigger.h"
#include "common/proto/client-proto.h"
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

	if (!n || n >= LTT_NAME_MAX || name[0] == '-' || name[0] == '.')
		return false;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
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

enum ltt_error_code ltt_capture_parse(const char *text, struct ltt_capture_expr *ret)
{
	const char *br;
	size_t n;
	char *end;
	long v;
	int id;

	if (!text || !*text || strlen(text) >= LTT_CAPTURE_MAX)
		return LTT_ERR_TRIGGER_CAPTURE;
	memset(ret, 0, sizeof(*ret));
	if (!strncmp(text, "$ctx.", 5)) {
		id = ctx_id(text + 5);
		if (id < 0)
			return LTT_ERR_TRIGGER_CAPTURE;
		ret->kind = LTT_CAPTURE_KIND_CONTEXT;
		ret->ctx = (uint32_t)id;
		ret->index = -1;
		return LTT_ERR_OK;
	}
	br = strchr(text, '[');
	n = br ? (size_t)(br - text) : strlen(text);
	if (!is_ident(text, n))
		return LTT_ERR_TRIGGER_CAPTURE;
	ret->kind = LTT_CAPTURE_KIND_PAYLOAD;
	memcpy(ret->field, text, n);
	ret->index = -1;
	if (!br)
		return LTT_ERR_OK;
	if (br[1] < '0' || br[1] > '9')
		return LTT_ERR_TRIGGER_CAPTURE;
	errno = 0;
	v = strtol(br + 1, &end, 10);
	if (errno || v < 0 || v > INT32_MAX || end[0] != ']' || end[1])
		return LTT_ERR_TRIGGER_CAPTURE;
	ret->index = v;
	return LTT_ERR_OK;
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

	if (c->domain != LTT_DOMAIN_USER && c->domain != LTT_DOMAIN_KERNEL &&
	    c->domain != LTT_DOMAIN_PYTHON)
		return LTT_ERR_TRIGGER_CONDITION;
	ret = ltt_attr_check_rule(&c->rule);
	if (!ret)
		ret = ltt_attr_check_rule_domain(&c->rule, (enum ltt_domain)c->domain);
	if (!ret && c->rule.exclusions[0])
		ret = ltt_attr_normalize_exclusions(c->rule.pattern, c->rule.exclusions,
						    sizeof(c->rule.exclusions));
	if (ret)
		return ret;
	if (c->nr_captures > LTT_TRIGGER_MAX_CAPTURES)
		return LTT_ERR_TRIGGER_CAPTURE;
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

/* ---- wire forms ---- */

static void put_action(struct ltt_wbuf *w, const struct ltt_action_conf *a)
{
	ltt_wbuf_put_u32(w, a->type);
	ltt_wbuf_put_u32(w, a->rate_policy);
	ltt_wbuf_put_u64(w, a->rate_count);
	ltt_wbuf_put_str(w, a->session);
	ltt_wbuf_put_u8(w, a->has_output);
	if (a->has_output)
		ltt_proto_put_snapshot_output(w, &a->output);
	if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
		ltt_wbuf_put_str(w, a->map);
		ltt_wbuf_put_str(w, a->key);
	}
}

static void get_action(struct ltt_rbuf *r, struct ltt_action_conf *a)
{
	int has;

	a->type = ltt_rbuf_get_u32(r);
	a->rate_policy = ltt_rbuf_get_u32(r);
	a->rate_count = ltt_rbuf_get_u64(r);
	ltt_rbuf_get_str_copy(r, a->session, sizeof(a->session));
	has = ltt_rbuf_get_bool(r);
	a->has_output = has == 1;
	if (a->has_output)
		ltt_proto_get_snapshot_output(r, &a->output);
	if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
		ltt_rbuf_get_str_copy(r, a->map, sizeof(a->map));
		ltt_rbuf_get_str_copy(r, a->key, sizeof(a->key));
	}
}

void ltt_trigger_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c)
{
	uint32_t i;

	ltt_wbuf_put_str(w, c->name);
	ltt_wbuf_put_u64(w, (uint64_t)c->owner_uid);
	ltt_wbuf_put_u32(w, c->cond);
	ltt_wbuf_put_u32(w, c->domain);
	ltt_proto_put_rule_attr(w, &c->rule, LTT_CLIENT_MINOR_TRIGGER);
	ltt_wbuf_put_u32(w, c->nr_captures);
	for (i = 0; i < c->nr_captures && i < LTT_TRIGGER_MAX_CAPTURES; i++)
		ltt_wbuf_put_str(w, c->captures[i]);
	ltt_wbuf_put_str(w, c->session);
	ltt_wbuf_put_str(w, c->channel);
	ltt_wbuf_put_u64(w, c->threshold_size);
	ltt_wbuf_put_u32(w, c->threshold_ppm);
	ltt_wbuf_put_u32(w, c->nr_actions);
	for (i = 0; i < c->nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++)
		put_action(w, &c->actions[i]);
}

void ltt_trigger_get(struct ltt_rbuf *r, struct ltt_trigger_conf *ret)
{
	uint32_t i;

	memset(ret, 0, sizeof(*ret));
	ltt_rbuf_get_str_copy(r, ret->name, sizeof(ret->name));
	ret->owner_uid = (int64_t)ltt_rbuf_get_u64(r);
	ret->cond = ltt_rbuf_get_u32(r);
	ret->domain = ltt_rbuf_get_u32(r);
	ltt_proto_get_rule_attr(r, &ret->rule, LTT_CLIENT_MINOR_TRIGGER);
	ret->nr_captures = ltt_rbuf_get_u32(r);
	if (ret->nr_captures > LTT_TRIGGER_MAX_CAPTURES) {
		ltt_rbuf_fail(r);
		return;
	}
	for (i = 0; i < ret->nr_captures; i++)
		ltt_rbuf_get_str_copy(r, ret->captures[i], sizeof(ret->captures[i]));
	ltt_rbuf_get_str_copy(r, ret->session, sizeof(ret->session));
	ltt_rbuf_get_str_copy(r, ret->channel, sizeof(ret->channel));
	ret->threshold_size = ltt_rbuf_get_u64(r);
	ret->threshold_ppm = ltt_rbuf_get_u32(r);
	ret->nr_actions = ltt_rbuf_get_u32(r);
	if (ret->nr_actions > LTT_TRIGGER_MAX_ACTIONS) {
		ltt_rbuf_fail(r);
		return;
	}
	for (i = 0; i < ret->nr_actions; i++)
		get_action(r, &ret->actions[i]);
}

void ltt_trigger_desc_put(struct ltt_wbuf *w, const struct ltt_trigger_desc *d, uint32_t minor)
{
	uint32_t i;

	ltt_trigger_put(w, &d->conf);
	ltt_wbuf_put_u64(w, d->fired);
	ltt_wbuf_put_u64(w, d->dropped);
	for (i = 0; i < d->conf.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++) {
		ltt_wbuf_put_u64(w, d->runs[i]);
		ltt_wbuf_put_u64(w, d->failures[i]);
		ltt_wbuf_put_u32(w, (uint32_t)d->last_error[i]);
	}
	if (minor < LTT_CLIENT_MINOR_PENDING)
		return;
	ltt_wbuf_put_u64(w, (uint64_t)d->pending_since);
	for (i = 0; i < d->conf.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++)
		ltt_wbuf_put_u32(w, d->pending[i]);
}

void ltt_trigger_desc_get(struct ltt_rbuf *r, struct ltt_trigger_desc *ret, uint32_t minor)
{
	uint32_t i;

	ltt_trigger_get(r, &ret->conf);
	ret->fired = ltt_rbuf_get_u64(r);
	ret->dropped = ltt_rbuf_get_u64(r);
	memset(ret->runs, 0, sizeof(ret->runs));
	memset(ret->failures, 0, sizeof(ret->failures));
	memset(ret->last_error, 0, sizeof(ret->last_error));
	for (i = 0; i < ret->conf.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++) {
		ret->runs[i] = ltt_rbuf_get_u64(r);
		ret->failures[i] = ltt_rbuf_get_u64(r);
		ret->last_error[i] = (int32_t)ltt_rbuf_get_u32(r);
	}
	memset(ret->pending, 0, sizeof(ret->pending));
	ret->pending_since = 0;
	if (minor < LTT_CLIENT_MINOR_PENDING)
		return;
	ret->pending_since = (int64_t)ltt_rbuf_get_u64(r);
	for (i = 0; i < ret->conf.nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++)
		ret->pending[i] = ltt_rbuf_get_u32(r);
}

void ltt_capture_put(struct ltt_wbuf *w, const struct ltt_capture_desc *c)
{
	ltt_wbuf_put_u8(w, c->type);
	if (c->type == LTT_CAPTURE_STRING)
		ltt_wbuf_put_str(w, c->str ? c->str : "");
	else if (c->type != LTT_CAPTURE_UNAVAILABLE)
		ltt_wbuf_put_u64(w, c->bits);
}

void ltt_capture_get(struct ltt_rbuf *r, struct ltt_capture_desc *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->type = ltt_rbuf_get_u8(r);
	switch (ret->type) {
	case LTT_CAPTURE_UNAVAILABLE:
		break;
	case LTT_CAPTURE_SIGNED:
	case LTT_CAPTURE_UNSIGNED:
	case LTT_CAPTURE_FLOAT:
		ret->bits = ltt_rbuf_get_u64(r);
		break;
	case LTT_CAPTURE_STRING:
		ret->str = ltt_rbuf_get_str(r, LTT_CAPTURE_STR_MAX);
		break;
	default:
		ltt_rbuf_fail(r);
	}
}

void ltt_notif_put(struct ltt_wbuf *w, const struct ltt_notif_desc *n)
{
	uint32_t i;

	ltt_wbuf_put_str(w, n->trigger);
	ltt_wbuf_put_u32(w, n->cond);
	ltt_wbuf_put_u64(w, n->seq);
	ltt_wbuf_put_u64(w, (uint64_t)n->time_ns);
	ltt_wbuf_put_u64(w, n->dropped);
	ltt_wbuf_put_str(w, n->session ? n->session : "");
	ltt_wbuf_put_str(w, n->event ? n->event : "");
	ltt_wbuf_put_u64(w, (uint64_t)n->pid);
	ltt_wbuf_put_u64(w, n->value);
	ltt_wbuf_put_str(w, n->path ? n->path : "");
	ltt_wbuf_put_u32(w, n->nr_captures);
	for (i = 0; i < n->nr_captures && i < LTT_TRIGGER_MAX_CAPTURES; i++)
		ltt_capture_put(w, &n->captures[i]);
}

void ltt_notif_get(struct ltt_rbuf *r, struct ltt_notif_desc *ret)
{
	uint32_t i;

	memset(ret, 0, sizeof(*ret));
	ret->trigger = ltt_rbuf_get_str(r, LTT_NAME_MAX);
	ret->cond = ltt_rbuf_get_u32(r);
	ret->seq = ltt_rbuf_get_u64(r);
	ret->time_ns = (int64_t)ltt_rbuf_get_u64(r);
	ret->dropped = ltt_rbuf_get_u64(r);
	ret->session = ltt_rbuf_get_str(r, LTT_NAME_MAX);
	ret->event = ltt_rbuf_get_str(r, LTT_NAME_MAX);
	ret->pid = (int64_t)ltt_rbuf_get_u64(r);
	ret->value = ltt_rbuf_get_u64(r);
	ret->path = ltt_rbuf_get_str(r, LTT_PATH_MAX);
	ret->nr_captures = ltt_rbuf_get_u32(r);
	if (ret->nr_captures > LTT_TRIGGER_MAX_CAPTURES) {
		ltt_rbuf_fail(r);
		ret->nr_captures = 0;
		return;
	}
	for (i = 0; i < ret->nr_captures; i++)
		ltt_capture_get(r, &ret->captures[i]);
}
