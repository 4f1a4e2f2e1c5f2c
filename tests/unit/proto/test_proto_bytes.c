// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_proto_bytes.c - every message of the relay and live protocols, and
 * those of the app, consumer and client protocols that field tables
 * describe, encoded from a sample whose fields all differ, gives the
 * bytes the hand-written encoders gave before the field-table codec
 * (codec.h) replaced them: their length and FNV-1a hash, captured from
 * the old code.  Each decodes back to the same bytes, and one byte more makes the
 * message malformed (the one trailing-bytes rule of codec.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "common/proto/client-proto.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/live-proto.h"
#include "common/proto/relay-proto.h"
#include "tests/unit/tap.h"

struct sample {
	const char *name;
	void (*put)(struct ltt_wbuf *w, const void *m);
	int (*get)(struct ltt_rbuf *r, void *ret);	/* NULL: the relay only sends it */
	const void *m;
	size_t size;		/* of the struct */
	size_t len;		/* the old encoder's bytes: how many */
	uint64_t hash;		/* and their FNV-1a hash */
};

static uint64_t fnv1a(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * Decode @len bytes at @p as one whole message into @ret.  @p stays alive
 * while @ret is used: a decoded message may borrow its strings.
 */
static int decode_msg(const struct sample *s, const uint8_t *p, size_t len, void *ret)
{
	struct ltt_rbuf r;
	int err;

	ltt_rbuf_init(&r, p, len);
	err = s->get(&r, ret);
	if (!err)
		err = ltt_rbuf_end(&r);
	return err;
}

static void check(const struct sample *s)
{
	struct ltt_wbuf w, w2;
	uint8_t *copy, *longer;
	void *got;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&w2);
	s->put(&w, s->m);
	if (!tap_ok(!w.err && w.len == s->len && fnv1a(w.data, w.len) == s->hash,
		    "%s: the old encoder's bytes", s->name))
		tap_diag("%s: %zu bytes, hash 0x%016" PRIx64, s->name, w.len,
			 w.err ? 0 : fnv1a(w.data, w.len));
	if (!s->get) {
		ltt_wbuf_fini(&w);
		return;
	}
	got = calloc(1, s->size);
	copy = malloc(w.len);	/* exactly the message: ASan sees overreads */
	longer = malloc(w.len + 1);
	if (!got || !copy || !longer)
		abort();
	memcpy(copy, w.data, w.len);
	tap_ok(!decode_msg(s, copy, w.len, got), "%s: decodes", s->name);
	s->put(&w2, got);
	tap_ok(!w2.err && w2.len == w.len && !memcmp(w2.data, w.data, w.len),
	       "%s: re-encodes to the same bytes", s->name);
	memcpy(longer, w.data, w.len);
	longer[w.len] = 0;
	memset(got, 0, s->size);
	tap_ok(decode_msg(s, longer, w.len + 1, got) == -EPROTO,
	       "%s: one byte more is refused", s->name);
	free(longer);
	free(copy);
	free(got);
	ltt_wbuf_fini(&w2);
	ltt_wbuf_fini(&w);
}

/* ---- adapters to one signature ---- */

#define ADAPT(proto, fn, type) \
	static void put_##proto##_##fn(struct ltt_wbuf *w, const void *m) \
	{ ltt_##proto##_put_##fn(w, (const type *)m); } \
	static int get_##proto##_##fn(struct ltt_rbuf *r, void *m) \
	{ return ltt_##proto##_get_##fn(r, (type *)m); }

#define ADAPT_VAL(proto, fn, type) \
	static void put_##proto##_##fn(struct ltt_wbuf *w, const void *m) \
	{ ltt_##proto##_put_##fn(w, *(const type *)m); } \
	static int get_##proto##_##fn(struct ltt_rbuf *r, void *m) \
	{ return ltt_##proto##_get_##fn(r, (type *)m); }

ADAPT(live, cmd_hdr, struct ltt_live_cmd_hdr)
ADAPT(live, connect, struct ltt_live_connect)
ADAPT(live, session, struct ltt_live_session)
ADAPT(live, stream, struct ltt_live_stream)
ADAPT(live, attach_req, struct ltt_live_attach_req)
ADAPT(live, status_count, struct ltt_live_status_count)
ADAPT(live, metadata_reply, struct ltt_live_metadata_reply)
ADAPT(live, index, struct ltt_live_index)
ADAPT(live, packet_req, struct ltt_live_packet_req)
ADAPT(live, packet_reply, struct ltt_live_packet_reply)
ADAPT_VAL(live, u64, uint64_t)
ADAPT_VAL(live, u32, uint32_t)

ADAPT(relay, ctrl_hdr, struct ltt_relay_ctrl_hdr)
ADAPT(relay, data_hdr, struct ltt_relay_data_hdr)
ADAPT(relay, version, struct ltt_relay_version)
/* CREATE_SESSION of 2.11 to 2.14, the bytes captured (2.15's: test_relay_proto.c) */
static void put_relay_create_session(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_create_session(w, m, LTT_RELAY_MINOR_TRACE_FORMAT - 1);
}

static int get_relay_create_session(struct ltt_rbuf *r, void *m)
{
	return ltt_relay_get_create_session(r, m, LTT_RELAY_MINOR_TRACE_FORMAT - 1);
}

ADAPT(relay, create_session_reply, struct ltt_relay_create_session_reply)
ADAPT(relay, add_stream, struct ltt_relay_add_stream)
ADAPT(relay, archive_chunk, struct ltt_relay_archive_chunk)
ADAPT(relay, add_stream_reply, struct ltt_relay_add_stream_reply)
ADAPT(relay, metadata_hdr, struct ltt_relay_metadata_hdr)
ADAPT(relay, index, struct ltt_relay_index)
ADAPT(relay, reset_metadata, struct ltt_relay_reset_metadata)
ADAPT(relay, stream_seq, struct ltt_relay_stream_seq)
ADAPT_VAL(relay, u64_msg, uint64_t)
ADAPT_VAL(relay, ret, uint32_t)
ADAPT(relay, create_chunk, struct ltt_relay_create_chunk)
ADAPT(relay, close_chunk, struct ltt_relay_close_chunk)
ADAPT(relay, close_chunk_reply, struct ltt_relay_close_chunk_reply)
ADAPT(relay, get_configuration_reply, struct ltt_relay_get_configuration_reply)

ADAPT(app, register, struct ltt_app_register)
ADAPT(app, gap, struct ltt_app_gap)
ADAPT(app, version, struct ltt_app_version)
ADAPT(app, ack, struct ltt_app_ack)
/* the old encoder's EVENT_ENABLE and EVENT_DISABLE: minor 7's, without the layout */
#define ADAPT_MINOR(proto, fn, type, minor) \
	static void put_##proto##_##fn(struct ltt_wbuf *w, const void *m) \
	{ ltt_##proto##_put_##fn##_v(w, (const type *)m, minor); } \
	static int get_##proto##_##fn(struct ltt_rbuf *r, void *m) \
	{ return ltt_##proto##_get_##fn##_v(r, (type *)m, minor); }

ADAPT_MINOR(app, event_enable, struct ltt_app_event_msg, LTT_APP_MINOR_LAYOUT - 1)
ADAPT_MINOR(app, event_disable, struct ltt_app_event_msg, LTT_APP_MINOR_LAYOUT - 1)

ADAPT(consumer, add_kernel_stream, struct ltt_consumer_add_kernel_stream)
ADAPT(consumer, version, struct ltt_consumer_version)
ADAPT(consumer, add_stream, struct ltt_consumer_add_stream)
ADAPT(consumer, snapshot_trace, struct ltt_consumer_snapshot_trace)
ADAPT(consumer, snapshot_trace_relay, struct ltt_consumer_snapshot_trace)
ADAPT(consumer, relay_archive, struct ltt_consumer_relay_archive)
ADAPT(consumer, snapshot_reply, struct ltt_consumer_snapshot_reply)
ADAPT(consumer, rotate_trace, struct ltt_consumer_rotate_trace)

/* The client protocol's objects: parts of a message, the error in the cursor. */
#define ADAPT_PART(fn, type) \
	static void put_client_##fn(struct ltt_wbuf *w, const void *m) \
	{ ltt_proto_put_##fn(w, (const type *)m); } \
	static int get_client_##fn(struct ltt_rbuf *r, void *m) \
	{ ltt_proto_get_##fn(r, (type *)m); return r->err ? -EPROTO : 0; }

ADAPT_PART(session_attr, struct ltt_session_conf)
ADAPT_PART(channel_attr, struct ltt_channel_conf)
ADAPT_PART(snapshot_output, struct ltt_snapshot_output_conf)
ADAPT_PART(snapshot_result, struct ltt_snapshot_result_desc)

/* The TLS files, as a peer that has them takes them. */
static void put_client_session_tls(struct ltt_wbuf *w, const void *m)
{
	ltt_proto_put_session_tls(w, m, LTT_CODEC_ALL_MINORS);
}

static int get_client_session_tls(struct ltt_rbuf *r, void *m)
{
	ltt_proto_get_session_tls(r, m, LTT_CODEC_ALL_MINORS);
	return r->err ? -EPROTO : 0;
}

static void put_relay_chunk_exists_reply(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_chunk_exists_reply(w, m);
}

/* ---- samples: every field set, each to its own value ---- */

static const struct ltt_live_cmd_hdr live_cmd_hdr = {
	.data_size = 0x0102030405060708ULL, .cmd = 0x11121314, .cmd_version = 0x21222324,
};
static const struct ltt_live_connect live_connect = {
	.viewer_session_id = UINT64_MAX - 1, .major = 2, .minor = 4, .type = 1,
};
static const struct ltt_live_session live_session = {
	.id = 0x8000000000000003ULL, .live_timer_us = 1000000, .clients = 2, .streams = 9,
	.hostname = "host-1", .session_name = "s1-20240501-120000",
};
static const struct ltt_live_stream live_stream = {
	.id = 77, .ctf_trace_id = 5, .metadata_flag = 1,
	.path_name = "host-1/s1-20240501-120000/ust/uid/1000/64-bit", .channel_name = "channel0_3",
};
static const struct ltt_live_attach_req live_attach_req = {
	.session_id = 0xa1a2a3a4a5a6a7a8ULL, .offset = 12, .seek = 2,
};
static const struct ltt_live_status_count live_status_count = { .status = 1, .count = 0x10203 };
static const struct ltt_live_metadata_reply live_metadata_reply = {
	.len = 1ULL << 40, .status = 3,
};
static const struct ltt_live_index live_index = {
	.offset = 1, .packet_size = 2, .content_size = 3, .timestamp_begin = 4,
	.timestamp_end = 5, .events_discarded = 6, .stream_id = 7, .status = 8, .flags = 9,
};
static const struct ltt_live_packet_req live_packet_req = {
	.stream_id = 0xfedcba9876543210ULL, .offset = 4096, .len = 65536,
};
static const struct ltt_live_packet_reply live_packet_reply = {
	.status = 1, .len = 0xdeadbeef, .flags = 3,
};
static const uint64_t live_u64 = 0x0123456789abcdefULL;
static const uint32_t live_u32 = 0x89abcdef;

static const struct ltt_relay_ctrl_hdr relay_ctrl_hdr = {
	.circuit_id = 1, .data_size = 0x0102030405060708ULL, .cmd = 5, .cmd_version = 7,
};
static const struct ltt_relay_data_hdr relay_data_hdr = {
	.circuit_id = 2, .stream_handle = 3, .net_seq_num = 0x1122334455667788ULL,
	.data_size = 4096, .padding_size = 12,
};
static const struct ltt_relay_version relay_version = { .major = 2, .minor = 13 };
static const struct ltt_relay_create_session relay_create_session = {
	.session_name = "s1", .hostname = "host-1", .base_path = "b/p",
	.live_timer_us = 2000000, .snapshot = 1, .session_name_contains_creation_time = 1,
	.sessiond_uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
	.session_id = 42, .creation_time = 1714564800, .has_chunk_id = 1, .chunk_id = 6,
};
static const struct ltt_relay_create_session_reply relay_create_session_reply = {
	.relay_session_id = 99, .ret_code = 10, .output_path = "/var/ltt/host-1/s1",
};
static const struct ltt_relay_add_stream relay_add_stream = {
	.channel_name = "channel0_1", .pathname = "ust/uid/1000/64-bit",
	.tracefile_size = 1 << 20, .tracefile_count = 4, .trace_chunk_id = 6,
};
static const struct ltt_relay_archive_chunk relay_archive_chunk = {
	.from = "s1-20240501-120000", .to = "archives/20240501T120000-0",
};
static const struct ltt_relay_add_stream_reply relay_add_stream_reply = {
	.stream_handle = 17, .ret_code = 10,
};
static const struct ltt_relay_metadata_hdr relay_metadata_hdr = {
	.stream_handle = 18, .padding_size = 100,
};
static const struct ltt_relay_index relay_index = {
	.stream_handle = 1, .net_seq_num = 2, .packet_size = 3, .content_size = 4,
	.timestamp_begin = 5, .timestamp_end = 6, .events_discarded = 7, .stream_id = 8,
	.stream_instance_id = 9, .packet_seq_num = 10,
};
static const struct ltt_relay_reset_metadata relay_reset_metadata = {
	.stream_handle = 19, .version = 2, .rewrite_size = 4096, .has_rewrite_size = true,
};
static const struct ltt_relay_reset_metadata relay_reset_metadata16 = {
	.stream_handle = 19, .version = 3,
};
static const struct ltt_relay_stream_seq relay_stream_seq = {
	.stream_handle = 20, .last_net_seq_num = UINT64_MAX,
};
static const uint64_t relay_u64_msg = 0xa1b2c3d4e5f60718ULL;
static const uint32_t relay_ret = 10;
static const struct ltt_relay_create_chunk relay_create_chunk = {
	.chunk_id = 6, .creation_time = 1714564800, .name = "20240501T120000-0",
};
static const struct ltt_relay_create_chunk relay_create_chunk_unnamed = {
	.chunk_id = 7, .creation_time = 1714564801,
};
static const struct ltt_relay_close_chunk relay_close_chunk = {
	.chunk_id = 6, .close_time = 1714564900, .has_command = true, .command = 2,
};
static const struct ltt_relay_close_chunk relay_close_chunk_none = {
	.chunk_id = 6, .close_time = 1714564900, .command = 2,	/* sent as 0 */
};
static const struct ltt_relay_close_chunk_reply relay_close_chunk_reply = {
	.ret_code = 10, .path = "archives/20240501T120000-0",
};
static const struct ltt_relay_close_chunk_reply relay_close_chunk_reply_empty = {
	.ret_code = 12,
};
static const struct ltt_relay_get_configuration_reply relay_get_configuration_reply = {
	.ret_code = 10, .flags = 0x8000000000000001ULL,
};
static const struct ltt_relay_chunk_exists_reply relay_chunk_exists_reply = {
	.ret_code = 10, .exists = true,
};

static const struct ltt_app_register app_register = {
	.major = 1, .minor = 7, .pid = 4242, .ppid = 1, .uid = 1000, .gid = 100,
	.bits_per_long = 64, .nr_cpus = 2, .procname = "flood",
};
static const struct ltt_app_gap app_gap = { .gone_ns = 1714564800000000000ULL, .channels = 3 };
static const struct ltt_app_version app_version = { .major = 1, .minor = 7 };
static const struct ltt_app_ack app_ack = { .seq = 77, .status = -EPROTO };
static const struct ltt_app_event_msg app_event_enable = {
	.channel_key = 0x100000002ULL, .name = "flood:tick", .event_id = 5,
};
static const struct ltt_app_event_msg app_event_disable = {
	.channel_key = 0x100000002ULL, .name = "flood:tick",
};

static const struct ltt_consumer_add_kernel_stream consumer_add_kernel_stream = {
	.channel_key = 0x300000004ULL, .cpu = 3,
};
static const struct ltt_consumer_version consumer_version = { .major = 1, .minor = 16 };
static const struct ltt_consumer_add_stream consumer_add_stream = {
	.channel_key = 0x500000006ULL, .cpu = 1,
};
static const struct ltt_consumer_snapshot_trace consumer_snapshot_trace = {
	.trace_key = 8, .dir = "/home/u/ltt-traces/s1/snapshot-1", .max_packets = 4,
};
static const struct ltt_consumer_snapshot_trace consumer_snapshot_trace_relay = {
	.trace_key = 8, .relay_key = 9, .dir = "snapshot-1", .max_packets = 0,
};
static const struct ltt_consumer_relay_archive consumer_relay_archive = {
	.relay_key = 9, .from = "s1-20240501-120000", .to = "archives/20240501T120000-0",
};
static const struct ltt_consumer_snapshot_reply consumer_snapshot_reply = {
	.packets = 10, .bytes = 40960, .packets_dropped = 1,
};
static const struct ltt_consumer_rotate_trace consumer_rotate_trace = {
	.trace_key = 8, .clear = true, .dir = "/home/u/ltt-traces/s1/archives/x",
};

static const struct ltt_session_conf client_session_attr = {
	.name = "s1", .output_type = LTT_OUTPUT_NET, .output = "tcp://relay.example/x",
	.snapshot = true, .live_timer_us = 100000,
};
static const struct ltt_session_conf client_session_tls = {
	.tls_cert = "/etc/c.pem", .tls_key = "/etc/k.pem", .tls_ca = "/etc/ca.pem",
	.shm_error = 28, .shm_error_since = 1795567658,
};
static const struct ltt_channel_conf client_channel_attr = {
	.name = "channel0", .subbuf_size = 1 << 20, .num_subbuf = 4, .overwrite = true,
	.switch_timer_us = 1000, .read_timer_us = 2000, .tracefile_size = 1 << 24,
	.tracefile_count = 8, .buffer_type = LTT_BUFFER_GLOBAL,
};
static const struct ltt_snapshot_output_conf client_snapshot_output = {
	.id = 3, .name = "out-1", .max_size = 1 << 30, .output_type = LTT_OUTPUT_LOCAL,
	.output = "/home/u/snap",
};
static const struct ltt_snapshot_result_desc client_snapshot_result = {
	.path = "/home/u/snap/out-1-20240501-120000-0", .packets = 12, .bytes = 49152,
	.packets_dropped = 2,
};

#define SAMPLE(proto, fn, var, len, hash) \
	{ #var, put_##proto##_##fn, get_##proto##_##fn, &var, sizeof(var), len, hash }

static const struct sample samples[] = {
	SAMPLE(live, cmd_hdr, live_cmd_hdr, 16, 0x1e7072a4916511fdULL),
	SAMPLE(live, connect, live_connect, 20, 0x5b1e8fcb1b16a16bULL),
	SAMPLE(live, session, live_session, 339, 0x19fc147022d3f25dULL),
	SAMPLE(live, stream, live_stream, 4371, 0xc68d91edbd555864ULL),
	SAMPLE(live, attach_req, live_attach_req, 20, 0xdf15e466186e8bd3ULL),
	SAMPLE(live, status_count, live_status_count, 8, 0xa4c95d07afb89612ULL),
	SAMPLE(live, metadata_reply, live_metadata_reply, 12, 0x3bc292d699c04765ULL),
	SAMPLE(live, index, live_index, 64, 0xd774fa4a94318df2ULL),
	SAMPLE(live, packet_req, live_packet_req, 20, 0xd65cbb61e455f18aULL),
	SAMPLE(live, packet_reply, live_packet_reply, 12, 0x172a70f5b0471fe9ULL),
	SAMPLE(live, u64, live_u64, 8, 0x9ed00e1af2c13f65ULL),
	SAMPLE(live, u32, live_u32, 4, 0x75ebd8e85d20c62dULL),
	SAMPLE(relay, ctrl_hdr, relay_ctrl_hdr, 24, 0xc0aea760bcc73edcULL),
	SAMPLE(relay, data_hdr, relay_data_hdr, 32, 0xc9d04e445934580eULL),
	SAMPLE(relay, version, relay_version, 8, 0x8f6a34dd2d7b6a18ULL),
	SAMPLE(relay, create_session, relay_create_session, 73, 0x5ca0e1ee1bd01065ULL),
	SAMPLE(relay, create_session_reply, relay_create_session_reply, 35, 0x53d045cf4dd682e0ULL),
	SAMPLE(relay, add_stream, relay_add_stream, 63, 0x8f8b1a587eacd7edULL),
	SAMPLE(relay, archive_chunk, relay_archive_chunk, 54, 0x2903ac328ea9ea9aULL),
	SAMPLE(relay, add_stream_reply, relay_add_stream_reply, 12, 0x12a7065774b7aa94ULL),
	SAMPLE(relay, metadata_hdr, relay_metadata_hdr, 12, 0x05f8792cf768d253ULL),
	SAMPLE(relay, index, relay_index, 80, 0xe86e16602f946284ULL),
	SAMPLE(relay, reset_metadata, relay_reset_metadata, 24, 0xa95efe2fb03ea072ULL),
	SAMPLE(relay, reset_metadata, relay_reset_metadata16, 16, 0x04867879ecdde875ULL),
	SAMPLE(relay, stream_seq, relay_stream_seq, 16, 0xea36164cf2c267c1ULL),
	SAMPLE(relay, u64_msg, relay_u64_msg, 8, 0xf3356ace9693abcdULL),
	SAMPLE(relay, ret, relay_ret, 4, 0x4d257c7f9dce1e27ULL),
	SAMPLE(relay, create_chunk, relay_create_chunk, 38, 0x2c8dc708ce462e7dULL),
	SAMPLE(relay, create_chunk, relay_create_chunk_unnamed, 20, 0x14a2812535c9e961ULL),
	SAMPLE(relay, close_chunk, relay_close_chunk, 21, 0x2822947db40275d5ULL),
	SAMPLE(relay, close_chunk, relay_close_chunk_none, 21, 0x1b73af5336b3080cULL),
	SAMPLE(relay, close_chunk_reply, relay_close_chunk_reply, 35, 0x27b1d8fe0249ea24ULL),
	SAMPLE(relay, close_chunk_reply, relay_close_chunk_reply_empty, 8, 0xdb8384dc1d57e351ULL),
	SAMPLE(relay, get_configuration_reply, relay_get_configuration_reply, 12, 0x46493491105737d4ULL),
	SAMPLE(app, register, app_register, 42, 0x8cf9f65bc3d3883dULL),
	SAMPLE(app, gap, app_gap, 12, 0xdeaa170990f52c17ULL),
	SAMPLE(app, version, app_version, 8, 0xe9d28520c6f53313ULL),
	SAMPLE(app, ack, app_ack, 8, 0x01b500a3cfabbceaULL),
	SAMPLE(app, event_enable, app_event_enable, 27, 0xd2a97812d3762263ULL),
	SAMPLE(app, event_disable, app_event_disable, 23, 0x19c7dddfd5f739b6ULL),
	SAMPLE(consumer, add_kernel_stream, consumer_add_kernel_stream, 12, 0xfe59bd5966910f61ULL),
	SAMPLE(consumer, version, consumer_version, 8, 0x8977f1ae8086b8b4ULL),
	SAMPLE(consumer, add_stream, consumer_add_stream, 12, 0x66cbaabcde778e27ULL),
	SAMPLE(consumer, snapshot_trace, consumer_snapshot_trace, 53, 0xf1fd1e9d1e19afa2ULL),
	SAMPLE(consumer, snapshot_trace_relay, consumer_snapshot_trace_relay,
	       39, 0x59ba326dd3c5b927ULL),
	SAMPLE(consumer, relay_archive, consumer_relay_archive, 62, 0xc1b5faadb07d9165ULL),
	SAMPLE(consumer, snapshot_reply, consumer_snapshot_reply, 24, 0x9b59e6153fde96ceULL),
	SAMPLE(consumer, rotate_trace, consumer_rotate_trace, 46, 0x41d3dc0e393e5173ULL),
	SAMPLE(client, session_attr, client_session_attr, 42, 0x72ca8b7e1d7b7adfULL),
	SAMPLE(client, session_tls, client_session_tls, 63, 0xf96889d558146083ULL), /* + shm_path (minor 31), shm_error (34) */
	SAMPLE(client, channel_attr, client_channel_attr, 58, 0xacd42f9679c721d6ULL),
	SAMPLE(client, snapshot_output, client_snapshot_output, 43, 0xeab70ad1ca499f9fULL),
	SAMPLE(client, snapshot_result, client_snapshot_result, 65, 0x5c9681290578f428ULL),
	{ "relay_chunk_exists_reply", put_relay_chunk_exists_reply, NULL,
	  &relay_chunk_exists_reply, sizeof(relay_chunk_exists_reply), 5, 0xe4d0b2d9253d3a92ULL },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		check(&samples[i]);
	return tap_done();
}
