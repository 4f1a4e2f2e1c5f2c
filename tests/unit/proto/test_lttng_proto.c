// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_lttng_proto.c - unit tests of common/proto/lttng-client-proto.c,
 * LTTng 2.13's client protocol: the sizes of LTTng's structures as the
 * tables write them (measured on lttng-tools 2.13.9's headers, x86-64),
 * the fixed request read at LTTng's offsets, the variable part each
 * command announces and its bound, and the objects' round trips and
 * truncations.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/lttng-client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "common/proto/trigger-proto.h"
#include "tests/unit/tap.h"

/* A fixed request of @cmd for session "s1" with @u at the union (@len bytes). */
static uint8_t *request(uint32_t cmd, const void *u, size_t len)
{
	uint8_t *msg = calloc(1, LTT_LTTNG_MSG_SIZE);

	if (!msg)
		abort();
	memcpy(msg, &cmd, 4);
	memcpy(msg + LTT_LTTNG_OFF_SESSION, "s1", 3);
	if (u)
		memcpy(msg + LTT_LTTNG_OFF_UNION, u, len);
	return msg;
}

/* The bytes @put writes of a zeroed object. */
#define SIZE_OF(type, put)						\
	({								\
		type *o_ = calloc(1, sizeof(type));			\
		struct ltt_wbuf w_;					\
		size_t n_;						\
									\
		ltt_wbuf_init(&w_);					\
		put(&w_, o_);						\
		n_ = w_.err ? 0 : w_.len;				\
		ltt_wbuf_fini(&w_);					\
		free(o_);						\
		n_;							\
	})

/* each generation's writer of an object whose layout 2.16 changed, as SIZE_OF() takes it */
#define GEN_PUT(name, type, gen, g) \
	static void put_##name##_##g(struct ltt_wbuf *w, const type *m) \
	{ \
		ltt_lttng_put_##name(w, gen, m); \
	}
GEN_PUT(reply, struct ltt_lttng_reply, LTT_LTTNG_GEN_2_13, 213)
GEN_PUT(reply, struct ltt_lttng_reply, LTT_LTTNG_GEN_2_16, 216)
GEN_PUT(reply, struct ltt_lttng_reply, LTT_LTTNG_GEN_2_15, 215)
GEN_PUT(session_ext, struct ltt_lttng_session_ext, LTT_LTTNG_GEN_2_13, 213)
GEN_PUT(session_ext, struct ltt_lttng_session_ext, LTT_LTTNG_GEN_2_16, 216)
GEN_PUT(channel, struct ltt_lttng_channel, LTT_LTTNG_GEN_2_13, 213)
GEN_PUT(channel, struct ltt_lttng_channel, LTT_LTTNG_GEN_2_16, 216)
GEN_PUT(descriptor, struct ltt_lttng_descriptor, LTT_LTTNG_GEN_2_13, 213)
GEN_PUT(descriptor, struct ltt_lttng_descriptor, LTT_LTTNG_GEN_2_16, 216)

static void test_sizes(void)
{
	struct ltt_lttng_rotation_info ri = { .location_type = 2 };
	struct ltt_wbuf w;

	tap_is_int((int)SIZE_OF(struct ltt_lttng_reply, put_reply_213), LTT_LTTNG_REPLY_SIZE,
		   "lttcomm_lttng_msg: 24 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_reply, put_reply_216), LTT_LTTNG_REPLY_SIZE_216,
		   "2.16's: 20 bytes, no pid");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_reply, put_reply_215), LTT_LTTNG_REPLY_SIZE_216,
		   "2.15's: 20 bytes too");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_session, ltt_lttng_put_session),
		   LTT_LTTNG_SESSION_SIZE, "struct lttng_session: 4,376 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_session_ext, put_session_ext_213),
		   LTT_LTTNG_SESSION_EXT_SIZE, "its extended part: 9 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_session_ext, put_session_ext_216),
		   LTT_LTTNG_SESSION_EXT_SIZE_216, "2.16's: 4,106 bytes (shm path, trace format)");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_domain, ltt_lttng_put_domain),
		   LTT_LTTNG_DOMAIN_SIZE, "struct lttng_domain: 308 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_channel, put_channel_213), LTT_LTTNG_CHANNEL_SIZE,
		   "lttng_channel_comm: 83 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_channel, put_channel_216),
		   LTT_LTTNG_CHANNEL_SIZE_216, "2.16's: 110 bytes (watchdog, policies)");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_event, ltt_lttng_put_event), 43,
		   "lttng_event_comm: 43 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_descriptor, put_descriptor_213), 7,
		   "lttng_session_descriptor_comm: 7 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_descriptor, put_descriptor_216), 8,
		   "2.16's: 8 bytes (its trace format)");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_uri, ltt_lttng_put_uri), LTT_LTTNG_URI_SIZE,
		   "struct lttng_uri: 8,210 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_snapshot_output, ltt_lttng_put_snapshot_output),
		   8459, "struct lttng_snapshot_output: 8,459 bytes");
	tap_is_int((int)SIZE_OF(struct ltt_lttng_rotation_info, ltt_lttng_put_rotation_info), 4362,
		   "lttng_rotation_get_info_return, no location: 4,362 bytes");
	ltt_wbuf_init(&w);
	ltt_lttng_put_rotation_info(&w, &ri);
	tap_is_int((int)w.len, 4362, "... and with a relay's location");
	ltt_wbuf_fini(&w);
}

static void test_request(void)
{
	/* ENABLE_EVENT: union {char channel_name[256]; u32 length}; domain UST, per-uid */
	uint8_t u[260] = "chan", *msg;
	uint32_t len = 77, dom[2] = { 2, 1 }, fds = 0;
	struct ltt_lttng_req req;
	size_t extra;

	memcpy(u + 256, &len, 4);
	msg = request(6, u, sizeof(u));
	memcpy(msg + LTT_LTTNG_OFF_DOMAIN, dom, sizeof(dom));
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && req.cmd == 6 && !strcmp(req.session, "s1") &&
	       req.domain == 2 && req.buf_type == 1 && !strcmp(req.channel, "chan") &&
	       req.length == 77 && !req.fd_count,
	       "ENABLE_EVENT read at LTTng's offsets: session, domain, channel, length");
	tap_ok(!ltt_lttng_req_extra(&req, &extra) && extra == 77, "... 77 bytes follow it");
	fds = 1;
	memcpy(msg + LTT_LTTNG_OFF_FD_COUNT, &fds, 4);
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && req.fd_count == 1, "its fd count is read");
	len = LTT_LTTNG_EXTRA_MAX + 1;
	memcpy(msg + LTT_LTTNG_OFF_UNION + 256, &len, 4);
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && ltt_lttng_req_extra(&req, &extra) == -EPROTO,
	       "a variable part past LTT_LTTNG_EXTRA_MAX: EPROTO");
	memset(msg + LTT_LTTNG_OFF_UNION, 'x', 256);
	tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req), -EPROTO, "a channel name without its NUL: EPROTO");
	free(msg);
	msg = request(16, NULL, 0);
	memset(msg + LTT_LTTNG_OFF_SESSION, 'y', LTT_LTTNG_NAME_MAX);
	tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req), -EPROTO, "a session name without its NUL: EPROTO");
	free(msg);
	msg = request(99, NULL, 0);
	tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) == -ENOSYS && req.wire_cmd == 99,
	       "command 99, which 2.13 lacks: ENOSYS, the number kept for the reply");
	free(msg);
	msg = request(7, NULL, 0);
	tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req), -ENOSYS, "command 7, a gap of 2.13's: ENOSYS");
	/* 2.16's numbers: no request taken for another command */
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) &&
	       req.cmd == LTT_LTTNG_CMD_DESTROY_SESSION && req.wire_cmd == 7,
	       "2.16's command 7 is DESTROY_SESSION (2.13's 9), 7 kept for the reply");
	tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_14, &req), -EPROTONOSUPPORT,
		   "a 2.14 client: EPROTONOSUPPORT");
	tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_15, &req), -EPROTONOSUPPORT,
		   "a 2.15 client: EPROTONOSUPPORT");
	tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_UNKNOWN, &req), -EPROTONOSUPPORT,
		   "a client whose version is unknown: EPROTONOSUPPORT");
	free(msg);
	msg = request(9, NULL, 0);
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) &&
	       req.cmd == LTT_LTTNG_CMD_LIST_DOMAINS,
	       "2.16's 9 is LIST_DOMAINS, never 2.13's DESTROY_SESSION");
	free(msg);
	msg = request(39, NULL, 0);
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) &&
	       req.cmd == LTT_LTTNG_CMD_CREATE_SESSION_EXT, "2.16's 39 is CREATE_SESSION_EXT (2.13's 49)");
	free(msg);
	msg = request(43, NULL, 0);
	tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) == -ENOSYS &&
	       req.cmd == UINT32_MAX && req.wire_cmd == 43 &&
	       !strcmp(ltt_lttng_cmd216_name(43), "KERNEL_TRACER_STATUS"),
	       "2.16's 43, KERNEL_TRACER_STATUS, which 2.13 lacks: ENOSYS, named");
	free(msg);
	{
		/* 2.16's u.add_map_channel: struct lttcomm_map_channel_comm, packed, 281 bytes */
		struct ltt_lttng_map_channel m = { .name = "m1", .value_type = 1, .max_keys = 4096,
						   .dead_policy = 1, .per_uid = 1 };
		struct ltt_wbuf mw;
		uint64_t keys = 0x0102030405060708ULL;

		ltt_wbuf_init(&mw);
		m.max_keys = keys;
		ltt_lttng_put_map_channel(&mw, &m);
		tap_ok(!mw.err && mw.len == LTT_LTTNG_MAP_CHANNEL_SIZE &&
		       !memcmp(mw.data + 264, &keys, 8) && mw.data[280] == 1 && mw.data[260] == 1,
		       "2.16's map channel: 281 bytes, its key count at 264, value type at 260, per user at 280");
		msg = request(46, mw.data, mw.len);
		tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) == -ENOSYS &&
		       !strcmp(req.map.name, "m1") && req.map.max_keys == keys &&
		       req.map.value_type == 1 && req.map.dead_policy == 1 && req.map.per_uid == 1,
		       "2.16's 46, ADD_MAP_CHANNEL: its map channel read");
		free(msg);
		ltt_wbuf_fini(&mw);
	}
	{
		/*
		 * 2.16's u.sample_map_group: {i32 type, char channel_name[256],
		 * struct lttcomm_map_group_comm (packed, 272 bytes)}
		 */
		struct ltt_lttng_map_group g = { .type = LTT_LTTNG_MAP_GROUP_PER_PROCESS,
						 .value_type = 1, .owner_id = 4242,
						 .owner_name = "app" };
		uint8_t sg[4 + 256 + LTT_LTTNG_MAP_GROUP_SIZE] = { 1, 0, 0, 0, 'm', '1' };
		struct ltt_wbuf gw;

		ltt_wbuf_init(&gw);
		ltt_lttng_put_map_group(&gw, &g);
		tap_ok(!gw.err && gw.len == LTT_LTTNG_MAP_GROUP_SIZE && gw.data[0] == 2 &&
		       gw.data[4] == 1 && !memcmp(gw.data + 8, &g.owner_id, 8) &&
		       !strcmp((const char *)gw.data + 16, "app"),
		       "2.16's map group: 272 bytes, type, value type, owner id at 8, its name at 16");
		memcpy(sg + 260, gw.data, gw.len);
		msg = request(50, sg, sizeof(sg));
		tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) == -ENOSYS &&
		       req.map_type == 1 && !strcmp(req.channel, "m1") &&
		       req.group.type == LTT_LTTNG_MAP_GROUP_PER_PROCESS && req.group.value_type == 1 &&
		       req.group.owner_id == 4242 && !strcmp(req.group.owner_name, "app") &&
		       !strcmp(ltt_lttng_cmd216_name(50), "SAMPLE_MAP_GROUP"),
		       "2.16's 50, SAMPLE_MAP_GROUP: its map channel's type and name, and the group, read");
		free(msg);
		memset(sg + 4, 'x', 256);
		msg = request(49, sg, sizeof(sg));
		tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) == -EPROTO,
		       "2.16's 49, LIST_MAP_GROUPS, whose channel name has no NUL: malformed");
		free(msg);
		ltt_wbuf_fini(&gw);
	}
	{
		/* 2.16's u.reclaim_channel_memory: {char channel_name[256], u64 older_than_age_us} */
		uint8_t rec[264] = "c1";
		uint64_t age = 2000000;

		memcpy(rec + 256, &age, 8);
		msg = request(44, rec, sizeof(rec));
		tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) == -ENOSYS &&
		       req.wire_cmd == 44 && !strcmp(req.channel, "c1") && req.older_than_us == age &&
		       !strcmp(ltt_lttng_cmd216_name(44), "RECLAIM_CHANNEL_MEMORY"),
		       "2.16's 44, RECLAIM_CHANNEL_MEMORY: its channel and age read");
		memset(msg + LTT_LTTNG_OFF_UNION, 'x', 256);
		tap_is_int(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req), -EPROTO,
			   "... its channel name without a NUL: EPROTO");
		free(msg);
	}
	msg = request(52, NULL, 0);
	tap_ok(ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_16, &req) == -ENOSYS && !ltt_lttng_cmd216_name(52),
	       "2.16's 52, past its last command: ENOSYS");
	free(msg);
}

static void test_extra(void)
{
	/* CREATE_SESSION_EXT: union {u16 home_dir_size; u64 session_descriptor_size} */
	uint8_t create[10], *msg;
	uint16_t home = 12;
	uint64_t desc = 8217;
	uint32_t count = 2, tracker[5] = { 1, 2, 0, 0, 9 };
	struct ltt_lttng_req req;
	size_t extra;

	memcpy(create, &home, 2);
	memcpy(create + 2, &desc, 8);
	msg = request(49, create, sizeof(create));
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && !ltt_lttng_req_extra(&req, &extra) &&
	       extra == 12 + 8217, "CREATE_SESSION_EXT: its home, then its descriptor");
	free(msg);
	msg = request(21, &count, 4);
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && !ltt_lttng_req_extra(&req, &extra) &&
	       extra == 2 * LTT_LTTNG_URI_SIZE, "SET_CONSUMER_URI: 2 struct lttng_uri");
	free(msg);
	/* a user name (value type 2) of 9 bytes; a pid (0) has none */
	msg = request(32, tracker, sizeof(tracker));
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && !ltt_lttng_req_extra(&req, &extra) &&
	       extra == 9 && req.process_attr == 1, "a tracker's user name: its 9 bytes follow");
	tracker[1] = 0;
	memcpy(msg + LTT_LTTNG_OFF_UNION, tracker, sizeof(tracker));
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && !ltt_lttng_req_extra(&req, &extra) && !extra,
	       "a tracker's pid: nothing follows");
	free(msg);
	msg = request(13, NULL, 0);
	tap_ok(!ltt_lttng_get_req(msg, LTT_LTTNG_GEN_2_13, &req) && !ltt_lttng_req_extra(&req, &extra) && !extra &&
	       !strcmp(ltt_lttng_cmd_name(13), "LIST_SESSIONS"), "LIST_SESSIONS: nothing follows");
	free(msg);
}

static void test_objects(void)
{
	struct ltt_lttng_event ev = { .type = -1, .loglevel_type = 1, .loglevel = 6, .enabled = 1,
				      .name_len = 9, .filter_len = 7 }, ev2;
	struct ltt_lttng_channel ch = { .name_len = 5, .overwrite = -1, .subbuf_size = 4096,
					.blocking_timeout_us = -1 }, ch2;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_lttng_put_event(&w, &ev);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_lttng_get_event(&r, &ev2);
	tap_ok(!ltt_rbuf_end(&r) && !memcmp(&ev, &ev2, sizeof(ev)),
	       "an event: its round trip, type -1 (all) kept");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	ltt_lttng_get_event(&r, &ev2);
	tap_ok(r.err, "... one byte short: refused");
	ltt_wbuf_reset(&w);
	ltt_lttng_put_channel(&w, LTT_LTTNG_GEN_2_13, &ch);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_lttng_get_channel(&r, LTT_LTTNG_GEN_2_13, &ch2);
	tap_ok(!ltt_rbuf_end(&r) && !memcmp(&ch, &ch2, sizeof(ch)) &&
	       !memcmp(w.data + 4 + 1 + 1, &ch.subbuf_size, 8),
	       "a channel: its round trip, its sub-buffer size at byte 6 (packed)");
	ltt_wbuf_fini(&w);
}

/* User-space probe locations as LIST_EVENTS lists them, read back as ENABLE_EVENT's. */
static void test_uprobes(void)
{
	static const char *const locs[] = { "elf:/a:b/prog:fn", "sdt:/a:b/prog:prov:probe" };
	char back[256];
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t i;

	for (i = 0; i < 2; i++) {
		ltt_wbuf_init(&w);
		tap_ok(ltt_lttng_put_uprobe(&w, locs[i], true) == (int)i, "%s: put, %s", locs[i],
		       i ? "an SDT probe's (its descriptor passed)" : "a function's");
		ltt_rbuf_init(&r, w.data, w.len);
		tap_ok(!ltt_lttng_get_uprobe(&r, (uint32_t)w.len, back, sizeof(back)) &&
		       !strcmp(back, locs[i]), "... read back the same (a path with a ':')");
		ltt_wbuf_fini(&w);
	}
	ltt_wbuf_init(&w);
	tap_ok(ltt_lttng_put_uprobe(&w, locs[1], false) == -EINVAL && !w.len,
	       "an SDT probe's without a descriptor to pass: refused, nothing put");
	tap_ok(ltt_lttng_put_uprobe(&w, "sdt:/p:probe", true) == -EINVAL &&
	       ltt_lttng_put_uprobe(&w, "sdt:/p::probe", true) == -EINVAL && !w.len,
	       "an SDT location without a provider, or an empty one: refused");
	ltt_wbuf_fini(&w);
}

/* Enums' values: lttng-ust's map {type: "enum", value: N}, N signed. */
static void test_enum_values(const struct ltt_trigger_conf *c)
{
	static const uint8_t values[] = {
		105, 82, 0, 0, 0,		/* event rule matches, 82 bytes of MessagePack */
		0xdd, 0, 0, 0, 3,		/* the captures: an array of 3 */
		0x82,				/* a map of 2 */
		0xdb, 0, 0, 0, 4, 't', 'y', 'p', 'e', 0xdb, 0, 0, 0, 4, 'e', 'n', 'u', 'm',
		0xdb, 0, 0, 0, 5, 'v', 'a', 'l', 'u', 'e',
		0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* -1: a signed enum's */
		0x82,
		0xdb, 0, 0, 0, 4, 't', 'y', 'p', 'e', 0xdb, 0, 0, 0, 4, 'e', 'n', 'u', 'm',
		0xdb, 0, 0, 0, 5, 'v', 'a', 'l', 'u', 'e',
		0xcf, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0: positive, an unsigned enum's */
		0xc0,
	};
	struct ltt_notif_desc n = { .nr_captures = 2 };
	struct ltt_wbuf w;

	n.captures[0] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_SIGNED,
						   .bits = (uint64_t)-1, .is_enum = true };
	n.captures[1] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_SIGNED, .is_enum = true };
	ltt_wbuf_init(&w);
	ltt_lttng_evaluation_put(&w, c, &n, 0);
	tap_ok(!w.err && w.len == sizeof(values) && !memcmp(w.data, values, sizeof(values)),
	       "enums' captures: LTTng's maps, type enum and the value");
	ltt_wbuf_fini(&w);
}

/*
 * A whole array's capture (ltt's wire form, as a program writes it): in
 * LTTng's MessagePack, an array of its elements, as lttng-ust writes it.
 */
static void test_array_values(const struct ltt_trigger_conf *c)
{
	static const struct ltt_capture_desc elems[] = {
		{ .type = LTT_CAPTURE_UNSIGNED, .bits = 1 },
		{ .type = LTT_CAPTURE_SIGNED, .bits = (uint64_t)-2 },
		{ .type = LTT_CAPTURE_STRING, .str = "ab" },
	};
	static const uint8_t values[] = {
		105, 41, 0, 0, 0,		/* event rule matches, 41 bytes of MessagePack */
		0xdd, 0, 0, 0, 3,		/* the captures: an array of 3 */
		0xdd, 0, 0, 0, 3,		/* the first: an array of 3 elements */
		0xcf, 0, 0, 0, 0, 0, 0, 0, 1,
		0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
		0xdb, 0, 0, 0, 2, 'a', 'b',
		0xdd, 0, 0, 0, 0,		/* an empty one */
		0xc0,				/* the third, missing: nil */
	};
	struct ltt_notif_desc n = { .nr_captures = 2 };
	struct ltt_capture_desc back;
	struct ltt_wbuf w, e;
	struct ltt_rbuf r;

	ltt_wbuf_init(&e);
	for (size_t i = 0; i < 3; i++)
		ltt_capture_put(&e, &elems[i]);
	n.captures[0] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_ARRAY, .nr_elems = 3,
						   .elems = e.data, .elems_len = (uint32_t)e.len };
	n.captures[1] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_ARRAY, .elems = e.data };
	ltt_wbuf_init(&w);
	ltt_lttng_evaluation_put(&w, c, &n, 0);
	tap_ok(!w.err && w.len == sizeof(values) && !memcmp(w.data, values, sizeof(values)),
	       "an array capture: a MessagePack array of its elements (one empty)");
	ltt_wbuf_reset(&w);
	ltt_capture_put(&w, &n.captures[0]);
	ltt_wbuf_put_u8(&w, LTT_CAPTURE_ARRAY);	/* an array inside an array: refused */
	ltt_wbuf_put_u32(&w, 1);
	ltt_wbuf_put_u8(&w, LTT_CAPTURE_ARRAY);
	ltt_wbuf_put_u32(&w, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_capture_get(&r, &back);
	tap_ok(!r.err && back.type == LTT_CAPTURE_ARRAY && back.nr_elems == 3 &&
	       back.elems_len == e.len && !memcmp(back.elems, e.data, e.len),
	       "ltt's array form decodes, its elements left in place");
	ltt_capture_get(&r, &back);
	tap_ok(r.err != 0, "an array of arrays: refused");
	test_enum_values(c);
	ltt_wbuf_fini(&e);
	ltt_wbuf_fini(&w);
}

/* LTTng's serialized triggers and evaluations (lttng-trigger-proto.h). */
static void test_triggers(void)
{
	static struct ltt_trigger_conf c, back, saved;
	struct ltt_notif_desc n = { .nr_captures = 1 };
	static const uint8_t values[] = {
		105, 16, 0, 0, 0,		/* event rule matches, 16 bytes of MessagePack */
		0xdd, 0, 0, 0, 3,		/* an array of 3: one a capture */
		0xcf, 0, 0, 0, 0, 0, 0, 0, 7,	/* the value */
		0xc0, 0xc0,			/* the two the notification lacks: nil */
	};
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t len;
	uint8_t *at;
	bool hidden;

	c.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	c.domain = LTT_DOMAIN_USER;
	strcpy(c.rule.pattern, "p:e");
	c.nr_captures = 3;
	strcpy(c.captures[0], "a");
	strcpy(c.captures[1], "b[2]");
	strcpy(c.captures[2], "$ctx.vpid");
	n.captures[0] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_UNSIGNED, .bits = 7 };
	ltt_wbuf_init(&w);
	ltt_lttng_evaluation_put(&w, &c, &n, 0);
	tap_ok(!w.err && w.len == sizeof(values) && !memcmp(w.data, values, sizeof(values)),
	       "an evaluation has a value for each of its condition's captures, nil for one missing");
	ltt_wbuf_reset(&w);
	test_array_values(&c);
	/* 40 captures (LTT_TRIGGER_CAPTURES_LIMIT: 64), a context last */
	saved = c;
	strcpy(c.name, "caps");
	c.nr_actions = 1;
	c.actions[0] = (struct ltt_action_conf){ .type = LTT_ACTION_NOTIFY, .rate_count = 1 };
	for (len = 3; len < 40; len++)
		snprintf(c.captures[len], sizeof(c.captures[len]), "f%u", len);
	strcpy(c.captures[39], "$ctx.procname");
	c.nr_captures = 40;
	tap_ok(!ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_13, &c) && !w.err &&
	       (ltt_rbuf_init(&r, w.data, w.len),
		!ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_13, &back, &hidden, NULL)) && back.nr_captures == 40 &&
	       !strcmp(back.captures[38], "f38") && !strcmp(back.captures[39], "$ctx.procname"),
	       "an event rule trigger of 40 captures encodes and decodes whole");
	ltt_wbuf_reset(&w);
	c = saved;
	c.cond = LTT_CONDITION_BUFFER_USAGE_LE;
	c.nr_captures = 0;
	strcpy(c.name, "t");
	c.owner_uid = 1000;
	strcpy(c.session, "s");
	strcpy(c.channel, "channel0");
	c.threshold_ppm = 750000;
	c.nr_actions = 2;
	c.actions[0] = (struct ltt_action_conf){ .type = LTT_ACTION_NOTIFY, .rate_count = 1 };
	c.actions[1] = (struct ltt_action_conf){ .type = LTT_ACTION_STOP_SESSION, .session = "s",
						 .rate_policy = LTT_RATE_ONCE_AFTER, .rate_count = 4 };
	memset(&c.rule, 0, sizeof(c.rule));
	memset(c.captures, 0, sizeof(c.captures));
	tap_ok(!ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_13, &c) && !w.err, "a buffer usage trigger encodes");
	memcpy(&len, w.data + 8, 4);
	tap_ok(len == w.len - 17, "... its length counts what follows its 17-byte header");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_13, &back, &hidden, NULL) && !ltt_rbuf_end(&r) &&
	       !memcmp(&back, &c, sizeof(c)) && !hidden,
	       "... and decodes back to the same trigger (ratio, actions, rate policies)");
	r.len--;
	r.pos = 0;
	r.err = 0;
	tap_ok(ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_13, &back, &hidden, NULL) == -EPROTO,
	       "... one byte short: malformed");
	/* LTTng's threshold of 0 bytes: taken as a ratio of 0, the same condition */
	ltt_wbuf_reset(&w);
	c.threshold_ppm = 0;
	c.threshold_size = 0x0123456789abcdefULL;
	at = ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_13, &c) || w.err ? NULL :
	     memmem(w.data, w.len, &c.threshold_size, sizeof(c.threshold_size));
	if (at)
		memset(at, 0, sizeof(c.threshold_size));
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(at && !ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_13, &back, &hidden, NULL) && !back.threshold_size &&
	       !back.threshold_ppm && back.cond == LTT_CONDITION_BUFFER_USAGE_LE,
	       "a buffer usage threshold of 0 bytes decodes as a ratio of 0");
	/* a kprobe rule: 2.16's has a u32 more, its instrumentation site */
	memset(&c, 0, sizeof(c));
	c.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	c.domain = LTT_DOMAIN_KERNEL;
	c.rule = (struct ltt_rule_conf){ .pattern = "kp", .type = LTT_EVENT_KPROBE,
					 .location = "do_sys_open+16" };
	c.nr_actions = 1;
	c.actions[0] = (struct ltt_action_conf){ .type = LTT_ACTION_NOTIFY, .rate_count = 1 };
	ltt_wbuf_reset(&w);
	tap_ok(!ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_13, &c) && !w.err &&
	       (len = (uint32_t)w.len, ltt_wbuf_reset(&w),
		!ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_16, &c)) && !w.err && w.len == len + 4 &&
	       (ltt_rbuf_init(&r, w.data, w.len),
		!ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_16, &back, &hidden, NULL)) &&
	       !ltt_rbuf_end(&r) && back.rule.type == LTT_EVENT_KPROBE &&
	       !strcmp(back.rule.location, "do_sys_open+16"),
	       "a kprobe trigger in 2.16's layout: 4 bytes more, decoded back to the same location");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_13, &back, &hidden, NULL), -EPROTO,
		   "... read as 2.13's: malformed, never another location");
	at = memmem(w.data, w.len, "\x01\x03\0\0\0", 5);	/* the rule: type, name_len 3 */
	if (at)
		at[9] = 1;	/* its site: a function's entry and exit */
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(at && ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_16, &back, &hidden, NULL) == -ENOTSUP,
	       "... of site 1 (a kretprobe): what ltt's triggers lack");
	if (at)
		at[9] = 2;
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(at && ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_16, &back, &hidden, NULL) == -EPROTO,
	       "... of site 2, which 2.16 lacks: malformed");
	/* 2.16's incr-map-value action: its key template as segments */
	memset(&c, 0, sizeof(c));
	c.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	c.domain = LTT_DOMAIN_USER;
	c.rule = (struct ltt_rule_conf){ .pattern = "ltt_test:*", .type = LTT_EVENT_TRACEPOINT };
	c.nr_actions = 1;
	c.actions[0] = (struct ltt_action_conf){ .type = LTT_ACTION_INCR_MAP_VALUE, .rate_count = 1,
						 .session = "mp", .map = "m1",
						 .key = "n_{event_name}/{provider_name}x" };
	ltt_wbuf_reset(&w);
	tap_is_int(ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_13, &c), -ENOTSUP,
		   "an incr-map-value trigger toward 2.13, which has none: not written");
	ltt_wbuf_reset(&w);
	tap_ok(!ltt_lttng_trigger_put(&w, LTT_LTTNG_GEN_2_16, &c) && !w.err &&
	       (ltt_rbuf_init(&r, w.data, w.len),
		!ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_16, &back, &hidden, NULL)) &&
	       !ltt_rbuf_end(&r) && back.actions[0].type == LTT_ACTION_INCR_MAP_VALUE &&
	       !strcmp(back.actions[0].session, "mp") && !strcmp(back.actions[0].map, "m1") &&
	       !strcmp(back.actions[0].key, "n_{event_name}/{provider_name}x"),
	       "... toward 2.16: its session, map and key template (literals and both fields) read back");
	at = memmem(w.data, w.len, "n_", 2);	/* the first literal's text */
	if (at)
		at[0] = '{';
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(at && ltt_lttng_trigger_get(&r, LTT_LTTNG_GEN_2_16, &back, &hidden, NULL) == -ENOTSUP,
	       "... a literal brace, which ltt's templates lack: refused");
	ltt_wbuf_fini(&w);
}

int main(void)
{
	tap_plan(71);
	test_sizes();
	test_request();
	test_extra();
	test_objects();
	test_uprobes();
	test_triggers();
	return tap_done();
}
