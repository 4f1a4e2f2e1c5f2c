// SPDX-License-Identifier: GPL-2.0-only
/*
 * live-cmd.c - the live viewer server's commands (live.c has the server:
 * connections, their state machine and deadlines): what each request of
 * the LTTng live protocol (common/live-proto.h) answers, read from the
 * relay's model (model.h) and the viewer's own state, the sessions it
 * attached and the streams it was told of.  A command appends its reply
 * to the viewer's output; it never reads or writes the socket.
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
#include "common/proto/live-proto.h"
#include "common/base/log.h"
#include "common/net/xport.h"
#include "relayd/live-cmd.h"
#include "relayd/live.h"
#include "relayd/model.h"

static struct live_vsession *find_vsession(struct live_viewer *v, uint64_t id)
{
	for (size_t i = 0; i < v->nsessions; i++)
		if (v->sessions[i].id == id)
			return &v->sessions[i];
	return NULL;
}

static struct live_vstream *find_vstream(struct live_viewer *v, uint64_t handle)
{
	for (size_t i = 0; i < v->nstreams; i++)
		if (v->streams[i].handle == handle)
			return &v->streams[i];
	return NULL;
}

static struct live_vstream *find_metadata_vstream(struct live_viewer *v, uint64_t trace_id)
{
	for (size_t i = 0; i < v->nstreams; i++)
		if (v->streams[i].metadata && v->streams[i].trace_id == trace_id)
			return &v->streams[i];
	return NULL;
}

static int add_vstream(struct live_viewer *v, const struct ltt_relay_stream_info *si, uint64_t pos)
{
	struct live_vstream *vs;

	if (v->nstreams == v->streams_cap) {
		size_t cap = v->streams_cap ? v->streams_cap * 2 : 16;
		struct live_vstream *n;

		if (cap > LIVE_MAX_VSTREAMS)
			return -ENOSPC;
		n = realloc(v->streams, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		v->streams = n;
		v->streams_cap = cap;
	}
	vs = &v->streams[v->nstreams++];
	*vs = (struct live_vstream){
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
static int put_streams(struct live_viewer *v, struct live_vsession *vsess,
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

static int cmd_connect(struct live_viewer *v, struct ltt_rbuf *r)
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
	v->minor = c.minor < LTT_LIVE_MINOR ? c.minor : LTT_LIVE_MINOR;
	LTT_INFO_RL("live: viewer %" PRIu64 " connected (protocol %u.%u)", v->id, c.major,
		 v->minor);
	c.viewer_session_id = v->id;
	c.minor = LTT_LIVE_MINOR;
	ltt_live_put_connect(&v->out, &c);
	return 0;
}

/*
 * Is @s shown to @v: open, and of a format its protocol says (a viewer
 * before 2.15 would read CTF 2's metadata as TSDL)?
 */
static bool listed(const struct live_viewer *v, const struct ltt_relay_session_info *s)
{
	return !s->closed && (s->trace_format != LTT_RELAY_TRACE_FORMAT_CTF_2 ||
			      v->minor >= LTT_LIVE_MINOR_TRACE_FORMAT);
}

static int cmd_list_sessions(struct live_viewer *v, struct ltt_rbuf *r)
{
	struct ltt_relay_session_info *infos = NULL;
	size_t count = 0, shown = 0;
	int ret;

	(void)r;
	ret = ltt_relay_model_list_sessions(v->live->model, &infos, &count);
	if (ret)
		return ret;
	for (size_t i = 0; i < count; i++)
		shown += listed(v, &infos[i]);
	ltt_live_put_u32(&v->out, shown);
	for (size_t i = 0; i < count; i++) {
		struct ltt_live_session s = {
			.id = infos[i].id, .live_timer_us = infos[i].live_timer_us,
			.clients = infos[i].viewer_count, .streams = infos[i].stream_count,
			.trace_format = infos[i].trace_format == LTT_RELAY_TRACE_FORMAT_CTF_2 ?
					LTT_LIVE_TRACE_FORMAT_CTF_2 : LTT_LIVE_TRACE_FORMAT_CTF_1_8,
		};

		if (!listed(v, &infos[i]))
			continue;
		memcpy(s.hostname, infos[i].hostname, sizeof(s.hostname));
		s.hostname[sizeof(s.hostname) - 1] = '\0';
		memcpy(s.session_name, infos[i].session_name, sizeof(s.session_name));
		s.session_name[sizeof(s.session_name) - 1] = '\0';
		ltt_live_put_session_v(&v->out, &s, v->minor);
	}
	free(infos);
	return 0;
}

static int cmd_create_session(struct live_viewer *v, struct ltt_rbuf *r)
{
	(void)r;
	v->created = true;
	ltt_live_put_u32(&v->out, LTT_LIVE_CREATE_SESSION_OK);
	return 0;
}

static uint32_t attach_check(struct live_viewer *v, const struct ltt_live_attach_req *rq,
			     struct ltt_relay_session_info *info)
{
	if (!v->created)
		return LTT_LIVE_ATTACH_NO_SESSION;
	if (ltt_relay_model_session_info(v->live->model, rq->session_id, info))
		return LTT_LIVE_ATTACH_UNK;
	if (info->trace_format == LTT_RELAY_TRACE_FORMAT_CTF_2 &&
	    v->minor < LTT_LIVE_MINOR_TRACE_FORMAT)
		return LTT_LIVE_ATTACH_UNK;	/* not listed to it either */
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

static int cmd_attach(struct live_viewer *v, struct ltt_rbuf *r)
{
	struct ltt_relay_model *model = v->live->model;
	struct ltt_relay_stream_info *infos = NULL;
	struct ltt_relay_session_info info;
	struct ltt_live_attach_req rq;
	struct live_vsession *vsess;
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
	*vsess = (struct live_vsession){ .id = rq.session_id, .generation = info.generation };
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
static size_t live_vstreams(struct live_viewer *v, uint64_t session_id)
{
	size_t n = 0;

	for (size_t i = 0; i < v->nstreams; i++)
		n += v->streams[i].session_id == session_id && !v->streams[i].metadata &&
		     !v->streams[i].hup_sent;
	return n;
}

static int cmd_get_new_streams(struct live_viewer *v, struct ltt_rbuf *r)
{
	struct ltt_relay_stream_info *infos = NULL;
	struct ltt_relay_session_info info;
	struct ltt_live_status_count head = { LTT_LIVE_NEW_STREAMS_ERR, 0 };
	struct live_vsession *vsess;
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
static bool new_streams_pending(struct live_viewer *v)
{
	for (size_t i = 0; i < v->nsessions; i++) {
		struct live_vsession *vsess = &v->sessions[i];
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
static bool metadata_sync(struct live_viewer *v, struct live_vstream *mvs,
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
static int metadata_state(struct live_viewer *v, const struct live_vstream *vs, bool *ret_newer)
{
	struct ltt_relay_stream_info si, mi;
	struct live_vstream *mvs;

	if (ltt_relay_model_stream_info(v->live->model, vs->handle, &si) || !si.metadata_handle ||
	    ltt_relay_model_stream_info(v->live->model, si.metadata_handle, &mi) ||
	    !mi.metadata_size)
		return -EAGAIN;
	mvs = find_metadata_vstream(v, vs->trace_id);
	*ret_newer = !mvs || (metadata_sync(v, mvs, &mi) && mvs->metadata_sent < mi.metadata_size);
	return 0;
}

static void next_index(struct live_viewer *v, struct live_vstream *vs, struct ltt_live_index *ix)
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

/* Would @ix tell the viewer nothing it does not know (it would ask again)? */
static bool nothing_new(const struct live_vstream *vs, const struct ltt_live_index *ix)
{
	if (ix->status == LTT_LIVE_INDEX_RETRY)
		return true;
	return ix->status == LTT_LIVE_INDEX_INACTIVE && vs->beacon_sent &&
	       vs->beacon_ts == ix->timestamp_end;
}

void ltt_live_next_index(struct live_viewer *v, uint64_t id, bool may_hold)
{
	struct ltt_live_index ix = { .status = LTT_LIVE_INDEX_ERR };
	struct live_vstream *vs = find_vstream(v, id);
	bool streams = false;

	if (vs)
		next_index(v, vs, &ix);
	if (ix.status != LTT_LIVE_INDEX_HUP && ix.status != LTT_LIVE_INDEX_ERR)
		streams = new_streams_pending(v);
	/*
	 * Held, unless the viewer was given something lately: babeltrace2
	 * gathers messages and hands them to its output only when its
	 * lttng-live source returns for want of data (a stream answered
	 * RETRY), and its muxer, which asks the source again before it
	 * passes on what it has, only when that happens twice.  So after
	 * news the next LIVE_RELEASES nothing-new requests are answered at
	 * once, and only the one after is held.  Held on, unless streams
	 * came since it was held (the viewer may want them).
	 */
	if (may_hold && vs && !v->releases && nothing_new(vs, &ix) &&
	    (!streams || (v->held ? v->hold_streams_pending : true))) {
		if (!v->held)
			v->hold_streams_pending = streams;
		v->held = true;
		v->hold_id = id;
		return;
	}
	v->held = false;
	if (vs && nothing_new(vs, &ix)) {
		if (v->releases)
			v->releases--;
	} else {
		v->releases = LIVE_RELEASES;
	}
	if (streams)
		ix.flags |= LTT_LIVE_FLAG_NEW_STREAM;
	if (vs && ix.status == LTT_LIVE_INDEX_INACTIVE) {
		vs->beacon_sent = true;
		vs->beacon_ts = ix.timestamp_end;
	}
	ltt_live_put_index(&v->out, &ix);
}

static int cmd_get_next_index(struct live_viewer *v, struct ltt_rbuf *r)
{
	uint64_t id;

	if (ltt_live_get_u64(r, &id))
		return -EPROTO;
	ltt_live_next_index(v, id, true);
	return 0;
}

static int cmd_get_packet(struct live_viewer *v, struct ltt_rbuf *r)
{
	struct ltt_live_packet_reply rp = { .status = LTT_LIVE_PACKET_ERR };
	struct ltt_live_packet_req rq;
	struct live_vstream *vs;
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
		v->releases = LIVE_RELEASES;
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

static int cmd_get_metadata(struct live_viewer *v, struct ltt_rbuf *r)
{
	struct ltt_live_metadata_reply rp = { 0, LTT_LIVE_METADATA_ERR };
	struct ltt_relay_stream_info si;
	struct live_vstream *vs;
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

static int cmd_detach(struct live_viewer *v, struct ltt_rbuf *r)
{
	struct live_vsession *vsess;
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

ltt_live_cmd_fn ltt_live_cmd_handler(uint32_t cmd)
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
