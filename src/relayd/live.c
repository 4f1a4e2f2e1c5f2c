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

#include "common/base/dlist.h"
#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/net/xport.h"
#include "common/proto/live-proto.h"
#include "relayd/live-cmd.h"
#include "relayd/live.h"
#include "relayd/model.h"

#define LIVE_MAX_VIEWERS LTT_RELAY_LIVE_MAX_VIEWERS
#define LIVE_KEEP_BUF (64u << 10)		/* reply buffer kept between replies */
#define LIVE_IO_TIMEOUT_NS (10ULL * 1000000000ULL)
/*
 * How long a GET_NEXT_INDEX with nothing new is held before RETRY.
 * Viewers block on the reply (babeltrace2's lttng-live has no timeout on
 * it, a signal interrupts it); a live stream gets a beacon every live
 * tick, which answers it before that.
 */
#define LIVE_HOLD_NS (1000ULL * 1000000ULL)

static void viewer_destroy(struct live_viewer *v)
{
	struct ltt_relay_live *live = v->live;

	for (size_t i = 0; i < v->nsessions; i++)
		ltt_relay_model_viewer_put(live->model, v->sessions[i].id);
	if (v->held)
		live->nheld--;
	ltt_evloop_unwatch(v->watch);
	ltt_evloop_timer_destroy(v->timer);
	ltt_xport_destroy(v->x);
	ltt_wbuf_fini(&v->out);
	free(v->streams);
	LTT_DLIST_UNLINK(live->viewers, v);
	live->nviewers--;
	free(v);
}

static void viewer_drop(struct live_viewer *v, const char *why)
{
	LTT_INFO_RL("live: viewer %" PRIu64 " closed: %s", v->id, why);
	viewer_destroy(v);
}

static void viewer_io(struct ltt_evloop *loop, int fd, uint32_t events, void *arg);

static void viewer_send(struct live_viewer *v);

/* Answer @v's held request now (@may_hold: unless there is still nothing new). */
static void answer_held(struct live_viewer *v, bool may_hold)
{
	ltt_live_next_index(v, v->hold_id, may_hold);
	if (v->held)
		return;
	v->live->nheld--;
	LTT_DBG("live: viewer %" PRIu64 ": GET_NEXT_INDEX of stream %" PRIu64 " answered (%s)",
		v->id, v->hold_id, may_hold ? "news" : "the hold ended");
	ltt_evloop_timer_disarm(v->timer);
	viewer_send(v);
}

static void viewer_timeout(struct ltt_evloop *loop, void *arg)
{
	struct live_viewer *v = arg;

	(void)loop;
	if (v->held) {
		answer_held(v, false);	/* RETRY, or the same beacon */
		return;
	}
	viewer_drop(v, v->out_pos < v->out.len ? "it did not read its reply in time" :
		       !v->connected && !v->req_len ? "it sent no CONNECT in time" :
		       "its request did not arrive in time");
}

/*
 * Send what is buffered; returns 1 when all is sent, 0 for later (the
 * deadline re-armed if anything went out), or -errno.
 */
static int flush_out(struct live_viewer *v)
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

/* The header of the request in v->req (its first LTT_LIVE_CMD_HDR_SIZE bytes are in). */
static struct ltt_live_cmd_hdr request_header(const struct live_viewer *v)
{
	struct ltt_live_cmd_hdr h;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, v->req, LTT_LIVE_CMD_HDR_SIZE);
	ltt_live_get_cmd_hdr(&r, &h);
	return h;
}

/* The whole request is in v->req: answer it.  Returns 0 or -errno (drop). */
static int serve_request(struct live_viewer *v)
{
	struct ltt_live_cmd_hdr h = request_header(v);
	struct ltt_rbuf r;
	int ret;

	ltt_rbuf_init(&r, v->req + LTT_LIVE_CMD_HDR_SIZE, v->req_len - LTT_LIVE_CMD_HDR_SIZE);
	ret = ltt_live_cmd_handler(h.cmd)(v, &r);
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
static int check_header(struct live_viewer *v)
{
	struct ltt_live_cmd_hdr h = request_header(v);
	int size = ltt_live_cmd_payload_size(h.cmd);

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
static int read_request(struct live_viewer *v)
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

static void watch_events(struct live_viewer *v, uint32_t events)
{
	if (v->events != events && !ltt_evloop_watch_set(v->watch, events))
		v->events = events;
}

static void viewer_receive(struct live_viewer *v);

static void viewer_send(struct live_viewer *v)
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

static void viewer_receive(struct live_viewer *v)
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
	if (v->held) {		/* answered when its stream moves (live_changed()) */
		LTT_DBG("live: viewer %" PRIu64 ": GET_NEXT_INDEX of stream %" PRIu64 " held",
			v->id, v->hold_id);
		v->live->nheld++;
		ltt_evloop_timer_arm(v->timer, LIVE_HOLD_NS, 0);
		return;
	}
	viewer_send(v);
}

/*
 * While a request is held the viewer must wait for its reply: bytes from
 * it break the protocol, and its end of file says it left.
 */
static void held_readable(struct live_viewer *v)
{
	uint8_t b;
	ssize_t n = ltt_xport_read(v->x, &b, 1);

	if (n == -EAGAIN)
		return;
	viewer_drop(v, n == 0 || n == -ECONNRESET ? "the viewer left" :
		       n > 0 ? "a request before the reply to its last" : strerror((int)-n));
}

/* The TLS handshake's next step, before any request. */
static void viewer_handshake(struct live_viewer *v)
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
	struct live_viewer *v = arg;

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
	if (v->held) {
		if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
			held_readable(v);
		return;
	}
	if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
		viewer_receive(v);
}

/* The model changed: answer the held requests that have something now. */
static void live_wake(struct ltt_evloop *loop, void *arg)
{
	struct ltt_relay_live *live = arg;
	struct live_viewer *v, *next;

	(void)loop;
	for (v = live->viewers; v && live->nheld; v = next) {
		next = v->next;		/* v may be dropped */
		if (v->held)
			answer_held(v, true);
	}
}

/* Called by the model (on this thread): look at the held requests from the loop. */
static void live_changed(void *arg)
{
	struct ltt_relay_live *live = arg;

	if (live->nheld && !ltt_evloop_timer_armed(live->wake))
		ltt_evloop_timer_arm(live->wake, 1, 0);
}

static int viewer_create(struct ltt_relay_live *live, int fd)
{
	struct live_viewer *v = calloc(1, sizeof(*v));
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
	LTT_DLIST_PUSH(live->viewers, v);
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
	ret = ltt_evloop_timer_create(live->loop, live_wake, live, &live->wake);
	if (!ret) {
		ret = ltt_evloop_watch(live->loop, live->listen_fd, EPOLLIN, live_accept, live,
				       &live->listen_watch);
		if (ret)
			ltt_evloop_timer_destroy(live->wake);
	}
	if (ret) {
		free(live);
		return ret;
	}
	live->model->changed_fn = live_changed;
	live->model->changed_arg = live;
	*ret_live = live;
	return 0;
}

void ltt_relay_live_stop(struct ltt_relay_live *live)
{
	if (!live)
		return;
	live->model->changed_fn = NULL;
	live->model->changed_arg = NULL;
	while (live->viewers)
		viewer_destroy(live->viewers);
	ltt_evloop_timer_destroy(live->wake);
	ltt_evloop_unwatch(live->listen_watch);
	close(live->listen_fd);
	free(live);
}
