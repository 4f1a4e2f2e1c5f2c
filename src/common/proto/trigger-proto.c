// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger-proto.c - triggers', notifications' and captures' wire forms
 * (see trigger-proto.h).
 */
#include <string.h>

#include "common/proto/client-proto.h"
#include "common/proto/trigger-proto.h"

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
