// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_consumer.c - the consumer protocol (common/proto/consumer-proto.h):
 * the session daemon's commands as the consumer daemon decodes them,
 * and the consumer's replies as the session daemon decodes them.
 *
 * Input: byte 0 selects the decoder, the rest is its payload.
 */
#include <string.h>

#include "common/proto/consumer-proto.h"
#include "common/proto/msg.h"
#include "fuzz.h"

static int get_hdr(struct ltt_rbuf *r, struct ltt_msg_hdr *m)
{
	const uint8_t *p = ltt_rbuf_get_bytes(r, LTT_MSG_HDR_SIZE);

	if (!p || ltt_rbuf_end(r) ||
	    ltt_msg_hdr_decode(p, LTT_CONSUMER_MAGIC, LTT_CONSUMER_MSG_MAX, m))
		return -1;
	return 0;
}

static void put_hdr(struct ltt_wbuf *w, const struct ltt_msg_hdr *m)
{
	uint8_t *p = ltt_wbuf_reserve(w, LTT_MSG_HDR_SIZE);

	if (p)
		ltt_msg_hdr_encode(m, p);
}

/*
 * The relay replies' encoders write what follows the status, which the
 * consumer's reply path puts first (0: success, then the body).
 */
static void put_add_relay_reply(struct ltt_wbuf *w, const struct ltt_consumer_add_relay_reply *m)
{
	ltt_consumer_put_status(w, m->status);
	if (!m->status)
		ltt_consumer_put_add_relay_reply(w, m);
}

static void put_relay_pending_reply(struct ltt_wbuf *w,
				    const struct ltt_consumer_relay_pending_reply *m)
{
	ltt_consumer_put_status(w, m->status);
	if (!m->status)
		ltt_consumer_put_relay_pending_reply(w, m);
}

static void put_relay_status_reply(struct ltt_wbuf *w,
				   const struct ltt_consumer_relay_status_reply *m)
{
	ltt_consumer_put_status(w, m->status);
	if (!m->status)
		ltt_consumer_put_relay_status_reply(w, m);
}

FUZZ_CODEC(hdr, struct ltt_msg_hdr, get_hdr, put_hdr, true);
FUZZ_CODEC(add_channel, struct ltt_consumer_add_channel, ltt_consumer_get_add_channel,
	   ltt_consumer_put_add_channel, true);
FUZZ_CODEC(add_kernel_stream, struct ltt_consumer_add_kernel_stream,
	   ltt_consumer_get_add_kernel_stream, ltt_consumer_put_add_kernel_stream, true);
FUZZ_CODEC_VAL(status, int32_t, ltt_consumer_get_status, ltt_consumer_put_status, true);
FUZZ_CODEC(version, struct ltt_consumer_version, ltt_consumer_get_version,
	   ltt_consumer_put_version, true);
/* not canonical: 1.2's trailing relay_key 0 decodes as 1.1's absent one */
FUZZ_CODEC(add_trace, struct ltt_consumer_add_trace, ltt_consumer_get_add_trace,
	   ltt_consumer_put_add_trace, false);
FUZZ_CODEC(metadata, struct ltt_consumer_metadata, ltt_consumer_get_metadata,
	   ltt_consumer_put_metadata, true);
FUZZ_CODEC(add_stream, struct ltt_consumer_add_stream, ltt_consumer_get_add_stream,
	   ltt_consumer_put_add_stream, true);
FUZZ_CODEC(flush_channel, struct ltt_consumer_flush_channel, ltt_consumer_get_flush_channel,
	   ltt_consumer_put_flush_channel, true);
FUZZ_CODEC_VAL(key, uint64_t, ltt_consumer_get_key, ltt_consumer_put_key, true);
/* the CHANNEL_STATS reply of 1.5: the counters, then the output's failure */
static void put_channel_stats(struct ltt_wbuf *w, const struct ltt_consumer_channel_stats *m)
{
	ltt_consumer_put_channel_stats(w, m);
	ltt_consumer_put_channel_error(w, m);
}

/* not canonical: a reply without the failure block (before 1.5) decodes as
 * one with a zero block */
FUZZ_CODEC(channel_stats, struct ltt_consumer_channel_stats, ltt_consumer_get_channel_stats,
	   put_channel_stats, false);
/* ADD_RELAY as this protocol's minor says it (1.13: the typed address) */
static int get_add_relay(struct ltt_rbuf *r, struct ltt_consumer_add_relay *m)
{
	return ltt_consumer_get_add_relay(r, m, LTT_CONSUMER_MINOR);
}

static void put_add_relay(struct ltt_wbuf *w, const struct ltt_consumer_add_relay *m)
{
	ltt_consumer_put_add_relay(w, m, LTT_CONSUMER_MINOR);
}

FUZZ_CODEC(add_relay, struct ltt_consumer_add_relay, get_add_relay, put_add_relay, true);

/* ADD_RELAY from a peer before 1.13: the address as two URLs (their text not canonical) */
static int get_add_relay_v12(struct ltt_rbuf *r, struct ltt_consumer_add_relay *m)
{
	return ltt_consumer_get_add_relay(r, m, LTT_CONSUMER_MINOR_RELAY_ADDR - 1);
}

static void put_add_relay_v12(struct ltt_wbuf *w, const struct ltt_consumer_add_relay *m)
{
	ltt_consumer_put_add_relay(w, m, LTT_CONSUMER_MINOR_RELAY_ADDR - 1);
}

FUZZ_CODEC(add_relay_v12, struct ltt_consumer_add_relay, get_add_relay_v12, put_add_relay_v12,
	   false);
FUZZ_CODEC(add_relay_reply, struct ltt_consumer_add_relay_reply,
	   ltt_consumer_get_add_relay_reply, put_add_relay_reply, true);
FUZZ_CODEC_VAL(relay_key, uint64_t, ltt_consumer_get_relay_key, ltt_consumer_put_relay_key,
	       true);
FUZZ_CODEC(relay_pending_reply, struct ltt_consumer_relay_pending_reply,
	   ltt_consumer_get_relay_pending_reply, put_relay_pending_reply, true);
FUZZ_CODEC(relay_status_reply, struct ltt_consumer_relay_status_reply,
	   ltt_consumer_get_relay_status_reply, put_relay_status_reply, true);

static const struct ltt_fuzz_codec *const codecs[] = {
	&hdr, &add_channel, &add_kernel_stream, &status, &version, &add_trace, &metadata,
	&add_stream, &flush_channel, &key, &channel_stats, &add_relay, &add_relay_reply,
	&relay_key, &relay_pending_reply, &relay_status_reply, &add_relay_v12,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_fuzz_codec_pick(codecs, FUZZ_ARRAY_SIZE(codecs), data, size);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_msg_hdr h = { .magic = LTT_CONSUMER_MAGIC, .type = 3, .seq = 12,
				 .payload_len = 64 };
	struct ltt_consumer_add_channel ac = { .key = 3, .trace_key = 2, .name = "channel0",
					       .tracefile_size = 1 << 20, .tracefile_count = 4,
					       .switch_timer_us = 100000, .read_timer_us = 200000,
					       .overwrite = true,
					       .domain = LTT_CONSUMER_DOMAIN_KERNEL,
					       .subbuf_size = 1 << 18, .num_subbuf = 4 };
	struct ltt_consumer_add_kernel_stream ks = { .channel_key = 3, .cpu = 1 };
	int32_t st = -28;
	struct ltt_consumer_version v = { .major = LTT_CONSUMER_MAJOR,
					  .minor = LTT_CONSUMER_MINOR };
	struct ltt_consumer_add_trace at = { .key = 2, .dir = "/tmp/t/ust/uid/1000/64-bit",
					     .uuid = { 0xde, 0xad }, .uid = 1000, .gid = 1000 };
	static const char tsdl[] = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; };\n";
	struct ltt_consumer_metadata md = { .trace_key = 2, .text = tsdl,
					    .len = sizeof(tsdl) - 1 };
	struct ltt_consumer_add_stream as = { .channel_key = 3, .cpu = 7 };
	struct ltt_consumer_flush_channel fc = { .channel_key = 3, .final = true };
	uint64_t k = 3;
	struct ltt_consumer_channel_stats cs = { .events_lost = 5, .packets_lost = 1,
						 .bytes_written = 1 << 20 };
	struct ltt_consumer_add_relay ar = { .relay_key = 1,
					     .addr = { .family = 4, .host = "127.0.0.1",
						       .ctrl_port = 5342, .data_port = 5343 },
					     .hostname = "host-1", .session_name = "s1",
					     .base_path = "", .live_timer_us = 1000000,
					     .session_id = 4, .creation_time = 1714557600 };
	struct ltt_consumer_add_relay_reply rr = { .status = 0,
						   .output_path = "/srv/ltt/host-1/s1-20240501" };
	struct ltt_consumer_relay_pending_reply pr = { .status = 0, .pending = 1 };
	struct ltt_consumer_relay_status_reply sr = { .status = 0, .conn_error = -104,
						      .packets_sent = 9, .bytes_sent = 9 << 12,
						      .packets_lost = 2 };

	ltt_fuzz_codec_seed(emit, &hdr, 0, 0, &h);
	ltt_fuzz_codec_seed(emit, &add_channel, 1, 0, &ac);
	ac.domain = LTT_CONSUMER_DOMAIN_USER;
	ac.subbuf_size = ac.num_subbuf = 0;
	ac.overwrite = false;
	ltt_fuzz_codec_seed(emit, &add_channel, 1, 1, &ac);
	ltt_fuzz_codec_seed(emit, &add_kernel_stream, 2, 0, &ks);
	ltt_fuzz_codec_seed(emit, &status, 3, 0, &st);
	ltt_fuzz_codec_seed(emit, &version, 4, 0, &v);
	ltt_fuzz_codec_seed(emit, &add_trace, 5, 0, &at);
	at.relay_key = 1;
	ltt_fuzz_codec_seed(emit, &add_trace, 5, 1, &at);
	ltt_fuzz_codec_seed(emit, &metadata, 6, 0, &md);
	ltt_fuzz_codec_seed(emit, &add_stream, 7, 0, &as);
	ltt_fuzz_codec_seed(emit, &flush_channel, 8, 0, &fc);
	ltt_fuzz_codec_seed(emit, &key, 9, 0, &k);
	ltt_fuzz_codec_seed(emit, &channel_stats, 10, 0, &cs);
	ltt_fuzz_codec_seed(emit, &add_relay, 11, 0, &ar);
	ltt_fuzz_codec_seed(emit, &add_relay_reply, 12, 0, &rr);
	ltt_fuzz_codec_seed(emit, &relay_key, 13, 0, &k);
	ltt_fuzz_codec_seed(emit, &relay_pending_reply, 14, 0, &pr);
	ltt_fuzz_codec_seed(emit, &relay_status_reply, 15, 0, &sr);
	ltt_fuzz_codec_seed(emit, &add_relay_v12, 16, 0, &ar);
}
