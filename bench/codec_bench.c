// SPDX-License-Identifier: LGPL-2.1-only
/*
 * codec_bench.c - instructions per message of the field-table codec
 * (common/base/codec.h), beside decoders written by hand, for callgrind:
 *
 *   bench/codec.sh [BUILD_DIR] [N]
 *
 * runs this program under callgrind with only the bench_* loops counted
 * and prints each loop's instructions per message.  Each loop puts or
 * gets one message N times (default 100000); the hand-written encoders
 * and decoders (what relay-proto.c and client-proto.c held before their
 * tables, or would) are the yardstick.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "common/proto/relay-proto.h"

static volatile uint64_t sink;

static const struct ltt_relay_index relay_index = {
	.stream_handle = 1, .net_seq_num = 2, .packet_size = 3, .content_size = 4,
	.timestamp_begin = 5, .timestamp_end = 6, .events_discarded = 7, .stream_id = 8,
	.stream_instance_id = 9, .packet_seq_num = 10,
};

/* A user-space channel as the daemon lists it, its counters running. */
static const struct ltt_channel_desc channel = {
	.domain = LTT_DOMAIN_USER,
	.attr = {
		.name = "channel0", .subbuf_size = 512 * 1024, .num_subbuf = 4,
		.read_timer_us = 200000, .buffer_type = LTT_BUFFER_PER_UID,
	},
	.enabled = true, .discarded_events = 1234, .lost_packets = 5,
};

/* The relay index's encoder before its table. */
static void hand_put_relay_index(struct ltt_wbuf *w, const struct ltt_relay_index *m)
{
	ltt_wbuf_put_be64(w, m->stream_handle);
	ltt_wbuf_put_be64(w, m->net_seq_num);
	ltt_wbuf_put_be64(w, m->packet_size);
	ltt_wbuf_put_be64(w, m->content_size);
	ltt_wbuf_put_be64(w, m->timestamp_begin);
	ltt_wbuf_put_be64(w, m->timestamp_end);
	ltt_wbuf_put_be64(w, m->events_discarded);
	ltt_wbuf_put_be64(w, m->stream_id);
	ltt_wbuf_put_be64(w, m->stream_instance_id);
	ltt_wbuf_put_be64(w, m->packet_seq_num);
}

/* The relay index's decoder before its table. */
static int hand_get_relay_index(struct ltt_rbuf *r, struct ltt_relay_index *ret)
{
	struct ltt_relay_index m = { 0 };

	m.stream_handle = ltt_rbuf_get_be64(r);
	m.net_seq_num = ltt_rbuf_get_be64(r);
	m.packet_size = ltt_rbuf_get_be64(r);
	m.content_size = ltt_rbuf_get_be64(r);
	m.timestamp_begin = ltt_rbuf_get_be64(r);
	m.timestamp_end = ltt_rbuf_get_be64(r);
	m.events_discarded = ltt_rbuf_get_be64(r);
	m.stream_id = ltt_rbuf_get_be64(r);
	m.stream_instance_id = ltt_rbuf_get_be64(r);
	m.packet_seq_num = ltt_rbuf_get_be64(r);
	if (ltt_rbuf_end(r))
		return -EPROTO;
	*ret = m;
	return 0;
}

/* The client channel's encoder, by hand, for minor 27 and later. */
static void hand_put_channel(struct ltt_wbuf *w, const struct ltt_channel_desc *c)
{
	const struct ltt_channel_conf *a = &c->attr;

	ltt_wbuf_put_u32(w, c->domain);
	ltt_wbuf_put_str(w, a->name);
	ltt_wbuf_put_u64(w, a->subbuf_size);
	ltt_wbuf_put_u64(w, a->num_subbuf);
	ltt_wbuf_put_u8(w, a->overwrite);
	ltt_wbuf_put_u32(w, a->switch_timer_us);
	ltt_wbuf_put_u32(w, a->read_timer_us);
	ltt_wbuf_put_u64(w, a->tracefile_size);
	ltt_wbuf_put_u64(w, a->tracefile_count);
	ltt_wbuf_put_u32(w, a->buffer_type);
	ltt_wbuf_put_u8(w, c->enabled);
	ltt_wbuf_put_u64(w, c->discarded_events);
	ltt_wbuf_put_u64(w, c->lost_packets);
	ltt_wbuf_put_u32(w, (uint32_t)c->output_error);
	ltt_wbuf_put_u64(w, (uint64_t)c->output_error_since);
	ltt_wbuf_put_u64(w, c->error_events);
	ltt_wbuf_put_u64(w, c->error_packets);
	ltt_wbuf_put_u64(w, c->classes_refused);
	ltt_wbuf_put_u8(w, a->fsync);
	ltt_wbuf_put_u8(w, a->preallocation);
	ltt_wbuf_put_u8(w, a->allocation);
	ltt_wbuf_put_u8(w, a->auto_reclaim);
	ltt_wbuf_put_u64(w, a->auto_reclaim_us);
}

/* A u32 that must not exceed @max. */
static uint32_t get_enum(struct ltt_rbuf *r, uint32_t max)
{
	uint32_t v = ltt_rbuf_get_u32(r);

	if (v > max) {
		ltt_rbuf_fail(r);
		return 0;
	}
	return v;
}

/* The client channel's decoder before its table, for minor 24 and later. */
static void hand_get_channel(struct ltt_rbuf *r, struct ltt_channel_desc *ret)
{
	struct ltt_channel_conf *a = &ret->attr;

	memset(ret, 0, sizeof(*ret));
	ret->domain = ltt_proto_get_domain(r);
	ltt_rbuf_get_str_copy(r, a->name, sizeof(a->name));
	a->subbuf_size = ltt_rbuf_get_u64(r);
	a->num_subbuf = ltt_rbuf_get_u64(r);
	a->overwrite = ltt_rbuf_get_bool(r);
	a->switch_timer_us = ltt_rbuf_get_u32(r);
	a->read_timer_us = ltt_rbuf_get_u32(r);
	a->tracefile_size = ltt_rbuf_get_u64(r);
	a->tracefile_count = ltt_rbuf_get_u64(r);
	a->buffer_type = get_enum(r, LTT_BUFFER_GLOBAL);
	ret->enabled = ltt_rbuf_get_bool(r);
	ret->discarded_events = ltt_rbuf_get_u64(r);
	ret->lost_packets = ltt_rbuf_get_u64(r);
	ret->output_error = (int)ltt_rbuf_get_u32(r);
	ret->output_error_since = (int64_t)ltt_rbuf_get_u64(r);
	ret->error_events = ltt_rbuf_get_u64(r);
	ret->error_packets = ltt_rbuf_get_u64(r);
	if (ret->output_error < 0)
		ltt_rbuf_fail(r);
	ret->classes_refused = ltt_rbuf_get_u64(r);
	a->fsync = ltt_rbuf_get_bool(r);
	a->preallocation = ltt_rbuf_get_u8(r);
	a->allocation = ltt_rbuf_get_u8(r);
	a->auto_reclaim = ltt_rbuf_get_u8(r);
	a->auto_reclaim_us = ltt_rbuf_get_u64(r);
}

/*
 * Each loop is a function of its own, bench_*, that callgrind counts
 * alone: @put encodes into the reset buffer w; @get decodes w's message
 * with the cursor r and adds what it read (@got) to the sink.
 */
#define BENCH_PUT(name, put) \
	static __attribute__((noinline)) void bench_##name(struct ltt_wbuf *w, long n) \
	{ \
		for (long i = 0; i < n; i++) { \
			ltt_wbuf_reset(w); \
			put; \
		} \
	}
#define BENCH_GET(name, type, get, got) \
	static __attribute__((noinline)) void bench_##name(const struct ltt_wbuf *w, long n) \
	{ \
		type m = { 0 }; \
		struct ltt_rbuf r; \
\
		for (long i = 0; i < n; i++) { \
			ltt_rbuf_init(&r, w->data, w->len); \
			sink += (uint64_t)(get) + (got); \
		} \
	}

BENCH_PUT(put_relay_index_hand, hand_put_relay_index(w, &relay_index))
BENCH_PUT(put_relay_index, ltt_relay_put_index(w, &relay_index))
BENCH_PUT(put_channel_hand, hand_put_channel(w, &channel))
BENCH_PUT(put_channel, ltt_proto_put_channel(w, &channel, LTT_CLIENT_MINOR))
BENCH_GET(get_relay_index_hand, struct ltt_relay_index, hand_get_relay_index(&r, &m),
	  m.packet_seq_num)
BENCH_GET(get_relay_index, struct ltt_relay_index, ltt_relay_get_index(&r, &m),
	  m.packet_seq_num)
BENCH_GET(get_channel_hand, struct ltt_channel_desc,
	  (hand_get_channel(&r, &m), ltt_rbuf_end(&r)), m.attr.auto_reclaim_us)
BENCH_GET(get_channel, struct ltt_channel_desc,
	  (ltt_proto_get_channel(&r, &m, LTT_CLIENT_MINOR), ltt_rbuf_end(&r)),
	  m.attr.auto_reclaim_us)

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct ltt_wbuf w;

	if (n < 1) {
		fprintf(stderr, "usage: codec_bench [MESSAGES]\n");
		return 2;
	}
	ltt_wbuf_init(&w);
	bench_put_relay_index_hand(&w, n);
	bench_put_relay_index(&w, n);
	bench_get_relay_index_hand(&w, n);
	bench_get_relay_index(&w, n);
	bench_put_channel_hand(&w, n);
	bench_put_channel(&w, n);
	bench_get_channel_hand(&w, n);
	bench_get_channel(&w, n);
	if (w.err || sink == 0) {
		fprintf(stderr, "codec_bench: a message was refused\n");
		return 1;
	}
	ltt_wbuf_fini(&w);
	return 0;
}
