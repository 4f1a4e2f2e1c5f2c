// SPDX-License-Identifier: LGPL-2.1-only
/*
 * convert.c - public structs of <ltt/ltt-ctl.h> <-> the internal model.
 */
#include <string.h>

#include "common/convert.h"

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

int ltt_conv_session_attr_to_conf(const struct ltt_session_attr *in,
				  struct ltt_session_conf *out)
{
	if (!reserved_zero(in->reserved, sizeof(in->reserved)))
		return -LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	out->output_type = in->output_type;
	COPY_ARRAY(out, in, output);
	out->snapshot = in->snapshot;
	out->live_timer_us = in->live_timer_us;
	return 0;
}

int ltt_conv_channel_attr_to_conf(const struct ltt_channel_attr *in,
				  struct ltt_channel_conf *out)
{
	if (!reserved_zero(in->reserved, sizeof(in->reserved)) ||
	    !reserved_zero(in->pad1, sizeof(in->pad1)))
		return -LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	out->subbuf_size = in->subbuf_size;
	out->num_subbuf = in->num_subbuf;
	out->overwrite = in->overwrite;
	out->switch_timer_us = in->switch_timer_us;
	out->read_timer_us = in->read_timer_us;
	out->tracefile_size = in->tracefile_size;
	out->tracefile_count = in->tracefile_count;
	out->buffer_type = in->buffer_type;
	out->fsync = in->fsync;
	return 0;
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

int ltt_conv_rule_attr_to_conf(const struct ltt_event_rule_attr *in, struct ltt_rule_conf *out)
{
	if (!reserved_zero(in->reserved, sizeof(in->reserved)))
		return -LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, pattern);
	out->loglevel_type = in->loglevel_type;
	out->loglevel = in->loglevel;
	out->type = in->type;
	if (!copy_str(out->filter, sizeof(out->filter), in->filter))
		return -LTT_ERR_FILTER;
	if (!copy_str(out->exclusions, sizeof(out->exclusions), in->exclusions))
		return -LTT_ERR_EXCLUSION;
	return 0;
}

void ltt_conv_channel_conf_to_attr(const struct ltt_channel_conf *in,
				   struct ltt_channel_attr *out)
{
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	out->subbuf_size = in->subbuf_size;
	out->num_subbuf = in->num_subbuf;
	out->overwrite = in->overwrite;
	out->switch_timer_us = in->switch_timer_us;
	out->read_timer_us = in->read_timer_us;
	out->tracefile_size = in->tracefile_size;
	out->tracefile_count = in->tracefile_count;
	out->buffer_type = in->buffer_type;
	out->fsync = in->fsync;
}

void ltt_conv_session_conf_to_attr(const struct ltt_session_conf *in,
				   struct ltt_session_attr *out)
{
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, name);
	out->output_type = in->output_type;
	COPY_ARRAY(out, in, output);
	out->snapshot = in->snapshot;
	out->live_timer_us = in->live_timer_us;
}

void ltt_conv_rule_conf_to_attr(const struct ltt_rule_conf *in, struct ltt_event_rule_attr *out)
{
	memset(out, 0, sizeof(*out));
	COPY_ARRAY(out, in, pattern);
	out->loglevel_type = in->loglevel_type;
	out->loglevel = in->loglevel;
	out->type = in->type;
	out->filter = in->filter[0] ? in->filter : NULL;
	out->exclusions = in->exclusions[0] ? in->exclusions : NULL;
}

void ltt_conv_session_desc_to_info(const struct ltt_session_desc *in,
				   struct ltt_session_info *out)
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
	out->domain = in->domain;
	out->state = in->state;
	out->error = in->error;
	COPY_ARRAY(out, in, output_path);
	out->packets_sent = in->packets_sent;
	out->bytes_sent = in->bytes_sent;
	out->packets_lost = in->packets_lost;
}

void ltt_conv_stall_desc_to_info(const struct ltt_stall_desc *in,
				 struct ltt_consumer_stall_info *out)
{
	memset(out, 0, sizeof(*out));
	out->domain = in->domain;
	out->traces_waiting = in->traces_waiting;
	out->since = in->since;
	COPY_ARRAY(out, in, command);
	out->metadata_waiting = in->metadata_waiting;
}

int ltt_conv_snapshot_output_to_conf(const struct ltt_snapshot_output *in,
				     struct ltt_snapshot_output_conf *out)
{
	size_t i;

	for (i = 0; i < sizeof(in->reserved); i++)
		if (in->reserved[i])
			return -LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	out->id = in->id;
	COPY_ARRAY(out, in, name);
	out->max_size = in->max_size;
	out->output_type = in->output_type;
	COPY_ARRAY(out, in, output);
	return 0;
}

void ltt_conv_snapshot_output_conf_to_output(const struct ltt_snapshot_output_conf *in,
					     struct ltt_snapshot_output *out)
{
	memset(out, 0, sizeof(*out));
	out->id = in->id;
	COPY_ARRAY(out, in, name);
	out->max_size = in->max_size;
	out->output_type = in->output_type;
	COPY_ARRAY(out, in, output);
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

int ltt_conv_context_to_ctx(const struct ltt_context *in, struct ltt_ctx *out)
{
	if (!reserved_zero(in->reserved, sizeof(in->reserved)))
		return -LTT_ERR_NOT_SUPPORTED;
	memset(out, 0, sizeof(*out));
	out->type = in->type;
	out->perf_type = in->perf_type;
	out->perf_config = in->perf_config;
	COPY_ARRAY(out, in, name);
	return 0;
}

void ltt_conv_ctx_to_context(const struct ltt_ctx *in, struct ltt_context *out)
{
	memset(out, 0, sizeof(*out));
	out->type = (enum ltt_context_type)in->type;
	out->perf_type = in->perf_type;
	out->perf_config = in->perf_config;
	COPY_ARRAY(out, in, name);
}
