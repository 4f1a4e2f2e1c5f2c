// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumer_proto.c - the consumer protocol's payload codecs:
 * ADD_CHANNEL with and without its domain block (a user-space channel
 * encodes exactly as protocol 1.0 did), ADD_KERNEL_STREAM, ADD_TRACE in
 * its 1.1 and 1.2 forms, the relay commands of 1.2 and their replies, and
 * what the decoders refuse.
 */
#include <errno.h>
#include <string.h>

#include "common/codec.h"
#include "common/consumer-proto.h"
#include "tap.h"

static const struct ltt_consumer_add_channel user_chan = {
	.key = 11, .trace_key = 22, .name = "chan0", .tracefile_size = 1 << 20,
	.tracefile_count = 3, .switch_timer_us = 1000, .read_timer_us = 2000,
	.overwrite = true,
};

/* The 1.0 encoding, field by field, as the session daemon sent it. */
static void put_v10(struct ltt_wbuf *w, const struct ltt_consumer_add_channel *m)
{
	ltt_wbuf_put_u64(w, m->key);
	ltt_wbuf_put_u64(w, m->trace_key);
	ltt_wbuf_put_str(w, m->name);
	ltt_wbuf_put_u64(w, m->tracefile_size);
	ltt_wbuf_put_u64(w, m->tracefile_count);
	ltt_wbuf_put_u32(w, m->switch_timer_us);
	ltt_wbuf_put_u32(w, m->read_timer_us);
	ltt_wbuf_put_u8(w, m->overwrite);
}

static int decode_channel(const struct ltt_wbuf *w, struct ltt_consumer_add_channel *ret)
{
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, w->data, w->len);
	return ltt_consumer_get_add_channel(&r, ret);
}

static void test_user_channel(void)
{
	struct ltt_consumer_add_channel got;
	struct ltt_wbuf a, b;

	ltt_wbuf_init(&a);
	ltt_wbuf_init(&b);
	ltt_consumer_put_add_channel(&a, &user_chan);
	put_v10(&b, &user_chan);
	tap_ok(!a.err && a.len == b.len && !memcmp(a.data, b.data, a.len),
	       "a user-space ADD_CHANNEL is byte for byte the 1.0 encoding (%zu bytes)", a.len);
	memset(&got, 0xaa, sizeof(got));
	tap_is_int(decode_channel(&b, &got), 0, "a 1.0 ADD_CHANNEL decodes");
	tap_is_int(got.domain, LTT_CONSUMER_DOMAIN_USER, "as a user-space channel");
	tap_ok(got.key == 11 && got.trace_key == 22 && !strcmp(got.name, "chan0") &&
	       got.tracefile_size == 1 << 20 && got.tracefile_count == 3 &&
	       got.switch_timer_us == 1000 && got.read_timer_us == 2000 && got.overwrite &&
	       !got.subbuf_size && !got.num_subbuf, "with every field as sent");
	/* a user-space channel with a domain block is malformed */
	ltt_wbuf_put_u8(&b, LTT_CONSUMER_DOMAIN_USER);
	ltt_wbuf_put_u64(&b, 4096);
	ltt_wbuf_put_u64(&b, 4);
	tap_is_int(decode_channel(&b, &got), -EPROTO, "a domain block saying user space: EPROTO");
	ltt_wbuf_fini(&a);
	ltt_wbuf_fini(&b);
}

/* ADD_CHANNEL of @domain with the given geometry, decoded. */
static int kernel_case(uint8_t domain, uint64_t subbuf_size, uint64_t num_subbuf,
		       struct ltt_consumer_add_channel *ret)
{
	struct ltt_wbuf w;
	int status;

	ltt_wbuf_init(&w);
	put_v10(&w, &user_chan);
	ltt_wbuf_put_u8(&w, domain);
	ltt_wbuf_put_u64(&w, subbuf_size);
	ltt_wbuf_put_u64(&w, num_subbuf);
	status = decode_channel(&w, ret);
	ltt_wbuf_fini(&w);
	return status;
}

static void test_kernel_channel(void)
{
	struct ltt_consumer_add_channel m = user_chan, got;
	struct ltt_wbuf w;

	m.domain = LTT_CONSUMER_DOMAIN_KERNEL;
	m.subbuf_size = 256 * 1024;
	m.num_subbuf = 8;
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	tap_is_int(decode_channel(&w, &got), 0, "a kernel ADD_CHANNEL decodes");
	tap_ok(got.domain == LTT_CONSUMER_DOMAIN_KERNEL && got.subbuf_size == 256 * 1024 &&
	       got.num_subbuf == 8 && !strcmp(got.name, "chan0") && got.overwrite,
	       "with its domain and geometry");
	/* cut inside the block */
	w.len -= 3;
	tap_is_int(decode_channel(&w, &got), -EPROTO, "a truncated domain block: EPROTO");
	w.len += 3;
	ltt_wbuf_put_u8(&w, 0);
	tap_is_int(decode_channel(&w, &got), -EPROTO, "a trailing byte: EPROTO");
	ltt_wbuf_fini(&w);

	tap_is_int(kernel_case(7, 4096, 4, &got), -EOPNOTSUPP, "an unknown domain: EOPNOTSUPP");
	tap_is_int(kernel_case(1, 4096, 2, &got), 0, "the smallest kernel geometry is taken");
	tap_is_int(kernel_case(1, 2048, 4, &got), -EINVAL, "sub-buffers below 4 KiB: EINVAL");
	tap_is_int(kernel_case(1, 12288, 4, &got), -EINVAL,
		   "sub-buffers not a power of two: EINVAL");
	tap_is_int(kernel_case(1, 4096, 3, &got), -EINVAL, "a count not a power of two: EINVAL");
	tap_is_int(kernel_case(1, 4096, 1, &got), -EINVAL, "one sub-buffer: EINVAL");
	tap_is_int(kernel_case(1, 4096, 8192, &got), -EINVAL, "too many sub-buffers: EINVAL");
	tap_is_int(kernel_case(1, 64 << 20, 32, &got), -EINVAL,
		   "more than 1 GiB per CPU: EINVAL");
	tap_is_int(kernel_case(1, 0, 0, &got), -EINVAL, "no geometry: EINVAL");
}

static void test_kernel_stream(void)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = 0x1122334455667788ULL, .cpu = 5 };
	struct ltt_consumer_add_kernel_stream got = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_consumer_put_add_kernel_stream(&w, &m);
	tap_is_int((int)w.len, 12, "ADD_KERNEL_STREAM is {u64 channel_key, u32 cpu}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_kernel_stream(&r, &got), 0, "and decodes");
	tap_ok(got.channel_key == m.channel_key && got.cpu == 5, "to what was sent");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_add_kernel_stream(&r, &got), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_put_u8(&w, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_kernel_stream(&r, &got), -EPROTO, "trailing byte: EPROTO");
	ltt_wbuf_fini(&w);
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ADD_KERNEL_STREAM), "ADD_KERNEL_STREAM",
		   "the message has its name");
	tap_ok(LTT_CONSUMER_MINOR >= 1, "the protocol minor says the additions are there");
}

/* The 1.1 ADD_TRACE, field by field. */
static void put_trace_v11(struct ltt_wbuf *w, const struct ltt_consumer_add_trace *m)
{
	ltt_wbuf_put_u64(w, m->key);
	ltt_wbuf_put_str(w, m->dir);
	ltt_wbuf_put_bytes(w, m->uuid, 16);
	ltt_wbuf_put_u32(w, m->uid);
	ltt_wbuf_put_u32(w, m->gid);
}

static void test_add_trace(void)
{
	struct ltt_consumer_add_trace m = {
		.key = 7, .dir = "/tmp/t/ust/uid/0/64-bit", .uid = 1000, .gid = 100,
	}, got;
	struct ltt_wbuf a, b;
	struct ltt_rbuf r;

	memset(m.uuid, 0x5a, sizeof(m.uuid));
	m.uuid[15] = 1;
	ltt_wbuf_init(&a);
	ltt_wbuf_init(&b);
	ltt_consumer_put_add_trace(&a, &m);
	put_trace_v11(&b, &m);
	tap_ok(!a.err && a.len == b.len && !memcmp(a.data, b.data, a.len),
	       "a local ADD_TRACE is byte for byte the 1.1 encoding (%zu bytes)", a.len);
	memset(&got, 0xaa, sizeof(got));
	ltt_rbuf_init(&r, b.data, b.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), 0, "a 1.1 ADD_TRACE decodes");
	tap_ok(got.key == 7 && !strcmp(got.dir, m.dir) && !memcmp(got.uuid, m.uuid, 16) &&
	       got.uid == 1000 && got.gid == 100 && got.relay_key == 0,
	       "with every field as sent and relay_key 0");

	ltt_wbuf_reset(&a);
	m.dir = "ust/uid/0/64-bit";
	m.relay_key = 0x0102030405060708ULL;
	ltt_consumer_put_add_trace(&a, &m);
	ltt_wbuf_reset(&b);
	put_trace_v11(&b, &m);
	tap_is_int((int)(a.len - b.len), 8, "a relayed ADD_TRACE adds a trailing u64");
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), 0, "and decodes");
	tap_ok(got.relay_key == m.relay_key && !strcmp(got.dir, "ust/uid/0/64-bit"),
	       "to its relay key and relative directory");
	ltt_rbuf_init(&r, a.data, a.len - 3);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "a cut relay key: EPROTO");
	ltt_wbuf_put_u8(&a, 0);
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "a trailing byte: EPROTO");
	ltt_rbuf_init(&r, b.data, 20);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_fini(&a);
	ltt_wbuf_fini(&b);
}

static const struct ltt_consumer_add_relay relay = {
	.relay_key = 42, .ctrl_url = "tcp://127.0.0.1:5342", .data_url = "tcp://127.0.0.1:5343",
	.hostname = "box", .session_name = "s1", .base_path = "", .live_timer_us = 100000,
	.session_id = 3, .creation_time = 1700000000,
};

/* Encode @m, decode it; @ret's strings point into a buffer kept until the next call. */
static struct ltt_wbuf relay_buf;

static int decode_relay(const struct ltt_consumer_add_relay *m, struct ltt_consumer_add_relay *ret)
{
	struct ltt_rbuf r;

	ltt_wbuf_fini(&relay_buf);
	ltt_wbuf_init(&relay_buf);
	ltt_consumer_put_add_relay(&relay_buf, m);
	ltt_rbuf_init(&r, relay_buf.data, relay_buf.len);
	return relay_buf.err ? relay_buf.err : ltt_consumer_get_add_relay(&r, ret);
}

static void test_add_relay(void)
{
	struct ltt_consumer_add_relay m = relay, got;
	char big[300];
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	memset(&got, 0, sizeof(got));
	tap_is_int(decode_relay(&m, &got), 0, "ADD_RELAY decodes");
	tap_ok(got.relay_key == 42 && !strcmp(got.ctrl_url, relay.ctrl_url) &&
	       !strcmp(got.data_url, relay.data_url) && !strcmp(got.hostname, "box") &&
	       !strcmp(got.session_name, "s1") && !strcmp(got.base_path, "") &&
	       got.live_timer_us == 100000 && got.session_id == 3 &&
	       got.creation_time == 1700000000, "with every field as sent");
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m);
	tap_is_int((int)w.len, 8 + 4 + 21 + 4 + 21 + 4 + 4 + 4 + 3 + 4 + 1 + 4 + 8 + 8,
		   "its layout: u64, five strings, u32, u64, u64");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_add_relay(&r, &got), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_put_u8(&w, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_relay(&r, &got), -EPROTO, "a trailing byte: EPROTO");
	ltt_wbuf_fini(&w);

	m.relay_key = 0;
	tap_is_int(decode_relay(&m, &got), -EINVAL, "relay key 0: EINVAL");
	m = relay;
	m.session_name = "";
	tap_is_int(decode_relay(&m, &got), -EINVAL, "no session name: EINVAL");
	m = relay;
	m.ctrl_url = NULL;
	tap_is_int(decode_relay(&m, &got), -EINVAL, "no control url: EINVAL");
	m = relay;
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	m.hostname = big + sizeof(big) - 64;	/* 63 bytes and the NUL: fits */
	tap_is_int(decode_relay(&m, &got), 0, "a 63-byte host name is taken");
	m.hostname = big + sizeof(big) - 65;
	tap_is_int(decode_relay(&m, &got), -EPROTO, "a 64-byte host name: EPROTO");
	m = relay;
	m.session_name = big + sizeof(big) - 256;
	tap_is_int(decode_relay(&m, &got), -EPROTO, "a 255-byte session name: EPROTO");
	ltt_wbuf_fini(&relay_buf);
}

static void test_relay_replies(void)
{
	struct ltt_consumer_add_relay_reply ar = { .output_path = "/srv/t/box/s1-20231114-221320" },
					    arg;
	struct ltt_consumer_relay_status_reply st = {
		.conn_error = -ECONNRESET, .packets_sent = 10, .bytes_sent = 40960,
		.packets_lost = 2,
	}, stg;
	struct ltt_consumer_relay_pending_reply pr = { .pending = 1 }, prg;
	uint64_t key = 0;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, 0);
	ltt_consumer_put_add_relay_reply(&w, &ar);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_relay_reply(&r, &arg), 0, "ADD_RELAY's reply decodes");
	tap_ok(arg.status == 0 && !strcmp(arg.output_path, ar.output_path),
	       "to status 0 and the output path");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, (uint32_t)-ECONNREFUSED);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_relay_reply(&r, &arg), 0, "a failed ADD_RELAY decodes");
	tap_ok(arg.status == -ECONNREFUSED && !strcmp(arg.output_path, ""),
	       "to its status alone");

	ltt_wbuf_reset(&w);
	ltt_consumer_put_relay_key(&w, 99);
	tap_is_int((int)w.len, 8, "RELAY_* and DEL_RELAY carry {u64 relay_key}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_relay_key(&r, &key) && key == 99, "which decodes");
	ltt_rbuf_init(&r, w.data, 7);
	tap_is_int(ltt_consumer_get_relay_key(&r, &key), -EPROTO, "truncated: EPROTO");

	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, 0);
	ltt_consumer_put_relay_pending_reply(&w, &pr);
	tap_is_int((int)w.len, 5, "RELAY_DATA_PENDING's reply is {i32 status, u8 pending}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_relay_pending_reply(&r, &prg) && !prg.status && prg.pending == 1,
	       "and decodes to pending 1");
	w.data[4] = 2;
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_relay_pending_reply(&r, &prg), -EPROTO, "pending 2: EPROTO");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, (uint32_t)-ECONNRESET);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_relay_pending_reply(&r, &prg) && prg.status == -ECONNRESET &&
	       !prg.pending, "a lost relay: ECONNRESET and pending 0");

	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, 0);
	ltt_consumer_put_relay_status_reply(&w, &st);
	tap_is_int((int)w.len, 32, "RELAY_STATUS's reply is {i32, i32, u64, u64, u64}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_relay_status_reply(&r, &stg) && !stg.status &&
	       stg.conn_error == -ECONNRESET && stg.packets_sent == 10 &&
	       stg.bytes_sent == 40960 && stg.packets_lost == 2, "and decodes to what was sent");
	w.data[4] = 5;	/* conn_error 5: positive */
	memset(w.data + 5, 0, 3);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_relay_status_reply(&r, &stg), -EPROTO,
		   "a positive conn_error: EPROTO");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_relay_status_reply(&r, &stg), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_fini(&w);
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_DEL_RELAY), "DEL_RELAY",
		   "DEL_RELAY has its name");
	tap_is_int(LTT_CONSUMER_MINOR, 2, "the protocol is 1.2");
}

int main(void)
{
	test_user_channel();
	test_kernel_channel();
	test_kernel_stream();
	test_add_trace();
	test_add_relay();
	test_relay_replies();
	return tap_done();
}
