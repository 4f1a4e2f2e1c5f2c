// SPDX-License-Identifier: LGPL-2.1-only
/*
 * client-proto.c - framing and object serializers of the client protocol.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "common/model/agent.h"
#include "common/proto/client-proto.h"
#include "common/proto/msg.h"
#include "common/trace/tclock.h"

#define NAME_(name, num, min) [num] = #name,
static const char *const cmd_names[] = { LTT_CLIENT_CMD_TABLE(NAME_) };
#undef NAME_

#define MIN_(name, num, min) [num] = (min),
static const long cmd_min[] = { LTT_CLIENT_CMD_TABLE(MIN_) };
#undef MIN_

const char *ltt_client_cmd_name(uint32_t cmd)
{
	if (cmd >= sizeof(cmd_names) / sizeof(cmd_names[0]))
		return NULL;
	return cmd_names[cmd];
}

long ltt_client_cmd_min_payload(uint32_t cmd)
{
	if (!ltt_client_cmd_name(cmd))
		return -1;
	return cmd_min[cmd];
}

/* The client header has msg.h's layout, with the status where seq is. */
void ltt_client_hdr_encode(const struct ltt_client_hdr *hdr, uint8_t *buf)
{
	struct ltt_msg_hdr m = {
		.magic = hdr->magic,
		.type = hdr->cmd,
		.reserved = hdr->reserved,
		.seq = hdr->status,
		.payload_len = hdr->payload_len,
	};

	ltt_msg_hdr_encode(&m, buf);
}

int ltt_client_hdr_decode(const uint8_t *buf, struct ltt_client_hdr *ret_hdr)
{
	struct ltt_msg_hdr m;

	if (ltt_msg_hdr_decode(buf, LTT_CLIENT_MAGIC, LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE, &m))
		return -EPROTO;
	*ret_hdr = (struct ltt_client_hdr){
		.magic = m.magic,
		.cmd = m.type,
		.reserved = m.reserved,
		.status = m.seq,
		.payload_len = m.payload_len,
	};
	return 0;
}

bool ltt_proto_domain_known(uint32_t minor, enum ltt_domain domain)
{
	if (!ltt_agent_domain(domain))
		return true;
	if (domain == LTT_DOMAIN_PYTHON)
		return minor >= LTT_CLIENT_MINOR_PYTHON;
	return minor >= LTT_CLIENT_MINOR_JAVA;
}

enum ltt_domain ltt_proto_get_domain(struct ltt_rbuf *r)
{
	uint32_t d = ltt_rbuf_get_u32(r);

	if (d != LTT_DOMAIN_KERNEL && d != LTT_DOMAIN_USER && !ltt_agent_domain(d)) {
		ltt_rbuf_fail(r);
		return LTT_DOMAIN_NONE;
	}
	return (enum ltt_domain)d;
}

/* A u32 that must not exceed @max. */
static uint32_t get_enum(struct ltt_rbuf *r, uint32_t max)
{
	uint32_t v = ltt_rbuf_get_u32(r);

	if (v > max) {
		ltt_rbuf_fail(r);
		return 0;
	}
	return v;
}

/* ---- the objects of fixed layout, as field tables (codec.h) ---- */

#define LTT_MSG struct ltt_session_conf
LTT_CODEC(client_session_attr, LTT_CODEC_LE,
	  LTT_ROW_STR(name), LTT_ROW_ENUM(output_type, LTT_OUTPUT_NET), LTT_ROW_STR(output),
	  LTT_ROW_BOOL(snapshot), LTT_ROW_U32(live_timer_us));
LTT_CODEC(client_session_tls, LTT_CODEC_LE,
	  LTT_ROW_STR(tls_cert), LTT_ROW_STR(tls_key), LTT_ROW_STR(tls_ca));
#undef LTT_MSG

#define LTT_MSG struct ltt_channel_conf
LTT_CODEC(client_channel_attr, LTT_CODEC_LE,
	  LTT_ROW_STR(name), LTT_ROW_U64(subbuf_size), LTT_ROW_U64(num_subbuf),
	  LTT_ROW_BOOL(overwrite), LTT_ROW_U32(switch_timer_us), LTT_ROW_U32(read_timer_us),
	  LTT_ROW_U64(tracefile_size), LTT_ROW_U64(tracefile_count),
	  LTT_ROW_ENUM(buffer_type, LTT_BUFFER_GLOBAL));
#undef LTT_MSG

#define LTT_MSG struct ltt_snapshot_output_conf
LTT_CODEC(client_snapshot_output, LTT_CODEC_LE,
	  LTT_ROW_U32(id), LTT_ROW_STR(name), LTT_ROW_U64(max_size),
	  LTT_ROW_ENUM(output_type, LTT_OUTPUT_NET), LTT_ROW_STR(output));
#undef LTT_MSG

#define LTT_MSG struct ltt_snapshot_result_desc
LTT_CODEC(client_snapshot_result, LTT_CODEC_LE,
	  LTT_ROW_STR(path), LTT_ROW_U64(packets), LTT_ROW_U64(bytes),
	  LTT_ROW_U64(packets_dropped));
#undef LTT_MSG

/*
 * The put/get pair of the object @type through the table client_@name:
 * the decoder reads a part of a message into *@ret, zeroed first unless
 * @keep (a table of more members of the same object), its verdict in @r.
 */
#define CLIENT_PART(name, type, keep) \
	void ltt_proto_put_##name(struct ltt_wbuf *w, const type *m) \
	{ \
		ltt_codec_put(w, &client_##name, m); \
	} \
	void ltt_proto_get_##name(struct ltt_rbuf *r, type *ret) \
	{ \
		if (!(keep)) \
			memset(ret, 0, sizeof(*ret)); \
		ltt_codec_get(r, &client_##name, ret); \
	}

CLIENT_PART(session_attr, struct ltt_session_conf, false)
CLIENT_PART(session_tls, struct ltt_session_conf, true)
CLIENT_PART(channel_attr, struct ltt_channel_conf, false)
CLIENT_PART(snapshot_output, struct ltt_snapshot_output_conf, false)
CLIENT_PART(snapshot_result, struct ltt_snapshot_result_desc, false)

void ltt_proto_put_session_info(struct ltt_wbuf *w, const struct ltt_session_desc *s,
				uint32_t minor)
{
	ltt_wbuf_put_str(w, s->name);
	ltt_wbuf_put_u64(w, s->id);
	ltt_wbuf_put_str(w, s->uuid);
	ltt_wbuf_put_u32(w, (uint32_t)s->uid);
	ltt_wbuf_put_u8(w, s->active);
	ltt_wbuf_put_u8(w, s->snapshot);
	ltt_wbuf_put_u32(w, s->live_timer_us);
	ltt_wbuf_put_u32(w, s->output_type);
	ltt_wbuf_put_str(w, s->output);
	ltt_wbuf_put_u64(w, (uint64_t)s->creation_time);
	if (minor >= LTT_CLIENT_MINOR_CLOCK) {
		ltt_wbuf_put_u32(w, s->clock_kind);
		ltt_wbuf_put_str(w, s->clock_why);
	}
}

void ltt_proto_get_session_info(struct ltt_rbuf *r, struct ltt_session_desc *ret,
				uint32_t minor)
{
	memset(ret, 0, sizeof(*ret));
	ltt_rbuf_get_str_copy(r, ret->name, sizeof(ret->name));
	ret->id = ltt_rbuf_get_u64(r);
	ltt_rbuf_get_str_copy(r, ret->uuid, sizeof(ret->uuid));
	ret->uid = (uid_t)ltt_rbuf_get_u32(r);
	ret->active = ltt_rbuf_get_bool(r);
	ret->snapshot = ltt_rbuf_get_bool(r);
	ret->live_timer_us = ltt_rbuf_get_u32(r);
	ret->output_type = get_enum(r, LTT_OUTPUT_NET);
	ltt_rbuf_get_str_copy(r, ret->output, sizeof(ret->output));
	ret->creation_time = (int64_t)ltt_rbuf_get_u64(r);
	if (minor >= LTT_CLIENT_MINOR_CLOCK) {
		ret->clock_known = true;
		ret->clock_kind = get_enum(r, LTT_TCLOCK_KIND_MAX);
		ltt_rbuf_get_str_copy(r, ret->clock_why, sizeof(ret->clock_why));
	}
}

void ltt_proto_put_channel_info(struct ltt_wbuf *w, const struct ltt_channel_desc *c)
{
	ltt_wbuf_put_u32(w, c->domain);
	ltt_proto_put_channel_attr(w, &c->attr);
	ltt_wbuf_put_u8(w, c->enabled);
	ltt_wbuf_put_u64(w, c->discarded_events);
	ltt_wbuf_put_u64(w, c->lost_packets);
}

void ltt_proto_get_channel_info(struct ltt_rbuf *r, struct ltt_channel_desc *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->domain = ltt_proto_get_domain(r);
	ltt_proto_get_channel_attr(r, &ret->attr);
	ret->enabled = ltt_rbuf_get_bool(r);
	ret->discarded_events = ltt_rbuf_get_u64(r);
	ret->lost_packets = ltt_rbuf_get_u64(r);
}

void ltt_proto_put_channel_failure(struct ltt_wbuf *w, const struct ltt_channel_desc *c)
{
	ltt_wbuf_put_u32(w, (uint32_t)c->output_error);
	ltt_wbuf_put_u64(w, (uint64_t)c->output_error_since);
	ltt_wbuf_put_u64(w, c->error_events);
	ltt_wbuf_put_u64(w, c->error_packets);
}

void ltt_proto_get_channel_failure(struct ltt_rbuf *r, struct ltt_channel_desc *ret)
{
	ret->output_error = (int)ltt_rbuf_get_u32(r);
	ret->output_error_since = (int64_t)ltt_rbuf_get_u64(r);
	ret->error_events = ltt_rbuf_get_u64(r);
	ret->error_packets = ltt_rbuf_get_u64(r);
	if (ret->output_error < 0)
		ltt_rbuf_fail(r);
}

void ltt_proto_put_channel(struct ltt_wbuf *w, const struct ltt_channel_desc *c, uint32_t minor)
{
	ltt_proto_put_channel_info(w, c);
	if (minor >= LTT_CLIENT_MINOR_OUTPUT_ERRORS)
		ltt_proto_put_channel_failure(w, c);
	if (minor >= LTT_CLIENT_MINOR_CLASSES_REFUSED) {
		ltt_wbuf_put_u64(w, c->classes_refused);
		ltt_wbuf_put_u8(w, c->attr.fsync);
	}
	if (minor >= LTT_CLIENT_MINOR_PREALLOC)
		ltt_wbuf_put_u8(w, c->attr.preallocation);
	if (minor >= LTT_CLIENT_MINOR_ALLOCATION)
		ltt_wbuf_put_u8(w, c->attr.allocation);
	if (minor >= LTT_CLIENT_MINOR_AUTO_RECLAIM)
		ltt_proto_put_auto_reclaim(w, &c->attr);
}

void ltt_proto_get_channel(struct ltt_rbuf *r, struct ltt_channel_desc *ret, uint32_t minor)
{
	ltt_proto_get_channel_info(r, ret);
	if (minor >= LTT_CLIENT_MINOR_OUTPUT_ERRORS)
		ltt_proto_get_channel_failure(r, ret);
	if (minor >= LTT_CLIENT_MINOR_CLASSES_REFUSED) {
		ret->classes_refused = ltt_rbuf_get_u64(r);
		ret->attr.fsync = ltt_rbuf_get_bool(r);
	}
	if (minor >= LTT_CLIENT_MINOR_PREALLOC)
		ret->attr.preallocation = ltt_rbuf_get_u8(r);
	if (minor >= LTT_CLIENT_MINOR_ALLOCATION)
		ret->attr.allocation = ltt_rbuf_get_u8(r);
	if (minor >= LTT_CLIENT_MINOR_AUTO_RECLAIM)
		ltt_proto_get_auto_reclaim(r, &ret->attr);
}

void ltt_proto_put_auto_reclaim(struct ltt_wbuf *w, const struct ltt_channel_conf *a)
{
	ltt_wbuf_put_u8(w, a->auto_reclaim);
	ltt_wbuf_put_u64(w, a->auto_reclaim_us);
}

void ltt_proto_get_auto_reclaim(struct ltt_rbuf *r, struct ltt_channel_conf *ret)
{
	ret->auto_reclaim = ltt_rbuf_get_u8(r);
	ret->auto_reclaim_us = ltt_rbuf_get_u64(r);
}

void ltt_proto_put_rule_attr(struct ltt_wbuf *w, const struct ltt_rule_conf *a,
			     uint32_t minor)
{
	ltt_wbuf_put_str(w, a->pattern);
	ltt_wbuf_put_u32(w, a->loglevel_type);
	ltt_wbuf_put_u32(w, (uint32_t)a->loglevel);
	if (minor >= 1)
		ltt_wbuf_put_u32(w, a->type);
	if (minor >= LTT_CLIENT_MINOR_FILTER) {
		ltt_wbuf_put_str(w, a->filter);
		ltt_wbuf_put_str(w, a->exclusions);
	}
	if (minor >= LTT_CLIENT_MINOR_PROBE)
		ltt_wbuf_put_str(w, a->location);
}

void ltt_proto_get_rule_attr(struct ltt_rbuf *r, struct ltt_rule_conf *ret,
			     uint32_t minor)
{
	memset(ret, 0, sizeof(*ret));
	ltt_rbuf_get_str_copy(r, ret->pattern, sizeof(ret->pattern));
	ret->loglevel_type = get_enum(r, LTT_LOGLEVEL_SINGLE);
	/* a 32-bit number: the domain's bounds are checked with the rule (attr.h) */
	ret->loglevel = (int32_t)ltt_rbuf_get_u32(r);
	ret->type = minor >= 1 ? get_enum(r, minor >= LTT_CLIENT_MINOR_PROBE ? LTT_EVENT_UPROBE :
					  LTT_EVENT_SYSCALL) : LTT_EVENT_TRACEPOINT;
	if (minor >= LTT_CLIENT_MINOR_FILTER) {
		ltt_rbuf_get_str_copy(r, ret->filter, sizeof(ret->filter));
		ltt_rbuf_get_str_copy(r, ret->exclusions, sizeof(ret->exclusions));
	}
	if (minor >= LTT_CLIENT_MINOR_PROBE)
		ltt_rbuf_get_str_copy(r, ret->location, sizeof(ret->location));
}

void ltt_proto_put_rule_info(struct ltt_wbuf *w, const struct ltt_rule_desc *e,
			     uint32_t minor)
{
	ltt_wbuf_put_u32(w, e->domain);
	ltt_wbuf_put_str(w, e->channel);
	ltt_proto_put_rule_attr(w, &e->attr, minor);
	ltt_wbuf_put_u8(w, e->enabled);
}

void ltt_proto_get_rule_info(struct ltt_rbuf *r, struct ltt_rule_desc *ret,
			     uint32_t minor)
{
	memset(ret, 0, sizeof(*ret));
	ret->domain = ltt_proto_get_domain(r);
	ltt_rbuf_get_str_copy(r, ret->channel, sizeof(ret->channel));
	ltt_proto_get_rule_attr(r, &ret->attr, minor);
	ret->enabled = ltt_rbuf_get_bool(r);
}

void ltt_proto_put_relay_info(struct ltt_wbuf *w, const struct ltt_relay_desc *i)
{
	ltt_wbuf_put_u32(w, i->domain);
	ltt_wbuf_put_u32(w, i->state);
	ltt_wbuf_put_u32(w, (uint32_t)i->error);
	ltt_wbuf_put_str(w, i->output_path);
	ltt_wbuf_put_u64(w, i->packets_sent);
	ltt_wbuf_put_u64(w, i->bytes_sent);
	ltt_wbuf_put_u64(w, i->packets_lost);
}

void ltt_proto_get_relay_info(struct ltt_rbuf *r, struct ltt_relay_desc *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->domain = ltt_proto_get_domain(r);
	ret->state = get_enum(r, LTT_RELAY_STATE_LOST);
	ret->error = (int)ltt_rbuf_get_u32(r);
	ltt_rbuf_get_str_copy(r, ret->output_path, sizeof(ret->output_path));
	ret->packets_sent = ltt_rbuf_get_u64(r);
	ret->bytes_sent = ltt_rbuf_get_u64(r);
	ret->packets_lost = ltt_rbuf_get_u64(r);
}

void ltt_proto_put_stall_waiting(struct ltt_wbuf *w, const struct ltt_stall_desc *s)
{
	ltt_wbuf_put_u32(w, s->domain);
	ltt_wbuf_put_u32(w, s->traces_waiting);
	ltt_wbuf_put_u8(w, s->metadata_waiting);
}

void ltt_proto_get_stall_waiting(struct ltt_rbuf *r, struct ltt_stall_desc *ret)
{
	ret->domain = ltt_proto_get_domain(r);
	ret->traces_waiting = ltt_rbuf_get_u32(r);
	ret->metadata_waiting = ltt_rbuf_get_bool(r);
}

void ltt_proto_put_stall(struct ltt_wbuf *w, const struct ltt_stall_desc *s)
{
	ltt_wbuf_put_u32(w, s->domain);
	ltt_wbuf_put_u64(w, (uint64_t)s->since);
	ltt_wbuf_put_str(w, s->command);
}

void ltt_proto_get_stall(struct ltt_rbuf *r, struct ltt_stall_desc *ret)
{
	ret->domain = ltt_proto_get_domain(r);
	ret->since = (int64_t)ltt_rbuf_get_u64(r);
	ltt_rbuf_get_str_copy(r, ret->command, sizeof(ret->command));
}

void ltt_proto_put_rotation_desc(struct ltt_wbuf *w, const struct ltt_rotation_desc *i,
				 uint32_t minor)
{
	ltt_wbuf_put_u64(w, i->timer_us);
	ltt_wbuf_put_u64(w, i->size);
	ltt_wbuf_put_u64(w, i->chunk_id);
	ltt_wbuf_put_str(w, i->last_archive);
	if (minor >= LTT_CLIENT_MINOR_ROTATION_ERROR) {
		ltt_wbuf_put_u32(w, (uint32_t)i->error);
		ltt_wbuf_put_u64(w, (uint64_t)i->error_since);
	}
}

void ltt_proto_get_rotation_desc(struct ltt_rbuf *r, struct ltt_rotation_desc *ret,
				 uint32_t minor)
{
	memset(ret, 0, sizeof(*ret));
	ret->timer_us = ltt_rbuf_get_u64(r);
	ret->size = ltt_rbuf_get_u64(r);
	ret->chunk_id = ltt_rbuf_get_u64(r);
	ltt_rbuf_get_str_copy(r, ret->last_archive, sizeof(ret->last_archive));
	if (minor >= LTT_CLIENT_MINOR_ROTATION_ERROR) {
		ret->error = (int32_t)ltt_rbuf_get_u32(r);
		ret->error_since = (int64_t)ltt_rbuf_get_u64(r);
	}
}
