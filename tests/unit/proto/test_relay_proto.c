// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_relay_proto.c - unit tests of common/proto/relay-proto.c: the exact wire
 * bytes of every relay message (written out by hand from LTTng's 2.11
 * layouts), round trips, every truncated prefix refused, malformed
 * strings and lengths refused, and random or mutated bytes never
 * crashing a decoder or yielding an unterminated string.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/base/codec.h"
#include "common/proto/relay-proto.h"
#include "tests/unit/tap.h"

/* One message kind: how to encode a sample of it and how to decode it. */
struct kind {
	const char *name;
	void (*put)(struct ltt_wbuf *w, const void *m);
	int (*get)(struct ltt_rbuf *r, void *ret);
	const void *sample;
	size_t size;			/* of the struct */
	const uint8_t *wire;		/* the sample's expected bytes */
	size_t wire_len;
	bool open_ended;		/* bytes may follow (the metadata header) */
	/* whether two decoded structs are equal */
	bool (*equal)(const void *a, const void *b);
};

#define BE64(v) (uint8_t)((uint64_t)(v) >> 56), (uint8_t)((uint64_t)(v) >> 48), \
	(uint8_t)((uint64_t)(v) >> 40), (uint8_t)((uint64_t)(v) >> 32), \
	(uint8_t)((uint64_t)(v) >> 24), (uint8_t)((uint64_t)(v) >> 16), \
	(uint8_t)((uint64_t)(v) >> 8), (uint8_t)(v)
#define BE32(v) (uint8_t)((uint32_t)(v) >> 24), (uint8_t)((uint32_t)(v) >> 16), \
	(uint8_t)((uint32_t)(v) >> 8), (uint8_t)(v)

/* ---- samples and their bytes ---- */

static const struct ltt_relay_ctrl_hdr ctrl_hdr = {
	.circuit_id = 0, .data_size = 0x0102030405060708ULL, .cmd = LTT_RELAY_SEND_INDEX,
	.cmd_version = 0,
};
static const uint8_t ctrl_hdr_wire[] = {
	0, 0, 0, 0, 0, 0, 0, 0,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0, 0, 0, 13,
	0, 0, 0, 0,
};

static const struct ltt_relay_data_hdr data_hdr = {
	.circuit_id = 0, .stream_handle = 0x1122334455667788ULL, .net_seq_num = 42,
	.data_size = 4096, .padding_size = 0x10,
};
static const uint8_t data_hdr_wire[] = {
	0, 0, 0, 0, 0, 0, 0, 0,
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	0, 0, 0, 0, 0, 0, 0, 42,
	0, 0, 0x10, 0,
	0, 0, 0, 0x10,
};

static const struct ltt_relay_version version = { .major = 2, .minor = 11 };
static const uint8_t version_wire[] = { 0, 0, 0, 2, 0, 0, 0, 11 };

static const struct ltt_relay_create_session create_session = {
	.session_name = "s1", .hostname = "h", .base_path = "",
	.live_timer_us = 1000000, .snapshot = 0, .session_name_contains_creation_time = 1,
	.sessiond_uuid = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	.session_id = 7, .creation_time = 0x5f000000, .has_chunk_id = 0, .chunk_id = 0,
};
static const uint8_t create_session_wire[] = {
	0, 0, 0, 3,			/* session_name_len, NUL counted */
	0, 0, 0, 2,			/* hostname_len */
	0, 0, 0, 1,			/* base_path_len */
	0, 0x0f, 0x42, 0x40,		/* live_timer */
	0,				/* snapshot */
	1,				/* session_name_contains_creation_time */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	0, 0, 0, 0, 0, 0, 0, 7,		/* session_id */
	0, 0, 0, 0, 0x5f, 0, 0, 0,	/* creation_time */
	0,				/* current_chunk_id.is_set */
	0, 0, 0, 0, 0, 0, 0, 0,		/* current_chunk_id.value */
	's', '1', 0, 'h', 0, 0,
};

static const struct ltt_relay_create_session_reply create_session_reply = {
	.relay_session_id = 3, .ret_code = LTT_RELAY_OK, .output_path = "/o",
};
static const uint8_t create_session_reply_wire[] = {
	0, 0, 0, 0, 0, 0, 0, 3,
	0, 0, 0, 10,
	0, 0, 0, 3,
	'/', 'o', 0,
};

static const struct ltt_relay_add_stream add_stream = {
	.channel_name = "chan_0", .pathname = "ust/uid/0/64-bit",
	.tracefile_size = 0x100000, .tracefile_count = 4, .trace_chunk_id = 0,
};
static const uint8_t add_stream_wire[] = {
	0, 0, 0, 7,
	0, 0, 0, 17,
	0, 0, 0, 0, 0, 0x10, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 4,
	0, 0, 0, 0, 0, 0, 0, 0,
	'c', 'h', 'a', 'n', '_', '0', 0,
	'u', 's', 't', '/', 'u', 'i', 'd', '/', '0', '/', '6', '4', '-', 'b', 'i', 't', 0,
};

/* 2.12, ltt's own: a rotated chunk's directory and its archive */
static const struct ltt_relay_archive_chunk archive_chunk = {
	.from = "ust", .to = "archives/a/ust",
};
static const uint8_t archive_chunk_wire[] = {
	0, 0, 0, 4,
	0, 0, 0, 15,
	'u', 's', 't', 0,
	'a', 'r', 'c', 'h', 'i', 'v', 'e', 's', '/', 'a', '/', 'u', 's', 't', 0,
};

/* ltt's own: which of a dead connection's packets a stream's files hold */
static const struct ltt_relay_reconcile_stream reconcile_stream = {
	.first_packet_seq = 0x0102030405060708ULL, .rotating = true,
	.session_path = "/o/h/s", .pathname = "ust", .channel_name = "c_1",
};
static const uint8_t reconcile_stream_wire[] = {
	1, 2, 3, 4, 5, 6, 7, 8,
	1,
	0, 0, 0, 7,
	0, 0, 0, 4,
	0, 0, 0, 4,
	'/', 'o', '/', 'h', '/', 's', 0,
	'u', 's', 't', 0,
	'c', '_', '1', 0,
};
static const struct ltt_relay_reconcile_reply reconcile_reply = {
	.ret_code = LTT_RELAY_OK, .count = 3,
};
static const uint8_t reconcile_reply_wire[] = { 0, 0, 0, 10, 0, 0, 0, 3 };

static const struct ltt_relay_add_stream_reply add_stream_reply = {
	.stream_handle = 0xfedcba9876543210ULL, .ret_code = LTT_RELAY_ERR_EXIST,
};
static const uint8_t add_stream_reply_wire[] = {
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	0, 0, 0, 16,
};

static const struct ltt_relay_metadata_hdr metadata_hdr = {
	.stream_handle = 9, .padding_size = 0,
};
static const uint8_t metadata_hdr_wire[] = {
	0, 0, 0, 0, 0, 0, 0, 9,
	0, 0, 0, 0,
};

static const struct ltt_relay_index idx = {
	.stream_handle = 1, .net_seq_num = 2, .packet_size = 32768, .content_size = 30000,
	.timestamp_begin = 0x0102030405060708ULL, .timestamp_end = 0x0102030405060709ULL,
	.events_discarded = 5, .stream_id = 0, .stream_instance_id = 3, .packet_seq_num = 17,
};
static const uint8_t idx_wire[] = {
	BE64(1), BE64(2), BE64(32768), BE64(30000),
	BE64(0x0102030405060708ULL), BE64(0x0102030405060709ULL),
	BE64(5), BE64(0), BE64(3), BE64(17),
};

static const struct ltt_relay_stream_seq stream_seq = {
	.stream_handle = 0x8000000000000001ULL, .last_net_seq_num = UINT64_MAX,
};
static const uint8_t stream_seq_wire[] = {
	0x80, 0, 0, 0, 0, 0, 0, 1,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

static const uint64_t u64_msg = 0xa1b2c3d4e5f60718ULL;
static const uint8_t u64_msg_wire[] = { 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6, 0x07, 0x18 };

static const uint32_t ret_msg = LTT_RELAY_OK;
static const uint8_t ret_msg_wire[] = { 0, 0, 0, 10 };

static const struct ltt_relay_get_configuration_reply conf_reply = {
	.ret_code = LTT_RELAY_OK, .flags = LTT_RELAY_CONFIG_LTT,
};
static const uint8_t conf_reply_wire[] = { 0, 0, 0, 10, 0, 0, 0, 1, 0, 0, 0, 0 };

static const struct ltt_relay_close_chunk close_chunk = {
	.chunk_id = 3, .close_time = 0x10000, .has_command = true,
	.command = LTT_RELAY_CHUNK_NO_OPERATION,
};
static const uint8_t close_chunk_wire[] = {
	0, 0, 0, 0, 0, 0, 0, 3,  0, 0, 0, 0, 0, 1, 0, 0,  1,  0, 0, 0, 1,
};

/* ---- adapters to one signature ---- */

#define ADAPT(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m) \
	{ ltt_relay_put_##fn(w, (const type *)m); } \
	static int get_##fn(struct ltt_rbuf *r, void *m) \
	{ return ltt_relay_get_##fn(r, (type *)m); }

ADAPT(ctrl_hdr, struct ltt_relay_ctrl_hdr)
ADAPT(data_hdr, struct ltt_relay_data_hdr)
ADAPT(version, struct ltt_relay_version)
ADAPT(create_session_reply, struct ltt_relay_create_session_reply)
ADAPT(add_stream_reply, struct ltt_relay_add_stream_reply)
ADAPT(metadata_hdr, struct ltt_relay_metadata_hdr)
ADAPT(index, struct ltt_relay_index)
ADAPT(stream_seq, struct ltt_relay_stream_seq)
ADAPT(get_configuration_reply, struct ltt_relay_get_configuration_reply)
ADAPT(close_chunk, struct ltt_relay_close_chunk)
ADAPT(reconcile_reply, struct ltt_relay_reconcile_reply)
ADAPT(reconcile_stream, struct ltt_relay_reconcile_stream)

static bool equal_reconcile_stream(const void *a, const void *b)
{
	const struct ltt_relay_reconcile_stream *x = a, *y = b;

	return x->first_packet_seq == y->first_packet_seq && x->rotating == y->rotating &&
	       !strcmp(x->session_path, y->session_path) && !strcmp(x->pathname, y->pathname) &&
	       !strcmp(x->channel_name, y->channel_name);
}

/* CREATE_SESSION of 2.11 to 2.14, which the golden bytes below are */
#define OLD_MINOR (LTT_RELAY_MINOR_TRACE_FORMAT - 1)

static void put_create_session(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_create_session(w, m, OLD_MINOR);
}

static int get_create_session(struct ltt_rbuf *r, void *m)
{
	return ltt_relay_get_create_session(r, m, OLD_MINOR);
}

static void put_add_stream(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_add_stream(w, m);
}

static int get_add_stream(struct ltt_rbuf *r, void *m)
{
	return ltt_relay_get_add_stream(r, m);
}

static void put_archive_chunk(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_archive_chunk(w, m);
}

static int get_archive_chunk(struct ltt_rbuf *r, void *m)
{
	return ltt_relay_get_archive_chunk(r, m);
}

static bool equal_archive_chunk(const void *a, const void *b)
{
	const struct ltt_relay_archive_chunk *x = a, *y = b;

	return !strcmp(x->from, y->from) && !strcmp(x->to, y->to);
}

static void put_u64_msg(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_u64_msg(w, *(const uint64_t *)m);
}

static int get_u64_msg(struct ltt_rbuf *r, void *m)
{
	return ltt_relay_get_u64_msg(r, m);
}

static void put_ret(struct ltt_wbuf *w, const void *m)
{
	ltt_relay_put_ret(w, *(const uint32_t *)m);
}

static int get_ret(struct ltt_rbuf *r, void *m)
{
	return ltt_relay_get_ret(r, m);
}

/* Structs of integers only: compare them whole (the samples are zero-padded). */
static bool equal_create_session(const void *a, const void *b)
{
	const struct ltt_relay_create_session *x = a, *y = b;

	return !strcmp(x->session_name, y->session_name) && !strcmp(x->hostname, y->hostname) &&
	       !strcmp(x->base_path, y->base_path) && x->live_timer_us == y->live_timer_us &&
	       x->snapshot == y->snapshot &&
	       x->session_name_contains_creation_time == y->session_name_contains_creation_time &&
	       !memcmp(x->sessiond_uuid, y->sessiond_uuid, sizeof(x->sessiond_uuid)) &&
	       x->session_id == y->session_id && x->creation_time == y->creation_time &&
	       x->has_chunk_id == y->has_chunk_id && x->chunk_id == y->chunk_id &&
	       x->trace_format == y->trace_format;
}

static bool equal_create_session_reply(const void *a, const void *b)
{
	const struct ltt_relay_create_session_reply *x = a, *y = b;

	return x->relay_session_id == y->relay_session_id && x->ret_code == y->ret_code &&
	       !strcmp(x->output_path, y->output_path);
}

static bool equal_add_stream(const void *a, const void *b)
{
	const struct ltt_relay_add_stream *x = a, *y = b;

	return !strcmp(x->channel_name, y->channel_name) && !strcmp(x->pathname, y->pathname) &&
	       x->tracefile_size == y->tracefile_size &&
	       x->tracefile_count == y->tracefile_count && x->trace_chunk_id == y->trace_chunk_id;
}

#define KIND(n, s, w, eq, open) \
	{ #n, put_##n, get_##n, &(s), sizeof(s), w, sizeof(w), open, eq }

static const struct kind kinds[] = {
	KIND(ctrl_hdr, ctrl_hdr, ctrl_hdr_wire, NULL, false),
	KIND(data_hdr, data_hdr, data_hdr_wire, NULL, false),
	KIND(version, version, version_wire, NULL, false),
	KIND(create_session, create_session, create_session_wire, equal_create_session, false),
	KIND(create_session_reply, create_session_reply, create_session_reply_wire,
	     equal_create_session_reply, false),
	KIND(add_stream, add_stream, add_stream_wire, equal_add_stream, false),
	KIND(add_stream_reply, add_stream_reply, add_stream_reply_wire, NULL, false),
	KIND(archive_chunk, archive_chunk, archive_chunk_wire, equal_archive_chunk, false),
	KIND(metadata_hdr, metadata_hdr, metadata_hdr_wire, NULL, true),
	KIND(index, idx, idx_wire, NULL, false),
	KIND(stream_seq, stream_seq, stream_seq_wire, NULL, false),
	KIND(u64_msg, u64_msg, u64_msg_wire, NULL, false),
	KIND(ret, ret_msg, ret_msg_wire, NULL, false),
	KIND(get_configuration_reply, conf_reply, conf_reply_wire, NULL, false),
	KIND(close_chunk, close_chunk, close_chunk_wire, NULL, false),
	KIND(reconcile_stream, reconcile_stream, reconcile_stream_wire, equal_reconcile_stream,
	     false),
	KIND(reconcile_reply, reconcile_reply, reconcile_reply_wire, NULL, false),
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* ---- helpers ---- */

/* Room for any decoded message, aligned for each. */
union any_msg {
	struct ltt_relay_create_session create_session;
	struct ltt_relay_add_stream add_stream;
	struct ltt_relay_archive_chunk archive_chunk;
	struct ltt_relay_reconcile_stream reconcile_stream;
	struct ltt_relay_create_session_reply create_session_reply;
	struct ltt_relay_index index;
	uint64_t u64;
};

/* Decode @len bytes at @p from a heap copy of exactly that size (ASan sees overreads). */
static int decode(const struct kind *k, const void *p, size_t len, void *ret)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct ltt_rbuf r;
	int err;

	if (!copy)
		abort();
	if (len)
		memcpy(copy, p, len);
	ltt_rbuf_init(&r, copy, len);
	err = k->get(&r, ret);
	free(copy);
	return err;
}

static bool same(const struct kind *k, const void *a, const void *b)
{
	return k->equal ? k->equal(a, b) : !memcmp(a, b, k->size);
}

/* ---- tests ---- */

static void test_wire_bytes(void)
{
	for (size_t i = 0; i < NKINDS; i++) {
		const struct kind *k = &kinds[i];
		struct ltt_wbuf w;

		ltt_wbuf_init(&w);
		k->put(&w, k->sample);
		if (!tap_ok(!w.err && w.len == k->wire_len && !memcmp(w.data, k->wire, w.len),
			    "%s: encodes to the %zu bytes of the LTTng layout", k->name,
			    k->wire_len)) {
			tap_diag("err %d, %zu bytes", w.err, w.len);
			for (size_t j = 0; j < w.len && j < k->wire_len; j++)
				if (w.data[j] != k->wire[j])
					tap_diag("first difference at byte %zu: %#x, want %#x", j,
						 w.data[j], k->wire[j]);
		}
		ltt_wbuf_fini(&w);
	}
	tap_is_int(sizeof(ctrl_hdr_wire), LTT_RELAY_CTRL_HDR_SIZE, "control header size");
	tap_is_int(sizeof(data_hdr_wire), LTT_RELAY_DATA_HDR_SIZE, "data header size");
	tap_is_int(sizeof(idx_wire), LTT_RELAY_INDEX_SIZE, "index size");
}

static void test_round_trip_and_truncation(void)
{
	union any_msg got;

	for (size_t i = 0; i < NKINDS; i++) {
		const struct kind *k = &kinds[i];
		uint8_t longer[256];
		size_t refused = 0;

		memset(&got, 0, sizeof(got));
		tap_is_int(decode(k, k->wire, k->wire_len, &got), 0, "%s: the bytes decode",
			   k->name);
		tap_ok(same(k, &got, k->sample), "%s: into the same values", k->name);
		for (size_t len = 0; len < k->wire_len; len++)
			if (decode(k, k->wire, len, &got) == -EPROTO)
				refused++;
		tap_is_int(refused, k->wire_len, "%s: each of its %zu truncated prefixes is refused",
			   k->name, k->wire_len);
		memcpy(longer, k->wire, k->wire_len);
		longer[k->wire_len] = 0;
		if (k->open_ended)
			continue;
		tap_is_int(decode(k, longer, k->wire_len + 1, &got), -EPROTO,
			   "%s: a trailing byte is refused", k->name);
	}
}

/* Extremes: longest strings, all-ones integers, flags set. */
static void test_extremes(void)
{
	struct ltt_relay_create_session cs, cs_got;
	struct ltt_relay_add_stream as, as_got;
	struct ltt_relay_create_session_reply rep, rep_got;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	memset(&cs, 0, sizeof(cs));
	memset(cs.session_name, 'n', sizeof(cs.session_name) - 1);
	memset(cs.hostname, 'h', sizeof(cs.hostname) - 1);
	memset(cs.base_path, 'p', sizeof(cs.base_path) - 1);
	cs.live_timer_us = UINT32_MAX;
	cs.snapshot = 1;
	cs.session_name_contains_creation_time = 1;
	memset(cs.sessiond_uuid, 0xff, sizeof(cs.sessiond_uuid));
	cs.session_id = UINT64_MAX;
	cs.creation_time = UINT64_MAX - 1;
	cs.has_chunk_id = 1;
	cs.chunk_id = 0x7777;
	ltt_wbuf_init(&w);
	ltt_relay_put_create_session(&w, &cs, OLD_MINOR);
	tap_ok(!w.err && w.len == 59 + 255 + 64 + 4096,
	       "CREATE_SESSION with the longest names encodes (%zu bytes)", w.len);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_relay_get_create_session(&r, &cs_got, OLD_MINOR) && equal_create_session(&cs, &cs_got),
	       "and decodes to the same values");

	memset(&as, 0, sizeof(as));
	memset(as.channel_name, 'c', sizeof(as.channel_name) - 1);
	memset(as.pathname, 'p', sizeof(as.pathname) - 1);
	as.tracefile_size = as.tracefile_count = as.trace_chunk_id = UINT64_MAX;
	ltt_wbuf_reset(&w);
	ltt_relay_put_add_stream(&w, &as);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!w.err && !ltt_relay_get_add_stream(&r, &as_got) && equal_add_stream(&as, &as_got),
	       "ADD_STREAM with the longest names round-trips");

	memset(&rep, 0, sizeof(rep));
	memset(rep.output_path, '/', sizeof(rep.output_path) - 1);
	rep.ret_code = UINT32_MAX;
	ltt_wbuf_reset(&w);
	ltt_relay_put_create_session_reply(&w, &rep);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!w.err && !ltt_relay_get_create_session_reply(&r, &rep_got) &&
	       equal_create_session_reply(&rep, &rep_got),
	       "a CREATE_SESSION reply with the longest path round-trips");

	/* An unset chunk id travels as 0 whatever the struct holds. */
	cs = create_session;
	cs.chunk_id = 99;
	ltt_wbuf_reset(&w);
	ltt_relay_put_create_session(&w, &cs, OLD_MINOR);
	tap_ok(!w.err && w.len == sizeof(create_session_wire) &&
	       !memcmp(w.data, create_session_wire, w.len),
	       "an unset chunk id is sent as 0");
	ltt_wbuf_fini(&w);
}

/*
 * 2.15's CREATE_SESSION: the 2.11 layout with a u32 trace_format between
 * the fixed fields and the names (LTTng's struct
 * lttcomm_relayd_create_session_2_15), which an older minor neither
 * sends nor reads.
 */
static void test_create_session_2_15(void)
{
	struct ltt_relay_create_session cs = create_session, got;
	static const uint8_t ctf2[4] = { 0, 0, 0, 2 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	cs.trace_format = LTT_TRACE_FORMAT_CTF_2;
	ltt_wbuf_init(&w);
	ltt_relay_put_create_session(&w, &cs, LTT_RELAY_MINOR_TRACE_FORMAT);
	tap_ok(!w.err && w.len == sizeof(create_session_wire) + 4 &&
	       !memcmp(w.data, create_session_wire, 59) && !memcmp(w.data + 59, ctf2, 4) &&
	       !memcmp(w.data + 63, create_session_wire + 59, sizeof(create_session_wire) - 59),
	       "2.15: the trace format (2, CTF 2) between the fixed fields and the names");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_relay_get_create_session(&r, &got, LTT_RELAY_MINOR_TRACE_FORMAT) &&
	       equal_create_session(&cs, &got), "and decodes at 2.15 to the same values");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(ltt_relay_get_create_session(&r, &got, OLD_MINOR) != 0,
	       "2.14 reads no trace format: the message does not parse");
	ltt_wbuf_reset(&w);
	ltt_relay_put_create_session(&w, &cs, OLD_MINOR);
	tap_ok(!w.err && w.len == sizeof(create_session_wire), "2.14: nothing of it is sent");
	ltt_wbuf_fini(&w);
}

/* Strings that do not fit are refused by the encoders, which write nothing. */
static void test_encoder_limits(void)
{
	struct ltt_relay_create_session cs = create_session;
	struct ltt_relay_add_stream as = add_stream;
	struct ltt_relay_create_session_reply rep = create_session_reply;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	memset(cs.session_name, 'n', sizeof(cs.session_name));
	ltt_relay_put_create_session(&w, &cs, OLD_MINOR);
	tap_ok(w.err == -EINVAL && w.len == 0, "a session name without room for its NUL: -EINVAL");
	cs = create_session;
	memset(cs.hostname, 'h', sizeof(cs.hostname));
	ltt_wbuf_reset(&w);
	ltt_relay_put_create_session(&w, &cs, OLD_MINOR);
	tap_ok(w.err == -EINVAL && w.len == 0, "a host name of 64 bytes: -EINVAL");
	cs = create_session;
	memset(cs.base_path, 'p', sizeof(cs.base_path));
	ltt_wbuf_reset(&w);
	ltt_relay_put_create_session(&w, &cs, OLD_MINOR);
	tap_ok(w.err == -EINVAL && w.len == 0, "a base path of 4096 bytes: -EINVAL");

	memset(as.channel_name, 'c', sizeof(as.channel_name));
	ltt_wbuf_reset(&w);
	ltt_relay_put_add_stream(&w, &as);
	tap_ok(w.err == -EINVAL && w.len == 0, "a channel name of 255 bytes: -EINVAL");
	as = add_stream;
	memset(as.pathname, 'p', sizeof(as.pathname));
	ltt_wbuf_reset(&w);
	ltt_relay_put_add_stream(&w, &as);
	tap_ok(w.err == -EINVAL && w.len == 0, "a path name of 4096 bytes: -EINVAL");

	memset(rep.output_path, 'o', sizeof(rep.output_path));
	ltt_wbuf_reset(&w);
	ltt_relay_put_create_session_reply(&w, &rep);
	tap_ok(w.err == -EINVAL && w.len == 0, "an output path of 4096 bytes: -EINVAL");

	/* The error is sticky: what follows is not written either. */
	ltt_relay_put_ret(&w, LTT_RELAY_OK);
	tap_ok(w.err == -EINVAL && w.len == 0, "the error sticks to the buffer");
	ltt_wbuf_fini(&w);
}

/* Patch the big-endian u32 at @off of a copy of @wire and decode it. */
static int decode_patched32(const struct kind *k, size_t off, uint32_t v, const void *tail,
			    size_t tail_len)
{
	uint8_t buf[256];
	union any_msg got;
	size_t len = k->wire_len;

	memcpy(buf, k->wire, len);
	buf[off] = (uint8_t)(v >> 24);
	buf[off + 1] = (uint8_t)(v >> 16);
	buf[off + 2] = (uint8_t)(v >> 8);
	buf[off + 3] = (uint8_t)v;
	if (tail_len) {
		memcpy(buf + len, tail, tail_len);
		len += tail_len;
	}
	return decode(k, buf, len, &got);
}

/* Replace byte @off of the sample's bytes with @v and decode. */
static int decode_poked(const struct kind *k, size_t off, uint8_t v)
{
	uint8_t buf[256];
	union any_msg got;

	memcpy(buf, k->wire, k->wire_len);
	buf[off] = v;
	return decode(k, buf, k->wire_len, &got);
}

static const struct kind *kind_named(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	abort();
}

static void test_bad_create_session(void)
{
	const struct kind *k = kind_named("create_session");
	const size_t names = sizeof(create_session_wire) - 6;	/* "s1\0h\0\0" */
	struct ltt_relay_create_session got;
	uint8_t buf[sizeof(create_session_wire)];

	tap_is_int(decode_patched32(k, 0, 2, NULL, 0), -EPROTO,
		   "CREATE_SESSION: names shorter than their lengths say are refused");
	tap_is_int(decode_patched32(k, 0, 4, NULL, 0), -EPROTO,
		   "CREATE_SESSION: names longer than the payload are refused");
	tap_is_int(decode_patched32(k, 8, 2, NULL, 0), -EPROTO,
		   "CREATE_SESSION: a base path running past the end is refused");
	tap_is_int(decode_patched32(k, 0, 0, NULL, 0), -EPROTO,
		   "CREATE_SESSION: a session name of length 0 is refused");
	tap_is_int(decode_patched32(k, 4, 0xffffffffu, NULL, 0), -EPROTO,
		   "CREATE_SESSION: a host name length of 2^32-1 is refused");
	tap_is_int(decode_poked(k, names + 1, 0), -EPROTO,
		   "CREATE_SESSION: a session name with a NUL inside is refused");
	tap_is_int(decode_poked(k, names + 2, 'x'), -EPROTO,
		   "CREATE_SESSION: a session name without its NUL is refused");
	tap_is_int(decode_poked(k, names + 5, 'x'), -EPROTO,
		   "CREATE_SESSION: a base path without its NUL is refused");
	tap_is_int(decode_poked(k, 16, 2), -EPROTO, "CREATE_SESSION: snapshot 2 is refused");
	tap_is_int(decode_poked(k, 17, 0x80), -EPROTO,
		   "CREATE_SESSION: name_contains_creation_time 0x80 is refused");
	tap_is_int(decode_poked(k, 50, 3), -EPROTO,
		   "CREATE_SESSION: a chunk id is_set of 3 is refused");

	/* LTTng sends an unset base path as length 0 and no bytes. */
	memcpy(buf, create_session_wire, sizeof(buf));
	buf[11] = 0;
	tap_ok(decode(k, buf, sizeof(buf) - 1, &got) == 0 && !strcmp(got.base_path, "") &&
	       !strcmp(got.session_name, "s1") && !strcmp(got.hostname, "h"),
	       "CREATE_SESSION: a base path of length 0 is accepted as \"\"");

	/* Over the limits: a session name of 256 bytes with its NUL. */
	{
		static uint8_t big[sizeof(create_session_wire) + 256];
		size_t len = names;

		memcpy(big, create_session_wire, names);
		big[0] = 0;
		big[1] = 0;
		big[2] = 1;
		big[3] = 0;	/* 256 */
		memset(big + len, 'n', 255);
		len += 255;
		big[len++] = 0;
		memcpy(big + len, "h\0", 3);
		len += 3;
		tap_is_int(decode(k, big, len, &got), -EPROTO,
			   "CREATE_SESSION: a session name over 255 bytes is refused");
		big[2] = 0;
		big[3] = 255;
		memmove(big + names + 254, big + names + 255, 4);
		tap_is_int(decode(k, big, len - 1, &got), 0,
			   "CREATE_SESSION: one of exactly 255 bytes is accepted");
		tap_is_int(strlen(got.session_name), 254, "with its 254 characters");
	}
}

static void test_bad_add_stream(void)
{
	const struct kind *k = kind_named("add_stream");
	const size_t names = 32;

	tap_is_int(decode_patched32(k, 0, 6, NULL, 0), -EPROTO,
		   "ADD_STREAM: a channel name length one short (lengths do not add up) is refused");
	tap_is_int(decode_patched32(k, 4, 18, NULL, 0), -EPROTO,
		   "ADD_STREAM: a path name length running past the end is refused");
	tap_is_int(decode_patched32(k, 4, 16, NULL, 0), -EPROTO,
		   "ADD_STREAM: lengths leaving a byte over are refused");
	tap_is_int(decode_patched32(k, 4, 0, NULL, 0), -EPROTO,
		   "ADD_STREAM: a path name length of 0 is refused");
	tap_is_int(decode_patched32(k, 0, LTT_RELAY_NAME_MAX + 1, NULL, 0), -EPROTO,
		   "ADD_STREAM: a channel name length over 255 is refused");
	tap_is_int(decode_patched32(k, 4, LTT_RELAY_PATH_MAX + 1, NULL, 0), -EPROTO,
		   "ADD_STREAM: a path name length over 4096 is refused");
	tap_is_int(decode_poked(k, names + 3, 0), -EPROTO,
		   "ADD_STREAM: a channel name with a NUL inside is refused");
	tap_is_int(decode_poked(k, names + 6, '1'), -EPROTO,
		   "ADD_STREAM: a channel name without its NUL is refused");
	tap_is_int(decode_poked(k, k->wire_len - 1, '/'), -EPROTO,
		   "ADD_STREAM: a path name without its NUL is refused");
}

static void test_bad_replies_and_metadata(void)
{
	const struct kind *rep = kind_named("create_session_reply");
	const struct kind *md = kind_named("metadata_hdr");
	struct ltt_relay_create_session_reply got;
	struct ltt_relay_metadata_hdr mh;
	uint8_t buf[64];
	struct ltt_rbuf r;

	tap_is_int(decode_patched32(rep, 12, 4, NULL, 0), -EPROTO,
		   "CREATE_SESSION reply: a path length past the end is refused");
	tap_is_int(decode_patched32(rep, 12, 2, NULL, 0), -EPROTO,
		   "CREATE_SESSION reply: a path length short of the end is refused");
	tap_is_int(decode_poked(rep, 17, 0), -EPROTO,
		   "CREATE_SESSION reply: a path with a NUL inside is refused");
	memcpy(buf, create_session_reply_wire, 16);
	buf[15] = 0;
	tap_ok(decode(rep, buf, 16, &got) == 0 && !strcmp(got.output_path, "") &&
	       got.relay_session_id == 3,
	       "CREATE_SESSION reply: no path at all (length 0) is accepted as \"\"");

	/* SEND_METADATA: header, bytes, padding that must fit in the payload. */
	memcpy(buf, metadata_hdr_wire, 12);
	buf[11] = 4;
	memcpy(buf + 12, "abc\0\0\0\0", 7);
	ltt_rbuf_init(&r, buf, 19);
	tap_ok(ltt_relay_get_metadata_hdr(&r, &mh) == 0 && mh.stream_handle == 9 &&
	       mh.padding_size == 4 && r.pos == 12,
	       "SEND_METADATA: the header leaves the cursor on the metadata bytes");
	ltt_rbuf_init(&r, buf, 12);
	tap_ok(ltt_relay_get_metadata_hdr(&r, &mh) == 0 && mh.padding_size == 4,
	       "SEND_METADATA: the header decodes alone (the caller checks the padding)");
	tap_is_int(decode(md, buf, 11, &mh), -EPROTO, "SEND_METADATA: 11 bytes are refused");
}

/* RESET_METADATA (2.13): ltt's 24-byte form, LTTng's 16-byte one, nothing else. */
static void test_reset_metadata(void)
{
	const struct ltt_relay_reset_metadata m = {
		.stream_handle = 7, .version = 2, .rewrite_size = 0x10203, .has_rewrite_size = true,
	};
	static const uint8_t wire[] = { BE64(7), BE64(2), BE64(0x10203) };
	struct ltt_relay_reset_metadata got;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t n;
	bool short_ok = false;

	ltt_wbuf_init(&w);
	ltt_relay_put_reset_metadata(&w, &m);
	tap_ok(!w.err && w.len == sizeof(wire) && !memcmp(w.data, wire, sizeof(wire)),
	       "RESET_METADATA: 24 bytes, big-endian handle, version, rewrite_size");
	ltt_wbuf_fini(&w);
	ltt_rbuf_init(&r, wire, sizeof(wire));
	tap_ok(ltt_relay_get_reset_metadata(&r, &got) == 0 && got.stream_handle == 7 &&
	       got.version == 2 && got.has_rewrite_size && got.rewrite_size == 0x10203,
	       "RESET_METADATA: the 24-byte form decodes");
	ltt_rbuf_init(&r, wire, 16);
	tap_ok(ltt_relay_get_reset_metadata(&r, &got) == 0 && got.version == 2 &&
	       !got.has_rewrite_size && !got.rewrite_size,
	       "RESET_METADATA: LTTng's 16-byte form decodes, without rewrite_size");
	for (n = 0; n < sizeof(wire); n++) {
		if (n == 16)
			continue;
		ltt_rbuf_init(&r, wire, n);
		short_ok |= ltt_relay_get_reset_metadata(&r, &got) != -EPROTO;
	}
	tap_ok(!short_ok, "RESET_METADATA: every other length under 24 is refused");
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

/* Whether every string of a decoded struct ends inside its array. */
static bool strings_bounded(const struct kind *k, const void *got)
{
	if (!strcmp(k->name, "create_session")) {
		const struct ltt_relay_create_session *m = got;

		return strnlen(m->session_name, sizeof(m->session_name)) < sizeof(m->session_name) &&
		       strnlen(m->hostname, sizeof(m->hostname)) < sizeof(m->hostname) &&
		       strnlen(m->base_path, sizeof(m->base_path)) < sizeof(m->base_path);
	}
	if (!strcmp(k->name, "add_stream")) {
		const struct ltt_relay_add_stream *m = got;

		return strnlen(m->channel_name, sizeof(m->channel_name)) < sizeof(m->channel_name) &&
		       strnlen(m->pathname, sizeof(m->pathname)) < sizeof(m->pathname);
	}
	if (!strcmp(k->name, "create_session_reply")) {
		const struct ltt_relay_create_session_reply *m = got;

		return strnlen(m->output_path, sizeof(m->output_path)) < sizeof(m->output_path);
	}
	return true;
}

/*
 * Random bytes, and the valid samples with random bytes changed or cut:
 * every decoder returns 0 or -EPROTO, and what it accepts is bounded.
 */
static void test_random(void)
{
	static union any_msg got;
	unsigned int bad_ret = 0, unbounded = 0, accepted = 0, total = 0;
	uint8_t buf[512];

	for (size_t i = 0; i < NKINDS; i++) {
		const struct kind *k = &kinds[i];

		for (int n = 0; n < 20000; n++) {
			size_t len;
			int err;

			if (n & 1) {
				len = tap_rand(&rng_state) % 160;
				for (size_t j = 0; j < len; j++)
					buf[j] = (uint8_t)tap_rand(&rng_state);
			} else {
				unsigned int pokes = 1 + tap_rand(&rng_state) % 3;

				memcpy(buf, k->wire, k->wire_len);
				len = k->wire_len;
				while (pokes--)
					buf[tap_rand(&rng_state) % len] = (tap_rand(&rng_state) & 1) ? (uint8_t)tap_rand(&rng_state) : 0;
				if (tap_rand(&rng_state) % 4 == 0)
					len = tap_rand(&rng_state) % (len + 1);
			}
			memset(&got, 0x5a, sizeof(got));
			err = decode(k, buf, len, &got);
			total++;
			if (err && err != -EPROTO)
				bad_ret++;
			if (!err) {
				accepted++;
				if (!strings_bounded(k, &got))
					unbounded++;
			}
		}
	}
	tap_diag("%u random or mutated messages, %u accepted", total, accepted);
	tap_is_int(bad_ret, 0, "random bytes: every decoder returns 0 or -EPROTO");
	tap_is_int(unbounded, 0, "random bytes: every accepted string is NUL-terminated in bounds");
}

static void test_ret_str(void)
{
	const char *unknown = ltt_relay_ret_str(0);
	bool distinct = true;

	for (uint32_t a = LTT_RELAY_OK; a <= LTT_RELAY_ERR_EXIST; a++) {
		if (!strcmp(ltt_relay_ret_str(a), unknown))
			distinct = false;
		for (uint32_t b = LTT_RELAY_OK; b < a; b++)
			if (!strcmp(ltt_relay_ret_str(a), ltt_relay_ret_str(b)))
				distinct = false;
	}
	tap_ok(distinct, "each reply code has its own sentence");
	tap_is_str(ltt_relay_ret_str(LTT_RELAY_OK), "success", "LTT_RELAY_OK is success");
	tap_ok(!strcmp(ltt_relay_ret_str(UINT32_MAX), unknown) && strstr(unknown, "unknown"),
	       "an unknown code says so");
}

int main(void)
{
	test_wire_bytes();
	test_round_trip_and_truncation();
	test_extremes();
	test_encoder_limits();
	test_create_session_2_15();
	test_bad_create_session();
	test_bad_add_stream();
	test_bad_replies_and_metadata();
	test_reset_metadata();
	test_random();
	test_ret_str();
	return tap_done();
}
