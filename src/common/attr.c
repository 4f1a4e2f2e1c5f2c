// SPDX-License-Identifier: LGPL-2.1-only
/*
 * attr.c - defaults and validation of user-given attributes.
 */
#include <string.h>
#include <unistd.h>

#include "common/attr.h"
#include "common/names.h"
#include "common/size.h"
#include "common/uri.h"

int ltt_attr_channel_defaults(struct ltt_channel_conf *attr, enum ltt_domain domain)
{
	memset(attr, 0, sizeof(*attr));
	strcpy(attr->name, LTT_DEFAULT_CHANNEL_NAME);
	switch (domain) {
	case LTT_DOMAIN_USER:
		attr->subbuf_size = LTT_DEFAULT_UST_SUBBUF_SIZE;
		attr->num_subbuf = LTT_DEFAULT_UST_NUM_SUBBUF;
		attr->buffer_type = LTT_BUFFER_PER_UID;
		return 0;
	case LTT_DOMAIN_KERNEL:
		attr->subbuf_size = LTT_DEFAULT_KERNEL_SUBBUF_SIZE;
		attr->num_subbuf = LTT_DEFAULT_KERNEL_NUM_SUBBUF;
		attr->buffer_type = LTT_BUFFER_GLOBAL;
		return 0;
	default:
		return -LTT_ERR_DOMAIN;
	}
}

int ltt_attr_check_channel(struct ltt_channel_conf *attr, enum ltt_domain domain)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (domain != LTT_DOMAIN_USER && domain != LTT_DOMAIN_KERNEL)
		return -LTT_ERR_DOMAIN;
	if (memchr(attr->name, '\0', sizeof(attr->name)) == NULL ||
	    !ltt_channel_name_valid(attr->name))
		return -LTT_ERR_CHANNEL_NAME;
	if (!ltt_is_pow2(attr->subbuf_size) || attr->subbuf_size < page ||
	    attr->subbuf_size > LTT_MAX_SUBBUF_SIZE)
		return -LTT_ERR_SUBBUF_SIZE;
	if (!ltt_is_pow2(attr->num_subbuf) || attr->num_subbuf < 2 ||
	    attr->num_subbuf > LTT_MAX_NUM_SUBBUF)
		return -LTT_ERR_SUBBUF_COUNT;
	if (attr->buffer_type == LTT_BUFFER_DEFAULT)
		attr->buffer_type = domain == LTT_DOMAIN_USER ? LTT_BUFFER_PER_UID : LTT_BUFFER_GLOBAL;
	if (domain == LTT_DOMAIN_USER && attr->buffer_type != LTT_BUFFER_PER_UID &&
	    attr->buffer_type != LTT_BUFFER_PER_PID)
		return -LTT_ERR_BUFFER_TYPE;
	if (domain == LTT_DOMAIN_KERNEL && attr->buffer_type != LTT_BUFFER_GLOBAL)
		return -LTT_ERR_BUFFER_TYPE;
	if (attr->tracefile_size && attr->tracefile_size < attr->subbuf_size)
		return -LTT_ERR_TRACEFILE_SIZE;
	if ((attr->switch_timer_us && attr->switch_timer_us < LTT_MIN_TIMER_US) ||
	    (attr->read_timer_us && attr->read_timer_us < LTT_MIN_TIMER_US))
		return -LTT_ERR_TIMER_MIN;
	return 0;
}

int ltt_attr_check_rule(const struct ltt_rule_conf *attr)
{
	if (memchr(attr->pattern, '\0', sizeof(attr->pattern)) == NULL ||
	    !ltt_event_pattern_valid(attr->pattern))
		return -LTT_ERR_EVENT_NAME;
	switch (attr->loglevel_type) {
	case LTT_LOGLEVEL_ALL:
		return 0;
	case LTT_LOGLEVEL_RANGE:
	case LTT_LOGLEVEL_SINGLE:
		if (attr->loglevel < LTT_LOGLEVEL_EMERG || attr->loglevel > LTT_LOGLEVEL_DEBUG)
			return -LTT_ERR_LOGLEVEL;
		return 0;
	default:
		return -LTT_ERR_LOGLEVEL;
	}
}

int ltt_attr_check_rule_domain(const struct ltt_rule_conf *attr, enum ltt_domain domain)
{
	if (attr->type != LTT_EVENT_TRACEPOINT &&
	    (attr->type != LTT_EVENT_SYSCALL || domain != LTT_DOMAIN_KERNEL))
		return -LTT_ERR_EVENT_TYPE;
	if (domain == LTT_DOMAIN_KERNEL && attr->loglevel_type != LTT_LOGLEVEL_ALL)
		return -LTT_ERR_KERNEL_LOGLEVEL;
	return 0;
}

/* @defaults: an empty name and an empty local output are the daemon's to fill. */
static int check_session(const struct ltt_session_conf *attr, bool defaults)
{
	struct ltt_uri uri;

	if (memchr(attr->name, '\0', sizeof(attr->name)) == NULL ||
	    (!(defaults && !attr->name[0]) && !ltt_session_name_valid(attr->name)))
		return -LTT_ERR_SESSION_NAME;
	if (memchr(attr->output, '\0', sizeof(attr->output)) == NULL)
		return -LTT_ERR_OUTPUT_PATH;
	if (attr->snapshot && attr->live_timer_us)
		return -LTT_ERR_SNAPSHOT_LIVE;
	switch (attr->output_type) {
	case LTT_OUTPUT_NONE:
		if (attr->output[0])
			return -LTT_ERR_OUTPUT_CONFLICT;
		break;
	case LTT_OUTPUT_LOCAL:
		if (attr->output[0] != '/' && !(defaults && !attr->output[0]))
			return -LTT_ERR_OUTPUT_PATH;
		break;
	case LTT_OUTPUT_NET:
		if (ltt_uri_parse(attr->output, &uri) || uri.scheme != LTT_URI_NET)
			return -LTT_ERR_URL;
		break;
	default:
		return -LTT_ERR_INVAL;
	}
	if (attr->live_timer_us && attr->output_type != LTT_OUTPUT_NET)
		return -LTT_ERR_LIVE_NEEDS_NET;
	if (attr->live_timer_us && attr->live_timer_us < LTT_MIN_LIVE_TIMER_US)
		return -LTT_ERR_LIVE_TIMER;
	return 0;
}

int ltt_attr_check_session(const struct ltt_session_conf *attr)
{
	return check_session(attr, false);
}

int ltt_attr_check_session_request(const struct ltt_session_conf *attr)
{
	return check_session(attr, true);
}

int ltt_attr_check_rotation(uint64_t timer_us, uint64_t size)
{
	if ((!timer_us && !size) || (timer_us && timer_us < LTT_ROTATION_TIMER_MIN_US) ||
	    timer_us > UINT64_MAX / 1000 || (size && size < LTT_ROTATION_SIZE_MIN))
		return -LTT_ERR_ROTATION_VALUE;
	return 0;
}

int ltt_attr_check_snapshot_output(const struct ltt_snapshot_output_conf *o, bool need_path)
{
	if (memchr(o->name, '\0', sizeof(o->name)) == NULL ||
	    memchr(o->output, '\0', sizeof(o->output)) == NULL)
		return -LTT_ERR_OUTPUT_PATH;
	if (o->name[0] && !ltt_channel_name_valid(o->name))
		return -LTT_ERR_SNAPSHOT_OUTPUT_NAME;
	if (o->output_type == LTT_OUTPUT_NET)
		return -LTT_ERR_SNAPSHOT_NET;
	if (o->output_type == LTT_OUTPUT_NONE)
		return need_path || o->output[0] ? -LTT_ERR_OUTPUT_PATH : 0;
	if (o->output[0] != '/' || strlen(o->output) >= LTT_PATH_MAX - LTT_NAME_MAX - 64)
		return -LTT_ERR_OUTPUT_PATH;
	return 0;
}
