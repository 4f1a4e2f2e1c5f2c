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

/* The domain *@d: KERNEL, USER or an agent's, else @r fails and it is NONE. */
static void check_domain(struct ltt_rbuf *r, enum ltt_domain *d)
{
	if (*d != LTT_DOMAIN_KERNEL && *d != LTT_DOMAIN_USER && !ltt_agent_domain(*d)) {
		ltt_rbuf_fail(r);
		*d = LTT_DOMAIN_NONE;
	}
}

enum ltt_domain ltt_proto_get_domain(struct ltt_rbuf *r)
{
	enum ltt_domain d = (enum ltt_domain)ltt_rbuf_get_u32(r);

	check_domain(r, &d);
	return d;
}

/* ---- the objects, as field tables (codec.h) ---- */

/* A session's attributes and its TLS files, members of @in. */
#define SESSION_ATTR_ROWS(in) \
	LTT_ROW_STR(in name), LTT_ROW_ENUM(in output_type, LTT_OUTPUT_NET), \
	LTT_ROW_STR(in output), LTT_ROW_BOOL(in snapshot), LTT_ROW_U32(in live_timer_us)
#define SESSION_TLS_ROWS(in) LTT_ROW_STR(in tls_cert), LTT_ROW_STR(in tls_key), LTT_ROW_STR(in tls_ca)

#define LTT_MSG struct ltt_session_conf
LTT_CODEC(client_session_attr, LTT_CODEC_LE, SESSION_ATTR_ROWS());
/*
 * GET_SESSION's last: the TLS files, then the shm path, then its failure,
 * from the minors that brought them.
 */
LTT_CODEC(client_session_tls, LTT_CODEC_LE,
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_TLS), SESSION_TLS_ROWS(),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_SHM_PATH), LTT_ROW_STR(shm_path),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_SHM_ERROR), LTT_ROW_ENUM(shm_error, INT32_MAX),
	  LTT_ROW_U64(shm_error_since));
#undef LTT_MSG

/* CREATE_SESSION's: the session, the client's home, the TLS files, the shm path, the format. */
#define LTT_MSG struct ltt_session_create_req
LTT_CODEC(client_session_create, LTT_CODEC_LE,
	  SESSION_ATTR_ROWS(conf.),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_DAEMON_DEFAULTS), LTT_ROW_STRREF(home, LTT_PATH_MAX),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_TLS), SESSION_TLS_ROWS(conf.),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_SHM_PATH), LTT_ROW_STR(conf.shm_path),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_TRACE_FORMAT),
	  LTT_ROW_MAX(conf.trace_format, UINT, 1, 0, LTT_TRACE_FORMAT_CTF_2));
#undef LTT_MSG

#define LTT_MSG struct ltt_session_desc
LTT_CODEC(client_session_info, LTT_CODEC_LE,
	  LTT_ROW_STR(name), LTT_ROW_U64(id), LTT_ROW_STR(uuid), LTT_ROW_U32(uid),
	  LTT_ROW_BOOL(active), LTT_ROW_BOOL(snapshot), LTT_ROW_U32(live_timer_us),
	  LTT_ROW_ENUM(output_type, LTT_OUTPUT_NET), LTT_ROW_STR(output),
	  LTT_ROW_U64(creation_time),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_CLOCK),
	  LTT_ROW_ENUM(clock_kind, LTT_TCLOCK_KIND_MAX), LTT_ROW_STR(clock_why),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_TRACE_FORMAT),
	  LTT_ROW_MAX(trace_format, UINT, 1, 0, LTT_TRACE_FORMAT_CTF_2));
#undef LTT_MSG

/*
 * The rows of a channel's attributes, its automatic reclaim and its
 * output failure, members of @in: nothing, or "attr." in a channel's
 * description.  The failure's error is 0 or a positive errno.
 */
#define CHANNEL_ATTR_ROWS(in) \
	LTT_ROW_STR(in name), LTT_ROW_U64(in subbuf_size), LTT_ROW_U64(in num_subbuf), \
	LTT_ROW_BOOL(in overwrite), LTT_ROW_U32(in switch_timer_us), \
	LTT_ROW_U32(in read_timer_us), LTT_ROW_U64(in tracefile_size), \
	LTT_ROW_U64(in tracefile_count), LTT_ROW_ENUM(in buffer_type, LTT_BUFFER_GLOBAL)
#define AUTO_RECLAIM_ROWS(in) LTT_ROW_U8(in auto_reclaim), LTT_ROW_U64(in auto_reclaim_us)
#define CHANNEL_FAILURE_ROWS \
	LTT_ROW_ENUM(output_error, INT32_MAX), LTT_ROW_U64(output_error_since), \
	LTT_ROW_U64(error_events), LTT_ROW_U64(error_packets)

#define LTT_MSG struct ltt_channel_conf
LTT_CODEC(client_channel_attr, LTT_CODEC_LE, CHANNEL_ATTR_ROWS());
LTT_CODEC(client_auto_reclaim, LTT_CODEC_LE, AUTO_RECLAIM_ROWS());
/* ENABLE_CHANNEL's: the attributes, then what later minors brought. */
LTT_CODEC(client_channel_conf, LTT_CODEC_LE,
	  CHANNEL_ATTR_ROWS(),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_FSYNC), LTT_ROW_BOOL(fsync),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_PREALLOC), LTT_ROW_U8(preallocation),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_ALLOCATION), LTT_ROW_U8(allocation),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_AUTO_RECLAIM), AUTO_RECLAIM_ROWS(),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_BLOCKING), LTT_ROW_U64(blocking_timeout_us));
#undef LTT_MSG

/* A channel as GET_SESSION sends it: before OUTPUT_ERRORS, its info alone. */
#define LTT_MSG struct ltt_channel_desc
LTT_CODEC(client_channel, LTT_CODEC_LE,
	  LTT_ROW_U32(domain), CHANNEL_ATTR_ROWS(attr.), LTT_ROW_BOOL(enabled),
	  LTT_ROW_U64(discarded_events), LTT_ROW_U64(lost_packets),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_OUTPUT_ERRORS), CHANNEL_FAILURE_ROWS,
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_CLASSES_REFUSED),
	  LTT_ROW_U64(classes_refused), LTT_ROW_BOOL(attr.fsync),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_PREALLOC), LTT_ROW_U8(attr.preallocation),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_ALLOCATION), LTT_ROW_U8(attr.allocation),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_AUTO_RECLAIM), AUTO_RECLAIM_ROWS(attr.),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_BLOCKING), LTT_ROW_U64(attr.blocking_timeout_us));
LTT_CODEC(client_channel_failure, LTT_CODEC_LE, CHANNEL_FAILURE_ROWS);
#undef LTT_MSG

/* LTT_ROW_SINCE(@minor) of rows that are on the wire from minor @from on at the earliest. */
#define SINCE_FROM(from, minor) LTT_ROW_SINCE((minor) > (from) ? (minor) : (from))

/*
 * A rule's attributes, members of @in, in a message from minor @from on
 * (0: any).  Its type came with minor 1 (a tracepoint before); the probe
 * types with LTT_CLIENT_MINOR_PROBE, which get_rule_type() checks.
 */
#define RULE_ATTR_ROWS_FROM(in, from) \
	LTT_ROW_STR(in pattern), LTT_ROW_ENUM(in loglevel_type, LTT_LOGLEVEL_SINGLE), \
	LTT_ROW_U32(in loglevel), \
	SINCE_FROM(from, 1), LTT_ROW_ENUM(in type, LTT_EVENT_UPROBE), \
	SINCE_FROM(from, LTT_CLIENT_MINOR_FILTER), LTT_ROW_STR(in filter), \
	LTT_ROW_STR(in exclusions), \
	SINCE_FROM(from, LTT_CLIENT_MINOR_PROBE), LTT_ROW_STR(in location)
#define RULE_ATTR_ROWS(in) RULE_ATTR_ROWS_FROM(in, 0)

#define LTT_MSG struct ltt_rule_conf
LTT_CODEC(client_rule_attr, LTT_CODEC_LE, RULE_ATTR_ROWS());
#undef LTT_MSG

#define LTT_MSG struct ltt_rule_desc
LTT_CODEC(client_rule_info, LTT_CODEC_LE,
	  LTT_ROW_U32(domain), LTT_ROW_STR(channel), RULE_ATTR_ROWS(attr.),
	  LTT_ROW_SINCE(0), LTT_ROW_BOOL(enabled));
#undef LTT_MSG

/* DISABLE_EVENT's after its domain: one rule exactly came with filters. */
#define LTT_MSG struct ltt_disable_event_req
LTT_CODEC(client_disable_event, LTT_CODEC_LE,
	  LTT_ROW_STR(channel), LTT_ROW_BOOL(all), LTT_ROW_STR(pattern),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_FILTER), LTT_ROW_BOOL(exact),
	  RULE_ATTR_ROWS_FROM(rule., LTT_CLIENT_MINOR_FILTER));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_desc
LTT_CODEC(client_relay_info, LTT_CODEC_LE,
	  LTT_ROW_U32(domain), LTT_ROW_ENUM(state, LTT_RELAY_STATE_LOST), LTT_ROW_U32(error),
	  LTT_ROW_STR(output_path), LTT_ROW_U64(packets_sent), LTT_ROW_U64(bytes_sent),
	  LTT_ROW_U64(packets_lost));
#undef LTT_MSG

#define LTT_MSG struct ltt_stall_desc
LTT_CODEC(client_stall_waiting, LTT_CODEC_LE,
	  LTT_ROW_U32(domain), LTT_ROW_U32(traces_waiting), LTT_ROW_BOOL(metadata_waiting));
LTT_CODEC(client_stall, LTT_CODEC_LE,
	  LTT_ROW_U32(domain), LTT_ROW_U64(since), LTT_ROW_STR(command));
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

#define LTT_MSG struct ltt_list_tracepoints_req
LTT_CODEC(client_list_tracepoints, LTT_CODEC_LE,
	  LTT_ROW_BOOL(with_fields), LTT_ROW_SINCE(1), LTT_ROW_U32(domain), LTT_ROW_U32(type));
#undef LTT_MSG

#define LTT_MSG struct ltt_mem_stream
LTT_CODEC(client_mem_stream, LTT_CODEC_LE,
	  LTT_ROW_U32(domain), LTT_ROW_STR(channel), LTT_ROW_U32(uid), LTT_ROW_U32(pid),
	  LTT_ROW_U32(cpu), LTT_ROW_U64(resident), LTT_ROW_U64(size),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_MEM_HOW), LTT_ROW_U8(how));
#undef LTT_MSG

#define LTT_MSG struct ltt_rotation_desc
LTT_CODEC(client_rotation_desc, LTT_CODEC_LE,
	  LTT_ROW_U64(timer_us), LTT_ROW_U64(size), LTT_ROW_U64(chunk_id),
	  LTT_ROW_STR(last_archive),
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_ROTATION_ERROR),
	  LTT_ROW_U32(error), LTT_ROW_U64(error_since));
#undef LTT_MSG

/*
 * The put/get pair of the object @type through the table client_@name
 * for a peer of @minor, a parameter where @minor_param names it: the
 * decoder reads a part of a message into *@ret, zeroed first unless
 * @keep (a table of more members of the same object), and leaves its
 * verdict in @r; then @check, a statement on r and ret, checks what the
 * table cannot.
 */
#define CLIENT_PART_(name, type, keep, minor_param, minor, check) \
	void ltt_proto_put_##name(struct ltt_wbuf *w, const type *m minor_param) \
	{ \
		ltt_codec_put_v(w, &client_##name, m, minor); \
	} \
	void ltt_proto_get_##name(struct ltt_rbuf *r, type *ret minor_param) \
	{ \
		if (!(keep)) \
			memset(ret, 0, sizeof(*ret)); \
		if (!ltt_codec_get_v(r, &client_##name, ret, minor)) \
			check; \
	}
#define NO_CHECK (void)0
#define MINOR_PARAM , uint32_t minor
/* ... of any minor */
#define CLIENT_PART(name, type, keep, check) \
	CLIENT_PART_(name, type, keep, , LTT_CODEC_ALL_MINORS, check)
/* ... of the connection's minor, the functions' last parameter */
#define CLIENT_PART_V(name, type, check) CLIENT_PART_(name, type, false, MINOR_PARAM, minor, check)

/*
 * A rule type of a peer of @minor: before LTT_CLIENT_MINOR_PROBE, none
 * of the probe types (its table takes them all).
 */
static void check_rule_type(struct ltt_rbuf *r, const struct ltt_rule_conf *a, uint32_t minor)
{
	if (minor < LTT_CLIENT_MINOR_PROBE && a->type > LTT_EVENT_SYSCALL)
		ltt_rbuf_fail(r);
}

CLIENT_PART(session_attr, struct ltt_session_conf, false, NO_CHECK)
CLIENT_PART(channel_attr, struct ltt_channel_conf, false, NO_CHECK)
CLIENT_PART(auto_reclaim, struct ltt_channel_conf, true, NO_CHECK)
CLIENT_PART(channel_failure, struct ltt_channel_desc, true, NO_CHECK)
CLIENT_PART(relay_info, struct ltt_relay_desc, false, check_domain(r, &ret->domain))
CLIENT_PART(stall_waiting, struct ltt_stall_desc, true, check_domain(r, &ret->domain))
CLIENT_PART(stall, struct ltt_stall_desc, true, check_domain(r, &ret->domain))
CLIENT_PART(snapshot_output, struct ltt_snapshot_output_conf, false, NO_CHECK)
CLIENT_PART(snapshot_result, struct ltt_snapshot_result_desc, false, NO_CHECK)
CLIENT_PART_V(channel_conf, struct ltt_channel_conf, NO_CHECK)
CLIENT_PART_V(channel, struct ltt_channel_desc, check_domain(r, &ret->domain))
CLIENT_PART_V(rule_attr, struct ltt_rule_conf, check_rule_type(r, ret, minor))
/*
 * A trigger's rule: the rule_attr table as at LTT_CLIENT_MINOR_TRIGGER (its
 * location follows the trigger's other parts: trigger-proto.c), the probe
 * types from LTT_CLIENT_MINOR_PROBE_TRIGGER on, with that location.
 */
void ltt_proto_put_trigger_rule(struct ltt_wbuf *w, const struct ltt_rule_conf *a)
{
	ltt_codec_put_v(w, &client_rule_attr, a, LTT_CLIENT_MINOR_TRIGGER);
}

void ltt_proto_get_trigger_rule(struct ltt_rbuf *r, struct ltt_rule_conf *ret, uint32_t minor)
{
	memset(ret, 0, sizeof(*ret));
	if (!ltt_codec_get_v(r, &client_rule_attr, ret, LTT_CLIENT_MINOR_TRIGGER))
		check_rule_type(r, ret, minor < LTT_CLIENT_MINOR_PROBE_TRIGGER ?
				LTT_CLIENT_MINOR_TRIGGER : minor);
}

CLIENT_PART_V(rule_info, struct ltt_rule_desc,
	      { check_domain(r, &ret->domain); check_rule_type(r, &ret->attr, minor); })
CLIENT_PART_V(rotation_desc, struct ltt_rotation_desc, NO_CHECK)

CLIENT_PART_(session_tls, struct ltt_session_conf, true, MINOR_PARAM, minor, NO_CHECK)
CLIENT_PART_V(mem_stream, struct ltt_mem_stream, NO_CHECK)
/* The home of an older client: none. */
CLIENT_PART_V(session_create, struct ltt_session_create_req,
	      ret->home = ret->home ? ret->home : "")

/* A rule of @minor's types; one rule exactly and every rule at once: refused. */
static void check_disable_event(struct ltt_rbuf *r, const struct ltt_disable_event_req *q,
				uint32_t minor)
{
	check_rule_type(r, &q->rule, minor);
	if (q->exact && q->all)
		ltt_rbuf_fail(r);
}

CLIENT_PART_V(disable_event, struct ltt_disable_event_req, check_disable_event(r, ret, minor))

/* What minor 0 lists: the user-space domain's tracepoints. */
static void check_list_tracepoints(struct ltt_rbuf *r, struct ltt_list_tracepoints_req *q,
				   uint32_t minor)
{
	if (minor >= 1) {
		check_domain(r, &q->domain);
		return;
	}
	q->domain = LTT_DOMAIN_USER;
	q->type = LTT_EVENT_TRACEPOINT;
}

CLIENT_PART_V(list_tracepoints, struct ltt_list_tracepoints_req,
	      check_list_tracepoints(r, ret, minor))

/* The session's clock, from LTT_CLIENT_MINOR_CLOCK on: known when the minor carries it. */
CLIENT_PART_V(session_info, struct ltt_session_desc,
	      ret->clock_known = minor >= LTT_CLIENT_MINOR_CLOCK)

/* A channel's info: the channel of a peer before LTT_CLIENT_MINOR_OUTPUT_ERRORS. */
void ltt_proto_put_channel_info(struct ltt_wbuf *w, const struct ltt_channel_desc *c)
{
	ltt_proto_put_channel(w, c, LTT_CLIENT_MINOR_OUTPUT_ERRORS - 1);
}

void ltt_proto_get_channel_info(struct ltt_rbuf *r, struct ltt_channel_desc *ret)
{
	ltt_proto_get_channel(r, ret, LTT_CLIENT_MINOR_OUTPUT_ERRORS - 1);
}
