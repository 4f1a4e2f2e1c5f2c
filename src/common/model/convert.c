// SPDX-License-Identifier: LGPL-2.1-only
/*
 * convert.c - public structs of <ltt/ltt-ctl.h> <-> the internal model.
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#include "common/model/convert.h"
#include "common/trace/tclock.h"
#include "common/model/trigger.h"

/* Copy a fixed-size string field; both sides must have the same size. */
#define COPY_ARRAY(out, in, field)                                                  \
	do {                                                                        \
		_Static_assert(sizeof((out)->field) == sizeof((in)->field),        \
			       "the sizes of " #field " differ");                  \
		memcpy((out)->field, (in)->field, sizeof((out)->field));           \
	} while (0)

/*
 * A struct passed in with a non-zero reserved byte comes from a program
 * built against a newer header: this library can't honour the field there.
 */
static bool reserved_zero(const uint8_t *reserved, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (reserved[i])
			return false;
	return true;
}

/* A struct coming in: refused (false) when reserved_zero() is not, else @out cleared. */
static bool accept_in(const uint8_t *reserved, size_t len, void *out, size_t size)
{
	if (!reserved_zero(reserved, len))
		return false;
	memset(out, 0, size);
	return true;
}

/*
 * The fields that have the same name and type on both sides of the
 * crossing, one list a struct, so the two directions can't drift: A()
 * for a fixed-size string, X() for a value.
 */
#define SESSION_FIELDS(A, X) A(name) X(output_type) A(output) X(snapshot) X(live_timer_us) \
	X(trace_format)
#define RULE_FIELDS(A, X) A(pattern) X(loglevel_type) X(loglevel) X(type)
#define CONTEXT_FIELDS(A, X) X(perf_type) X(perf_config) A(name)
#define RELAY_FIELDS(A, X) X(domain) X(state) X(error) A(output_path) X(packets_sent) \
	X(bytes_sent) X(packets_lost)
#define SNAPSHOT_OUTPUT_FIELDS(A, X) X(id) A(name) X(max_size) X(output_type) A(output)
#define STALL_FIELDS(A, X) X(domain) X(traces_waiting) X(since) A(command) X(metadata_waiting)
#define COPY_STRING(field) COPY_ARRAY(out, in, field);
#define COPY_VALUE(field) out->field = in->field;

enum ltt_error_code ltt_conv_session_attr_to_conf(const struct ltt_session_attr *in,
						  struct ltt_session_conf *out)
{
	if (!accept_in(in->reserved, sizeof(in->reserved), out, sizeof(*out)))
		return LTT_ERR_NOT_SUPPORTED;
	SESSION_FIELDS(COPY_STRING, COPY_VALUE)
	if (in->tls && (!in->tls->cert || !in->tls->key || !in->tls->ca ||
			strlen(in->tls->cert) >= sizeof(out->tls_cert) ||
			strlen(in->tls->key) >= sizeof(out->tls_key) ||
			strlen(in->tls->ca) >= sizeof(out->tls_ca)))
		return LTT_ERR_TLS_FILES;
	if (in->tls) {
		strcpy(out->tls_cert, in->tls->cert);
		strcpy(out->tls_key, in->tls->key);
		strcpy(out->tls_ca, in->tls->ca);
	}
	if (in->shm_path && *in->shm_path &&
	    (in->shm_path[0] != '/' || strlen(in->shm_path) >= sizeof(out->shm_path)))
		return LTT_ERR_SHM_PATH;
	if (in->shm_path)
		strcpy(out->shm_path, in->shm_path);
	return LTT_ERR_OK;
}

/*
 * A channel's attributes that have the same name and type on both sides
 * of the crossing: one list, so the two directions can't drift.
 */
#define CHANNEL_FIELDS(X)                                                       \
	X(subbuf_size) X(num_subbuf) X(overwrite) X(switch_timer_us)           \
	X(read_timer_us) X(tracefile_size) X(tracefile_count) X(buffer_type)   \
	X(fsync) X(preallocation) X(allocation) X(auto_reclaim) X(auto_reclaim_us)      \
	X(blocking_timeout_us)

enum ltt_error_code ltt_conv_channel_attr_to_conf(const struct ltt_channel_attr *in,
						  struct ltt_channel_conf *out)
{
	if (!reserved_zero(in->reserved, sizeof(in->reserved)) ||
	    !reserved_zero(in->pad1, sizeof(in->pad1)))
		return LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	CHANNEL_FIELDS(COPY_VALUE)
	return LTT_ERR_OK;
}

/* Copy the caller's string @s (NULL: "") into @dst; false when it does not fit. */
static bool copy_str(char *dst, size_t size, const char *s)
{
	size_t len = s ? strnlen(s, size) : 0;

	if (len >= size)
		return false;
	memcpy(dst, s ? s : "", len);
	dst[len] = '\0';
	return true;
}

enum ltt_error_code ltt_conv_rule_attr_to_conf(const struct ltt_event_rule_attr *in,
					       struct ltt_rule_conf *out)
{
	if (!accept_in(in->reserved, sizeof(in->reserved), out, sizeof(*out)))
		return LTT_ERR_NOT_SUPPORTED;
	RULE_FIELDS(COPY_STRING, COPY_VALUE)
	if (!copy_str(out->filter, sizeof(out->filter), in->filter))
		return LTT_ERR_FILTER;
	if (!copy_str(out->exclusions, sizeof(out->exclusions), in->exclusions))
		return LTT_ERR_EXCLUSION;
	if (!copy_str(out->location, sizeof(out->location), in->location))
		return LTT_ERR_PROBE_LOCATION;
	return LTT_ERR_OK;
}

void ltt_conv_channel_conf_to_attr(const struct ltt_channel_conf *in,
				   struct ltt_channel_attr *out)
{
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	CHANNEL_FIELDS(COPY_VALUE)
}

void ltt_conv_session_conf_to_attr(const struct ltt_session_conf *in,
				   struct ltt_session_attr *out)
{
	memset(out, 0, sizeof(*out));
	SESSION_FIELDS(COPY_STRING, COPY_VALUE)
}

void ltt_conv_rule_conf_to_attr(const struct ltt_rule_conf *in, struct ltt_event_rule_attr *out)
{
	memset(out, 0, sizeof(*out));
	RULE_FIELDS(COPY_STRING, COPY_VALUE)
	out->filter = in->filter[0] ? in->filter : NULL;
	out->exclusions = in->exclusions[0] ? in->exclusions : NULL;
	out->location = in->location[0] ? in->location : NULL;
}

void ltt_conv_session_desc_to_info(const struct ltt_session_desc *in,
				   struct ltt_session_info *out, char *reason_room)
{
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	out->id = in->id;
	COPY_ARRAY(out, in, uuid);
	out->uid = in->uid;
	out->active = in->active;
	out->snapshot = in->snapshot;
	out->live_timer_us = in->live_timer_us;
	out->output_type = in->output_type;
	COPY_ARRAY(out, in, output);
	out->creation_time = in->creation_time;
	out->trace_format = in->trace_format;
	if (in->clock_known) {
		snprintf(out->clock, sizeof(out->clock), "%s", ltt_tclock_name(in->clock_kind));
		snprintf(out->clock_read, sizeof(out->clock_read), "%s",
			 ltt_tclock_read_name(in->clock_kind));
		if (reason_room) {
			memcpy(reason_room, in->clock_why, sizeof(in->clock_why));
			out->clock_reason = reason_room;
		}
	}
}

void ltt_conv_channel_desc_to_info(const struct ltt_channel_desc *in,
				   struct ltt_channel_info *out)
{
	memset(out, 0, sizeof(*out));
	out->domain = in->domain;
	ltt_conv_channel_conf_to_attr(&in->attr, &out->attr);
	out->enabled = in->enabled;
	out->discarded_events = in->discarded_events;
	out->lost_packets = in->lost_packets;
	out->output_error = in->output_error;
	out->output_error_since = in->output_error_since;
	out->error_events = in->error_events;
	out->error_packets = in->error_packets;
	out->classes_refused = in->classes_refused;
}

void ltt_conv_rule_desc_to_info(const struct ltt_rule_desc *in, struct ltt_event_rule_info *out)
{
	memset(out, 0, sizeof(*out));
	out->domain = in->domain;
	COPY_ARRAY(out, in, channel);
	ltt_conv_rule_conf_to_attr(&in->attr, &out->attr);
	out->enabled = in->enabled;
}

void ltt_conv_relay_desc_to_info(const struct ltt_relay_desc *in, struct ltt_relay_info *out)
{
	memset(out, 0, sizeof(*out));
	RELAY_FIELDS(COPY_STRING, COPY_VALUE)
}

void ltt_conv_stall_desc_to_info(const struct ltt_stall_desc *in,
				 struct ltt_consumer_stall_info *out)
{
	memset(out, 0, sizeof(*out));
	STALL_FIELDS(COPY_STRING, COPY_VALUE)
}

enum ltt_error_code ltt_conv_snapshot_output_to_conf(const struct ltt_snapshot_output *in,
						     struct ltt_snapshot_output_conf *out)
{
	if (!accept_in(in->reserved, sizeof(in->reserved), out, sizeof(*out)))
		return LTT_ERR_NOT_SUPPORTED;
	SNAPSHOT_OUTPUT_FIELDS(COPY_STRING, COPY_VALUE)
	return LTT_ERR_OK;
}

void ltt_conv_snapshot_output_conf_to_output(const struct ltt_snapshot_output_conf *in,
					     struct ltt_snapshot_output *out)
{
	memset(out, 0, sizeof(*out));
	SNAPSHOT_OUTPUT_FIELDS(COPY_STRING, COPY_VALUE)
}

void ltt_conv_snapshot_result_desc_to_result(const struct ltt_snapshot_result_desc *in,
					     struct ltt_snapshot_result *out)
{
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, path);
	out->packets = in->packets;
	out->bytes = in->bytes;
	out->packets_dropped = in->packets_dropped;
}

enum ltt_error_code ltt_conv_context_to_ctx(const struct ltt_context *in, struct ltt_ctx *out)
{
	if (!accept_in(in->reserved, sizeof(in->reserved), out, sizeof(*out)))
		return LTT_ERR_NOT_SUPPORTED;
	out->type = in->type;
	CONTEXT_FIELDS(COPY_STRING, COPY_VALUE)
	return LTT_ERR_OK;
}

void ltt_conv_ctx_to_context(const struct ltt_ctx *in, struct ltt_context *out)
{
	memset(out, 0, sizeof(*out));
	out->type = (enum ltt_context_type)in->type;
	CONTEXT_FIELDS(COPY_STRING, COPY_VALUE)
}

static enum ltt_error_code action_to_conf(const struct ltt_trigger_action *in,
					  struct ltt_action_conf *out)
{
	if (!reserved_zero(in->reserved, sizeof(in->reserved)))
		return LTT_ERR_NOT_SUPPORTED;
	out->type = in->type;
	out->rate_policy = in->rate_policy;
	out->rate_count = in->rate_count;
	if (!copy_str(out->session, sizeof(out->session), in->session))
		return LTT_ERR_TRIGGER_ACTION;
	out->has_output = in->has_output;
	out->output_flags = in->has_output ? (uint32_t)in->output_flags : 0;
	if (in->output_flags > UINT32_MAX)
		return LTT_ERR_TRIGGER_ACTION;
	if (in->type == LTT_ACTION_INCR_MAP_VALUE &&
	    (!copy_str(out->map, sizeof(out->map), in->map.channel) ||
	     !copy_str(out->key, sizeof(out->key), in->map.key)))
		return LTT_ERR_TRIGGER_ACTION;
	return in->has_output ? ltt_conv_snapshot_output_to_conf(&in->output,
								 &out->output) : LTT_ERR_OK;
}

/* A ratio in millionths; one ltt_trigger_check() refuses when not in 0..1. */
static uint32_t ratio_ppm(double r)
{
	if (!(r >= 0.0 && r <= 1.0))	/* NaN too */
		return UINT32_MAX;
	return (uint32_t)(r * LTT_TRIGGER_PPM + 0.5);
}

/* @c's captures, its array's then its more_captures', into @out. */
static enum ltt_error_code captures_to_conf(const struct ltt_trigger_condition *c,
					    struct ltt_trigger_conf *out)
{
	uint32_t i;

	if (c->nr_captures > LTT_TRIGGER_MAX_CAPTURES || (c->nr_more_captures && !c->more_captures))
		return LTT_ERR_INVAL;
	if (c->nr_more_captures > LTT_TRIGGER_CAPTURES_LIMIT - c->nr_captures)
		return LTT_ERR_TRIGGER_CAPTURES;
	out->nr_captures = c->nr_captures + c->nr_more_captures;
	for (i = 0; i < out->nr_captures; i++) {
		const char *s = i < c->nr_captures ? c->captures[i] :
				c->more_captures[i - c->nr_captures];

		if (!s || !copy_str(out->captures[i], sizeof(out->captures[i]), s))
			return LTT_ERR_TRIGGER_CAPTURE;
	}
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_conv_trigger_attr_to_conf(const struct ltt_trigger_attr *in,
						  struct ltt_trigger_conf *out)
{
	const struct ltt_trigger_condition *c = &in->condition;
	uint32_t i;
	enum ltt_error_code ret;

	if (!reserved_zero(in->reserved, sizeof(in->reserved)) ||
	    !reserved_zero(c->reserved, sizeof(c->reserved)) || c->pad)
		return LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	if (!copy_str(out->name, sizeof(out->name), in->name))
		return LTT_ERR_TRIGGER_NAME;
	out->owner_uid = in->owner_uid;
	out->cond = c->type;
	out->domain = c->domain;
	if (c->type == LTT_CONDITION_EVENT_RULE_MATCHES) {
		ret = ltt_conv_rule_attr_to_conf(&c->rule, &out->rule);
		if (ret)
			return ret;
	}
	ret = captures_to_conf(c, out);
	if (ret)
		return ret;
	if (!copy_str(out->session, sizeof(out->session), c->session) ||
	    !copy_str(out->channel, sizeof(out->channel), c->channel))
		return LTT_ERR_TRIGGER_CONDITION;
	out->threshold_size = c->threshold_size;
	out->threshold_ppm = c->threshold_size ? 0 : ratio_ppm(c->threshold_ratio);
	if (in->nr_actions > LTT_TRIGGER_MAX_ACTIONS)
		return LTT_ERR_TRIGGER_ACTION;
	out->nr_actions = in->nr_actions;
	for (i = 0; i < in->nr_actions; i++) {
		ret = action_to_conf(&in->actions[i], &out->actions[i]);
		if (ret)
			return ret;
	}
	return LTT_ERR_OK;
}

void ltt_conv_trigger_desc_to_info(const struct ltt_trigger_desc *in, struct ltt_trigger_info *out,
				   const char **more)
{
	const struct ltt_trigger_conf *c = &in->conf;
	struct ltt_trigger_condition *oc = &out->attr.condition;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	COPY_ARRAY(&out->attr, c, name);
	out->attr.owner_uid = c->owner_uid;
	oc->type = (enum ltt_condition_type)c->cond;
	oc->domain = (enum ltt_domain)c->domain;
	if (c->cond == LTT_CONDITION_EVENT_RULE_MATCHES)
		ltt_conv_rule_conf_to_attr(&c->rule, &oc->rule);
	oc->nr_captures = c->nr_captures < LTT_TRIGGER_MAX_CAPTURES ? c->nr_captures :
								      LTT_TRIGGER_MAX_CAPTURES;
	memcpy(oc->captures, c->captures, sizeof(oc->captures));
	for (i = oc->nr_captures; i < c->nr_captures && i < LTT_TRIGGER_CAPTURES_LIMIT; i++)
		more[i - oc->nr_captures] = c->captures[i];
	oc->nr_more_captures = i - oc->nr_captures;
	oc->more_captures = oc->nr_more_captures ? more : NULL;
	COPY_ARRAY(oc, c, session);
	COPY_ARRAY(oc, c, channel);
	oc->threshold_size = c->threshold_size;
	oc->threshold_ratio = c->threshold_size ? 0.0 : (double)c->threshold_ppm / LTT_TRIGGER_PPM;
	out->attr.nr_actions = c->nr_actions;
	for (i = 0; i < c->nr_actions && i < LTT_TRIGGER_MAX_ACTIONS; i++) {
		struct ltt_trigger_action *a = &out->attr.actions[i];

		a->type = (enum ltt_action_type)c->actions[i].type;
		a->rate_policy = (enum ltt_rate_policy)c->actions[i].rate_policy;
		a->rate_count = c->actions[i].rate_count;
		COPY_ARRAY(a, &c->actions[i], session);
		a->has_output = c->actions[i].has_output;
		a->output_flags = c->actions[i].has_output ? c->actions[i].output_flags : 0;
		if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
			COPY_ARRAY(&a->map, &c->actions[i], key);
			snprintf(a->map.channel, sizeof(a->map.channel), "%s", c->actions[i].map);
		}
		if (a->has_output)
			ltt_conv_snapshot_output_conf_to_output(&c->actions[i].output, &a->output);
		out->actions_run[i] = in->runs[i];
		out->actions_failed[i] = in->failures[i];
		out->last_error[i] = in->last_error[i];
		out->actions_pending[i] = in->pending[i] > UINT16_MAX ? UINT16_MAX :
					  (uint16_t)in->pending[i];
	}
	out->pending_since = in->pending_since;
	out->fired = in->fired;
	out->dropped = in->dropped;
}

/* Copy @s into @out (a NUL-terminated array of @size bytes), cut if need be. */
static void copy_cut(char *out, size_t size, const char *s)
{
	size_t n = s ? strnlen(s, size - 1) : 0;

	memcpy(out, s ? s : "", n);
	out[n] = '\0';
}

char *ltt_conv_capture_value(const struct ltt_capture_desc *c, struct ltt_capture_value *v,
			     struct ltt_capture_value **elems, char *strings)
{
	size_t n;

	memset(v, 0, sizeof(*v));
	v->type = (enum ltt_capture_type)c->type;
	v->flags = c->is_enum ? LTT_CAPTURE_FLAG_ENUM : 0;
	switch (c->type) {
	case LTT_CAPTURE_SIGNED:
		v->s = (int64_t)c->bits;
		break;
	case LTT_CAPTURE_UNSIGNED:
		v->u = c->bits;
		break;
	case LTT_CAPTURE_FLOAT:
		memcpy(&v->f, &c->bits, sizeof(v->f));
		break;
	case LTT_CAPTURE_STRING:
		n = strlen(c->str) + 1;
		memcpy(strings, c->str, n);
		v->str = strings;
		strings += n;
		break;
	case LTT_CAPTURE_ARRAY:
		if (!elems) {	/* inside an array: none */
			v->type = LTT_CAPTURE_UNAVAILABLE;
			break;
		}
		/* the room; its values are the wire's to decode (common/proto) */
		v->nr_elements = c->elems ? c->nr_elems : 0;
		v->elements = *elems;
		memset(*elems, 0, v->nr_elements * sizeof(**elems));
		*elems += v->nr_elements;
		break;
	default:
		break;
	}
	return strings;
}

size_t ltt_conv_notif_nr_elems(const struct ltt_notif_desc *in)
{
	size_t n = 0;

	for (uint32_t i = 0; i < in->nr_captures && i < LTT_TRIGGER_CAPTURES_LIMIT; i++)
		if (in->captures[i].type == LTT_CAPTURE_ARRAY && in->captures[i].elems)
			n += in->captures[i].nr_elems;
	return n;
}

char *ltt_conv_notif_to_notification(const struct ltt_notif_desc *in,
				     struct ltt_notification *out, struct ltt_capture_value *more,
				     struct ltt_capture_value *elems, char *strings)
{
	uint32_t i;

	memset(out, 0, sizeof(*out));
	copy_cut(out->trigger, sizeof(out->trigger), in->trigger);
	out->condition = (enum ltt_condition_type)in->cond;
	out->seq = in->seq;
	out->time_ns = in->time_ns;
	out->dropped = in->dropped;
	copy_cut(out->session, sizeof(out->session), in->session);
	copy_cut(out->event, sizeof(out->event), in->event);
	out->pid = in->pid;
	out->value = in->value;
	copy_cut(out->path, sizeof(out->path), in->path);
	out->nr_captures = in->nr_captures < LTT_TRIGGER_MAX_CAPTURES ? in->nr_captures :
									LTT_TRIGGER_MAX_CAPTURES;
	out->nr_more_captures = in->nr_captures - out->nr_captures;
	out->more_captures = out->nr_more_captures ? more : NULL;
	for (i = 0; i < in->nr_captures && i < LTT_TRIGGER_CAPTURES_LIMIT; i++)
		strings = ltt_conv_capture_value(&in->captures[i],
						 i < LTT_TRIGGER_MAX_CAPTURES ?
						 &out->captures[i] :
						 &more[i - LTT_TRIGGER_MAX_CAPTURES],
						 &elems, strings);
	return strings;
}
