// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumer_proto.c - the consumer protocol's payload codecs:
 * ADD_CHANNEL with and without its domain block (a user-space channel
 * encodes exactly as protocol 1.0 did), ADD_KERNEL_STREAM, and what the
 * decoders refuse.
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

int main(void)
{
	test_user_channel();
	test_kernel_channel();
	test_kernel_stream();
	return tap_done();
}
