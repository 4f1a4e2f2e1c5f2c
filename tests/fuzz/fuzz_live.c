// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_live.c - the live viewer protocol (common/proto/live-proto.h): the
 * requests a relay daemon decodes from any viewer on the network, and
 * the replies a viewer decodes.
 *
 * Input: byte 0 selects the decoder, the rest is its payload.  Strings
 * travel in NUL-padded arrays (not canonical, see fuzz_relay.c).
 */
#include <string.h>

#include "common/proto/live-proto.h"
#include "fuzz.h"

static int get_cmd_hdr(struct ltt_rbuf *r, struct ltt_live_cmd_hdr *m)
{
	int ret = ltt_live_get_cmd_hdr(r, m);

	/* the size table knows exactly the commands the name table does */
	if (!ret)
		FUZZ_CHECK((ltt_live_cmd_payload_size(m->cmd) >= 0) ==
			   (strcmp(ltt_live_cmd_name(m->cmd), "UNKNOWN") != 0));
	return ret;
}

FUZZ_CODEC(cmd_hdr, struct ltt_live_cmd_hdr, get_cmd_hdr, ltt_live_put_cmd_hdr, true);
FUZZ_CODEC(connect, struct ltt_live_connect, ltt_live_get_connect, ltt_live_put_connect, true);
FUZZ_CODEC(session, struct ltt_live_session, ltt_live_get_session, ltt_live_put_session, false);
FUZZ_CODEC(stream, struct ltt_live_stream, ltt_live_get_stream, ltt_live_put_stream, false);
FUZZ_CODEC(attach_req, struct ltt_live_attach_req, ltt_live_get_attach_req,
	   ltt_live_put_attach_req, true);
FUZZ_CODEC(status_count, struct ltt_live_status_count, ltt_live_get_status_count,
	   ltt_live_put_status_count, true);
FUZZ_CODEC(metadata_reply, struct ltt_live_metadata_reply, ltt_live_get_metadata_reply,
	   ltt_live_put_metadata_reply, true);
FUZZ_CODEC(index_entry, struct ltt_live_index, ltt_live_get_index, ltt_live_put_index, true);
FUZZ_CODEC(packet_req, struct ltt_live_packet_req, ltt_live_get_packet_req,
	   ltt_live_put_packet_req, true);
FUZZ_CODEC(packet_reply, struct ltt_live_packet_reply, ltt_live_get_packet_reply,
	   ltt_live_put_packet_reply, true);
FUZZ_CODEC_VAL(u64, uint64_t, ltt_live_get_u64, ltt_live_put_u64, true);
FUZZ_CODEC_VAL(u32, uint32_t, ltt_live_get_u32, ltt_live_put_u32, true);

static const struct ltt_fuzz_codec *const codecs[] = {
	&cmd_hdr, &connect, &session, &stream, &attach_req, &status_count, &metadata_reply,
	&index_entry, &packet_req, &packet_reply, &u64, &u32,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_fuzz_codec_pick(codecs, FUZZ_ARRAY_SIZE(codecs), data, size);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_live_cmd_hdr h = { .data_size = 20, .cmd = LTT_LIVE_ATTACH_SESSION };
	struct ltt_live_connect c = { .viewer_session_id = UINT64_MAX, .major = LTT_LIVE_MAJOR,
				      .minor = LTT_LIVE_MINOR_2_4, .type = LTT_LIVE_CLIENT_COMMAND };
	struct ltt_live_session s = { .id = 1, .live_timer_us = 1000000, .clients = 1,
				      .streams = 5, .hostname = "host-1", .session_name = "s1" };
	struct ltt_live_stream st = { .id = 3, .ctf_trace_id = 1, .metadata_flag = 0,
				      .path_name = "host-1/s1-20240501-120000/ust/uid/1000/64-bit",
				      .channel_name = "channel0_0" };
	struct ltt_live_attach_req a = { .session_id = 1, .seek = LTT_LIVE_SEEK_LAST };
	struct ltt_live_status_count sc = { .status = LTT_LIVE_ATTACH_OK, .count = 5 };
	struct ltt_live_metadata_reply mr = { .len = 4096, .status = LTT_LIVE_METADATA_OK };
	struct ltt_live_index ix = { .offset = 4096, .packet_size = 32768, .content_size = 20000,
				     .timestamp_begin = 10, .timestamp_end = 20, .stream_id = 1,
				     .status = LTT_LIVE_INDEX_OK,
				     .flags = LTT_LIVE_FLAG_NEW_METADATA };
	struct ltt_live_packet_req pq = { .stream_id = 3, .offset = 4096, .len = 4096 };
	struct ltt_live_packet_reply pr = { .status = LTT_LIVE_PACKET_OK, .len = 4096 };
	uint64_t v64 = 3;
	uint32_t v32 = 1;

	ltt_fuzz_codec_seed(emit, &cmd_hdr, 0, 0, &h);
	ltt_fuzz_codec_seed(emit, &connect, 1, 0, &c);
	ltt_fuzz_codec_seed(emit, &session, 2, 0, &s);
	ltt_fuzz_codec_seed(emit, &stream, 3, 0, &st);
	ltt_fuzz_codec_seed(emit, &attach_req, 4, 0, &a);
	ltt_fuzz_codec_seed(emit, &status_count, 5, 0, &sc);
	ltt_fuzz_codec_seed(emit, &metadata_reply, 6, 0, &mr);
	ltt_fuzz_codec_seed(emit, &index_entry, 7, 0, &ix);
	ltt_fuzz_codec_seed(emit, &packet_req, 8, 0, &pq);
	ltt_fuzz_codec_seed(emit, &packet_reply, 9, 0, &pr);
	ltt_fuzz_codec_seed(emit, &u64, 10, 0, &v64);
	ltt_fuzz_codec_seed(emit, &u32, 11, 0, &v32);
}
