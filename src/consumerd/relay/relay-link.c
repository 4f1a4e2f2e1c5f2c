// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay-link.c - the relay link's connection: byte queues, control
 * requests and their replies, the relay's streams, data pending (see
 * rlink.h for the threads and the lock; relay-session.c connects,
 * closes and destroys).
 *
 * The handshake (relay-conn.c: connect, VERSION, CREATE_SESSION) is
 * blocking with a deadline, on the command thread.  Afterwards every
 * socket operation is non-blocking and happens on the data thread, under
 * the relay's lock: in ltt_rlink_io(), in a sink's ready() and
 * write().  Nobody waits for a reply: ADD_STREAM's handle, data pending's
 * answer and the end of DEL_RELAY are state the data thread updates as
 * replies come, and that the command thread reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/net/relay-conn.h"
#include "common/net/xport.h"
#include "common/proto/relay-proto.h"
#include "consumerd/relay/relay-link.h"

/* ---- control requests and replies ---- */

void rlink_warn_unsent(const struct ltt_relay *r)
{
	LTT_WARN("%s: %zu bytes not sent, %s replies not read at the end", r->label,
		 rlink_q_size(&r->ctrl_q) + rlink_q_size(&r->data_q), r->exp_head ? "some" : "no");
}

/* Is anything on its way: bytes queued or replies awaited?  Locked. */
bool rlink_busy(const struct ltt_relay *r)
{
	return !rlink_q_empty(&r->ctrl_q) || !rlink_q_empty(&r->data_q) || r->exp_head;
}

/* LTT_RLINK_STALL_MS, or $LTT_CONSUMERD_RELAY_STALL_MS (main.c) */
static unsigned int stall_ms = LTT_RLINK_STALL_MS;

void ltt_rlink_set_stall_ms(unsigned int ms)
{
	stall_ms = ms;
}

/* Bytes our two sockets hold that the relay's host did not acknowledge. */
static uint64_t unacked_bytes(const struct ltt_relay *r)
{
	int fds[2] = { ltt_xport_fd(r->ctrl), ltt_xport_fd(r->data) }, q, i;
	uint64_t sum = 0;

	for (i = 0; i < 2; i++)
		if (fds[i] >= 0 && !ioctl(fds[i], SIOCOUTQ, &q) && q > 0)
			sum += (uint64_t)q;
	return sum;
}

/* A link this slow may take this many no-progress times per segment. */
#define SLOW_LINK_FACTOR 6

/*
 * Is a socket of @r's still crossing a slow link: bytes unacknowledged,
 * the relay's receive window open (it reads: a stopped relay's closes),
 * and an ACK within SLOW_LINK_FACTOR no-progress times?  Over a link of
 * 25 kbit/s, loopback's 64 KiB segments are acknowledged 20 s apart:
 * SIOCOUTQ alone stays still that long.  A dead path gets no ACK.
 */
static bool slow_link_alive(const struct ltt_relay *r)
{
	int fds[2] = { ltt_xport_fd(r->ctrl), ltt_xport_fd(r->data) }, q, i;
	struct tcp_info ti;
	socklen_t len;

	for (i = 0; i < 2; i++) {
		len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		if (fds[i] < 0 || ioctl(fds[i], SIOCOUTQ, &q) || q <= 0 ||
		    getsockopt(fds[i], IPPROTO_TCP, TCP_INFO, &ti, &len))
			continue;
		/* tcpi_snd_wnd came with Linux 5.4: a shorter answer has none */
		if (len >= offsetof(struct tcp_info, tcpi_snd_wnd) + sizeof(ti.tcpi_snd_wnd) &&
		    ti.tcpi_snd_wnd > 0 &&
		    ti.tcpi_last_ack_recv < (uint64_t)stall_ms * SLOW_LINK_FACTOR)
			return true;
	}
	return false;
}

/*
 * A relay that takes nothing and answers nothing for stall_ms while we
 * wait on it is given up, so that data pending, flushes and the writers
 * never wait on it forever.  Progress is any byte moving: sent, received,
 * or leaving our sockets (SIOCOUTQ going down: over a slow link the
 * socket drains for long between two sends), or a socket still crossing
 * a slow link (slow_link_alive()).  Locked.
 */
static void check_stall(struct ltt_relay *r)
{
	uint64_t unacked, now = ltt_relay_conn_now_ms();

	if (r->conn_error)
		return;
	unacked = unacked_bytes(r);
	if (unacked < r->unacked || (unacked && slow_link_alive(r)))
		r->progress_ms = now;
	r->unacked = unacked;
	if (rlink_busy(r) && now - r->progress_ms > stall_ms) {
		LTT_ERR("%s: no progress for %u ms (%" PRIu64 " bytes unacknowledged in our sockets)",
			r->label, stall_ms, unacked);
		rlink_fail(r, -ETIMEDOUT);
	}
}

static size_t reply_size(uint32_t cmd)
{
	switch (cmd) {
	case LTT_RELAY_ADD_STREAM:
		return 12;
	case LTT_RELAY_CLOSE_TRACE_CHUNK:
		return 8;	/* then its path, skipped (reply_skip) */
	default:
		return 4;
	}
}

/*
 * Queue one control request (header with @cmd_version, then @payload);
 * its reply awaited unless @no_reply, the awaited reply's record in
 * @ret_e (NULL: not wanted; nothing goes there with @no_reply).  Locked.
 * Returns 0, or the connection's error (nothing queued, nothing awaited).
 */
static int queue_request(struct ltt_relay *r, uint32_t cmd, uint32_t cmd_version,
			 const struct ltt_wbuf *payload, struct relay_stream *st, bool no_reply,
			 struct expect **ret_e)
{
	struct ltt_relay_ctrl_hdr h = {
		.data_size = payload->len, .cmd = cmd, .cmd_version = cmd_version,
	};
	struct ltt_wbuf hw;
	struct expect *e;
	int ret;

	if (r->conn_error)
		return r->conn_error;
	if (payload->err) {
		rlink_fail(r, payload->err);
		return payload->err;
	}
	if (rlink_q_size(&r->ctrl_q) > LTT_RLINK_CTRL_QUEUE_MAX) {
		rlink_fail(r, -ENOBUFS);	/* the relay stopped reading its control socket */
		return r->conn_error;
	}
	if (!rlink_busy(r))
		r->progress_ms = ltt_relay_conn_now_ms();	/* the stall clock starts now */
	e = calloc(1, sizeof(*e));
	if (!e) {
		rlink_fail(r, -ENOMEM);	/* callers count on every request being answered */
		return -ENOMEM;
	}
	ltt_wbuf_init(&hw);
	ltt_relay_put_ctrl_hdr(&hw, &h);
	ret = hw.err;
	if (!ret)
		ret = rlink_q_append(&r->ctrl_q, hw.data, hw.len);
	if (!ret)
		ret = rlink_q_append(&r->ctrl_q, payload->data, payload->len);
	ltt_wbuf_fini(&hw);
	if (ret) {
		free(e);
		rlink_fail(r, ret);	/* a half-queued request: the stream is broken */
		return ret;
	}
	if (no_reply) {
		free(e);
		return 0;
	}
	e->cmd = cmd;
	e->size = reply_size(cmd);
	e->st = st;
	e->dp = r->marking_dp;
	*r->exp_tail = e;
	r->exp_tail = &e->next;
	if (ret_e)
		*ret_e = e;
	return 0;
}

int rlink_queue_ctrl_e(struct ltt_relay *r, uint32_t cmd, const struct ltt_wbuf *payload,
		       struct relay_stream *st, struct expect **ret_e)
{
	return queue_request(r, cmd, 0, payload, st, false, ret_e);
}

static int queue_ctrl(struct ltt_relay *r, uint32_t cmd, const struct ltt_wbuf *payload,
		      struct relay_stream *st)
{
	return rlink_queue_ctrl_e(r, cmd, payload, st, NULL);
}

static const char *cmd_name(uint32_t cmd)
{
	switch (cmd) {
	case LTT_RELAY_ADD_STREAM: return "ADD_STREAM";
	case LTT_RELAY_SEND_METADATA: return "SEND_METADATA";
	case LTT_RELAY_RESET_METADATA: return "RESET_METADATA";
	case LTT_RELAY_SEND_INDEX: return "SEND_INDEX";
	case LTT_RELAY_CLOSE_STREAM: return "CLOSE_STREAM";
	case LTT_RELAY_STREAMS_SENT: return "STREAMS_SENT";
	case LTT_RELAY_DATA_PENDING: return "DATA_PENDING";
	case LTT_RELAY_BEGIN_DATA_PENDING: return "BEGIN_DATA_PENDING";
	case LTT_RELAY_END_DATA_PENDING: return "END_DATA_PENDING";
	case LTT_RELAY_QUIESCENT_CONTROL: return "QUIESCENT_CONTROL";
	case LTT_RELAY_CLOSE_TRACE_CHUNK: return "CLOSE_TRACE_CHUNK";
	default: return "request";
	}
}

static void queue_simple(struct ltt_relay *r, uint32_t cmd, struct relay_stream *st,
			 uint64_t a, uint64_t b, bool two);

/*
 * SEND_METADATA pieces: 256 KiB of whole metadata packets at most, well
 * below the relay's 1 MiB request limit; the relay writes each in one call,
 * so an append of up to 256 KiB of declarations is on its disk whole or not.
 */
#define METADATA_CHUNK (256u * 1024)

/* Queue @len bytes of metadata packets for @st, whose handle is known.  Locked. */
int rlink_queue_metadata(struct ltt_relay *r, struct relay_stream *st, const uint8_t *p,
			 size_t len)
{
	struct ltt_relay_metadata_hdr h = { .stream_handle = st->handle };
	struct ltt_wbuf pl;
	size_t n;
	int ret = 0;

	ltt_wbuf_init(&pl);
	while (!ret && len) {
		n = len < METADATA_CHUNK ? len : METADATA_CHUNK;
		ltt_wbuf_reset(&pl);
		ltt_relay_put_metadata_hdr(&pl, &h);
		ltt_wbuf_put_bytes(&pl, p, n);
		/* only ltt-relayd answers metadata: another relay's is not waited for */
		ret = queue_request(r, LTT_RELAY_SEND_METADATA,
				    r->ltt_ext ? LTT_RELAY_METADATA_ANSWERED : 0, &pl, st,
				    !r->ltt_ext, NULL);
		r->meta_unanswered += !ret && r->ltt_ext;
		p += n;
		len -= n;
	}
	ltt_wbuf_fini(&pl);
	return ret;
}

int rlink_queue_reset_metadata(struct ltt_relay *r, struct relay_stream *st,
			       uint64_t rewrite_size)
{
	struct ltt_relay_reset_metadata m = {
		.stream_handle = st->handle, .version = st->meta_version + 1,
		.rewrite_size = rewrite_size, .has_rewrite_size = r->ltt_ext,
	};
	struct ltt_wbuf pl;
	int ret;

	ltt_wbuf_init(&pl);
	ltt_relay_put_reset_metadata(&pl, &m);
	ret = pl.err ? pl.err : queue_ctrl(r, LTT_RELAY_RESET_METADATA, &pl, st);
	ltt_wbuf_fini(&pl);
	if (!ret)
		st->meta_version = m.version;
	return ret;
}

/*
 * The relay answered @st's ADD_STREAM: its handle, or a refusal (its
 * packets are then dropped and counted).  STREAMS_SENT is not sent here
 * but by rlink_publish_streams(), once its channel's streams are all added.  Locked.
 */
static void stream_answered(struct ltt_relay *r, struct relay_stream *st,
			    const struct reply *got)
{

	if (got->ret_code == LTT_RELAY_OK) {
		st->handle = got->value;
		st->ready = true;
		if (!rlink_q_empty(&st->meta))
			rlink_queue_metadata(r, st, st->meta.buf + st->meta.off, rlink_q_size(&st->meta));
	} else {
		LTT_ERR("%s: the relay refused stream %s/%s: %s; its packets are dropped and counted",
			r->label, st->path, st->name, ltt_relay_ret_str(got->ret_code));
		st->refused = true;
		st->closed = true;	/* nothing to close on the relay */
	}
	free(st->meta.buf);
	memset(&st->meta, 0, sizeof(st->meta));
	if (st->close_later && rlink_q_empty(&r->data_q))
		rlink_close_stream(r, st);
}

/* A reply to the data pending query.  Locked. */
static void dp_answered(struct ltt_relay *r, uint32_t cmd, const struct reply *got)
{
	if (cmd == LTT_RELAY_DATA_PENDING && got->ret_code == 1)
		r->dp_pending = true;
	if (cmd == LTT_RELAY_END_DATA_PENDING) {
		if (got->ret_code)	/* LTTng's form: 1 while some stream waits for data */
			r->dp_pending = true;
		r->dp_in_flight = false;
		r->dp_have = true;
	}
}

/* The reply to the oldest request is in r->reply.  Locked. */
static void take_reply(struct ltt_relay *r)
{
	struct expect *e = r->exp_head;
	struct ltt_relay_add_stream_reply as;
	struct reply got = { 0 };
	struct ltt_rbuf rb;
	int ret;

	ltt_rbuf_init(&rb, r->reply, e->size);
	if (e->cmd == LTT_RELAY_ADD_STREAM) {
		ret = ltt_relay_get_add_stream_reply(&rb, &as);
		got.ret_code = as.ret_code;
		got.value = as.stream_handle;
	} else if (e->cmd == LTT_RELAY_CLOSE_TRACE_CHUNK) {
		got.ret_code = ltt_rbuf_get_be32(&rb);
		got.value = ltt_rbuf_get_be32(&rb);	/* the path's length */
		ret = ltt_rbuf_end(&rb);
		if (!ret && got.value > LTT_RELAY_PATH_MAX)
			ret = -EPROTO;
		r->reply_skip = got.value;
	} else {
		ret = ltt_relay_get_ret(&rb, &got.ret_code);
	}
	r->exp_head = e->next;
	if (!r->exp_head)
		r->exp_tail = &r->exp_head;
	r->reply_len = 0;
	if (e->cmd == LTT_RELAY_SEND_METADATA && r->meta_unanswered)
		r->meta_unanswered--;
	if (ret) {
		free(e);
		rlink_fail(r, -EPROTO);
		return;
	}
	if (e->packet && got.ret_code != LTT_RELAY_OK) {
		if (r->stats.replies_refused++ < REFUSED_LOG_MAX)
			LTT_WARN("%s: the relay refused the index of a packet of stream %s: %s; the packet is counted lost",
				 r->label, e->st ? e->st->name : "?",
				 ltt_relay_ret_str(got.ret_code));
		rlink_packet_unconfirmed(r, e->st, e->events);
	} else if (e->cmd == LTT_RELAY_ADD_STREAM && e->st) {
		stream_answered(r, e->st, &got);
	} else if (e->dp) {
		dp_answered(r, e->cmd, &got);
	} else if (e->cmd == LTT_RELAY_ARCHIVE_CHUNK && r->archive.answered) {
		r->archive.answered(r, got.ret_code);
	} else if (got.ret_code != LTT_RELAY_OK) {
		if (r->stats.replies_refused++ < REFUSED_LOG_MAX)
			LTT_WARN("%s: the relay refused %s%s%s: %s", r->label, cmd_name(e->cmd),
				 e->st ? " of stream " : "", e->st ? e->st->name : "",
				 ltt_relay_ret_str(got.ret_code));
	}
	free(e);
}

/*
 * Up to @len bytes of the control connection into @buf: how many came, or
 * 0 when none did yet or the link failed (rlink_fail()).  Locked.
 */
static size_t ctrl_read(struct ltt_relay *r, void *buf, size_t len)
{
	ssize_t n = ltt_xport_read(r->ctrl, buf, len);

	if (n == -EAGAIN)
		return 0;
	if (n <= 0) {
		rlink_fail(r, n ? (int)n : -ECONNRESET);
		return 0;
	}
	r->progress_ms = ltt_relay_conn_now_ms();
	return (size_t)n;
}

/* Drop the bytes of a variable reply the sender does not use (a path).  Locked. */
static void skip_reply_bytes(struct ltt_relay *r)
{
	uint8_t buf[512];

	r->reply_skip -= ctrl_read(r, buf, r->reply_skip < sizeof(buf) ? r->reply_skip : sizeof(buf));
}

/* Read the replies that arrived.  Locked. */
static void recv_replies(struct ltt_relay *r)
{
	size_t n;

	while (!r->conn_error) {
		size_t want = r->exp_head ? r->exp_head->size - r->reply_len : 1;

		if (r->reply_skip) {
			skip_reply_bytes(r);
			if (r->reply_skip)
				return;
			continue;
		}
		n = ctrl_read(r, r->reply + r->reply_len, want);
		if (!n)
			return;
		if (!r->exp_head) {
			LTT_ERR("%s: the relay sent %zu bytes nobody asked for", r->label, n);
			rlink_fail(r, -EPROTO);
			return;
		}
		r->reply_len += n;
		if (r->reply_len == r->exp_head->size)
			take_reply(r);
	}
}

/* Send what @q holds until the connection is full.  Locked. */
void rlink_send_queue(struct ltt_relay *r, struct ltt_xport *x, struct byteq *q)
{
	ssize_t n;

	while (!r->conn_error && !rlink_q_empty(q)) {
		n = ltt_xport_write(x, q->buf + q->off, rlink_q_size(q));
		if (n == -EAGAIN)
			return;
		if (n <= 0) {
			rlink_fail(r, n ? (int)n : -EPIPE);
			return;
		}
		q->off += (size_t)n;
		r->progress_ms = ltt_relay_conn_now_ms();
	}
}

/* The data queue emptied: its packets are sent. */
static void data_sent(struct ltt_relay *r)
{
	struct relay_stream *st;

	if (!rlink_q_empty(&r->data_q) || !r->q_packets)
		return;
	r->stats.packets_sent += r->q_packets;
	r->stats.bytes_sent += r->q_bytes;
	r->q_packets = r->q_bytes = 0;
	for (st = r->streams; st; st = st->next) {
		st->queued = false;
		if (st->close_later)
			rlink_close_stream(r, st);
	}
}

/* Wake the data thread: requests were queued.  Any thread. */
void rlink_kick(struct ltt_relay *r)
{
	uint64_t one = 1;

	if (write(r->kick_fd, &one, sizeof(one)) < 0)
		LTT_DBG("%s: kick: %s", r->label, strerror(errno));
}

/*
 * Bytes left queued by a sink: have the data thread's loop wait for the
 * sockets to take them (its watches change only in ltt_rlink_io()).
 * Locked.
 */
void rlink_nudge(struct ltt_relay *r)
{
	if (!r->conn_error && (!rlink_q_empty(&r->ctrl_q) || !rlink_q_empty(&r->data_q)))
		rlink_kick(r);
}

/* Send, receive.  Locked. */
void rlink_pump(struct ltt_relay *r)
{
	rlink_send_queue(r, r->data, &r->data_q);
	data_sent(r);
	rlink_send_queue(r, r->ctrl, &r->ctrl_q);
	recv_replies(r);
	if (r->archive.try)
		r->archive.try(r);
	check_stall(r);
	rlink_wake_sinks(r);
}

void ltt_rlink_io(struct ltt_relay *r, uint32_t *ret_ctrl_events, uint32_t *ret_data_events)
{
	uint64_t n;

	if (read(r->kick_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		LTT_DBG("%s: kick eventfd: %s", r->label, strerror(errno));
	pthread_mutex_lock(&r->lock);
	rlink_pump(r);
	*ret_ctrl_events = r->conn_error ? 0 : EPOLLIN | (rlink_q_empty(&r->ctrl_q) ? 0 : EPOLLOUT);
	*ret_data_events = r->conn_error || rlink_q_empty(&r->data_q) ? 0 : EPOLLOUT;
	pthread_mutex_unlock(&r->lock);
}

int ltt_rlink_wait(struct ltt_relay *r, int timeout_ms)
{
	struct pollfd pfd[2];
	uint32_t ctrl_ev, data_ev;
	int ret;

	pthread_mutex_lock(&r->lock);
	ret = r->conn_error;
	pfd[0].fd = ltt_xport_fd(r->ctrl);
	pfd[0].events = (short)(POLLIN | (rlink_q_empty(&r->ctrl_q) ? 0 : POLLOUT));
	pfd[1].fd = ltt_xport_fd(r->data);
	pfd[1].events = (short)(rlink_q_empty(&r->data_q) ? 0 : POLLOUT);
	pthread_mutex_unlock(&r->lock);
	if (ret)
		return ret;
	if (poll(pfd, 2, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	ltt_rlink_io(r, &ctrl_ev, &data_ev);
	rlink_kick(r);	/* the loop asks ltt_rlink_io() for its watches again */
	pthread_mutex_lock(&r->lock);
	ret = r->conn_error;
	pthread_mutex_unlock(&r->lock);
	return ret;
}

/* ---- streams ---- */

/*
 * Add stream @name of @path: queue its ADD_STREAM; the reply, read by the
 * data thread, gives its handle (stream_answered()).  Nobody waits for it:
 * metadata is kept and its sink says "would block" until then.  Locked.
 * Returns 0, -ENOMEM, or the connection's error.
 */
int rlink_add_stream(struct ltt_relay *r, const char *path, const char *name, uint64_t size,
		     uint64_t count, bool metadata, struct relay_stream **ret_st)
{
	struct ltt_relay_add_stream *m;
	struct relay_stream *st;
	struct ltt_wbuf pl;
	int ret;

	if (r->conn_error)
		return r->conn_error;
	m = calloc(1, sizeof(*m));
	st = calloc(1, sizeof(*st) + strlen(path) + 1);
	if (!m || !st) {
		free(m);
		free(st);
		return -ENOMEM;
	}
	snprintf(m->channel_name, sizeof(m->channel_name), "%s", name);
	snprintf(m->pathname, sizeof(m->pathname), "%s", path);
	m->tracefile_size = size;
	m->tracefile_count = count;
	snprintf(st->name, sizeof(st->name), "%s", name);
	strcpy(st->path, path);
	st->metadata = metadata;
	st->rotating = size != 0;
	st->wake_fd = -1;
	ltt_wbuf_init(&pl);
	ltt_relay_put_add_stream(&pl, m);
	free(m);
	ret = queue_ctrl(r, LTT_RELAY_ADD_STREAM, &pl, st);
	ltt_wbuf_fini(&pl);
	if (ret) {
		free(st);
		return ret;
	}
	st->next = r->streams;
	r->streams = st;
	*ret_st = st;
	return 0;
}

/*
 * A stream of a relay whose connection is gone: its sink opens, and drops
 * (and counts) what it is given, as the relay's other sinks do.  Locked.
 */
int rlink_dead_stream(struct ltt_relay *r, const char *name, struct relay_stream **ret_st)
{
	struct relay_stream *st = calloc(1, sizeof(*st) + 1);

	if (!st)
		return -ENOMEM;
	snprintf(st->name, sizeof(st->name), "%s", name);
	st->closed = true;	/* nothing to close on the relay */
	st->wake_fd = -1;
	st->next = r->streams;
	r->streams = st;
	*ret_st = st;
	return 0;
}

/* Queue a request of one {u64, u64} or {u64} payload, nobody waiting.  Locked. */
static void queue_simple(struct ltt_relay *r, uint32_t cmd, struct relay_stream *st,
			 uint64_t a, uint64_t b, bool two)
{
	struct ltt_relay_stream_seq m = { .stream_handle = a, .last_net_seq_num = b };
	struct ltt_wbuf pl;

	ltt_wbuf_init(&pl);
	if (two)
		ltt_relay_put_stream_seq(&pl, &m);
	else if (cmd != LTT_RELAY_STREAMS_SENT)
		ltt_relay_put_u64_msg(&pl, a);
	queue_ctrl(r, cmd, &pl, st);
	ltt_wbuf_fini(&pl);
}

/* Is a stream held back until its channel's streams are all added?  Locked. */
static bool streams_held(const struct ltt_relay *r)
{
	const struct relay_stream *st;

	for (st = r->streams; st; st = st->next)
		if (st->held)
			return true;
	return false;
}

/*
 * STREAMS_SENT for the streams added since the last one, unless a
 * channel's streams are still coming (held): a viewer learns a channel's
 * streams all at once (babeltrace2 2.0 asks for new streams only when an
 * index with data says so, never when a stream it has is idle, so a
 * stream announced late would stay unseen), never some of them.  Called
 * at each packet and live tick, and when a channel's streams are
 * complete.  Locked.
 */
void rlink_publish_streams(struct ltt_relay *r)
{
	if (!r->publish || r->conn_error || streams_held(r))
		return;
	r->publish = false;
	queue_simple(r, LTT_RELAY_STREAMS_SENT, NULL, 0, 0, false);
}

/* The streams of @g (NULL: all) are no longer held back.  Locked. */
void rlink_release_streams(struct ltt_relay *r, const struct relay_group *g)
{
	struct relay_stream *st;

	for (st = r->streams; st; st = st->next)
		if (!g || st->group == g)
			st->held = false;
}

/* CLOSE_STREAM once, with the last packet's number.  Locked. */
void rlink_close_stream(struct ltt_relay *r, struct relay_stream *st)
{
	if (st->closed)
		return;
	if (!st->ready || !rlink_q_empty(&r->data_q)) {
		/* after its handle comes, or after its last packet */
		/* the stream's last packet may still be in the queue: after it */
		st->close_later = true;
		return;
	}
	rlink_publish_streams(r);
	st->closed = true;
	st->close_later = false;
	queue_simple(r, LTT_RELAY_CLOSE_STREAM, st, st->handle,
		     st->next_seq ? st->next_seq - 1 : UINT64_MAX, true);
}


/* ---- queries ---- */

void ltt_rlink_stats(struct ltt_relay *r, struct ltt_rlink_stats *ret)
{
	pthread_mutex_lock(&r->lock);
	*ret = r->stats;
	pthread_mutex_unlock(&r->lock);
}

/* Queue {u64} request @cmd for @st (may be NULL).  Locked. */
static int queue_u64_st(struct ltt_relay *r, uint32_t cmd, uint64_t v, struct relay_stream *st)
{
	struct ltt_wbuf pl;
	int ret;

	ltt_wbuf_init(&pl);
	ltt_relay_put_u64_msg(&pl, v);
	ret = queue_ctrl(r, cmd, &pl, st);
	ltt_wbuf_fini(&pl);
	return ret;
}

static int queue_u64(struct ltt_relay *r, uint32_t cmd, uint64_t v)
{
	return queue_u64_st(r, cmd, v, NULL);
}

/*
 * Ask the relay whether the packets sent so far are all written:
 * BEGIN_DATA_PENDING, DATA_PENDING per stream that sent some,
 * QUIESCENT_CONTROL per other open stream, END_DATA_PENDING;
 * dp_answered() collects the replies.  Locked.
 */
static int send_pending_query(struct ltt_relay *r)
{
	struct relay_stream *st;
	struct ltt_wbuf pl;
	int ret;

	r->marking_dp = true;
	ret = queue_u64(r, LTT_RELAY_BEGIN_DATA_PENDING, r->session_id);
	for (st = r->streams; st && !ret; st = st->next) {
		struct ltt_relay_stream_seq m = { st->handle, st->next_seq - 1 };

		if (!st->ready)
			continue;
		if (st->metadata || !st->next_seq) {
			/* LTTng's relay counts a stream neither asked nor closed as pending */
			if (!st->closed)
				ret = queue_u64_st(r, LTT_RELAY_QUIESCENT_CONTROL, st->handle, st);
			continue;
		}
		ltt_wbuf_init(&pl);
		ltt_relay_put_stream_seq(&pl, &m);
		ret = queue_ctrl(r, LTT_RELAY_DATA_PENDING, &pl, st);
		ltt_wbuf_fini(&pl);
	}
	if (!ret)
		ret = queue_u64(r, LTT_RELAY_END_DATA_PENDING, r->session_id);
	r->marking_dp = false;
	if (ret)
		return ret;
	r->dp_in_flight = true;
	r->dp_have = false;
	r->dp_pending = false;
	r->dp_gen = r->gen;
	return 0;
}

/* Is a stream's ADD_STREAM not answered yet?  Locked. */
static bool streams_unanswered(const struct ltt_relay *r)
{
	const struct relay_stream *st;

	for (st = r->streams; st; st = st->next)
		if (!st->ready && !st->refused && !st->closed)
			return true;
	return false;
}

/*
 * The relay answered data pending with nothing left on our side: sent
 * and acknowledged.  It may still be writing; one that says "pending" for
 * stall_ms after that waits for what will never come, and is given up.
 * Locked.
 */
static void pending_unfed(struct ltt_relay *r)
{
	uint64_t now = ltt_relay_conn_now_ms();

	if (!r->dp_pending || unacked_bytes(r)) {
		r->dp_unfed_ms = 0;
	} else if (!r->dp_unfed_ms) {
		r->dp_unfed_ms = now;
	} else if (now - r->dp_unfed_ms > stall_ms) {
		LTT_ERR("%s: the relay still says data is pending %u ms after it acknowledged "
			"all we sent", r->label, stall_ms);
		rlink_fail(r, -ETIMEDOUT);
	}
}

int ltt_rlink_data_pending(struct ltt_relay *r, bool *ret_pending)
{
	int ret;

	*ret_pending = true;
	pthread_mutex_lock(&r->lock);
	check_stall(r);
	ret = r->conn_error;
	if (!ret && (r->q_packets || !rlink_q_empty(&r->data_q) || !rlink_q_empty(&r->ctrl_q) ||
		     streams_unanswered(r))) {
		rlink_kick(r);			/* still here: no need to ask */
	} else if (!ret && r->dp_have && r->dp_gen == r->gen) {
		*ret_pending = r->dp_pending;	/* the answer to the last query */
		if (r->dp_pending)
			r->dp_have = false;	/* the next call asks again */
		pending_unfed(r);
	} else if (!ret && !r->dp_in_flight) {
		ret = send_pending_query(r);
		rlink_kick(r);
	}
	if (ret || r->conn_error) {
		*ret_pending = false;
		ret = -ECONNRESET;	/* whatever ended it: the connection is gone */
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

uint64_t ltt_rlink_key(const struct ltt_relay *r)
{
	return r->key;
}

uint32_t ltt_rlink_live_timer_us(const struct ltt_relay *r)
{
	return r->live_timer_us;
}

void ltt_rlink_fds(const struct ltt_relay *r, int *ret_ctrl, int *ret_data, int *ret_kick)
{
	*ret_ctrl = ltt_xport_fd(r->ctrl);
	*ret_data = ltt_xport_fd(r->data);
	*ret_kick = r->kick_fd;
}
