// SPDX-License-Identifier: GPL-2.0-only
/*
 * live.c - ltt-relayd's live viewer server: the LTTng live protocol
 * (common/proto/live-proto.h) served from the relay's model (model.h).
 *
 * One connection state machine per viewer, all in the relay's event
 * loop, never blocking on the network:
 *
 *   READ     collect one request: the 16-byte header, then its payload
 *            (each command has one payload size; anything else closes)
 *   WRITE    the reply is in the viewer's buffer; EPOLLOUT until sent,
 *            then READ again.  One request at a time: a viewer that
 *            does not read its replies stops being read.
 *
 * Deadlines: a request begun must arrive whole within LIVE_IO_TIMEOUT_NS
 * of its first byte, and a reply being sent must make progress at least
 * every LIVE_IO_TIMEOUT_NS, and CONNECT must come within LIVE_IO_TIMEOUT_NS
 * of the connection; the viewer is dropped otherwise.  A connected viewer
 * idle between requests is kept (babeltrace2 polls, but may pause).  Replies are
 * bounded: a GET_PACKET reply carries at most LIVE_PACKET_MAX bytes and a
 * GET_METADATA reply LIVE_METADATA_MAX (the viewer asks again).
 *
 * Per-viewer state: the sessions it attached (each holds a viewer
 * reference in the model, so a destroyed session stays readable until
 * the viewer drained it or left) and, per stream it was announced, the
 * next index position (data) or the metadata bytes sent (metadata).
 * Unlike LTTng's relayd, any number of viewers may attach to a session.
 *
 * Malformed input (a command before CONNECT, a payload of the wrong
 * size, another major version) is logged and closes the connection; an
 * unknown command gets LTT_LIVE_ERR_UNK, then the connection closes.
 * Nothing a viewer does reaches the recording side: the model is only
 * read.
 */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/net/xport.h"
#include "common/proto/live-proto.h"
#include "relayd/live.h"
#include "relayd/model.h"

#define LIVE_MAX_VIEWERS LTT_RELAY_LIVE_MAX_VIEWERS
#define LIVE_MAX_ATTACHED 64			/* sessions per viewer */
#define LIVE_MAX_VSTREAMS 65536			/* streams per viewer */
#define LIVE_PACKET_MAX (1u << 20)		/* bytes per GET_PACKET reply */
#define LIVE_METADATA_MAX (4u << 20)		/* per GET_METADATA reply (4 KiB packets) */
#define LIVE_KEEP_BUF (64u << 10)		/* reply buffer kept between replies */
#define LIVE_IO_TIMEOUT_NS (10ULL * 1000000000ULL)
#define LIVE_REQ_MAX (LTT_LIVE_CMD_HDR_SIZE + 20)

struct vstream {
	uint64_t handle;
	uint64_t session_id;
	uint64_t trace_id;
	bool metadata;
	bool hup_sent;				/* data: HUP was answered */
	uint64_t pos;				/* data: next index entry */
	uint64_t metadata_sent;			/* metadata: bytes sent */
	uint64_t metadata_version;		/* metadata: the relay's, of those bytes */
};

struct vsession {
	uint64_t id;
	uint64_t generation;			/* when its streams were last listed */
	uint64_t max_handle;			/* largest stream handle announced */
};

struct viewer {
	struct ltt_relay_live *live;
	struct viewer *prev, *next;
	uint64_t id;
	struct ltt_xport *x;			/* the socket, plain or TLS */
	bool shaken;				/* TLS handshake done (or plain) */
	struct ltt_evloop_watch *watch;
	uint32_t events;			/* what the watch waits for */
	struct ltt_evloop_timer *timer;
	uint8_t req[LIVE_REQ_MAX];
	size_t req_len;				/* bytes of the request received */
	size_t req_need;			/* header, then header + payload */
	struct ltt_wbuf out;			/* the reply being sent */
	size_t out_pos;
	bool close_after_send;
	bool connected, created;
	struct vsession sessions[LIVE_MAX_ATTACHED];
	size_t nsessions;
	struct vstream *streams;
	size_t nstreams, streams_cap;
};

struct ltt_relay_live {
	struct ltt_relay_model *model;
	struct ltt_evloop *loop;
	int listen_fd;
	struct ltt_xport_ctx *tls;		/* NULL: plain; borrowed */
	struct ltt_evloop_watch *listen_watch;
	struct viewer *viewers;
	unsigned int nviewers;
	uint64_t next_viewer_id;
};

static void viewer_destroy(struct viewer *v)
{
	struct ltt_relay_live *live = v->live;

	for (size_t i = 0; i < v->nsessions; i++)
		ltt_relay_model_viewer_put(live->model, v->sessions[i].id);
	ltt_evloop_unwatch(v->watch);
	ltt_evloop_timer_destroy(v->timer);
	ltt_xport_destroy(v->x);
	ltt_wbuf_fini(&v->out);
	free(v->streams);
	if (v->prev)
		v->prev->next = v->next;
	else
		live->viewers = v->next;
	if (v->next)
		v->next->prev = v->prev;
	live->nviewers--;
	free(v);
}

static void viewer_drop(struct viewer *v, const char *why)
{
	LTT_INFO_RL("live: viewer %" PRIu64 " closed: %s", v->id, why);
	viewer_destroy(v);
}

static struct vsession *find_vsession(struct viewer *v, uint64_t id)
{
	for (size_t i = 0; i < v->nsessions; i++)
		if (v->sessions[i].id == id)
			return &v->sessions[i];
	return NULL;
}

static struct vstream *find_vstream(struct viewer *v, uint64_t handle)
{
	for (size_t i = 0; i < v->nstreams; i++)
		if (v->streams[i].handle == handle)
			return &v->streams[i];
	return NULL;
}

static struct vstream *find_metadata_vstream(struct viewer *v, uint64_t trace_id)
{
	for (size_t i = 0; i < v->nstreams; i++)
		if (v->streams[i].metadata && v->streams[i].trace_id == trace_id)
			return &v->streams[i];
	return NULL;
}

static int add_vstream(struct viewer *v, const struct ltt_relay_stream_info *si, uint64_t pos)
{
	struct vstream *vs;

	if (v->nstreams == v->streams_cap) {
		size_t cap = v->streams_cap ? v->streams_cap * 2 : 16;
		struct vstream *n;

		if (cap > LIVE_MAX_VSTREAMS)
			return -ENOSPC;
		n = realloc(v->streams, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		v->streams = n;
		v->streams_cap = cap;
	}
	vs = &v->streams[v->nstreams++];
	*vs = (struct vstream){
		.handle = si->handle, .session_id = si->session_id, .trace_id = si->trace_id,
		.metadata = si->metadata, .pos = pos, .metadata_version = si->metadata_version,
	};
	return 0;
}

/*
 * Announce @infos[0..@count) to the viewer: a stream entry each in the
 * reply, a vstream each.  New streams of an attached session start at
 * their beginning; at attach time @seek decides.
 */
static int put_streams(struct viewer *v, struct vsession *vsess,
		       const struct ltt_relay_stream_info *infos, size_t count, uint32_t seek)
{
	struct ltt_relay_live *live = v->live;

	for (size_t i = 0; i < count; i++) {
		const struct ltt_relay_stream_info *si = &infos[i];
		struct ltt_live_stream e = {
			.id = si->handle, .ctf_trace_id = si->trace_id, .metadata_flag = si->metadata,
		};
		uint64_t pos = 0;
		int ret;

		if (!si->metadata && seek == LTT_LIVE_SEEK_LAST &&
		    ltt_relay_model_seek_last(live->model, si->handle, &pos))
			pos = 0;
		ret = add_vstream(v, si, pos);
		if (ret)
			return ret;
		memcpy(e.path_name, si->pathname, sizeof(e.path_name));
		e.path_name[sizeof(e.path_name) - 1] = '\0';
		memcpy(e.channel_name, si->channel_name, sizeof(e.channel_name));
		e.channel_name[sizeof(e.channel_name) - 1] = '\0';
		ltt_live_put_stream(&v->out, &e);
		if (si->handle > vsess->max_handle)
			vsess->max_handle = si->handle;
	}
	return 0;
}

static int cmd_connect(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_live_connect c;

	if (ltt_live_get_connect(r, &c))
		return -EPROTO;
	if (v->connected) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": CONNECT twice", v->id);
		return -EPROTO;
	}
	if (c.major != LTT_LIVE_MAJOR) {
		LTT_WARN_RL("live: viewer %" PRIu64 " speaks live protocol %u.%u, the relay %u.%u",
			 v->id, c.major, c.minor, LTT_LIVE_MAJOR, LTT_LIVE_MINOR);
		return -EPROTONOSUPPORT;
	}
	if (c.type != LTT_LIVE_CLIENT_COMMAND && c.type != LTT_LIVE_CLIENT_NOTIFICATION) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": unknown connection type %u", v->id, c.type);
		return -EPROTO;
	}
	v->connected = true;
	LTT_INFO_RL("live: viewer %" PRIu64 " connected (protocol %u.%u)", v->id, c.major,
		 c.minor < LTT_LIVE_MINOR ? c.minor : LTT_LIVE_MINOR);
	c.viewer_session_id = v->id;
	c.minor = LTT_LIVE_MINOR;
	ltt_live_put_connect(&v->out, &c);
	return 0;
}

static int cmd_list_sessions(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_relay_session_info *infos = NULL;
	size_t count = 0, shown = 0;
	int ret;

	(void)r;
	ret = ltt_relay_model_list_sessions(v->live->model, &infos, &count);
	if (ret)
		return ret;
	for (size_t i = 0; i < count; i++)
		shown += !infos[i].closed;
	ltt_live_put_u32(&v->out, shown);
	for (size_t i = 0; i < count; i++) {
		struct ltt_live_session s = {
			.id = infos[i].id, .live_timer_us = infos[i].live_timer_us,
			.clients = infos[i].viewer_count, .streams = infos[i].stream_count,
		};

		if (infos[i].closed)
			continue;
		memcpy(s.hostname, infos[i].hostname, sizeof(s.hostname));
		s.hostname[sizeof(s.hostname) - 1] = '\0';
		memcpy(s.session_name, infos[i].session_name, sizeof(s.session_name));
		s.session_name[sizeof(s.session_name) - 1] = '\0';
		ltt_live_put_session(&v->out, &s);
	}
	free(infos);
	return 0;
}

static int cmd_create_session(struct viewer *v, struct ltt_rbuf *r)
{
	(void)r;
	v->created = true;
	ltt_live_put_u32(&v->out, LTT_LIVE_CREATE_SESSION_OK);
	return 0;
}

static uint32_t attach_check(struct viewer *v, const struct ltt_live_attach_req *rq,
			     struct ltt_relay_session_info *info)
{
	if (!v->created)
		return LTT_LIVE_ATTACH_NO_SESSION;
	if (ltt_relay_model_session_info(v->live->model, rq->session_id, info))
		return LTT_LIVE_ATTACH_UNK;
	if (!info->live_timer_us)
		return LTT_LIVE_ATTACH_NOT_LIVE;
	if (find_vsession(v, rq->session_id) || v->nsessions == LIVE_MAX_ATTACHED)
		return LTT_LIVE_ATTACH_ALREADY;
	if (rq->seek != LTT_LIVE_SEEK_BEGINNING && rq->seek != LTT_LIVE_SEEK_LAST)
		return LTT_LIVE_ATTACH_SEEK_ERR;
	if (ltt_relay_model_viewer_get(v->live->model, rq->session_id))
		return LTT_LIVE_ATTACH_UNK;
	return LTT_LIVE_ATTACH_OK;
}

static int cmd_attach(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_relay_model *model = v->live->model;
	struct ltt_relay_stream_info *infos = NULL;
	struct ltt_relay_session_info info;
	struct ltt_live_attach_req rq;
	struct vsession *vsess;
	size_t count = 0;
	uint32_t status;
	int ret;

	if (ltt_live_get_attach_req(r, &rq))
		return -EPROTO;
	status = attach_check(v, &rq, &info);
	if (status != LTT_LIVE_ATTACH_OK) {
		ltt_live_put_status_count(&v->out, &(struct ltt_live_status_count){ status, 0 });
		return 0;
	}
	vsess = &v->sessions[v->nsessions++];
	*vsess = (struct vsession){ .id = rq.session_id, .generation = info.generation };
	ret = ltt_relay_model_list_streams(model, rq.session_id, 0, true, &infos, &count);
	if (!ret) {
		ltt_live_put_status_count(&v->out,
					  &(struct ltt_live_status_count){ LTT_LIVE_ATTACH_OK, count });
		ret = put_streams(v, vsess, infos, count, rq.seek);
	}
	free(infos);
	if (ret) {
		ltt_relay_model_viewer_put(model, rq.session_id);
		v->nsessions--;
		return ret;
	}
	LTT_INFO_RL("live: viewer %" PRIu64 " attached session %" PRIu64 " %s of %s (%zu streams, %s)",
		 v->id, info.id, info.session_name, info.hostname, count,
		 rq.seek == LTT_LIVE_SEEK_LAST ? "from the last packet" : "from the beginning");
	return 0;
}

/* Data streams of @session_id not yet at their end for this viewer. */
static size_t live_vstreams(struct viewer *v, uint64_t session_id)
{
	size_t n = 0;

	for (size_t i = 0; i < v->nstreams; i++)
		n += v->streams[i].session_id == session_id && !v->streams[i].metadata &&
		     !v->streams[i].hup_sent;
	return n;
}

static int cmd_get_new_streams(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_relay_stream_info *infos = NULL;
	struct ltt_relay_session_info info;
	struct ltt_live_status_count head = { LTT_LIVE_NEW_STREAMS_ERR, 0 };
	struct vsession *vsess;
	uint64_t id;
	size_t count = 0;
	int ret;

	if (ltt_live_get_u64(r, &id))
		return -EPROTO;
	vsess = find_vsession(v, id);
	if (!vsess) {
		ltt_live_put_status_count(&v->out, &head);
		return 0;
	}
	if (ltt_relay_model_session_info(v->live->model, id, &info)) {
		head.status = LTT_LIVE_NEW_STREAMS_HUP;
		ltt_live_put_status_count(&v->out, &head);
		return 0;
	}
	ret = ltt_relay_model_list_streams(v->live->model, id, vsess->max_handle, true, &infos,
					   &count);
	if (ret)
		return ret;
	vsess->generation = info.generation;
	if (count) {
		head = (struct ltt_live_status_count){ LTT_LIVE_NEW_STREAMS_OK, count };
		ltt_live_put_status_count(&v->out, &head);
		ret = put_streams(v, vsess, infos, count, LTT_LIVE_SEEK_BEGINNING);
	} else {
		head.status = info.closed && !live_vstreams(v, id) ? LTT_LIVE_NEW_STREAMS_HUP
								   : LTT_LIVE_NEW_STREAMS_NO_NEW;
		ltt_live_put_status_count(&v->out, &head);
	}
	free(infos);
	return ret;
}

/* Has any attached session streams visible that the viewer was not told of? */
static bool new_streams_pending(struct viewer *v)
{
	for (size_t i = 0; i < v->nsessions; i++) {
		struct vsession *vsess = &v->sessions[i];
		struct ltt_relay_stream_info *infos = NULL;
		struct ltt_relay_session_info info;
		size_t count = 0;

		if (ltt_relay_model_session_info(v->live->model, vsess->id, &info) ||
		    info.generation == vsess->generation)
			continue;
		if (ltt_relay_model_list_streams(v->live->model, vsess->id, vsess->max_handle, true,
						 &infos, &count))
			continue;
		free(infos);
		if (count)
			return true;
		vsess->generation = info.generation;
	}
	return false;
}

/*
 * Metadata stream @mvs was written again (RESET_METADATA) since this
 * viewer began reading it: the viewer keeps the text it has (a reader
 * takes no second trace block, so its header, clock offset included,
 * stays) and goes on after the rewrite, with the event classes added
 * since, once the rewrite is whole.  A viewer that had read nothing gets
 * the new text whole.  Returns false while there is nothing to serve it.
 */
static bool metadata_sync(struct viewer *v, struct vstream *mvs,
			  const struct ltt_relay_stream_info *mi)
{
	if (mvs->metadata_version == mi->metadata_version)
		return true;
	if (!mvs->metadata_sent) {
		mvs->metadata_version = mi->metadata_version;
		return true;
	}
	if (mi->metadata_size < mi->metadata_rewrite)
		return false;
	if (mvs->metadata_sent < mi->metadata_old_size)
		LTT_WARN_RL("live: viewer %" PRIu64 ": metadata of stream %" PRIu64 " written again before the viewer read it all: it goes on after the new text, event classes of the part it missed are unknown to it",
			 v->id, mvs->handle);
	mvs->metadata_version = mi->metadata_version;
	mvs->metadata_sent = mi->metadata_rewrite;
	return true;
}

/*
 * The metadata state of @vs's trace for this viewer: -EAGAIN when the
 * relay has none yet (no index may be handed out), else 0 and
 * *@ret_newer when the relay holds metadata the viewer was not sent.
 */
static int metadata_state(struct viewer *v, const struct vstream *vs, bool *ret_newer)
{
	struct ltt_relay_stream_info si, mi;
	struct vstream *mvs;

	if (ltt_relay_model_stream_info(v->live->model, vs->handle, &si) || !si.metadata_handle ||
	    ltt_relay_model_stream_info(v->live->model, si.metadata_handle, &mi) ||
	    !mi.metadata_size)
		return -EAGAIN;
	mvs = find_metadata_vstream(v, vs->trace_id);
	*ret_newer = !mvs || (metadata_sync(v, mvs, &mi) && mvs->metadata_sent < mi.metadata_size);
	return 0;
}

static void next_index(struct viewer *v, struct vstream *vs, struct ltt_live_index *ix)
{
	struct ltt_relay_model *model = v->live->model;
	struct ltt_relay_stream_info si;
	struct ltt_relay_entry e;
	bool newer = false;
	int ret;

	if (vs->metadata || vs->hup_sent) {
		ix->status = LTT_LIVE_INDEX_HUP;
		return;
	}
	if (metadata_state(v, vs, &newer)) {
		ix->status = LTT_LIVE_INDEX_RETRY;
		return;
	}
	ret = ltt_relay_model_get_index(model, vs->handle, vs->pos, &e);
	if (ret == -ESTALE && !ltt_relay_model_seek_first(model, vs->handle, &vs->pos))
		ret = ltt_relay_model_get_index(model, vs->handle, vs->pos, &e);	/* skip ahead */
	if (!ret) {
		ix->status = LTT_LIVE_INDEX_OK;
		ix->offset = e.viewer_offset;
		ix->packet_size = e.entry.packet_size;
		ix->content_size = e.entry.content_size;
		ix->timestamp_begin = e.entry.timestamp_begin;
		ix->timestamp_end = e.entry.timestamp_end;
		ix->events_discarded = e.entry.events_discarded;
		ix->stream_id = e.entry.stream_id;
		if (newer)
			ix->flags |= LTT_LIVE_FLAG_NEW_METADATA;
		vs->pos++;
	} else if (ret == -EAGAIN) {
		ix->status = LTT_LIVE_INDEX_RETRY;
		if (!ltt_relay_model_stream_info(model, vs->handle, &si) && si.has_beacon) {
			ix->status = LTT_LIVE_INDEX_INACTIVE;
			ix->timestamp_end = si.beacon_ts;
			ix->stream_id = si.ctf_stream_id;
		}
	} else if (ret == -EPIPE || ret == -ENOENT) {
		ix->status = LTT_LIVE_INDEX_HUP;
		vs->hup_sent = true;
	} else {
		LTT_WARN_RL("live: viewer %" PRIu64 ": index %" PRIu64 " of stream %" PRIu64 ": %s",
			 v->id, vs->pos, vs->handle, strerror(-ret));
		ix->status = LTT_LIVE_INDEX_ERR;
	}
}

static int cmd_get_next_index(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_live_index ix = { .status = LTT_LIVE_INDEX_ERR };
	struct vstream *vs;
	uint64_t id;

	if (ltt_live_get_u64(r, &id))
		return -EPROTO;
	vs = find_vstream(v, id);
	if (vs)
		next_index(v, vs, &ix);
	if (ix.status != LTT_LIVE_INDEX_HUP && ix.status != LTT_LIVE_INDEX_ERR &&
	    new_streams_pending(v))
		ix.flags |= LTT_LIVE_FLAG_NEW_STREAM;
	ltt_live_put_index(&v->out, &ix);
	return 0;
}

static int cmd_get_packet(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_live_packet_reply rp = { .status = LTT_LIVE_PACKET_ERR };
	struct ltt_live_packet_req rq;
	struct vstream *vs;
	size_t len, got = 0, head;
	bool newer = false;
	uint8_t *buf;
	int ret;

	if (ltt_live_get_packet_req(r, &rq))
		return -EPROTO;
	vs = find_vstream(v, rq.stream_id);
	if (!vs || vs->metadata || !rq.len) {
		ltt_live_put_packet_reply(&v->out, &rp);
		return 0;
	}
	if (metadata_state(v, vs, &newer) || newer) {
		rp.flags = newer ? LTT_LIVE_FLAG_NEW_METADATA : 0;
		rp.status = newer ? LTT_LIVE_PACKET_ERR : LTT_LIVE_PACKET_RETRY;
		ltt_live_put_packet_reply(&v->out, &rp);
		return 0;
	}
	len = rq.len < LIVE_PACKET_MAX ? rq.len : LIVE_PACKET_MAX;
	head = v->out.len;
	ltt_live_put_packet_reply(&v->out, &rp);
	buf = ltt_wbuf_reserve(&v->out, len);
	if (!buf)
		return -ENOMEM;
	ret = ltt_relay_model_read_packet(v->live->model, vs->handle, rq.offset, buf, len, &got);
	v->out.len = head;
	if (!ret && got) {
		rp = (struct ltt_live_packet_reply){ LTT_LIVE_PACKET_OK, got, 0 };
		ltt_live_put_packet_reply(&v->out, &rp);
		v->out.len += got;
		return 0;
	}
	if (ret == -ESTALE)
		rp.status = LTT_LIVE_PACKET_EOF;
	LTT_WARN_RL("live: viewer %" PRIu64 ": %u bytes at %" PRIu64 " of stream %" PRIu64 ": %s",
		 v->id, rq.len, rq.offset, vs->handle, ret ? strerror(-ret) : "nothing there");
	ltt_live_put_packet_reply(&v->out, &rp);
	return 0;
}

static int cmd_get_metadata(struct viewer *v, struct ltt_rbuf *r)
{
	struct ltt_live_metadata_reply rp = { 0, LTT_LIVE_METADATA_ERR };
	struct ltt_relay_stream_info si;
	struct vstream *vs;
	size_t len, got = 0, head;
	uint8_t *buf;
	uint64_t id;
	int ret;

	if (ltt_live_get_u64(r, &id))
		return -EPROTO;
	vs = find_vstream(v, id);
	if (!vs || !vs->metadata || ltt_relay_model_stream_info(v->live->model, id, &si)) {
		ltt_live_put_metadata_reply(&v->out, &rp);
		return 0;
	}
	rp.status = LTT_LIVE_METADATA_NO_NEW;
	if (!metadata_sync(v, vs, &si) || si.metadata_size <= vs->metadata_sent) {
		ltt_live_put_metadata_reply(&v->out, &rp);
		return 0;
	}
	len = si.metadata_size - vs->metadata_sent;
	if (len > LIVE_METADATA_MAX)
		len = LIVE_METADATA_MAX;
	head = v->out.len;
	ltt_live_put_metadata_reply(&v->out, &rp);
	buf = ltt_wbuf_reserve(&v->out, len);
	if (!buf)
		return -ENOMEM;
	ret = ltt_relay_model_read_metadata(v->live->model, id, vs->metadata_sent, buf, len, &got);
	v->out.len = head;
	/* written again meanwhile: those bytes may be of the new text; next time */
	if (!ret && (ltt_relay_model_stream_info(v->live->model, id, &si) ||
		     si.metadata_version != vs->metadata_version))
		got = 0;
	if (ret) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": metadata of stream %" PRIu64 ": %s", v->id, id,
			 strerror(-ret));
		rp.status = LTT_LIVE_METADATA_ERR;
	} else if (got) {
		rp = (struct ltt_live_metadata_reply){ got, LTT_LIVE_METADATA_OK };
	}
	ltt_live_put_metadata_reply(&v->out, &rp);
	v->out.len += rp.len;
	vs->metadata_sent += rp.len;
	return 0;
}

static int cmd_detach(struct viewer *v, struct ltt_rbuf *r)
{
	struct vsession *vsess;
	uint64_t id;
	size_t j = 0;

	if (ltt_live_get_u64(r, &id))
		return -EPROTO;
	vsess = find_vsession(v, id);
	if (!vsess) {
		ltt_live_put_u32(&v->out, LTT_LIVE_DETACH_UNK);
		return 0;
	}
	for (size_t i = 0; i < v->nstreams; i++)
		if (v->streams[i].session_id != id)
			v->streams[j++] = v->streams[i];
	v->nstreams = j;
	*vsess = v->sessions[--v->nsessions];
	ltt_relay_model_viewer_put(v->live->model, id);
	LTT_INFO_RL("live: viewer %" PRIu64 " detached session %" PRIu64, v->id, id);
	ltt_live_put_u32(&v->out, LTT_LIVE_DETACH_OK);
	return 0;
}

typedef int (*cmd_fn)(struct viewer *v, struct ltt_rbuf *r);

static cmd_fn cmd_handler(uint32_t cmd)
{
	switch (cmd) {
	case LTT_LIVE_CONNECT: return cmd_connect;
	case LTT_LIVE_LIST_SESSIONS: return cmd_list_sessions;
	case LTT_LIVE_ATTACH_SESSION: return cmd_attach;
	case LTT_LIVE_GET_NEXT_INDEX: return cmd_get_next_index;
	case LTT_LIVE_GET_PACKET: return cmd_get_packet;
	case LTT_LIVE_GET_METADATA: return cmd_get_metadata;
	case LTT_LIVE_GET_NEW_STREAMS: return cmd_get_new_streams;
	case LTT_LIVE_CREATE_SESSION: return cmd_create_session;
	case LTT_LIVE_DETACH_SESSION: return cmd_detach;
	}
	return NULL;
}

static void viewer_io(struct ltt_evloop *loop, int fd, uint32_t events, void *arg);

static void viewer_timeout(struct ltt_evloop *loop, void *arg)
{
	struct viewer *v = arg;

	(void)loop;
	viewer_drop(v, v->out_pos < v->out.len ? "it did not read its reply in time" :
		       !v->connected && !v->req_len ? "it sent no CONNECT in time" :
		       "its request did not arrive in time");
}

/*
 * Send what is buffered; returns 1 when all is sent, 0 for later (the
 * deadline re-armed if anything went out), or -errno.
 */
static int flush_out(struct viewer *v)
{
	size_t start = v->out_pos;

	while (v->out_pos < v->out.len) {
		ssize_t n = ltt_xport_write(v->x, v->out.data + v->out_pos, v->out.len - v->out_pos);

		if (n == -EAGAIN)
			break;
		if (n < 0)
			return (int)n;
		v->out_pos += n;
	}
	if (v->out_pos < v->out.len) {
		if (v->out_pos > start || !ltt_evloop_timer_armed(v->timer))
			ltt_evloop_timer_arm(v->timer, LIVE_IO_TIMEOUT_NS, 0);
		return 0;
	}
	if (v->out.cap > LIVE_KEEP_BUF)
		ltt_wbuf_fini(&v->out);
	ltt_wbuf_reset(&v->out);
	v->out_pos = 0;
	return 1;
}

/* The whole request is in v->req: answer it.  Returns 0 or -errno (drop). */
static int serve_request(struct viewer *v)
{
	struct ltt_live_cmd_hdr h;
	struct ltt_rbuf r;
	int ret;

	ltt_rbuf_init(&r, v->req, LTT_LIVE_CMD_HDR_SIZE);
	ltt_live_get_cmd_hdr(&r, &h);
	ltt_rbuf_init(&r, v->req + LTT_LIVE_CMD_HDR_SIZE, v->req_len - LTT_LIVE_CMD_HDR_SIZE);
	ret = cmd_handler(h.cmd)(v, &r);
	if (!ret && ltt_rbuf_end(&r))
		ret = -EPROTO;
	if (!ret && v->out.err)
		ret = v->out.err;
	if (ret == -EPROTO)
		LTT_WARN_RL("live: viewer %" PRIu64 ": malformed %s request", v->id,
			 ltt_live_cmd_name(h.cmd));
	else if (ret && ret != -EPROTONOSUPPORT)
		LTT_WARN_RL("live: viewer %" PRIu64 ": %s: %s", v->id, ltt_live_cmd_name(h.cmd),
			 strerror(-ret));
	return ret;
}

/*
 * The header is in: check it and say how many bytes the request has.
 * Returns 0, or -EPROTO when the connection must close (after the
 * reply, if one was queued).
 */
static int check_header(struct viewer *v)
{
	struct ltt_live_cmd_hdr h;
	struct ltt_rbuf r;
	int size;

	ltt_rbuf_init(&r, v->req, LTT_LIVE_CMD_HDR_SIZE);
	ltt_live_get_cmd_hdr(&r, &h);
	size = ltt_live_cmd_payload_size(h.cmd);
	if (size < 0) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": unknown command %u", v->id, h.cmd);
		ltt_live_put_u32(&v->out, LTT_LIVE_ERR_UNK);
		v->close_after_send = true;
		return -EPROTO;
	}
	if (!v->connected && h.cmd != LTT_LIVE_CONNECT) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": %s before CONNECT", v->id,
			 ltt_live_cmd_name(h.cmd));
		return -EPROTO;
	}
	if (h.data_size != (uint64_t)size) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": %s with a %" PRIu64 "-byte payload, not %d",
			 v->id, ltt_live_cmd_name(h.cmd), h.data_size, size);
		return -EPROTO;
	}
	v->req_need = LTT_LIVE_CMD_HDR_SIZE + size;
	return 0;
}

/* Read what the current request still lacks; 1 when complete, 0 for later, -errno. */
static int read_request(struct viewer *v)
{
	while (v->req_len < v->req_need) {
		ssize_t n = ltt_xport_read(v->x, v->req + v->req_len, v->req_need - v->req_len);

		if (n == 0 || (n == -ECONNRESET && !v->req_len))
			return v->req_len ? -ECONNRESET : -ENOTCONN;
		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return (int)n;
		if (!v->req_len)
			ltt_evloop_timer_arm(v->timer, LIVE_IO_TIMEOUT_NS, 0);
		v->req_len += n;
		if (v->req_len == LTT_LIVE_CMD_HDR_SIZE && v->req_need == LTT_LIVE_CMD_HDR_SIZE) {
			int ret = check_header(v);

			if (ret)
				return ret;
		}
	}
	return 1;
}

static void watch_events(struct viewer *v, uint32_t events)
{
	if (v->events != events && !ltt_evloop_watch_set(v->watch, events))
		v->events = events;
}

static void viewer_receive(struct viewer *v);

static void viewer_send(struct viewer *v)
{
	int ret = flush_out(v);

	if (ret < 0) {
		viewer_drop(v, strerror(-ret));
		return;
	}
	if (!ret) {
		watch_events(v, EPOLLOUT);
		return;
	}
	ltt_evloop_timer_disarm(v->timer);
	if (v->close_after_send) {
		viewer_drop(v, "protocol error");
		return;
	}
	watch_events(v, EPOLLIN);
	if (ltt_xport_pending(v->x))
		viewer_receive(v);	/* a next request, decrypted already: epoll can't see it */
}

static void viewer_receive(struct viewer *v)
{
	int ret = read_request(v);

	if (ret == 0)
		return;
	if (ret < 0) {
		if (v->close_after_send) {
			viewer_send(v);
			return;
		}
		viewer_drop(v, ret == -ENOTCONN ? "the viewer left" :
			       ret == -EKEYREJECTED ? ltt_xport_error(v->x) :
			       ret == -EPROTO ? "protocol error" : strerror(-ret));
		return;
	}
	ltt_evloop_timer_disarm(v->timer);
	ret = serve_request(v);
	v->req_len = 0;
	v->req_need = LTT_LIVE_CMD_HDR_SIZE;
	if (ret) {
		viewer_drop(v, ret == -EPROTONOSUPPORT ? "another major protocol version" :
			       "protocol error");
		return;
	}
	viewer_send(v);
}

/* The TLS handshake's next step, before any request. */
static void viewer_handshake(struct viewer *v)
{
	char subject[256];
	int ret = ltt_xport_handshake(v->x);

	if (ret == -EAGAIN) {
		watch_events(v, ltt_xport_events(v->x));
		return;
	}
	if (ret) {
		LTT_WARN_RL("live: viewer %" PRIu64 ": TLS handshake failed: %s: closed", v->id,
			 ltt_xport_error(v->x)[0] ? ltt_xport_error(v->x) : strerror(-ret));
		viewer_destroy(v);
		return;
	}
	v->shaken = true;
	ltt_xport_peer_subject(v->x, subject, sizeof(subject));
	LTT_INFO_RL("live: viewer %" PRIu64 ": TLS 1.3, client %s", v->id, subject);
	watch_events(v, EPOLLIN);
}

static void viewer_io(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct viewer *v = arg;

	(void)loop;
	(void)fd;
	if (!v->shaken) {
		viewer_handshake(v);
		return;
	}
	if (v->out.len) {	/* WRITE */
		if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
			viewer_send(v);
		return;
	}
	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
		viewer_receive(v);
}

static int viewer_create(struct ltt_relay_live *live, int fd)
{
	struct viewer *v = calloc(1, sizeof(*v));
	int one = 1, ret;

	if (!v)
		return -ENOMEM;
	ret = ltt_xport_create(fd, live->tls, NULL, &v->x);
	if (ret) {
		free(v);
		return ret;
	}
	v->shaken = !live->tls;
	v->live = live;
	v->id = ++live->next_viewer_id;
	v->req_need = LTT_LIVE_CMD_HDR_SIZE;
	ltt_wbuf_init(&v->out);
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	v->next = live->viewers;
	if (v->next)
		v->next->prev = v;
	live->viewers = v;
	live->nviewers++;
	ret = ltt_evloop_timer_create(live->loop, viewer_timeout, v, &v->timer);
	if (!ret)
		ret = ltt_evloop_watch(live->loop, fd, EPOLLIN, viewer_io, v, &v->watch);
	v->events = EPOLLIN;
	if (!ret)	/* CONNECT is due within the deadline too */
		ltt_evloop_timer_arm(v->timer, LIVE_IO_TIMEOUT_NS, 0);
	if (ret)
		viewer_destroy(v);	/* fd closed */
	return ret;
}

static void live_accept(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_relay_live *live = arg;

	(void)loop;
	(void)events;
	for (;;) {
		int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		int ret;

		if (cfd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				LTT_WARN("live: accept: %s", strerror(errno));
			return;
		}
		if (live->nviewers >= LIVE_MAX_VIEWERS) {
			LTT_WARN_RL("live: %u viewers connected already: refusing another",
				 live->nviewers);
			close(cfd);
			continue;
		}
		ret = viewer_create(live, cfd);
		if (ret)	/* cfd closed when it took it */
			LTT_WARN("live: cannot serve a new viewer: %s", strerror(-ret));
	}
}

int ltt_relay_live_start(const struct ltt_relay_live_cfg *cfg, struct ltt_relay_live **ret_live)
{
	struct ltt_relay_live *live;
	int ret;

	if (!cfg || !cfg->model || !cfg->loop || cfg->listen_fd < 0 || !ret_live)
		return -EINVAL;
	live = calloc(1, sizeof(*live));
	if (!live)
		return -ENOMEM;
	live->model = cfg->model;
	live->loop = cfg->loop;
	live->listen_fd = cfg->listen_fd;
	live->tls = cfg->tls;
	ret = ltt_evloop_watch(live->loop, live->listen_fd, EPOLLIN, live_accept, live,
			       &live->listen_watch);
	if (ret) {
		free(live);
		return ret;
	}
	*ret_live = live;
	return 0;
}

void ltt_relay_live_stop(struct ltt_relay_live *live)
{
	if (!live)
		return;
	while (live->viewers)
		viewer_destroy(live->viewers);
	ltt_evloop_unwatch(live->listen_watch);
	close(live->listen_fd);
	free(live);
}
