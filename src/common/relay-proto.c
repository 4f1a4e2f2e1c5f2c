// SPDX-License-Identifier: LGPL-2.1-only
/*
 * relay-proto.c - encoders and decoders of the consumer -> ltt-relayd
 * messages (relay-proto.h): LTTng's relay protocol 2.11, big-endian and
 * packed.
 *
 * Encoders check what they are given against the limits of the header
 * and set the buffer's error to -EINVAL, writing nothing, when a string
 * would not fit: a relay would refuse the message anyway.  Decoders take
 * a cursor over exactly one payload (or one header) and accept it only
 * when every byte is accounted for.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "common/relay-proto.h"

static void put_fail(struct ltt_wbuf *w, int err)
{
	if (!w->err)
		w->err = err;
}

/* strlen(@s) + 1 if that is at most @max, else 0. */
static uint32_t wire_len(const char *s, size_t max)
{
	size_t len = strnlen(s, max);

	return len < max ? (uint32_t)len + 1 : 0;
}

/*
 * A string of @len bytes (its NUL counted) from @r into @dst: exactly one
 * NUL, the last byte.  @len 0 is accepted as "" only when @allow_empty
 * (LTTng sends an unset base path that way).
 */
static void get_counted_str(struct ltt_rbuf *r, uint32_t len, char *dst, bool allow_empty)
{
	const char *p;

	dst[0] = '\0';
	if (len == 0) {
		if (!allow_empty)
			ltt_rbuf_fail(r);
		return;
	}
	p = ltt_rbuf_get_bytes(r, len);
	if (!p)
		return;
	if (p[len - 1] != '\0' || memchr(p, '\0', len - 1)) {
		ltt_rbuf_fail(r);
		return;
	}
	memcpy(dst, p, len);
}

/* Whether exactly @want bytes are left in @r. */
static bool left_exactly(const struct ltt_rbuf *r, uint64_t want)
{
	return !r->err && r->len - r->pos == want;
}

void ltt_relay_put_ctrl_hdr(struct ltt_wbuf *w, const struct ltt_relay_ctrl_hdr *h)
{
	ltt_wbuf_put_be64(w, h->circuit_id);
	ltt_wbuf_put_be64(w, h->data_size);
	ltt_wbuf_put_be32(w, h->cmd);
	ltt_wbuf_put_be32(w, h->cmd_version);
}

int ltt_relay_get_ctrl_hdr(struct ltt_rbuf *r, struct ltt_relay_ctrl_hdr *ret)
{
	ret->circuit_id = ltt_rbuf_get_be64(r);
	ret->data_size = ltt_rbuf_get_be64(r);
	ret->cmd = ltt_rbuf_get_be32(r);
	ret->cmd_version = ltt_rbuf_get_be32(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_data_hdr(struct ltt_wbuf *w, const struct ltt_relay_data_hdr *h)
{
	ltt_wbuf_put_be64(w, h->circuit_id);
	ltt_wbuf_put_be64(w, h->stream_handle);
	ltt_wbuf_put_be64(w, h->net_seq_num);
	ltt_wbuf_put_be32(w, h->data_size);
	ltt_wbuf_put_be32(w, h->padding_size);
}

int ltt_relay_get_data_hdr(struct ltt_rbuf *r, struct ltt_relay_data_hdr *ret)
{
	ret->circuit_id = ltt_rbuf_get_be64(r);
	ret->stream_handle = ltt_rbuf_get_be64(r);
	ret->net_seq_num = ltt_rbuf_get_be64(r);
	ret->data_size = ltt_rbuf_get_be32(r);
	ret->padding_size = ltt_rbuf_get_be32(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_version(struct ltt_wbuf *w, const struct ltt_relay_version *m)
{
	ltt_wbuf_put_be32(w, m->major);
	ltt_wbuf_put_be32(w, m->minor);
}

int ltt_relay_get_version(struct ltt_rbuf *r, struct ltt_relay_version *ret)
{
	ret->major = ltt_rbuf_get_be32(r);
	ret->minor = ltt_rbuf_get_be32(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_create_session(struct ltt_wbuf *w, const struct ltt_relay_create_session *m)
{
	uint32_t name_len = wire_len(m->session_name, LTT_RELAY_NAME_MAX);
	uint32_t host_len = wire_len(m->hostname, LTT_RELAY_HOST_NAME_MAX);
	uint32_t base_len = wire_len(m->base_path, LTT_RELAY_PATH_MAX);

	if (!name_len || !host_len || !base_len) {
		put_fail(w, -EINVAL);
		return;
	}
	ltt_wbuf_put_be32(w, name_len);
	ltt_wbuf_put_be32(w, host_len);
	ltt_wbuf_put_be32(w, base_len);
	ltt_wbuf_put_be32(w, m->live_timer_us);
	ltt_wbuf_put_u8(w, m->snapshot ? 1 : 0);
	ltt_wbuf_put_u8(w, m->session_name_contains_creation_time ? 1 : 0);
	ltt_wbuf_put_bytes(w, m->sessiond_uuid, sizeof(m->sessiond_uuid));
	ltt_wbuf_put_be64(w, m->session_id);
	ltt_wbuf_put_be64(w, m->creation_time);
	ltt_wbuf_put_u8(w, m->has_chunk_id ? 1 : 0);
	ltt_wbuf_put_be64(w, m->has_chunk_id ? m->chunk_id : 0);
	ltt_wbuf_put_bytes(w, m->session_name, name_len);
	ltt_wbuf_put_bytes(w, m->hostname, host_len);
	ltt_wbuf_put_bytes(w, m->base_path, base_len);
}

int ltt_relay_get_create_session(struct ltt_rbuf *r, struct ltt_relay_create_session *ret)
{
	uint32_t name_len = ltt_rbuf_get_be32(r);
	uint32_t host_len = ltt_rbuf_get_be32(r);
	uint32_t base_len = ltt_rbuf_get_be32(r);
	const void *uuid;

	ret->live_timer_us = ltt_rbuf_get_be32(r);
	ret->snapshot = (uint8_t)ltt_rbuf_get_bool(r);
	ret->session_name_contains_creation_time = (uint8_t)ltt_rbuf_get_bool(r);
	uuid = ltt_rbuf_get_bytes(r, sizeof(ret->sessiond_uuid));
	if (uuid)
		memcpy(ret->sessiond_uuid, uuid, sizeof(ret->sessiond_uuid));
	ret->session_id = ltt_rbuf_get_be64(r);
	ret->creation_time = ltt_rbuf_get_be64(r);
	ret->has_chunk_id = (uint8_t)ltt_rbuf_get_bool(r);
	ret->chunk_id = ltt_rbuf_get_be64(r);
	if (name_len > LTT_RELAY_NAME_MAX || host_len > LTT_RELAY_HOST_NAME_MAX ||
	    base_len > LTT_RELAY_PATH_MAX ||
	    !left_exactly(r, (uint64_t)name_len + host_len + base_len))
		return -EPROTO;
	get_counted_str(r, name_len, ret->session_name, false);
	get_counted_str(r, host_len, ret->hostname, false);
	get_counted_str(r, base_len, ret->base_path, true);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_create_session_reply(struct ltt_wbuf *w,
					const struct ltt_relay_create_session_reply *m)
{
	uint32_t path_len = wire_len(m->output_path, LTT_RELAY_PATH_MAX);

	if (!path_len) {
		put_fail(w, -EINVAL);
		return;
	}
	ltt_wbuf_put_be64(w, m->relay_session_id);
	ltt_wbuf_put_be32(w, m->ret_code);
	ltt_wbuf_put_be32(w, path_len);
	ltt_wbuf_put_bytes(w, m->output_path, path_len);
}

int ltt_relay_get_create_session_reply(struct ltt_rbuf *r,
				       struct ltt_relay_create_session_reply *ret)
{
	uint32_t path_len;

	ret->relay_session_id = ltt_rbuf_get_be64(r);
	ret->ret_code = ltt_rbuf_get_be32(r);
	path_len = ltt_rbuf_get_be32(r);
	if (path_len > LTT_RELAY_PATH_MAX || !left_exactly(r, path_len))
		return -EPROTO;
	/* An LTTng relay that failed may send no path at all. */
	get_counted_str(r, path_len, ret->output_path, true);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_add_stream(struct ltt_wbuf *w, const struct ltt_relay_add_stream *m)
{
	uint32_t chan_len = wire_len(m->channel_name, LTT_RELAY_NAME_MAX);
	uint32_t path_len = wire_len(m->pathname, LTT_RELAY_PATH_MAX);

	if (!chan_len || !path_len) {
		put_fail(w, -EINVAL);
		return;
	}
	ltt_wbuf_put_be32(w, chan_len);
	ltt_wbuf_put_be32(w, path_len);
	ltt_wbuf_put_be64(w, m->tracefile_size);
	ltt_wbuf_put_be64(w, m->tracefile_count);
	ltt_wbuf_put_be64(w, m->trace_chunk_id);
	ltt_wbuf_put_bytes(w, m->channel_name, chan_len);
	ltt_wbuf_put_bytes(w, m->pathname, path_len);
}

int ltt_relay_get_add_stream(struct ltt_rbuf *r, struct ltt_relay_add_stream *ret)
{
	uint32_t chan_len = ltt_rbuf_get_be32(r);
	uint32_t path_len = ltt_rbuf_get_be32(r);

	ret->tracefile_size = ltt_rbuf_get_be64(r);
	ret->tracefile_count = ltt_rbuf_get_be64(r);
	ret->trace_chunk_id = ltt_rbuf_get_be64(r);
	if (chan_len > LTT_RELAY_NAME_MAX || path_len > LTT_RELAY_PATH_MAX ||
	    !left_exactly(r, (uint64_t)chan_len + path_len))
		return -EPROTO;
	get_counted_str(r, chan_len, ret->channel_name, false);
	get_counted_str(r, path_len, ret->pathname, false);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_archive_chunk(struct ltt_wbuf *w, const struct ltt_relay_archive_chunk *m)
{
	uint32_t from_len = wire_len(m->from, LTT_RELAY_PATH_MAX);
	uint32_t to_len = wire_len(m->to, LTT_RELAY_PATH_MAX);

	if (!from_len || !to_len) {
		put_fail(w, -EINVAL);
		return;
	}
	ltt_wbuf_put_be32(w, from_len);
	ltt_wbuf_put_be32(w, to_len);
	ltt_wbuf_put_bytes(w, m->from, from_len);
	ltt_wbuf_put_bytes(w, m->to, to_len);
}

int ltt_relay_get_archive_chunk(struct ltt_rbuf *r, struct ltt_relay_archive_chunk *ret)
{
	uint32_t from_len = ltt_rbuf_get_be32(r);
	uint32_t to_len = ltt_rbuf_get_be32(r);

	if (from_len > LTT_RELAY_PATH_MAX || to_len > LTT_RELAY_PATH_MAX ||
	    !left_exactly(r, (uint64_t)from_len + to_len))
		return -EPROTO;
	get_counted_str(r, from_len, ret->from, false);
	get_counted_str(r, to_len, ret->to, false);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_add_stream_reply(struct ltt_wbuf *w, const struct ltt_relay_add_stream_reply *m)
{
	ltt_wbuf_put_be64(w, m->stream_handle);
	ltt_wbuf_put_be32(w, m->ret_code);
}

int ltt_relay_get_add_stream_reply(struct ltt_rbuf *r, struct ltt_relay_add_stream_reply *ret)
{
	ret->stream_handle = ltt_rbuf_get_be64(r);
	ret->ret_code = ltt_rbuf_get_be32(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_metadata_hdr(struct ltt_wbuf *w, const struct ltt_relay_metadata_hdr *m)
{
	ltt_wbuf_put_be64(w, m->stream_handle);
	ltt_wbuf_put_be32(w, m->padding_size);
}

/*
 * Only the 12 bytes: the cursor stays on the metadata, and the caller
 * checks padding_size against what follows (it may hold the header alone).
 */
int ltt_relay_get_metadata_hdr(struct ltt_rbuf *r, struct ltt_relay_metadata_hdr *ret)
{
	ret->stream_handle = ltt_rbuf_get_be64(r);
	ret->padding_size = ltt_rbuf_get_be32(r);
	return r->err;
}

void ltt_relay_put_index(struct ltt_wbuf *w, const struct ltt_relay_index *m)
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

int ltt_relay_get_index(struct ltt_rbuf *r, struct ltt_relay_index *ret)
{
	ret->stream_handle = ltt_rbuf_get_be64(r);
	ret->net_seq_num = ltt_rbuf_get_be64(r);
	ret->packet_size = ltt_rbuf_get_be64(r);
	ret->content_size = ltt_rbuf_get_be64(r);
	ret->timestamp_begin = ltt_rbuf_get_be64(r);
	ret->timestamp_end = ltt_rbuf_get_be64(r);
	ret->events_discarded = ltt_rbuf_get_be64(r);
	ret->stream_id = ltt_rbuf_get_be64(r);
	ret->stream_instance_id = ltt_rbuf_get_be64(r);
	ret->packet_seq_num = ltt_rbuf_get_be64(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_reset_metadata(struct ltt_wbuf *w, const struct ltt_relay_reset_metadata *m)
{
	ltt_wbuf_put_be64(w, m->stream_handle);
	ltt_wbuf_put_be64(w, m->version);
	if (m->has_rewrite_size)
		ltt_wbuf_put_be64(w, m->rewrite_size);
}

int ltt_relay_get_reset_metadata(struct ltt_rbuf *r, struct ltt_relay_reset_metadata *ret)
{
	ret->stream_handle = ltt_rbuf_get_be64(r);
	ret->version = ltt_rbuf_get_be64(r);
	ret->has_rewrite_size = ltt_rbuf_end(r) != 0;	/* bytes left: the 24-byte form */
	ret->rewrite_size = ret->has_rewrite_size ? ltt_rbuf_get_be64(r) : 0;
	return ltt_rbuf_end(r);
}

void ltt_relay_put_stream_seq(struct ltt_wbuf *w, const struct ltt_relay_stream_seq *m)
{
	ltt_wbuf_put_be64(w, m->stream_handle);
	ltt_wbuf_put_be64(w, m->last_net_seq_num);
}

int ltt_relay_get_stream_seq(struct ltt_rbuf *r, struct ltt_relay_stream_seq *ret)
{
	ret->stream_handle = ltt_rbuf_get_be64(r);
	ret->last_net_seq_num = ltt_rbuf_get_be64(r);
	return ltt_rbuf_end(r);
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

void ltt_relay_put_create_chunk(struct ltt_wbuf *w, const struct ltt_relay_create_chunk *m)
{
	uint32_t name_len = m->name[0] ? wire_len(m->name, LTT_RELAY_NAME_MAX) : 0;

	if (m->name[0] && !name_len) {
		put_fail(w, -EINVAL);
		return;
	}
	ltt_wbuf_put_be64(w, m->chunk_id);
	ltt_wbuf_put_be64(w, m->creation_time);
	ltt_wbuf_put_be32(w, name_len);
	ltt_wbuf_put_bytes(w, m->name, name_len);
}

int ltt_relay_get_create_chunk(struct ltt_rbuf *r, struct ltt_relay_create_chunk *ret)
{
	uint32_t name_len;

	ret->chunk_id = ltt_rbuf_get_be64(r);
	ret->creation_time = ltt_rbuf_get_be64(r);
	name_len = ltt_rbuf_get_be32(r);
	if (name_len > LTT_RELAY_NAME_MAX || !left_exactly(r, name_len))
		return -EPROTO;
	get_counted_str(r, name_len, ret->name, true);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_close_chunk(struct ltt_wbuf *w, const struct ltt_relay_close_chunk *m)
{
	ltt_wbuf_put_be64(w, m->chunk_id);
	ltt_wbuf_put_be64(w, m->close_time);
	ltt_wbuf_put_u8(w, m->has_command ? 1 : 0);
	ltt_wbuf_put_be32(w, m->has_command ? m->command : 0);
}

int ltt_relay_get_close_chunk(struct ltt_rbuf *r, struct ltt_relay_close_chunk *ret)
{
	ret->chunk_id = ltt_rbuf_get_be64(r);
	ret->close_time = ltt_rbuf_get_be64(r);
	ret->has_command = ltt_rbuf_get_bool(r);
	ret->command = ltt_rbuf_get_be32(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_close_chunk_reply(struct ltt_wbuf *w,
				     const struct ltt_relay_close_chunk_reply *m)
{
	uint32_t path_len = m->path[0] ? wire_len(m->path, LTT_RELAY_PATH_MAX) : 0;

	if (m->path[0] && !path_len) {
		put_fail(w, -EINVAL);
		return;
	}
	ltt_wbuf_put_be32(w, m->ret_code);
	ltt_wbuf_put_be32(w, path_len);
	ltt_wbuf_put_bytes(w, m->path, path_len);
}

int ltt_relay_get_close_chunk_reply(struct ltt_rbuf *r, struct ltt_relay_close_chunk_reply *ret)
{
	uint32_t path_len;

	ret->ret_code = ltt_rbuf_get_be32(r);
	path_len = ltt_rbuf_get_be32(r);
	if (path_len > LTT_RELAY_PATH_MAX || !left_exactly(r, path_len))
		return -EPROTO;
	get_counted_str(r, path_len, ret->path, true);
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

void ltt_relay_put_get_configuration_reply(struct ltt_wbuf *w,
					   const struct ltt_relay_get_configuration_reply *m)
{
	ltt_wbuf_put_be32(w, m->ret_code);
	ltt_wbuf_put_be64(w, m->flags);
}

int ltt_relay_get_get_configuration_reply(struct ltt_rbuf *r,
					  struct ltt_relay_get_configuration_reply *ret)
{
	ret->ret_code = ltt_rbuf_get_be32(r);
	ret->flags = ltt_rbuf_get_be64(r);
	return ltt_rbuf_end(r);
}

void ltt_relay_put_chunk_exists_reply(struct ltt_wbuf *w,
				      const struct ltt_relay_chunk_exists_reply *m)
{
	ltt_wbuf_put_be32(w, m->ret_code);
	ltt_wbuf_put_u8(w, m->exists ? 1 : 0);
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
