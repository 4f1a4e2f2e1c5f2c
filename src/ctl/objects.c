// SPDX-License-Identifier: LGPL-2.1-only
/*
 * objects.c - the result objects several commands report (a session, a
 * channel, an event rule, a relay connection), written once through the
 * output abstraction (out.h).  Their elements are those of xml/mi.xsd.
 */
#include <string.h>

#include "ctl/ctl.h"

static const char *output_type_name(enum ltt_output_type type)
{
	switch (type) {
	case LTT_OUTPUT_LOCAL:
		return "local";
	case LTT_OUTPUT_NET:
		return "net";
	default:
		return "none";
	}
}

void ctl_obj_session_open(const struct ltt_session_info *s)
{
	ctl_out_open("session");
	ctl_out_str("name", s->name);
	ctl_out_u64("id", s->id);
	ctl_out_str("uuid", s->uuid[0] ? s->uuid : NULL);
	ctl_out_u64("uid", s->uid);
	ctl_out_bool("active", s->active);
	ctl_out_bool("snapshot", s->snapshot);
	ctl_out_u64("liveTimerUs", s->live_timer_us);
	ctl_out_str("outputType", output_type_name(s->output_type));
	if (s->output_type != LTT_OUTPUT_NONE)
		ctl_out_str("output", s->output);
	ctl_out_i64("creationTime", s->creation_time);
}

void ctl_obj_session_name(const char *name)
{
	ctl_out_open("session");
	ctl_out_str("name", name);
	ctl_out_close();
}

void ctl_obj_session_file(const char *name, const char *file)
{
	ctl_out_open("session");
	ctl_out_str("name", name);
	ctl_out_str("configFile", file);
	ctl_out_close();
}

void ctl_obj_channel_open(enum ltt_domain domain, const struct ltt_channel_attr *a)
{
	enum ltt_buffer_type buffers = a->buffer_type;

	if (buffers == LTT_BUFFER_DEFAULT)
		buffers = domain == LTT_DOMAIN_KERNEL ? LTT_BUFFER_GLOBAL : LTT_BUFFER_PER_UID;
	ctl_out_open("channel");
	ctl_out_str("name", a->name);
	ctl_out_str("domain", ltt_domain_name(domain));
	ctl_out_u64("subbufSize", a->subbuf_size);
	ctl_out_u64("subbufCount", a->num_subbuf);
	ctl_out_bool("overwrite", a->overwrite);
	ctl_out_u64("switchTimerUs", a->switch_timer_us);
	ctl_out_u64("readTimerUs", a->read_timer_us);
	ctl_out_u64("tracefileSize", a->tracefile_size);
	ctl_out_u64("tracefileCount", a->tracefile_count);
	ctl_out_str("bufferType", ltt_buffer_type_name(buffers));
	if (a->fsync)
		ctl_out_bool("fsync", true);
}

static const char *loglevel_type_name(enum ltt_loglevel_type type)
{
	switch (type) {
	case LTT_LOGLEVEL_RANGE:
		return "range";
	case LTT_LOGLEVEL_SINGLE:
		return "single";
	default:
		return "all";
	}
}

void ctl_obj_rule(enum ltt_domain domain, const char *channel,
		  const struct ltt_event_rule_attr *a, bool enabled)
{
	ctl_out_open("eventRule");
	ctl_out_str("pattern", a->pattern);
	ctl_out_str("domain", ltt_domain_name(domain));
	ctl_out_str("channel", channel);
	ctl_out_str("type", a->type == LTT_EVENT_SYSCALL ? "syscall" : "tracepoint");
	ctl_out_str("loglevelType", loglevel_type_name(a->loglevel_type));
	if (a->loglevel_type != LTT_LOGLEVEL_ALL) {
		ctl_out_str("loglevel", ltt_loglevel_name_domain(domain, a->loglevel));
		ctl_out_i64("loglevelValue", a->loglevel);
	}
	ctl_out_str("filter", a->filter);
	ctl_out_str("exclusions", a->exclusions);
	ctl_out_bool("enabled", enabled);
	ctl_out_close();
}

static const char *relay_state_name(enum ltt_relay_state state)
{
	switch (state) {
	case LTT_RELAY_STATE_CONNECTED:
		return "connected";
	case LTT_RELAY_STATE_LOST:
		return "lost";
	default:
		return "none";
	}
}

void ctl_obj_relay(const struct ltt_relay_info *r)
{
	ctl_out_open("relayConnection");
	ctl_out_str("domain", ltt_domain_name(r->domain));
	ctl_out_str("state", relay_state_name(r->state));
	if (r->state == LTT_RELAY_STATE_LOST)
		ctl_out_str("error", r->error ? strerror(r->error) : "unknown error");
	ctl_out_u64("packetsSent", r->packets_sent);
	ctl_out_u64("bytesSent", r->bytes_sent);
	ctl_out_u64("packetsLost", r->packets_lost);
	ctl_out_str("outputPath", r->output_path[0] ? r->output_path : NULL);
	ctl_out_close();
}

static const char *tracker_policy_name(enum ltt_tracker_policy policy)
{
	switch (policy) {
	case LTT_TRACKER_ALL:
		return "all";
	case LTT_TRACKER_NONE:
		return "none";
	default:
		return "set";
	}
}

void ctl_obj_tracker(enum ltt_domain domain, enum ltt_tracker_type type,
		     enum ltt_tracker_policy policy, const uint32_t *ids, size_t nr)
{
	size_t i;

	ctl_out_open("tracker");
	ctl_out_str("domain", ltt_domain_name(domain));
	ctl_out_str("type", ltt_tracker_type_name(type));
	ctl_out_str("policy", tracker_policy_name(policy));
	if (policy == LTT_TRACKER_SET) {
		ctl_out_open("ids");
		for (i = 0; i < nr; i++)
			ctl_out_u64("id", ids[i]);
		ctl_out_close();
	}
	ctl_out_close();
}
