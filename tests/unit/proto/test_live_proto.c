// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_live_proto.c - unit tests of common/proto/live-proto.c: the exact wire
 * bytes babeltrace2's lttng-live client sends and expects, round trips,
 * and truncated or malformed input.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/live-proto.h"
#include "tests/unit/tap.h"

static bool bytes_are(const struct ltt_wbuf *w, const void *want, size_t len)
{
	return !w->err && w->len == len && !memcmp(w->data, want, len);
}

typedef int (*get_fn)(struct ltt_rbuf *r, void *ret);

/* Every strict prefix of @w's bytes must fail to decode with -EPROTO. */
static bool all_prefixes_fail(const struct ltt_wbuf *w, get_fn get, void *scratch)
{
	for (size_t len = 0; len < w->len; len++) {
		uint8_t *copy = tap_dup(w->data, len);
		struct ltt_rbuf r;
		int ret;

		ltt_rbuf_init(&r, copy, len);
		ret = get(&r, scratch);
		free(copy);
		if (ret != -EPROTO)
			return false;
	}
	return true;
}

/* Decode @w's bytes as the whole payload. */
static int decode_all(const struct ltt_wbuf *w, get_fn get, void *ret)
{
	uint8_t *copy = tap_dup(w->data, w->len);
	struct ltt_rbuf r;
	int err;

	ltt_rbuf_init(&r, copy, w->len);
	err = get(&r, ret);
	if (!err)
		err = ltt_rbuf_end(&r);
	free(copy);
	return err;
}

static void test_cmd_hdr(void)
{
	/* GET_PACKET as babeltrace2 sends it: header then payload, one write. */
	static const uint8_t want[] = {
		0, 0, 0, 0, 0, 0, 0, 20,  0, 0, 0, 5,  0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 7,
		0, 0, 0, 0, 0, 1, 0, 0,
		0, 0, 0x10, 0,
	};
	struct ltt_live_packet_req rq = { .stream_id = 7, .offset = 65536, .len = 4096 };
	struct ltt_live_packet_req rq2;
	struct ltt_live_cmd_hdr h;
	struct ltt_wbuf p, w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&p);
	ltt_wbuf_init(&w);
	ltt_live_put_packet_req(&p, &rq);
	tap_is_int(p.len, 20, "GET_PACKET's payload is 20 bytes");
	ltt_live_put_request(&w, LTT_LIVE_GET_PACKET, p.data, p.len);
	tap_ok(bytes_are(&w, want, sizeof(want)), "a GET_PACKET request has the exact wire bytes");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_live_get_cmd_hdr(&r, &h) && h.data_size == 20 && h.cmd == LTT_LIVE_GET_PACKET &&
	       h.cmd_version == 0, "the header decodes back");
	tap_ok(!ltt_live_get_packet_req(&r, &rq2) && !ltt_rbuf_end(&r) && rq2.stream_id == 7 &&
	       rq2.offset == 65536 && rq2.len == 4096, "the payload decodes back, nothing left");
	ltt_wbuf_reset(&w);
	ltt_live_put_cmd_hdr(&w, &(struct ltt_live_cmd_hdr){ 0, LTT_LIVE_LIST_SESSIONS, 0 });
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_cmd_hdr, &h),
	       "every truncated header is refused");
	ltt_wbuf_reset(&w);
	ltt_live_put_request(&w, LTT_LIVE_CREATE_SESSION, NULL, 0);
	tap_ok(bytes_are(&w, "\0\0\0\0\0\0\0\0\0\0\0\x08\0\0\0\0", 16),
	       "a request without payload is its 16-byte header");
	ltt_wbuf_fini(&p);
	ltt_wbuf_fini(&w);
}

static void test_connect(void)
{
	static const uint8_t want[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 2,  0, 0, 0, 4,  0, 0, 0, 1,
	};
	struct ltt_live_connect c = { UINT64_MAX, 2, 4, LTT_LIVE_CLIENT_COMMAND }, c2;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_live_put_connect(&w, &c);
	tap_ok(bytes_are(&w, want, sizeof(want)), "CONNECT {-1, 2, 4, COMMAND} has the exact wire bytes");
	/* field by field: the struct's tail padding is not part of it */
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_connect, &c2) &&
	       c2.viewer_session_id == c.viewer_session_id && c2.major == c.major &&
	       c2.minor == c.minor && c2.type == c.type, "CONNECT round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_connect, &c2),
	       "every truncated CONNECT is refused");
	ltt_wbuf_fini(&w);
}

static void test_session(void)
{
	struct ltt_live_session s = {
		.id = 0x0102030405060708ULL, .live_timer_us = 1000000, .clients = 2, .streams = 5,
		.hostname = "myhost", .session_name = "live-one",
	};
	struct ltt_live_session s2;
	struct ltt_wbuf w;
	uint8_t *bad;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_live_put_session(&w, &s);
	tap_is_int(w.len, LTT_LIVE_SESSION_SIZE, "a session entry is 339 bytes");
	tap_ok(w.len == 339 && w.data[0] == 1 && w.data[7] == 8 &&
	       !memcmp(w.data + 8, "\0\x0f\x42\x40", 4) && !memcmp(w.data + 12, "\0\0\0\2", 4) &&
	       !memcmp(w.data + 16, "\0\0\0\5", 4), "id, timer, clients, streams are big-endian");
	tap_ok(!memcmp(w.data + 20, "myhost", 7) && w.data[20 + 63] == 0 &&
	       !memcmp(w.data + 84, "live-one", 9) && w.data[338] == 0,
	       "hostname[64] at 20 and session_name[255] at 84, NUL-padded");
	memset(&s2, 0x5a, sizeof(s2));
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_session, &s2) && s2.id == s.id &&
	       s2.live_timer_us == s.live_timer_us && s2.clients == 2 && s2.streams == 5 &&
	       !strcmp(s2.hostname, "myhost") && !strcmp(s2.session_name, "live-one"),
	       "a session entry round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_session, &s2),
	       "every truncated session entry is refused");

	bad = tap_dup(w.data, w.len);
	memset(bad + 20, 'x', 64);
	ltt_rbuf_init(&r, bad, w.len);
	tap_is_int(ltt_live_get_session(&r, &s2), -EPROTO, "a hostname without its NUL is refused");
	free(bad);

	ltt_wbuf_reset(&w);
	memset(s.hostname, 'h', sizeof(s.hostname));
	ltt_live_put_session(&w, &s);
	tap_is_int(w.err, -EINVAL, "a hostname that fills its array cannot be sent");
	ltt_wbuf_fini(&w);
}

static void test_stream(void)
{
	static struct ltt_live_stream s = {
		.id = 3, .ctf_trace_id = 1, .metadata_flag = 1,
		.path_name = "host/s-20260101-000000/ust/uid/0/64-bit", .channel_name = "metadata",
	};
	static struct ltt_live_stream s2;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_live_put_stream(&w, &s);
	tap_is_int(w.len, LTT_LIVE_STREAM_SIZE, "a stream entry is 4371 bytes");
	tap_ok(w.len == 4371 && w.data[7] == 3 && w.data[15] == 1 &&
	       !memcmp(w.data + 16, "\0\0\0\1", 4) && !memcmp(w.data + 20, "host/", 5) &&
	       !memcmp(w.data + 20 + 4096, "metadata", 9) && w.data[4370] == 0,
	       "id, trace id, metadata flag, path_name[4096] at 20, channel_name[255] at 4116");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_stream, &s2) && s2.id == 3 &&
	       s2.ctf_trace_id == 1 && s2.metadata_flag == 1 && !strcmp(s2.path_name, s.path_name) &&
	       !strcmp(s2.channel_name, "metadata"), "a stream entry round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_stream, &s2),
	       "every truncated stream entry is refused");
	ltt_wbuf_fini(&w);
}

static void test_attach(void)
{
	static const uint8_t want_rq[] = {
		0, 0, 0, 0, 0, 0, 0, 9,  0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 2,
	};
	static const uint8_t want_rp[] = { 0, 0, 0, 1,  0, 0, 0, 3 };
	struct ltt_live_attach_req rq = { 9, 0, LTT_LIVE_SEEK_LAST }, rq2;
	struct ltt_live_status_count rp = { LTT_LIVE_ATTACH_OK, 3 }, rp2;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_live_put_attach_req(&w, &rq);
	tap_ok(bytes_are(&w, want_rq, sizeof(want_rq)), "ATTACH_SESSION's request has the exact wire bytes");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_attach_req, &rq2) && rq2.session_id == 9 &&
	       rq2.offset == 0 && rq2.seek == LTT_LIVE_SEEK_LAST, "it round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_attach_req, &rq2),
	       "every truncated attach request is refused");
	ltt_wbuf_reset(&w);
	ltt_live_put_status_count(&w, &rp);
	tap_ok(bytes_are(&w, want_rp, sizeof(want_rp)), "the attach reply head is {status, count}");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_status_count, &rp2) && rp2.status == 1 &&
	       rp2.count == 3, "it round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_status_count, &rp2),
	       "every truncated reply head is refused");
	ltt_wbuf_fini(&w);
}

static void test_index(void)
{
	struct ltt_live_index ix = {
		.offset = 4096, .packet_size = 32768, .content_size = 1000, .timestamp_begin = 11,
		.timestamp_end = 22, .events_discarded = 3, .stream_id = 1,
		.status = LTT_LIVE_INDEX_INACTIVE,
		.flags = LTT_LIVE_FLAG_NEW_METADATA | LTT_LIVE_FLAG_NEW_STREAM,
	}, ix2;
	uint8_t want[64] = { 0 };
	struct ltt_wbuf w;

	want[6] = 0x10;			/* offset 4096 */
	want[14] = 0x80;		/* packet_size 32768 */
	want[22] = 0x03, want[23] = 0xe8;	/* content_size 1000 */
	want[31] = 11;
	want[39] = 22;
	want[47] = 3;
	want[55] = 1;
	want[59] = 5;			/* status INACTIVE */
	want[63] = 3;			/* both flags */
	ltt_wbuf_init(&w);
	ltt_live_put_index(&w, &ix);
	tap_ok(bytes_are(&w, want, sizeof(want)), "an index reply has the exact 64 wire bytes");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_index, &ix2) && !memcmp(&ix, &ix2, sizeof(ix)),
	       "an index reply round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_index, &ix2),
	       "every truncated index reply is refused");
	ltt_wbuf_fini(&w);
}

static void test_small_replies(void)
{
	static const uint8_t want_md[] = { 0, 0, 0, 0, 0, 0, 0x01, 0x25,  0, 0, 0, 1 };
	static const uint8_t want_pk[] = { 0, 0, 0, 3,  0, 0, 0, 0,  0, 0, 0, 1 };
	static const uint8_t want_id[] = { 0, 0, 0, 0, 0, 0, 0, 42 };
	struct ltt_live_metadata_reply md = { 293, LTT_LIVE_METADATA_OK }, md2;
	struct ltt_live_packet_reply pk = { LTT_LIVE_PACKET_ERR, 0, LTT_LIVE_FLAG_NEW_METADATA }, pk2;
	struct ltt_wbuf w;
	uint64_t id;
	uint32_t v;

	ltt_wbuf_init(&w);
	ltt_live_put_metadata_reply(&w, &md);
	tap_ok(bytes_are(&w, want_md, sizeof(want_md)), "a metadata reply is {u64 len, u32 status}");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_metadata_reply, &md2) && md2.len == 293 &&
	       md2.status == 1, "it round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_metadata_reply, &md2),
	       "every truncated metadata reply is refused");
	ltt_wbuf_reset(&w);
	ltt_live_put_packet_reply(&w, &pk);
	tap_ok(bytes_are(&w, want_pk, sizeof(want_pk)), "a packet reply is {status, len, flags}");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_packet_reply, &pk2) && pk2.status == 3 &&
	       pk2.len == 0 && pk2.flags == 1, "it round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_packet_reply, &pk2),
	       "every truncated packet reply is refused");
	ltt_wbuf_reset(&w);
	ltt_live_put_u64(&w, 42);
	tap_ok(bytes_are(&w, want_id, sizeof(want_id)), "a stream or session id is a big-endian u64");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_u64, &id) && id == 42, "it round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_u64, &id), "a truncated id is refused");
	ltt_wbuf_reset(&w);
	ltt_live_put_u32(&w, LTT_LIVE_ERR_UNK);
	tap_ok(bytes_are(&w, "\0\0\0\x0e", 4), "the unknown-command reply is u32 14");
	tap_ok(!decode_all(&w, (get_fn)ltt_live_get_u32, &v) && v == 14, "it round-trips");
	tap_ok(all_prefixes_fail(&w, (get_fn)ltt_live_get_u32, &v), "a truncated u32 is refused");
	ltt_wbuf_put_u8(&w, 0);
	tap_is_int(decode_all(&w, (get_fn)ltt_live_get_u32, &v), -EPROTO,
		   "a payload with a byte left over is refused");
	ltt_wbuf_fini(&w);
}

static void test_cmd_table(void)
{
	static const struct { uint32_t cmd; int size; const char *name; } want[] = {
		{ 1, 20, "CONNECT" }, { 2, 0, "LIST_SESSIONS" }, { 3, 20, "ATTACH_SESSION" },
		{ 4, 8, "GET_NEXT_INDEX" }, { 5, 20, "GET_PACKET" }, { 6, 8, "GET_METADATA" },
		{ 7, 8, "GET_NEW_STREAMS" }, { 8, 0, "CREATE_SESSION" }, { 9, 8, "DETACH_SESSION" },
	};
	bool ok = true;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ok = ok && ltt_live_cmd_payload_size(want[i].cmd) == want[i].size &&
		     !strcmp(ltt_live_cmd_name(want[i].cmd), want[i].name);
	tap_ok(ok, "commands 1-9 have LTTng's numbers, names and payload sizes");
	tap_ok(ltt_live_cmd_payload_size(0) == -1 && ltt_live_cmd_payload_size(10) == -1 &&
	       ltt_live_cmd_payload_size(UINT32_MAX) == -1 && !strcmp(ltt_live_cmd_name(77), "UNKNOWN"),
	       "other command numbers are unknown");
}

int main(void)
{
	test_cmd_hdr();
	test_connect();
	test_session();
	test_stream();
	test_attach();
	test_index();
	test_small_replies();
	test_cmd_table();
	return tap_done();
}
