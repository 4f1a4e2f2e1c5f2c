// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_relay.c - the relay protocol (common/proto/relay-proto.h): the control
 * and data messages a relay daemon decodes from any consumer on the
 * network, and the replies the consumer decodes from the relay.
 *
 * Input: byte 0 selects the decoder, the rest is its payload.  Strings
 * travel in NUL-padded arrays whose padding the relay ignores, so these
 * codecs are not canonical: an accepted message must still re-encode to
 * one that decodes the same.
 */
#include <string.h>

#include "common/proto/relay-proto.h"
#include "fuzz.h"

FUZZ_CODEC(ctrl_hdr, struct ltt_relay_ctrl_hdr, ltt_relay_get_ctrl_hdr, ltt_relay_put_ctrl_hdr,
	   true);
FUZZ_CODEC(data_hdr, struct ltt_relay_data_hdr, ltt_relay_get_data_hdr, ltt_relay_put_data_hdr,
	   true);
FUZZ_CODEC(version, struct ltt_relay_version, ltt_relay_get_version, ltt_relay_put_version,
	   true);
/* CREATE_SESSION as ltt-relayd reads it at the minor it speaks (2.15's trace format in) */
static int create_session_get_now(struct ltt_rbuf *r, struct ltt_relay_create_session *m)
{
	return ltt_relay_get_create_session(r, m, LTT_RELAY_MINOR);
}

static void create_session_put_now(struct ltt_wbuf *w, const struct ltt_relay_create_session *m)
{
	ltt_relay_put_create_session(w, m, LTT_RELAY_MINOR);
}

FUZZ_CODEC(create_session, struct ltt_relay_create_session, create_session_get_now,
	   create_session_put_now, false);
FUZZ_CODEC(create_session_reply, struct ltt_relay_create_session_reply,
	   ltt_relay_get_create_session_reply, ltt_relay_put_create_session_reply, false);
FUZZ_CODEC(add_stream, struct ltt_relay_add_stream, ltt_relay_get_add_stream,
	   ltt_relay_put_add_stream, false);
FUZZ_CODEC(add_stream_reply, struct ltt_relay_add_stream_reply, ltt_relay_get_add_stream_reply,
	   ltt_relay_put_add_stream_reply, true);
FUZZ_CODEC(metadata_hdr, struct ltt_relay_metadata_hdr, ltt_relay_get_metadata_hdr,
	   ltt_relay_put_metadata_hdr, true);
FUZZ_CODEC(index_entry, struct ltt_relay_index, ltt_relay_get_index, ltt_relay_put_index, true);
FUZZ_CODEC(stream_seq, struct ltt_relay_stream_seq, ltt_relay_get_stream_seq,
	   ltt_relay_put_stream_seq, true);
FUZZ_CODEC_VAL(u64_msg, uint64_t, ltt_relay_get_u64_msg, ltt_relay_put_u64_msg, true);
FUZZ_CODEC_VAL(ret, uint32_t, ltt_relay_get_ret, ltt_relay_put_ret, true);
FUZZ_CODEC(get_configuration_reply, struct ltt_relay_get_configuration_reply,
	   ltt_relay_get_get_configuration_reply, ltt_relay_put_get_configuration_reply, true);
FUZZ_CODEC(create_chunk, struct ltt_relay_create_chunk, ltt_relay_get_create_chunk,
	   ltt_relay_put_create_chunk, false);
FUZZ_CODEC(close_chunk, struct ltt_relay_close_chunk, ltt_relay_get_close_chunk,
	   ltt_relay_put_close_chunk, false);
FUZZ_CODEC(close_chunk_reply, struct ltt_relay_close_chunk_reply,
	   ltt_relay_get_close_chunk_reply, ltt_relay_put_close_chunk_reply, false);

static const struct ltt_fuzz_codec *const codecs[] = {
	&ctrl_hdr, &data_hdr, &version, &create_session, &create_session_reply, &add_stream,
	&add_stream_reply, &metadata_hdr, &index_entry, &stream_seq, &u64_msg, &ret,
	&get_configuration_reply, &create_chunk, &close_chunk, &close_chunk_reply,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t code;

	ltt_fuzz_codec_pick(codecs, FUZZ_ARRAY_SIZE(codecs), data, size);
	/* every reply code has a sentence */
	if (size >= 5) {
		memcpy(&code, data + 1, 4);
		FUZZ_CHECK(ltt_relay_ret_str(code) != NULL);
	}
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_relay_ctrl_hdr ch = { .data_size = 80, .cmd = LTT_RELAY_SEND_INDEX };
	struct ltt_relay_data_hdr dh = { .stream_handle = 3, .net_seq_num = 17, .data_size = 4096,
					 .padding_size = 0 };
	struct ltt_relay_version v = { .major = LTT_RELAY_MAJOR, .minor = LTT_RELAY_MINOR };
	struct ltt_relay_create_session cs = { .session_name = "s1", .hostname = "host-1",
					       .base_path = "", .live_timer_us = 1000000,
					       .sessiond_uuid = { 1, 2, 3 }, .session_id = 4,
					       .creation_time = 1714557600, .trace_format = 1 };
	struct ltt_relay_create_session_reply csr = { .relay_session_id = 9,
						      .ret_code = LTT_RELAY_OK,
						      .output_path = "host-1/s1-20240501-120000" };
	struct ltt_relay_add_stream as = { .channel_name = "channel0_1",
					   .pathname = "s1-20240501-120000/ust/uid/1000/64-bit",
					   .tracefile_size = 1 << 20, .tracefile_count = 2 };
	struct ltt_relay_add_stream_reply asr = { .stream_handle = 3, .ret_code = LTT_RELAY_OK };
	struct ltt_relay_metadata_hdr mh = { .stream_handle = 2, .padding_size = 100 };
	struct ltt_relay_index ix = { .stream_handle = 3, .net_seq_num = 17, .packet_size = 32768,
				      .content_size = 20000, .timestamp_begin = 1000,
				      .timestamp_end = 2000, .events_discarded = 1,
				      .stream_id = 1, .stream_instance_id = 1,
				      .packet_seq_num = 17 };
	struct ltt_relay_stream_seq ss = { .stream_handle = 3, .last_net_seq_num = 17 };
	uint64_t id = 9;
	uint32_t rc = LTT_RELAY_ERR_NOENT;
	struct ltt_relay_get_configuration_reply gc = { .ret_code = LTT_RELAY_OK,
							.flags = LTT_RELAY_CONFIG_LTT };
	struct ltt_relay_create_chunk cc = { .chunk_id = 1, .creation_time = 1714557600,
					     .name = "c1" };
	struct ltt_relay_close_chunk cl = { .chunk_id = 1, .close_time = 1714557601,
					    .has_command = true, .command = 1 };
	struct ltt_relay_close_chunk_reply clr = { .ret_code = LTT_RELAY_OK,
						   .path = "host-1/s1-20240501-120000" };

	ltt_fuzz_codec_seed(emit, &ctrl_hdr, 0, 0, &ch);
	ltt_fuzz_codec_seed(emit, &data_hdr, 1, 0, &dh);
	ltt_fuzz_codec_seed(emit, &version, 2, 0, &v);
	ltt_fuzz_codec_seed(emit, &create_session, 3, 0, &cs);
	ltt_fuzz_codec_seed(emit, &create_session_reply, 4, 0, &csr);
	ltt_fuzz_codec_seed(emit, &add_stream, 5, 0, &as);
	ltt_fuzz_codec_seed(emit, &add_stream_reply, 6, 0, &asr);
	ltt_fuzz_codec_seed(emit, &metadata_hdr, 7, 0, &mh);
	ltt_fuzz_codec_seed(emit, &index_entry, 8, 0, &ix);
	ltt_fuzz_codec_seed(emit, &stream_seq, 9, 0, &ss);
	ltt_fuzz_codec_seed(emit, &u64_msg, 10, 0, &id);
	ltt_fuzz_codec_seed(emit, &ret, 11, 0, &rc);
	ltt_fuzz_codec_seed(emit, &get_configuration_reply, 12, 0, &gc);
	ltt_fuzz_codec_seed(emit, &create_chunk, 13, 0, &cc);
	ltt_fuzz_codec_seed(emit, &close_chunk, 14, 0, &cl);
	ltt_fuzz_codec_seed(emit, &close_chunk_reply, 15, 0, &clr);
}
