// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumer_proto_relay.c - the consumer protocol's relay commands:
 * ADD_RELAY in its 1.13 form (the relay's address typed) and its form
 * before (two tcp:// URLs, to and from older peers, byte for byte), what
 * its decoder refuses, and the relay commands' replies.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "tests/unit/tap.h"

static const struct ltt_consumer_add_relay relay = {
	.relay_key = 42,
	.addr = { .family = 4, .host = "127.0.0.1", .ctrl_port = 5342, .data_port = 5343 },
	.hostname = "box", .session_name = "s1", .base_path = "", .live_timer_us = 100000,
	.session_id = 3, .creation_time = 1700000000,
};

/* Encode @m, decode it; @ret's strings point into a buffer kept until the next call. */
static struct ltt_wbuf relay_buf;

static int decode_relay(const struct ltt_consumer_add_relay *m, struct ltt_consumer_add_relay *ret,
			uint32_t minor)
{
	struct ltt_rbuf r;

	ltt_wbuf_fini(&relay_buf);
	ltt_wbuf_init(&relay_buf);
	ltt_consumer_put_add_relay(&relay_buf, m, minor);
	ltt_rbuf_init(&r, relay_buf.data, relay_buf.len);
	return relay_buf.err ? relay_buf.err : ltt_consumer_get_add_relay(&r, ret, minor);
}

/* Are @a and @b the same address? */
static bool same_addr(const struct ltt_consumer_relay_addr *a, const struct ltt_consumer_relay_addr *b)
{
	return a->family == b->family && !strcmp(a->host, b->host) &&
	       a->ctrl_port == b->ctrl_port && a->data_port == b->data_port;
}

/* An older session daemon's ADD_RELAY (before 1.13): the address as the URLs @ctrl, @data. */
static void put_old_relay(struct ltt_wbuf *w, const char *ctrl, const char *data)
{
	ltt_wbuf_put_u64(w, 42);
	ltt_wbuf_put_str(w, ctrl);
	ltt_wbuf_put_str(w, data);
	ltt_wbuf_put_str(w, "box");
	ltt_wbuf_put_str(w, "s1");
	ltt_wbuf_put_str(w, "");
	ltt_wbuf_put_u32(w, 100000);
	ltt_wbuf_put_u64(w, 3);
	ltt_wbuf_put_u64(w, 1700000000);
}

static int decode_old_relay(const char *ctrl, const char *data, struct ltt_consumer_add_relay *ret)
{
	struct ltt_rbuf r;

	ltt_wbuf_fini(&relay_buf);
	ltt_wbuf_init(&relay_buf);
	put_old_relay(&relay_buf, ctrl, data);
	ltt_rbuf_init(&r, relay_buf.data, relay_buf.len);
	return ltt_consumer_get_add_relay(&r, ret, LTT_CONSUMER_MINOR_RELAY_ADDR - 1);
}

static void test_add_relay(void)
{
	const uint32_t now = LTT_CONSUMER_MINOR, old = LTT_CONSUMER_MINOR_RELAY_ADDR - 1;
	struct ltt_consumer_add_relay m = relay, got;
	char big[300];
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	memset(&got, 0, sizeof(got));
	tap_is_int(decode_relay(&m, &got, now), 0, "ADD_RELAY decodes");
	tap_ok(got.relay_key == 42 && same_addr(&got.addr, &relay.addr) &&
	       !strcmp(got.hostname, "box") &&
	       !strcmp(got.session_name, "s1") && !strcmp(got.base_path, "") &&
	       got.live_timer_us == 100000 && got.session_id == 3 &&
	       got.creation_time == 1700000000, "with every field as sent");
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m, now);
	tap_is_int((int)w.len, 8 + 1 + 4 + 10 + 2 + 2 + 4 + 4 + 4 + 3 + 4 + 1 + 4 + 8 + 8 + 16 + 1 + 1,
		   "its layout (1.19): u64, u8, a string, two u16, three strings, u32, u64, u64, "
		   "the uuid, u8 tls 0, u8 trace format");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_add_relay(&r, &got, now), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_put_u8(&w, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_relay(&r, &got, now), -EPROTO, "a trailing byte: EPROTO");
	ltt_wbuf_fini(&w);

	/* TLS (1.15): the three files travel; an older consumer can't have them */
	m.tls_cert = "/c.pem";
	m.tls_key = "/c.key";
	m.tls_ca = "/ca.pem";
	memset(&got, 0, sizeof(got));
	tap_is_int(decode_relay(&m, &got, now), 0, "ADD_RELAY with TLS files decodes");
	tap_ok(got.tls_cert && !strcmp(got.tls_cert, "/c.pem") && !strcmp(got.tls_key, "/c.key") &&
	       !strcmp(got.tls_ca, "/ca.pem"), "with the three files");
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m, LTT_CONSUMER_MINOR_TLS - 1);
	tap_is_int(w.err, -EPROTONOSUPPORT, "TLS files for a consumer before 1.15: not sent (it would speak plain)");
	ltt_wbuf_fini(&w);
	m.tls_key = "";
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "TLS with an empty file name: EINVAL");
	m.tls_cert = m.tls_key = m.tls_ca = NULL;
	memset(&got, 0, sizeof(got));
	tap_is_int(decode_relay(&m, &got, now), 0, "without TLS files");
	tap_ok(!got.tls_cert && !got.tls_key && !got.tls_ca, "it decodes none: plain");

	/* the trace format (1.19): the relay session is created with it */
	m.trace_format = LTT_TRACE_FORMAT_CTF_2;
	memset(&got, 0, sizeof(got));
	tap_ok(!decode_relay(&m, &got, now) && got.trace_format == LTT_TRACE_FORMAT_CTF_2,
	       "a CTF 2 session's ADD_RELAY says so (1.19)");
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m, LTT_CONSUMER_MINOR_CTF2 - 1);
	tap_is_int(w.err, -EPROTONOSUPPORT,
		   "a CTF 2 session for a consumer before 1.19: not sent (it would frame CTF 2 as TSDL)");
	ltt_wbuf_fini(&w);
	m.trace_format = 3;
	tap_is_int(decode_relay(&m, &got, now), -EPROTO, "another trace format: EPROTO");
	m.trace_format = 0;

	/* a consumer before 1.13 gets the two URLs, and reads them back */
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_relay(&w, &m, old);
	tap_is_int((int)w.len, 8 + 4 + 21 + 4 + 21 + 4 + 4 + 4 + 3 + 4 + 1 + 4 + 8 + 8,
		   "before 1.13: u64, five strings, u32, u64, u64");
	ltt_wbuf_fini(&w);
	memset(&got, 0, sizeof(got));
	tap_is_int(decode_relay(&m, &got, old), 0, "before 1.13: it decodes");
	tap_ok(same_addr(&got.addr, &relay.addr), "before 1.13: the same address");
	ltt_wbuf_init(&w);
	put_old_relay(&w, "tcp://127.0.0.1:5342", "tcp://127.0.0.1:5343");
	tap_ok(w.len == relay_buf.len && !memcmp(w.data, relay_buf.data, w.len),
	       "before 1.13: byte for byte what a 1.12 session daemon sent");
	ltt_wbuf_fini(&w);
	memset(&got, 0, sizeof(got));
	tap_ok(!decode_old_relay("tcp://127.0.0.1:5342", "tcp://127.0.0.1:5343", &got) &&
	       same_addr(&got.addr, &relay.addr) && got.live_timer_us == 100000,
	       "a 1.12 session daemon's ADD_RELAY decodes into the typed address");
	m.addr = (struct ltt_consumer_relay_addr){ .family = 6, .host = "::1", .ctrl_port = 1,
						   .data_port = 2 };
	tap_ok(!decode_relay(&m, &got, old) && same_addr(&got.addr, &m.addr),
	       "before 1.13: an IPv6 address, through tcp6://[::1]:1");
	m.addr = (struct ltt_consumer_relay_addr){ .family = 0, .host = "relay.example",
						   .ctrl_port = 7, .data_port = 8 };
	tap_ok(!decode_relay(&m, &got, old) && same_addr(&got.addr, &m.addr),
	       "before 1.13: a host name");
	tap_is_int(decode_old_relay("tcp://a.example:1", "tcp://b.example:2", &got), -EINVAL,
		   "before 1.13: two hosts: EINVAL");
	tap_is_int(decode_old_relay("net://a.example", "tcp://a.example:2", &got), -EINVAL,
		   "before 1.13: a net:// URL: EINVAL");
	tap_is_int(decode_old_relay("tcp://a.example", "tcp://a.example:2", &got), -EINVAL,
		   "before 1.13: a URL without its port: EINVAL");

	m = relay;
	m.relay_key = 0;
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "relay key 0: EINVAL");
	m = relay;
	m.session_name = "";
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "no session name: EINVAL");
	m = relay;
	m.addr.host[0] = '\0';
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "no relay host: EINVAL");
	m = relay;
	m.addr.family = 5;
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "an unknown family: EINVAL");
	m = relay;
	strcpy(m.addr.host, "a\nb");
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "a host with a newline: EINVAL");
	strcpy(m.addr.host, "::1");
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "an IPv6 literal of family 4: EINVAL");
	m.addr.family = 6;
	tap_is_int(decode_relay(&m, &got, now), 0, "an IPv6 literal of family 6 is taken");
	strcpy(m.addr.host, "127.0.0.1");
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "an IPv4 literal of family 6: EINVAL");
	m.addr.family = 0;
	strcpy(m.addr.host, "relay-1.example");
	tap_is_int(decode_relay(&m, &got, now), 0, "a host name of family 0 is taken");
	ltt_wbuf_init(&w);
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ltt_wbuf_put_u64(&w, 42);
	ltt_wbuf_put_u8(&w, 0);
	ltt_wbuf_put_str(&w, big + sizeof(big) - 257);	/* 256 bytes and the NUL */
	ltt_wbuf_put_u16(&w, 1);
	ltt_wbuf_put_u16(&w, 2);
	ltt_wbuf_put_str(&w, "box");
	ltt_wbuf_put_str(&w, "s1");
	ltt_wbuf_put_str(&w, "");
	ltt_wbuf_put_u32(&w, 0);
	ltt_wbuf_put_u64(&w, 3);
	ltt_wbuf_put_u64(&w, 1700000000);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_relay(&r, &got, now), -EPROTO, "a 256-byte relay host: EPROTO");
	ltt_wbuf_fini(&w);
	m = relay;
	m.addr.data_port = 0;
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "a data port 0: EINVAL");
	m.addr.data_port = m.addr.ctrl_port;
	tap_is_int(decode_relay(&m, &got, now), -EINVAL, "the same port twice: EINVAL");
	m = relay;
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	m.hostname = big + sizeof(big) - 64;	/* 63 bytes and the NUL: fits */
	tap_is_int(decode_relay(&m, &got, now), 0, "a 63-byte host name is taken");
	m.hostname = big + sizeof(big) - 65;
	tap_is_int(decode_relay(&m, &got, now), -EPROTO, "a 64-byte host name: EPROTO");
	m = relay;
	m.session_name = big + sizeof(big) - 256;
	tap_is_int(decode_relay(&m, &got, now), -EPROTO, "a 255-byte session name: EPROTO");
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
	uint64_t rkey = 0;
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
	tap_ok(!ltt_consumer_get_relay_key(&r, &rkey) && rkey == 99, "which decodes");
	ltt_rbuf_init(&r, w.data, 7);
	tap_is_int(ltt_consumer_get_relay_key(&r, &rkey), -EPROTO, "truncated: EPROTO");

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
	tap_ok(LTT_CONSUMER_MINOR >= 5, "the protocol is 1.5 or later");
	tap_is_int(LTT_CONSUMER_MINOR_OUTPUT_ERRORS, 5, "output failures came with 1.5");
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_STREAMS_SENT), "STREAMS_SENT",
		   "STREAMS_SENT (1.3) has its name");
	tap_is_int(LTT_CONSUMER_MSG_STREAMS_SENT, 15, "and comes after DEL_RELAY");
}

int main(void)
{
	test_add_relay();
	test_relay_replies();
	return tap_done();
}
