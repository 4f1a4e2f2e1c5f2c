// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-client-proto.c - LTTng 2.13's client protocol as field tables
 * (lttng-client-proto.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/model.h"
#include "common/model/uri.h"
#include "common/proto/lttng-client-proto.h"

/* LTTng's structures travel in the host's byte order. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LTTNG_ORDER LTT_CODEC_BE
#else
#define LTTNG_ORDER LTT_CODEC_LE
#endif

/* How a command's variable part is sized (the table's third column). */
enum extra_kind { EXTRA_NONE, EXTRA_LEN, EXTRA_ULEN, EXTRA_CREATE, EXTRA_URIS, EXTRA_TRACKER };

#define NAME_(name, num, extra) [num] = #name,
static const char *const cmd_names[LTT_LTTNG_CMD_NR_] = { LTT_LTTNG_CMD_TABLE(NAME_) };
#undef NAME_

#define EXTRA_(name, num, extra) [num] = EXTRA_##extra,
static const unsigned char cmd_extra[LTT_LTTNG_CMD_NR_] = { LTT_LTTNG_CMD_TABLE(EXTRA_) };
#undef EXTRA_

const char *ltt_lttng_cmd_name(uint32_t cmd)
{
	return cmd < LTT_LTTNG_CMD_NR_ ? cmd_names[cmd] : NULL;
}

/* 2.16's numbers in 2.13's: UINT32_MAX for a command 2.13 lacks */
#define FROM216_(name, num) [num] = LTT_LTTNG_CMD_##name + 1,
static const unsigned char cmd_from216[LTT_LTTNG_CMD216_NR] = {
	LTT_LTTNG_CMD216_TABLE(FROM216_)
};
#undef FROM216_

static const char *const cmd216_new_names[LTT_LTTNG_CMD216_NR - LTT_LTTNG_CMD216_NEW_FIRST] = {
	"KERNEL_TRACER_STATUS", "RECLAIM_CHANNEL_MEMORY", "GET_CHANNEL_DATA_STREAM_INFO_SETS",
	"ADD_MAP_CHANNEL", "LIST_MAP_CHANNELS", "GET_MAP_CHANNEL_BY_NAME", "LIST_MAP_GROUPS",
	"SAMPLE_MAP_GROUP", "LIST_MAP_KEYS",
};

static uint32_t cmd_from_216(uint32_t cmd)
{
	return cmd < LTT_LTTNG_CMD216_NR && cmd_from216[cmd] ? cmd_from216[cmd] - 1u : UINT32_MAX;
}

const char *ltt_lttng_cmd216_name(uint32_t cmd)
{
	if (cmd >= LTT_LTTNG_CMD216_NEW_FIRST && cmd < LTT_LTTNG_CMD216_NR)
		return cmd216_new_names[cmd - LTT_LTTNG_CMD216_NEW_FIRST];
	return ltt_lttng_cmd_name(cmd_from_216(cmd));
}

const char *ltt_lttng_gen_name(enum ltt_lttng_gen gen)
{
	static const char *const names[] = { "2.13", "2.14", "2.15", "2.16", "unknown" };

	return (unsigned int)gen < sizeof(names) / sizeof(names[0]) ? names[gen] : "?";
}

/* ---- the fixed request, part by part ---- */

#define LTT_MSG struct ltt_lttng_req
LTT_CODEC(lttng_req_cmd, LTTNG_ORDER, LTT_ROW_U32(cmd), LTT_ROW_FIXSTR(session));
LTT_CODEC(lttng_req_domain, LTTNG_ORDER, LTT_ROW_U32(domain), LTT_ROW_U32(buf_type));
LTT_CODEC(lttng_req_fds, LTTNG_ORDER, LTT_ROW_U32(fd_count));
/* The union's members, each at its start. */
LTT_CODEC(lttng_req_len, LTTNG_ORDER, LTT_ROW_FIXSTR(channel), LTT_ROW_U32(length));
LTT_CODEC(lttng_req_list, LTTNG_ORDER, LTT_ROW_FIXSTR(channel));
/* 2.16's u.list_map_channels */
LTT_CODEC(lttng_req_map_type, LTTNG_ORDER, LTT_ROW_U32(map_type));
/* 2.16's u.add_map_channel */
#define MAP_CHANNEL_ROWS(in) \
	LTT_ROW_FIXSTR(in name), LTT_ROW_U32(in key_type), LTT_ROW_U32(in value_type), \
	LTT_ROW_U64(in max_keys), LTT_ROW_U32(in update_policy), LTT_ROW_U32(in dead_policy), \
	LTT_ROW_U8(in per_uid)
LTT_CODEC(lttng_req_add_map, LTTNG_ORDER, MAP_CHANNEL_ROWS(map.));
/* 2.16's map channel readers' union (their map), and SAMPLE_MAP_GROUP's group after it */
#define MAP_GROUP_ROWS(in) \
	LTT_ROW_U32(in type), LTT_ROW_U32(in value_type), LTT_ROW_U64(in owner_id), \
	LTT_ROW_FIXSTR(in owner_name)
LTT_CODEC(lttng_req_map, LTTNG_ORDER, LTT_ROW_U32(map_type), LTT_ROW_FIXSTR(channel),
	  MAP_GROUP_ROWS(group.));
/* 2.16's u.reclaim_channel_memory */
LTT_CODEC(lttng_req_reclaim, LTTNG_ORDER, LTT_ROW_FIXSTR(channel), LTT_ROW_U64(older_than_us));
/* u.trigger: REGISTER_TRIGGER's length and is_trigger_anonymous (the others': a byte unused) */
LTT_CODEC(lttng_req_ulen, LTTNG_ORDER, LTT_ROW_U32(length), LTT_ROW_U8(trigger_anonymous));
LTT_CODEC(lttng_req_create, LTTNG_ORDER,
	  LTT_ROW_U16(home_dir_size), LTT_ROW_U64(descriptor_size));
LTT_CODEC(lttng_req_uris, LTTNG_ORDER, LTT_ROW_U32(uri_count));
/* process_attr, value_type, an 8-byte value (its pid, uid or gid), name_len */
LTT_CODEC(lttng_req_tracker, LTTNG_ORDER, LTT_ROW_U32(process_attr), LTT_ROW_U32(value_type),
	  LTT_ROW_U64(value), LTT_ROW_U32(name_len));
LTT_CODEC(lttng_req_attr, LTTNG_ORDER, LTT_ROW_U32(process_attr));
LTT_CODEC(lttng_req_policy, LTTNG_ORDER, LTT_ROW_U32(process_attr), LTT_ROW_U32(policy));
/* The snapshot commands' output, and the record's wait before it. */
#define SNAPSHOT_OUTPUT_ROWS(in) \
	LTT_ROW_U32(in id), LTT_ROW_U64(in max_size), LTT_ROW_FIXSTR(in name), \
	LTT_ROW_FIXSTR(in ctrl_url), LTT_ROW_FIXSTR(in data_url)
LTT_CODEC(lttng_req_snapshot, LTTNG_ORDER, SNAPSHOT_OUTPUT_ROWS(output.));
LTT_CODEC(lttng_req_record, LTTNG_ORDER, LTT_ROW_U32(wait), SNAPSHOT_OUTPUT_ROWS(output.));
LTT_CODEC(lttng_req_rotation, LTTNG_ORDER, LTT_ROW_U64(rotation_id));
LTT_CODEC(lttng_req_schedule, LTTNG_ORDER,
	  LTT_ROW_U8(sched_type), LTT_ROW_U8(sched_set), LTT_ROW_U64(sched_value));
LTT_CODEC(lttng_req_shm_path, LTTNG_ORDER, LTT_ROW_FIXSTR(shm_path));
LTT_CODEC(lttng_req_save, LTTNG_ORDER, LTT_ROW_FIXSTR(save_name), LTT_ROW_FIXSTR(save_url),
	  LTT_ROW_U8(save_overwrite), LTT_ROW_U8(save_omit_name), LTT_ROW_U8(save_omit_output));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_map_channel
LTT_CODEC(lttng_map_channel, LTTNG_ORDER, MAP_CHANNEL_ROWS());
#undef LTT_MSG
#define LTT_MSG struct ltt_lttng_map_group
LTT_CODEC(lttng_map_group, LTTNG_ORDER, MAP_GROUP_ROWS());
#undef LTT_MSG

/* LTTng's process attribute value types that name a user or a group. */
#define TRACKER_USER_NAME 2
#define TRACKER_GROUP_NAME 4

/* Decode @c at @off of the fixed request @msg into @ret. */
static int get_at(const uint8_t *msg, size_t off, const struct ltt_codec *c, void *ret)
{
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, msg + off, LTT_LTTNG_MSG_SIZE - off);
	return ltt_codec_get(&r, c, ret);
}

/* The union as a command of its own layout uses it... */
static const struct ltt_codec *const union_of_cmd[LTT_LTTNG_CMD_NR_] = {
	[LTT_LTTNG_CMD_LIST_EVENTS] = &lttng_req_list,
	[LTT_LTTNG_CMD_DISABLE_CHANNEL] = &lttng_req_list,	/* disable.channel_name */
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_GET_POLICY] = &lttng_req_attr,
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_GET_INCLUSION_SET] = &lttng_req_attr,
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_SET_POLICY] = &lttng_req_policy,
	[LTT_LTTNG_CMD_SNAPSHOT_ADD_OUTPUT] = &lttng_req_snapshot,
	[LTT_LTTNG_CMD_SNAPSHOT_DEL_OUTPUT] = &lttng_req_snapshot,
	[LTT_LTTNG_CMD_SNAPSHOT_RECORD] = &lttng_req_record,
	[LTT_LTTNG_CMD_ROTATION_GET_INFO] = &lttng_req_rotation,
	[LTT_LTTNG_CMD_ROTATION_SET_SCHEDULE] = &lttng_req_schedule,
	[LTT_LTTNG_CMD_SET_SESSION_SHM_PATH] = &lttng_req_shm_path,
	[LTT_LTTNG_CMD_SAVE_SESSION] = &lttng_req_save,
};

/* ... else as its variable part is sized (none: the union unused). */
static const struct ltt_codec *const union_of_extra[] = {
	[EXTRA_LEN] = &lttng_req_len,
	[EXTRA_ULEN] = &lttng_req_ulen,
	[EXTRA_CREATE] = &lttng_req_create,
	[EXTRA_URIS] = &lttng_req_uris,
	[EXTRA_TRACKER] = &lttng_req_tracker,
};

/* The union of command @wire_cmd, one 2.16 added, where ltt serves it; else NULL. */
static const struct ltt_codec *union_of_new216(uint32_t wire_cmd)
{
	switch (wire_cmd) {
	case LTT_LTTNG_CMD216_STREAM_INFO_SETS:		/* a channel's name, as list's */
		return &lttng_req_list;
	case LTT_LTTNG_CMD216_RECLAIM_CHANNEL_MEMORY:
		return &lttng_req_reclaim;
	case LTT_LTTNG_CMD216_ADD_MAP_CHANNEL:
		return &lttng_req_add_map;
	case LTT_LTTNG_CMD216_LIST_MAP_CHANNELS:
		return &lttng_req_map_type;
	case LTT_LTTNG_CMD216_GET_MAP_CHANNEL_BY_NAME:
	case LTT_LTTNG_CMD216_LIST_MAP_GROUPS:
	case LTT_LTTNG_CMD216_SAMPLE_MAP_GROUP:
	case LTT_LTTNG_CMD216_LIST_MAP_KEYS:
		return &lttng_req_map;
	default:
		return NULL;
	}
}

/* The union as command @req->cmd (a known one) uses it. */
static int get_union(const uint8_t *msg, struct ltt_lttng_req *req)
{
	const struct ltt_codec *c = union_of_cmd[req->cmd];

	if (!c)
		c = union_of_extra[cmd_extra[req->cmd]];
	return c ? get_at(msg, LTT_LTTNG_OFF_UNION, c, req) : 0;
}

int ltt_lttng_get_req(const uint8_t *msg, enum ltt_lttng_gen gen, struct ltt_lttng_req *ret)
{
	struct ltt_lttng_req req;
	int err = 0;

	memset(&req, 0, sizeof(req));
	if (get_at(msg, 0, &lttng_req_cmd, &req))
		err = -EPROTO;
	req.wire_cmd = req.cmd;
	if (gen == LTT_LTTNG_GEN_2_16)
		req.cmd = cmd_from_216(req.wire_cmd);
	else if (gen != LTT_LTTNG_GEN_2_13 && !err)
		err = -EPROTONOSUPPORT;
	if (!err && (get_at(msg, LTT_LTTNG_OFF_DOMAIN, &lttng_req_domain, &req) ||
		     get_at(msg, LTT_LTTNG_OFF_FD_COUNT, &lttng_req_fds, &req)))
		err = -EPROTO;
	if (!err && !ltt_lttng_cmd_name(req.cmd)) {
		req.cmd = UINT32_MAX;
		/* a command 2.16 added: its union, where it has one ltt serves */
		if (gen == LTT_LTTNG_GEN_2_16 && union_of_new216(req.wire_cmd) &&
		    get_at(msg, LTT_LTTNG_OFF_UNION, union_of_new216(req.wire_cmd), &req))
			return -EPROTO;
		*ret = req;
		return -ENOSYS;
	}
	if (!err && get_union(msg, &req))
		err = -EPROTO;
	if (err) {
		/* the command alone, for the reply */
		ret->cmd = req.cmd;
		ret->wire_cmd = req.wire_cmd;
		return err;
	}
	*ret = req;
	return 0;
}

int ltt_lttng_req_extra(const struct ltt_lttng_req *req, size_t *ret_len)
{
	uint64_t len = 0;

	switch (req->cmd < LTT_LTTNG_CMD_NR_ ? cmd_extra[req->cmd] : EXTRA_NONE) {
	case EXTRA_LEN:
	case EXTRA_ULEN:
		len = req->length;
		break;
	case EXTRA_CREATE:
		len = (uint64_t)req->home_dir_size + req->descriptor_size;
		if (req->descriptor_size > LTT_LTTNG_EXTRA_MAX)
			return -EPROTO;
		break;
	case EXTRA_URIS:
		len = (uint64_t)req->uri_count * LTT_LTTNG_URI_SIZE;
		break;
	case EXTRA_TRACKER:
		if (req->value_type == TRACKER_USER_NAME || req->value_type == TRACKER_GROUP_NAME)
			len = req->name_len;
		break;
	default:
		break;
	}
	if (len > LTT_LTTNG_EXTRA_MAX)
		return -EPROTO;
	*ret_len = (size_t)len;
	return 0;
}

/* ---- the objects ---- */

#define LTT_MSG struct ltt_lttng_reply
LTT_CODEC(lttng_reply, LTTNG_ORDER,
	  LTT_ROW_U32(cmd), LTT_ROW_U32(ret_code), LTT_ROW_U32(pid),
	  LTT_ROW_U32(cmd_header_size), LTT_ROW_U32(data_size), LTT_ROW_U32(fd_count));
LTT_CODEC(lttng_reply216, LTTNG_ORDER,
	  LTT_ROW_U32(cmd), LTT_ROW_U32(ret_code),
	  LTT_ROW_U32(cmd_header_size), LTT_ROW_U32(data_size), LTT_ROW_U32(fd_count));
#undef LTT_MSG


#define LTT_MSG struct ltt_lttng_channel
/* lttng_channel_comm up to its monitor timer, the same in 2.13 and 2.16 */
#define CHANNEL_ROWS \
	LTT_ROW_U32(name_len), LTT_ROW_U8(enabled), LTT_ROW_U8(overwrite), \
	LTT_ROW_U64(subbuf_size), LTT_ROW_U64(num_subbuf), LTT_ROW_U32(switch_timer_us), \
	LTT_ROW_U32(read_timer_us), LTT_ROW_U8(output), LTT_ROW_U64(tracefile_size), \
	LTT_ROW_U64(tracefile_count), LTT_ROW_U32(live_timer_us), \
	LTT_ROW_U64(discarded_events), LTT_ROW_U64(lost_packets), LTT_ROW_U64(monitor_timer_us)
LTT_CODEC(lttng_channel, LTTNG_ORDER, CHANNEL_ROWS, LTT_ROW_U64(blocking_timeout_us));
LTT_CODEC(lttng_channel216, LTTNG_ORDER, CHANNEL_ROWS,
	  LTT_ROW_U8(watchdog_set), LTT_ROW_BYTES(watchdog_pad),
	  LTT_ROW_U64(watchdog_us), LTT_ROW_U64(blocking_timeout_us), LTT_ROW_U8(allocation),
	  LTT_ROW_U8(preallocation), LTT_ROW_U8(reclaim_set), LTT_ROW_U64(reclaim_us));
#undef CHANNEL_ROWS
#undef LTT_MSG



#define LTT_MSG struct ltt_lttng_event
LTT_CODEC(lttng_event, LTTNG_ORDER,
	  LTT_ROW_U8(type), LTT_ROW_U8(loglevel_type), LTT_ROW_U32(loglevel),
	  LTT_ROW_U8(enabled), LTT_ROW_U32(pid), LTT_ROW_U32(flags), LTT_ROW_U32(name_len),
	  LTT_ROW_U32(exclusion_count), LTT_ROW_U32(filter_len), LTT_ROW_U32(bytecode_len),
	  LTT_ROW_U32(uprobe_len), LTT_ROW_U32(probe_attr_len),
	  LTT_ROW_U32(function_attr_len));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_session
LTT_CODEC(lttng_session, LTTNG_ORDER,
	  LTT_ROW_FIXSTR(name), LTT_ROW_FIXSTR(path), LTT_ROW_BYTES(pad), LTT_ROW_U32(enabled),
	  LTT_ROW_U32(snapshot_mode), LTT_ROW_U32(live_timer_us), LTT_ROW_BYTES(padding),
	  LTT_ROW_U64(extended));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_session_ext
LTT_CODEC(lttng_session_ext, LTTNG_ORDER, LTT_ROW_U64(creation_time), LTT_ROW_U8(is_set));
LTT_CODEC(lttng_session_ext216, LTTNG_ORDER, LTT_ROW_U64(creation_time), LTT_ROW_U8(is_set),
	  LTT_ROW_FIXSTR(shm_path), LTT_ROW_U8(trace_format));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_domain
LTT_CODEC(lttng_domain, LTTNG_ORDER, LTT_ROW_U32(type), LTT_ROW_U32(buf_type), LTT_ROW_BYTES(rest));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_descriptor
LTT_CODEC(lttng_descriptor, LTTNG_ORDER,
	  LTT_ROW_U8(type), LTT_ROW_U8(output_type), LTT_ROW_U32(name_len), LTT_ROW_U8(uri_count));
LTT_CODEC(lttng_descriptor216, LTTNG_ORDER,
	  LTT_ROW_U8(type), LTT_ROW_U8(output_type), LTT_ROW_U8(trace_format),
	  LTT_ROW_U32(name_len), LTT_ROW_U8(uri_count));
#undef LTT_MSG



#define LTT_MSG struct ltt_lttng_probe_attr
LTT_CODEC(lttng_probe_attr, LTTNG_ORDER,
	  LTT_ROW_U64(addr), LTT_ROW_U64(offset), LTT_ROW_U32(symbol_len));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_uprobe_lens
LTT_CODEC(lttng_uprobe_function, LTTNG_ORDER, LTT_ROW_U32(name_len), LTT_ROW_U32(path_len));
LTT_CODEC(lttng_uprobe_sdt, LTTNG_ORDER,
	  LTT_ROW_U32(name_len), LTT_ROW_U32(provider_len), LTT_ROW_U32(path_len));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_perf_counter
LTT_CODEC(lttng_perf_counter, LTTNG_ORDER,
	  LTT_ROW_U32(type), LTT_ROW_U64(config), LTT_ROW_U32(name_len));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_snapshot_output
LTT_CODEC(lttng_snapshot_output, LTTNG_ORDER, SNAPSHOT_OUTPUT_ROWS());
#undef LTT_MSG

/* The location's union: 4,357 bytes, a local path its first 4,096. */
#define LTT_MSG struct ltt_lttng_rotation_info
LTT_CODEC(lttng_rotation_info, LTTNG_ORDER,
	  LTT_ROW_U32(status), LTT_ROW_U8(location_type),
	  LTT_ROW_WHEN_EQ(location_type, 1), LTT_ROW_FIXSTR(path), LTT_ROW_BYTES(pad),
	  LTT_ROW_WHEN_END(),
	  LTT_ROW_WHEN_EQ(location_type, 0), LTT_ROW_BYTES(path), LTT_ROW_BYTES(pad),
	  LTT_ROW_WHEN_END(),
	  LTT_ROW_WHEN_EQ(location_type, 2), LTT_ROW_FIXSTR(host), LTT_ROW_U8(protocol),
	  LTT_ROW_U16(ctrl_port), LTT_ROW_U16(data_port), LTT_ROW_FIXSTR(relative_path));
#undef LTT_MSG

#define LTT_MSG struct ltt_lttng_uri
LTT_CODEC(lttng_uri, LTTNG_ORDER,
	  LTT_ROW_U32(dtype), LTT_ROW_U32(utype), LTT_ROW_U32(stype), LTT_ROW_U32(proto),
	  LTT_ROW_U16(port), LTT_ROW_FIXSTR(subdir), LTT_ROW_FIXSTR(dst));
#undef LTT_MSG

/* The put and the part-get of table lttng_@name for @type. */
#define LTTNG_PUT(name, type) \
	void ltt_lttng_put_##name(struct ltt_wbuf *w, const type *m) \
	{ \
		ltt_codec_put(w, &lttng_##name, m); \
	}
#define LTTNG_GET(name, type) \
	void ltt_lttng_get_##name(struct ltt_rbuf *r, type *ret) \
	{ \
		memset(ret, 0, sizeof(*ret)); \
		ltt_codec_get(r, &lttng_##name, ret); \
	}

LTTNG_PUT(event, struct ltt_lttng_event)
LTTNG_GET(event, struct ltt_lttng_event)
LTTNG_PUT(session, struct ltt_lttng_session)
/*
 * The objects whose layout 2.16 changed: each generation's table (2.14
 * and 2.15, refused, are never written).
 */
#define LTTNG_GEN_PUT(name, type) \
	void ltt_lttng_put_##name(struct ltt_wbuf *w, enum ltt_lttng_gen gen, const type *m) \
	{ \
		ltt_codec_put(w, gen == LTT_LTTNG_GEN_2_16 ? &lttng_##name##216 : &lttng_##name, m); \
	}
#define LTTNG_GEN_GET(name, type) \
	void ltt_lttng_get_##name(struct ltt_rbuf *r, enum ltt_lttng_gen gen, type *ret) \
	{ \
		memset(ret, 0, sizeof(*ret)); \
		ltt_codec_get(r, gen == LTT_LTTNG_GEN_2_16 ? &lttng_##name##216 : &lttng_##name, ret); \
	}

void ltt_lttng_put_reply(struct ltt_wbuf *w, enum ltt_lttng_gen gen, const struct ltt_lttng_reply *m)
{
	/* 2.15 dropped the pid already */
	ltt_codec_put(w, gen == LTT_LTTNG_GEN_2_15 || gen == LTT_LTTNG_GEN_2_16 ? &lttng_reply216 :
										   &lttng_reply, m);
}

LTTNG_GEN_PUT(session_ext, struct ltt_lttng_session_ext)
LTTNG_GEN_PUT(channel, struct ltt_lttng_channel)
LTTNG_GEN_GET(channel, struct ltt_lttng_channel)
LTTNG_GEN_PUT(descriptor, struct ltt_lttng_descriptor)
LTTNG_GEN_GET(descriptor, struct ltt_lttng_descriptor)
LTTNG_PUT(domain, struct ltt_lttng_domain)
LTTNG_PUT(uri, struct ltt_lttng_uri)
LTTNG_GET(uri, struct ltt_lttng_uri)
LTTNG_PUT(snapshot_output, struct ltt_lttng_snapshot_output)
LTTNG_GET(snapshot_output, struct ltt_lttng_snapshot_output)
LTTNG_PUT(rotation_info, struct ltt_lttng_rotation_info)
LTTNG_PUT(probe_attr, struct ltt_lttng_probe_attr)
LTTNG_GET(probe_attr, struct ltt_lttng_probe_attr)
LTTNG_PUT(perf_counter, struct ltt_lttng_perf_counter)
LTTNG_GET(perf_counter, struct ltt_lttng_perf_counter)

/* ---- exclusion names ---- */

uint32_t ltt_lttng_exclusions_size(const char *list, uint32_t *ret_bytes)
{
	const char *p = list;
	uint32_t count = 0, bytes = 0;
	size_t n;

	while (*p) {
		n = strcspn(p, ",");
		count++;
		bytes += 4 + (uint32_t)n + 1;
		p += n + (p[n] == ',');
	}
	if (ret_bytes)
		*ret_bytes = bytes;
	return count;
}

void ltt_lttng_put_exclusions(struct ltt_wbuf *w, const char *list)
{
	const char *p = list;
	uint32_t len;
	size_t n;

	while (*p) {
		n = strcspn(p, ",");
		len = (uint32_t)n + 1;	/* in the host's order, as LTTng's structures */
		ltt_wbuf_put_bytes(w, &len, sizeof(len));
		ltt_wbuf_put_bytes(w, p, n);
		ltt_wbuf_put_u8(w, 0);
		p += n + (p[n] == ',');
	}
}

/* ---- user-space probe locations ---- */

/* A string of @len bytes, its NUL last and only, at @r's cursor; NULL: @r failed. */
static const char *get_string(struct ltt_rbuf *r, uint32_t len)
{
	const char *p = len > 1 && len <= LTT_LTTNG_PATH_MAX ? ltt_rbuf_get_bytes(r, len) : NULL;

	if (!p || strnlen(p, len) != len - 1u) {
		ltt_rbuf_fail(r);
		return NULL;
	}
	return p;
}

int ltt_lttng_get_uprobe(struct ltt_rbuf *r, uint32_t len, char *buf, size_t size)
{
	struct ltt_lttng_uprobe_lens l = { 0 };
	size_t start = r->pos;
	const char *name, *provider = NULL, *path;
	int8_t type = (int8_t)ltt_rbuf_get_u8(r), lookup;
	int n;

	ltt_codec_get(r, type == LTT_LTTNG_UPROBE_SDT ? &lttng_uprobe_sdt :
			 &lttng_uprobe_function, &l);
	name = get_string(r, l.name_len);
	if (type == LTT_LTTNG_UPROBE_SDT)
		provider = get_string(r, l.provider_len);
	path = get_string(r, l.path_len);
	lookup = (int8_t)ltt_rbuf_get_u8(r);
	if (r->err || (type != LTT_LTTNG_UPROBE_FUNCTION && type != LTT_LTTNG_UPROBE_SDT) ||
	    (type == LTT_LTTNG_UPROBE_SDT ? lookup != LTT_LTTNG_UPROBE_LOOKUP_SDT :
					     lookup > LTT_LTTNG_UPROBE_LOOKUP_ELF) ||
	    r->pos - start != len) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	n = provider ? snprintf(buf, size, "sdt:%s:%s:%s", path, provider, name) :
		       snprintf(buf, size, "elf:%s:%s", path, name);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* @s's last ':' before @end (a name after it has none, a path before it may); NULL if none. */
static const char *last_colon(const char *s, const char *end)
{
	while (end > s && end[-1] != ':')
		end--;
	return end > s ? end - 1 : NULL;
}

int ltt_lttng_put_uprobe(struct ltt_wbuf *w, const char *location, bool sdt)
{
	const char *path, *name, *provider = NULL, *end;
	struct ltt_lttng_uprobe_lens l = { 0 };
	bool is_sdt = sdt && !strncmp(location, "sdt:", 4);

	if (!strncmp(location, "sdt:", 4) && !sdt)
		return -EINVAL;
	/* "[elf:]PATH:FUNCTION" (lttctl's may lack the prefix), "sdt:PATH:PROVIDER:NAME" */
	path = is_sdt || !strncmp(location, "elf:", 4) ? location + 4 : location;
	end = location + strlen(location);
	name = last_colon(path, end);
	if (is_sdt && name)
		provider = last_colon(path, name);
	if (!name || (is_sdt && !provider))
		return -EINVAL;
	l.name_len = (uint32_t)(end - name);	/* past its ':', with its NUL */
	if (is_sdt) {
		l.provider_len = (uint32_t)(name - provider);
		name = provider;
	}
	l.path_len = (uint32_t)(name - path) + 1;
	if (l.path_len < 2 || l.name_len < 2 || (is_sdt && l.provider_len < 2) ||
	    l.path_len > LTT_LTTNG_PATH_MAX || l.name_len > LTT_LTTNG_PATH_MAX ||
	    l.provider_len > LTT_LTTNG_PATH_MAX)
		return -EINVAL;
	ltt_wbuf_put_u8(w, is_sdt ? LTT_LTTNG_UPROBE_SDT : LTT_LTTNG_UPROBE_FUNCTION);
	ltt_codec_put(w, is_sdt ? &lttng_uprobe_sdt : &lttng_uprobe_function, &l);
	ltt_wbuf_put_bytes(w, end - l.name_len + 1, l.name_len);
	if (is_sdt) {
		ltt_wbuf_put_bytes(w, provider + 1, l.provider_len - 1);
		ltt_wbuf_put_u8(w, 0);
	}
	ltt_wbuf_put_bytes(w, path, l.path_len - 1);
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_u8(w, is_sdt ? LTT_LTTNG_UPROBE_LOOKUP_SDT : LTT_LTTNG_UPROBE_LOOKUP_ELF);
	return is_sdt ? 1 : 0;
}

/* ---- the agents' filters ---- */

/* The comparison of the level LTTng's client adds for @ll_type: a range's, or one level's. */
static const char *level_op(int8_t ll_type)
{
	return ll_type == LTT_LTTNG_LOGLEVEL_RANGE ? ">=" : "==";
}

int ltt_lttng_agent_filter(const char *user, const char *name, int8_t ll_type, int32_t level,
			   char *buf, size_t len)
{
	char *tmp = malloc(len);
	int n;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, len, "%s", user);
	if (strcmp(name, "*"))
		n = tmp[0] ? snprintf(buf, len, "(%s) && (logger_name == \"%s\")", tmp, name) :
			     snprintf(buf, len, "logger_name == \"%s\"", name);
	else
		n = snprintf(buf, len, "%s", tmp);
	if (n >= 0 && (size_t)n < len && ll_type != LTT_LTTNG_LOGLEVEL_ALL) {
		snprintf(tmp, len, "%s", buf);
		n = tmp[0] ? snprintf(buf, len, "(%s) && (int_loglevel %s %d)", tmp,
				      level_op(ll_type), level) :
			     snprintf(buf, len, "int_loglevel %s %d", level_op(ll_type), level);
	}
	free(tmp);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Peel @text (changed in place) of "(X) && (@tail)" into X, or of
 * "@tail" alone into "".  Returns 0, or -1 when it has neither form.
 */
static int peel(char *text, const char *tail)
{
	size_t n = strlen(text), t = strlen(tail);

	if (!strcmp(text, tail)) {
		text[0] = '\0';
		return 0;
	}
	if (n < t + 8 || text[0] != '(' || strncmp(text + n - t - 1, tail, t) ||
	    strncmp(text + n - t - 7, ") && (", 6) || text[n - 1] != ')')
		return -1;
	memmove(text, text + 1, n - t - 8);
	text[n - t - 8] = '\0';
	return 0;
}

void ltt_lttng_agent_user_filter(char *text, const char *name, int8_t ll_type, int32_t level)
{
	char *copy = strdup(text);
	char tail[LTT_LTTNG_SYMBOL_LEN + 32];
	bool ok = copy != NULL;

	if (ok && ll_type != LTT_LTTNG_LOGLEVEL_ALL) {
		snprintf(tail, sizeof(tail), "int_loglevel %s %d", level_op(ll_type), level);
		ok = !peel(copy, tail);
	}
	if (ok && strcmp(name, "*")) {
		ok = snprintf(tail, sizeof(tail), "logger_name == \"%s\"", name) <
		     (int)sizeof(tail);
		ok = ok && !peel(copy, tail);
	}
	if (ok)
		strcpy(text, copy);
	free(copy);
}

/* The URL of an LTTng snapshot output as ltt's output; -1 for one ltt does not take. */
int ltt_lttng_snapshot_output_to_ltt(const struct ltt_lttng_snapshot_output *o,
				     struct ltt_snapshot_output_conf *c)
{
	struct ltt_uri ctrl, data, net;
	const char *path = o->ctrl_url;

	if (!strncmp(path, "file://", 7))
		path += 7;
	if (path[0] == '/' && !o->data_url[0]) {
		c->output_type = LTT_OUTPUT_LOCAL;
		snprintf(c->output, sizeof(c->output), "%s", path);
		return 0;
	}
	if (ltt_uri_parse(o->ctrl_url, &ctrl))
		return -1;
	if (!o->data_url[0]) {
		if (ctrl.scheme != LTT_URI_NET)
			return -1;
		net = ctrl;
	} else if (ltt_uri_parse(o->data_url, &data) || ltt_uri_net_from_tcp(&ctrl, &data, &net)) {
		return -1;
	}
	c->output_type = LTT_OUTPUT_NET;
	return ltt_uri_format(&net, c->output, sizeof(c->output)) ? -1 : 0;
}

void ltt_lttng_put_map_channel(struct ltt_wbuf *w, const struct ltt_lttng_map_channel *m)
{
	ltt_codec_put(w, &lttng_map_channel, m);
}

void ltt_lttng_put_map_group(struct ltt_wbuf *w, const struct ltt_lttng_map_group *g)
{
	ltt_codec_put(w, &lttng_map_group, g);
}
