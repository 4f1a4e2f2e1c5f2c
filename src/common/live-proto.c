// SPDX-License-Identifier: LGPL-2.1-only
/*
 * live-proto.c - encoders and decoders of the live viewer protocol
 * (see live-proto.h): fixed layouts, big-endian.
 */
#include <errno.h>

#include "common/live-proto.h"

static int rbuf_status(const struct ltt_rbuf *r)
{
	return r->err ? -EPROTO : 0;
}

void ltt_live_put_cmd_hdr(struct ltt_wbuf *w, const struct ltt_live_cmd_hdr *m)
{
	ltt_wbuf_put_be64(w, m->data_size);
	ltt_wbuf_put_be32(w, m->cmd);
	ltt_wbuf_put_be32(w, m->cmd_version);
}

int ltt_live_get_cmd_hdr(struct ltt_rbuf *r, struct ltt_live_cmd_hdr *ret)
{
	ret->data_size = ltt_rbuf_get_be64(r);
	ret->cmd = ltt_rbuf_get_be32(r);
	ret->cmd_version = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_connect(struct ltt_wbuf *w, const struct ltt_live_connect *m)
{
	ltt_wbuf_put_be64(w, m->viewer_session_id);
	ltt_wbuf_put_be32(w, m->major);
	ltt_wbuf_put_be32(w, m->minor);
	ltt_wbuf_put_be32(w, m->type);
}

int ltt_live_get_connect(struct ltt_rbuf *r, struct ltt_live_connect *ret)
{
	ret->viewer_session_id = ltt_rbuf_get_be64(r);
	ret->major = ltt_rbuf_get_be32(r);
	ret->minor = ltt_rbuf_get_be32(r);
	ret->type = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_session(struct ltt_wbuf *w, const struct ltt_live_session *m)
{
	ltt_wbuf_put_be64(w, m->id);
	ltt_wbuf_put_be32(w, m->live_timer_us);
	ltt_wbuf_put_be32(w, m->clients);
	ltt_wbuf_put_be32(w, m->streams);
	ltt_wbuf_put_fixed_str(w, m->hostname, sizeof(m->hostname));
	ltt_wbuf_put_fixed_str(w, m->session_name, sizeof(m->session_name));
}

int ltt_live_get_session(struct ltt_rbuf *r, struct ltt_live_session *ret)
{
	ret->id = ltt_rbuf_get_be64(r);
	ret->live_timer_us = ltt_rbuf_get_be32(r);
	ret->clients = ltt_rbuf_get_be32(r);
	ret->streams = ltt_rbuf_get_be32(r);
	ltt_rbuf_get_fixed_str(r, ret->hostname, sizeof(ret->hostname));
	ltt_rbuf_get_fixed_str(r, ret->session_name, sizeof(ret->session_name));
	return rbuf_status(r);
}

void ltt_live_put_stream(struct ltt_wbuf *w, const struct ltt_live_stream *m)
{
	ltt_wbuf_put_be64(w, m->id);
	ltt_wbuf_put_be64(w, m->ctf_trace_id);
	ltt_wbuf_put_be32(w, m->metadata_flag);
	ltt_wbuf_put_fixed_str(w, m->path_name, sizeof(m->path_name));
	ltt_wbuf_put_fixed_str(w, m->channel_name, sizeof(m->channel_name));
}

int ltt_live_get_stream(struct ltt_rbuf *r, struct ltt_live_stream *ret)
{
	ret->id = ltt_rbuf_get_be64(r);
	ret->ctf_trace_id = ltt_rbuf_get_be64(r);
	ret->metadata_flag = ltt_rbuf_get_be32(r);
	ltt_rbuf_get_fixed_str(r, ret->path_name, sizeof(ret->path_name));
	ltt_rbuf_get_fixed_str(r, ret->channel_name, sizeof(ret->channel_name));
	return rbuf_status(r);
}

void ltt_live_put_attach_req(struct ltt_wbuf *w, const struct ltt_live_attach_req *m)
{
	ltt_wbuf_put_be64(w, m->session_id);
	ltt_wbuf_put_be64(w, m->offset);
	ltt_wbuf_put_be32(w, m->seek);
}

int ltt_live_get_attach_req(struct ltt_rbuf *r, struct ltt_live_attach_req *ret)
{
	ret->session_id = ltt_rbuf_get_be64(r);
	ret->offset = ltt_rbuf_get_be64(r);
	ret->seek = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_status_count(struct ltt_wbuf *w, const struct ltt_live_status_count *m)
{
	ltt_wbuf_put_be32(w, m->status);
	ltt_wbuf_put_be32(w, m->count);
}

int ltt_live_get_status_count(struct ltt_rbuf *r, struct ltt_live_status_count *ret)
{
	ret->status = ltt_rbuf_get_be32(r);
	ret->count = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_metadata_reply(struct ltt_wbuf *w, const struct ltt_live_metadata_reply *m)
{
	ltt_wbuf_put_be64(w, m->len);
	ltt_wbuf_put_be32(w, m->status);
}

int ltt_live_get_metadata_reply(struct ltt_rbuf *r, struct ltt_live_metadata_reply *ret)
{
	ret->len = ltt_rbuf_get_be64(r);
	ret->status = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_index(struct ltt_wbuf *w, const struct ltt_live_index *m)
{
	ltt_wbuf_put_be64(w, m->offset);
	ltt_wbuf_put_be64(w, m->packet_size);
	ltt_wbuf_put_be64(w, m->content_size);
	ltt_wbuf_put_be64(w, m->timestamp_begin);
	ltt_wbuf_put_be64(w, m->timestamp_end);
	ltt_wbuf_put_be64(w, m->events_discarded);
	ltt_wbuf_put_be64(w, m->stream_id);
	ltt_wbuf_put_be32(w, m->status);
	ltt_wbuf_put_be32(w, m->flags);
}

int ltt_live_get_index(struct ltt_rbuf *r, struct ltt_live_index *ret)
{
	ret->offset = ltt_rbuf_get_be64(r);
	ret->packet_size = ltt_rbuf_get_be64(r);
	ret->content_size = ltt_rbuf_get_be64(r);
	ret->timestamp_begin = ltt_rbuf_get_be64(r);
	ret->timestamp_end = ltt_rbuf_get_be64(r);
	ret->events_discarded = ltt_rbuf_get_be64(r);
	ret->stream_id = ltt_rbuf_get_be64(r);
	ret->status = ltt_rbuf_get_be32(r);
	ret->flags = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_packet_req(struct ltt_wbuf *w, const struct ltt_live_packet_req *m)
{
	ltt_wbuf_put_be64(w, m->stream_id);
	ltt_wbuf_put_be64(w, m->offset);
	ltt_wbuf_put_be32(w, m->len);
}

int ltt_live_get_packet_req(struct ltt_rbuf *r, struct ltt_live_packet_req *ret)
{
	ret->stream_id = ltt_rbuf_get_be64(r);
	ret->offset = ltt_rbuf_get_be64(r);
	ret->len = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_packet_reply(struct ltt_wbuf *w, const struct ltt_live_packet_reply *m)
{
	ltt_wbuf_put_be32(w, m->status);
	ltt_wbuf_put_be32(w, m->len);
	ltt_wbuf_put_be32(w, m->flags);
}

int ltt_live_get_packet_reply(struct ltt_rbuf *r, struct ltt_live_packet_reply *ret)
{
	ret->status = ltt_rbuf_get_be32(r);
	ret->len = ltt_rbuf_get_be32(r);
	ret->flags = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
}

void ltt_live_put_u64(struct ltt_wbuf *w, uint64_t v)
{
	ltt_wbuf_put_be64(w, v);
}

int ltt_live_get_u64(struct ltt_rbuf *r, uint64_t *ret)
{
	*ret = ltt_rbuf_get_be64(r);
	return rbuf_status(r);
}

void ltt_live_put_u32(struct ltt_wbuf *w, uint32_t v)
{
	ltt_wbuf_put_be32(w, v);
}

int ltt_live_get_u32(struct ltt_rbuf *r, uint32_t *ret)
{
	*ret = ltt_rbuf_get_be32(r);
	return rbuf_status(r);
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
