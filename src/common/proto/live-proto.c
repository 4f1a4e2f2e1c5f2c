// SPDX-License-Identifier: LGPL-2.1-only
/*
 * live-proto.c - encoders and decoders of the live viewer protocol
 * (see live-proto.h): fixed layouts, big-endian, each a field table.
 */
#include <errno.h>
#include <string.h>

#include "common/proto/live-proto.h"

/*
 * The layouts, one table per message (codec.h).  The decoders read one
 * part of a request or reply at the cursor: the relay checks that a
 * request's payload was read whole (live.c), a viewer that a reply's
 * entries end with it.
 */
#define LTT_MSG struct ltt_live_cmd_hdr
LTT_CODEC(live_cmd_hdr, LTT_CODEC_BE,
	  LTT_ROW_U64(data_size), LTT_ROW_U32(cmd), LTT_ROW_U32(cmd_version));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_connect
LTT_CODEC(live_connect, LTT_CODEC_BE,
	  LTT_ROW_U64(viewer_session_id), LTT_ROW_U32(major), LTT_ROW_U32(minor),
	  LTT_ROW_U32(type));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_session
LTT_CODEC(live_session, LTT_CODEC_BE,
	  LTT_ROW_U64(id), LTT_ROW_U32(live_timer_us), LTT_ROW_U32(clients),
	  LTT_ROW_U32(streams), LTT_ROW_FIXSTR(hostname), LTT_ROW_FIXSTR(session_name));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_stream
LTT_CODEC(live_stream, LTT_CODEC_BE,
	  LTT_ROW_U64(id), LTT_ROW_U64(ctf_trace_id), LTT_ROW_U32(metadata_flag),
	  LTT_ROW_FIXSTR(path_name), LTT_ROW_FIXSTR(channel_name));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_attach_req
LTT_CODEC(live_attach_req, LTT_CODEC_BE,
	  LTT_ROW_U64(session_id), LTT_ROW_U64(offset), LTT_ROW_U32(seek));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_status_count
LTT_CODEC(live_status_count, LTT_CODEC_BE, LTT_ROW_U32(status), LTT_ROW_U32(count));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_metadata_reply
LTT_CODEC(live_metadata_reply, LTT_CODEC_BE, LTT_ROW_U64(len), LTT_ROW_U32(status));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_index
LTT_CODEC(live_index, LTT_CODEC_BE,
	  LTT_ROW_U64(offset), LTT_ROW_U64(packet_size), LTT_ROW_U64(content_size),
	  LTT_ROW_U64(timestamp_begin), LTT_ROW_U64(timestamp_end),
	  LTT_ROW_U64(events_discarded), LTT_ROW_U64(stream_id), LTT_ROW_U32(status),
	  LTT_ROW_U32(flags));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_packet_req
LTT_CODEC(live_packet_req, LTT_CODEC_BE,
	  LTT_ROW_U64(stream_id), LTT_ROW_U64(offset), LTT_ROW_U32(len));
#undef LTT_MSG

#define LTT_MSG struct ltt_live_packet_reply
LTT_CODEC(live_packet_reply, LTT_CODEC_BE,
	  LTT_ROW_U32(status), LTT_ROW_U32(len), LTT_ROW_U32(flags));
#undef LTT_MSG

/* The put/get pair of struct ltt_live_@name, through its table. */
#define LIVE_PAIR(name) \
	void ltt_live_put_##name(struct ltt_wbuf *w, const struct ltt_live_##name *m) \
	{ \
		ltt_codec_put(w, &live_##name, m); \
	} \
	int ltt_live_get_##name(struct ltt_rbuf *r, struct ltt_live_##name *ret) \
	{ \
		return ltt_codec_get(r, &live_##name, ret); \
	}

LIVE_PAIR(cmd_hdr)
LIVE_PAIR(connect)
LIVE_PAIR(session)
LIVE_PAIR(stream)
LIVE_PAIR(attach_req)
LIVE_PAIR(status_count)
LIVE_PAIR(metadata_reply)
LIVE_PAIR(index)
LIVE_PAIR(packet_req)
LIVE_PAIR(packet_reply)

void ltt_live_put_u64(struct ltt_wbuf *w, uint64_t v)
{
	ltt_wbuf_put_be64(w, v);
}

int ltt_live_get_u64(struct ltt_rbuf *r, uint64_t *ret)
{
	*ret = ltt_rbuf_get_be64(r);
	return r->err ? -EPROTO : 0;
}

void ltt_live_put_u32(struct ltt_wbuf *w, uint32_t v)
{
	ltt_wbuf_put_be32(w, v);
}

int ltt_live_get_u32(struct ltt_rbuf *r, uint32_t *ret)
{
	*ret = ltt_rbuf_get_be32(r);
	return r->err ? -EPROTO : 0;
}

void ltt_live_put_request(struct ltt_wbuf *w, uint32_t cmd, const void *payload, size_t len)
{
	struct ltt_live_cmd_hdr h = { .data_size = len, .cmd = cmd, .cmd_version = 0 };

	ltt_live_put_cmd_hdr(w, &h);
	ltt_wbuf_put_bytes(w, payload, len);
}

int ltt_live_cmd_payload_size(uint32_t cmd)
{
	switch (cmd) {
#define LTT_LIVE_CMD_SIZE(name, num, size) case num: return size;
	LTT_LIVE_CMDS(LTT_LIVE_CMD_SIZE)
#undef LTT_LIVE_CMD_SIZE
	}
	return -1;
}

const char *ltt_live_cmd_name(uint32_t cmd)
{
	switch (cmd) {
#define LTT_LIVE_CMD_NAME(name, num, size) case num: return #name;
	LTT_LIVE_CMDS(LTT_LIVE_CMD_NAME)
#undef LTT_LIVE_CMD_NAME
	}
	return "UNKNOWN";
}

void ltt_live_put_session_v(struct ltt_wbuf *w, const struct ltt_live_session *m, uint32_t minor)
{
	size_t host = strnlen(m->hostname, sizeof(m->hostname));
	size_t name = strnlen(m->session_name, sizeof(m->session_name));

	if (minor < LTT_LIVE_MINOR_TRACE_FORMAT) {
		ltt_live_put_session(w, m);
		return;
	}
	if (host == sizeof(m->hostname) || name == sizeof(m->session_name)) {
		ltt_wbuf_fail(w, -EINVAL);
		return;
	}
	ltt_live_put_u64(w, m->id);
	ltt_live_put_u32(w, m->live_timer_us);
	ltt_live_put_u32(w, m->clients);
	ltt_live_put_u32(w, m->streams);
	ltt_live_put_u32(w, (uint32_t)host);
	ltt_live_put_u32(w, (uint32_t)name);
	ltt_live_put_u32(w, m->trace_format);
	ltt_wbuf_put_bytes(w, m->hostname, host);
	ltt_wbuf_put_bytes(w, m->session_name, name);
}

int ltt_live_get_session_v(struct ltt_rbuf *r, struct ltt_live_session *ret, uint32_t minor)
{
	struct ltt_live_session m = { 0 };
	uint32_t host, name;
	const void *p;

	if (minor < LTT_LIVE_MINOR_TRACE_FORMAT)
		return ltt_live_get_session(r, ret);
	m.id = ltt_rbuf_get_be64(r);
	m.live_timer_us = ltt_rbuf_get_be32(r);
	m.clients = ltt_rbuf_get_be32(r);
	m.streams = ltt_rbuf_get_be32(r);
	host = ltt_rbuf_get_be32(r);
	name = ltt_rbuf_get_be32(r);
	m.trace_format = ltt_rbuf_get_be32(r);
	if (r->err || host >= sizeof(m.hostname) || name >= sizeof(m.session_name))
		return -EPROTO;
	p = ltt_rbuf_get_bytes(r, host);
	if (p)
		memcpy(m.hostname, p, host);
	p = ltt_rbuf_get_bytes(r, name);
	if (p)
		memcpy(m.session_name, p, name);
	if (r->err || memchr(m.hostname, '\0', host) || memchr(m.session_name, '\0', name))
		return -EPROTO;
	*ret = m;
	return 0;
}
