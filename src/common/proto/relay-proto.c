// SPDX-License-Identifier: LGPL-2.1-only
/*
 * relay-proto.c - encoders and decoders of the consumer -> ltt-relayd
 * messages (relay-proto.h): LTTng's relay protocol 2.11, big-endian and
 * packed.
 *
 * Each message is a field table (codec.h).  Encoders set the buffer's
 * error to -EINVAL, writing nothing, when a string would not fit: a relay
 * would refuse the message anyway.  Decoders take a cursor over exactly
 * one payload (or one header) and accept it only when every byte is
 * accounted for (codec.h's rule), but SEND_METADATA's header, which its
 * metadata follows, and ROTATE_STREAMS, whose padding LTTng's compilers
 * chose, read by hand.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "common/proto/relay-proto.h"

#define LTT_MSG struct ltt_relay_ctrl_hdr
LTT_CODEC(relay_ctrl_hdr, LTT_CODEC_BE,
	  LTT_ROW_U64(circuit_id), LTT_ROW_U64(data_size), LTT_ROW_U32(cmd),
	  LTT_ROW_U32(cmd_version));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_data_hdr
LTT_CODEC(relay_data_hdr, LTT_CODEC_BE,
	  LTT_ROW_U64(circuit_id), LTT_ROW_U64(stream_handle), LTT_ROW_U64(net_seq_num),
	  LTT_ROW_U32(data_size), LTT_ROW_U32(padding_size));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_version
LTT_CODEC(relay_version, LTT_CODEC_BE, LTT_ROW_U32(major), LTT_ROW_U32(minor));
#undef LTT_MSG

/* LTTng sends an unset base path with length 0. */
#define LTT_MSG struct ltt_relay_create_session
LTT_CODEC(relay_create_session, LTT_CODEC_BE,
	  LTT_ROW_STRLEN(session_name, 0), LTT_ROW_STRLEN(hostname, 0),
	  LTT_ROW_STRLEN(base_path, LTT_ROW_EMPTY_OK), LTT_ROW_U32(live_timer_us),
	  LTT_ROW_BOOL(snapshot), LTT_ROW_BOOL(session_name_contains_creation_time),
	  LTT_ROW_BYTES(sessiond_uuid), LTT_ROW_U64(session_id), LTT_ROW_U64(creation_time),
	  LTT_ROW_BOOL(has_chunk_id), LTT_ROW(chunk_id, UINT, 8, LTT_ROW_IF_PREV),
	  LTT_ROW_SINCE(LTT_RELAY_MINOR_TRACE_FORMAT), LTT_ROW_U32(trace_format), LTT_ROW_SINCE(0),
	  LTT_ROW_STRBODY(session_name), LTT_ROW_STRBODY(hostname), LTT_ROW_STRBODY(base_path));
#undef LTT_MSG

/* An LTTng relay that failed may send no path at all. */
#define LTT_MSG struct ltt_relay_create_session_reply
LTT_CODEC(relay_create_session_reply, LTT_CODEC_BE,
	  LTT_ROW_U64(relay_session_id), LTT_ROW_U32(ret_code),
	  LTT_ROW_STRLEN(output_path, LTT_ROW_EMPTY_OK), LTT_ROW_STRBODY(output_path));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_add_stream
LTT_CODEC(relay_add_stream, LTT_CODEC_BE,
	  LTT_ROW_STRLEN(channel_name, 0), LTT_ROW_STRLEN(pathname, 0),
	  LTT_ROW_U64(tracefile_size), LTT_ROW_U64(tracefile_count),
	  LTT_ROW_U64(trace_chunk_id), LTT_ROW_STRBODY(channel_name), LTT_ROW_STRBODY(pathname));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_archive_chunk
LTT_CODEC(relay_archive_chunk, LTT_CODEC_BE,
	  LTT_ROW_STRLEN(from, 0), LTT_ROW_STRLEN(to, 0), LTT_ROW_STRBODY(from),
	  LTT_ROW_STRBODY(to));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_reconcile_stream
LTT_CODEC(relay_reconcile_stream, LTT_CODEC_BE,
	  LTT_ROW_U64(first_packet_seq), LTT_ROW_BOOL(rotating),
	  LTT_ROW_STRLEN(session_path, 0), LTT_ROW_STRLEN(pathname, LTT_ROW_EMPTY_ZERO),
	  LTT_ROW_STRLEN(channel_name, 0), LTT_ROW_STRBODY(session_path),
	  LTT_ROW_STRBODY(pathname), LTT_ROW_STRBODY(channel_name));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_reconcile_reply
LTT_CODEC(relay_reconcile_reply, LTT_CODEC_BE, LTT_ROW_U32(ret_code), LTT_ROW_U32(count));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_add_stream_reply
LTT_CODEC(relay_add_stream_reply, LTT_CODEC_BE,
	  LTT_ROW_U64(stream_handle), LTT_ROW_U32(ret_code));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_metadata_hdr
LTT_CODEC(relay_metadata_hdr, LTT_CODEC_BE,
	  LTT_ROW_U64(stream_handle), LTT_ROW_U32(padding_size));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_index
LTT_CODEC(relay_index, LTT_CODEC_BE,
	  LTT_ROW_U64(stream_handle), LTT_ROW_U64(net_seq_num), LTT_ROW_U64(packet_size),
	  LTT_ROW_U64(content_size), LTT_ROW_U64(timestamp_begin), LTT_ROW_U64(timestamp_end),
	  LTT_ROW_U64(events_discarded), LTT_ROW_U64(stream_id), LTT_ROW_U64(stream_instance_id),
	  LTT_ROW_U64(packet_seq_num));
#undef LTT_MSG

/* 16 bytes from LTTng, 24 with ltt's rewrite_size. */
#define LTT_MSG struct ltt_relay_reset_metadata
LTT_CODEC(relay_reset_metadata, LTT_CODEC_BE,
	  LTT_ROW_U64(stream_handle), LTT_ROW_U64(version), LTT_ROW_TAIL(has_rewrite_size),
	  LTT_ROW_U64(rewrite_size));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_stream_seq
LTT_CODEC(relay_stream_seq, LTT_CODEC_BE,
	  LTT_ROW_U64(stream_handle), LTT_ROW_U64(last_net_seq_num));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_create_chunk
LTT_CODEC(relay_create_chunk, LTT_CODEC_BE,
	  LTT_ROW_U64(chunk_id), LTT_ROW_U64(creation_time),
	  LTT_ROW_STRLEN(name, LTT_ROW_EMPTY_ZERO), LTT_ROW_STRBODY(name));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_close_chunk
LTT_CODEC(relay_close_chunk, LTT_CODEC_BE,
	  LTT_ROW_U64(chunk_id), LTT_ROW_U64(close_time), LTT_ROW_BOOL(has_command),
	  LTT_ROW(command, UINT, 4, LTT_ROW_IF_PREV));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_close_chunk_reply
LTT_CODEC(relay_close_chunk_reply, LTT_CODEC_BE,
	  LTT_ROW_U32(ret_code), LTT_ROW_STRLEN(path, LTT_ROW_EMPTY_ZERO), LTT_ROW_STRBODY(path));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_get_configuration_reply
LTT_CODEC(relay_get_configuration_reply, LTT_CODEC_BE,
	  LTT_ROW_U32(ret_code), LTT_ROW_U64(flags));
#undef LTT_MSG

#define LTT_MSG struct ltt_relay_chunk_exists_reply
LTT_CODEC(relay_chunk_exists_reply, LTT_CODEC_BE, LTT_ROW_U32(ret_code), LTT_ROW_BOOL(exists));
#undef LTT_MSG

/* The put/get pair of struct ltt_relay_@name: the decoder takes the whole message. */
#define RELAY_PUT(name) \
	void ltt_relay_put_##name(struct ltt_wbuf *w, const struct ltt_relay_##name *m) \
	{ \
		ltt_codec_put(w, &relay_##name, m); \
	}
#define RELAY_PAIR(name) \
	RELAY_PUT(name) \
	int ltt_relay_get_##name(struct ltt_rbuf *r, struct ltt_relay_##name *ret) \
	{ \
		return ltt_codec_get_msg(r, &relay_##name, ret); \
	}

RELAY_PAIR(ctrl_hdr)
RELAY_PAIR(data_hdr)
RELAY_PAIR(version)

void ltt_relay_put_create_session(struct ltt_wbuf *w, const struct ltt_relay_create_session *m,
				  uint32_t minor)
{
	ltt_codec_put_v(w, &relay_create_session, m, minor);
}

int ltt_relay_get_create_session(struct ltt_rbuf *r, struct ltt_relay_create_session *ret,
				 uint32_t minor)
{
	return ltt_codec_get_msg_v(r, &relay_create_session, ret, minor);
}

RELAY_PAIR(create_session_reply)
RELAY_PAIR(add_stream)
RELAY_PAIR(archive_chunk)
RELAY_PAIR(add_stream_reply)
RELAY_PAIR(reconcile_stream)
RELAY_PAIR(reconcile_reply)
RELAY_PUT(metadata_hdr)
RELAY_PAIR(index)
RELAY_PAIR(reset_metadata)
RELAY_PAIR(stream_seq)
RELAY_PAIR(create_chunk)
RELAY_PAIR(close_chunk)
RELAY_PAIR(close_chunk_reply)
RELAY_PAIR(get_configuration_reply)
RELAY_PUT(chunk_exists_reply)

/*
 * Only the 12 bytes: the cursor stays on the metadata, and the caller
 * checks padding_size against what follows (it may hold the header alone).
 */
int ltt_relay_get_metadata_hdr(struct ltt_rbuf *r, struct ltt_relay_metadata_hdr *ret)
{
	return ltt_codec_get(r, &relay_metadata_hdr, ret);
}

void ltt_relay_put_u64_msg(struct ltt_wbuf *w, uint64_t v)
{
	ltt_wbuf_put_be64(w, v);
}

int ltt_relay_get_u64_msg(struct ltt_rbuf *r, uint64_t *ret)
{
	*ret = ltt_rbuf_get_be64(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_ret(struct ltt_wbuf *w, uint32_t ret_code)
{
	ltt_wbuf_put_be32(w, ret_code);
}

int ltt_relay_get_ret(struct ltt_rbuf *r, uint32_t *ret_code)
{
	*ret_code = ltt_rbuf_get_be32(r);
	return ltt_rbuf_end(r);
}

/* The optional's size in ROTATE_STREAMS's header: packed, 3 or 7 bytes of padding. */
static const size_t rotate_opt_sizes[] = { 9, 12, 16 };

int ltt_relay_get_rotate_streams(struct ltt_rbuf *r, struct ltt_relay_rotate_streams *ret)
{
	uint64_t left, positions;
	const uint8_t *opt;
	size_t i;

	ret->stream_count = ltt_rbuf_get_be32(r);
	if (r->err)
		return -EPROTO;
	left = r->len - r->pos;
	positions = (uint64_t)ret->stream_count * 16;
	for (i = 0; i < sizeof(rotate_opt_sizes) / sizeof(rotate_opt_sizes[0]); i++)
		if (left == rotate_opt_sizes[i] + positions)
			break;
	if (i == sizeof(rotate_opt_sizes) / sizeof(rotate_opt_sizes[0]))
		return -EPROTO;
	opt = ltt_rbuf_get_bytes(r, rotate_opt_sizes[i]);
	if (!opt || opt[0] > 1)
		return -EPROTO;
	ret->has_new_chunk = opt[0];
	ret->new_chunk_id = 0;
	for (size_t k = rotate_opt_sizes[i] - 8; k < rotate_opt_sizes[i]; k++)
		ret->new_chunk_id = ret->new_chunk_id << 8 | opt[k];
	return 0;
}

const char *ltt_relay_ret_str(uint32_t ret_code)
{
	switch (ret_code) {
	case LTT_RELAY_OK:
		return "success";
	case LTT_RELAY_ERR:
		return "the relay daemon failed to serve the request";
	case LTT_RELAY_ERR_UNSUPPORTED:
		return "the relay daemon does not support this command";
	case LTT_RELAY_ERR_NOENT:
		return "the relay daemon has no such session or stream";
	case LTT_RELAY_ERR_INVAL:
		return "the relay daemon refused a value (a name, path or size out of range)";
	case LTT_RELAY_ERR_IO:
		return "the relay daemon could not write the trace (see its log)";
	case LTT_RELAY_ERR_EXIST:
		return "the stream or trace already exists on the relay daemon";
	case LTT_RELAY_ERR_LTTNG_FATAL:
		return "the relay daemon (LTTng's) failed to serve the request (see its log)";
	case LTT_RELAY_ERR_LTTNG_NOMEM:
		return "the relay daemon (LTTng's) ran out of memory";
	case LTT_RELAY_ERR_LTTNG_INVALID:
		return "the relay daemon (LTTng's) refused a value";
	case LTT_RELAY_ERR_LTTNG_PROTOCOL:
		return "the relay daemon (LTTng's) saw a protocol error (see its log)";
	default:
		return "unknown reply code from the relay daemon";
	}
}
