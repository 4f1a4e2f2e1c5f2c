// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink-relay.c - the relay output's sinks and outputs: each packet goes
 * as a data header + the packet on the data connection, then its index
 * on the control connection (relay-link.c keeps the connection).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/net/relay-conn.h"
#include "common/net/xport.h"
#include "common/proto/relay-proto.h"
#include "common/trace/ringbuf.h"
#include "consumerd/relay/relay-link.h"
#include "consumerd/sink/sink-relay.h"

struct relay_output {
	struct ltt_output base;
	struct ltt_relay *relay;
	struct relay_group *group;	/* under the relay's lock */
	uint64_t tracefile_size, tracefile_count;
	struct relay_stream *meta;	/* the trace's metadata stream, or NULL */
	char path[];
};

struct relay_sink {
	struct ltt_sink base;
	struct ltt_relay *relay;
	struct relay_stream *st;
	uint64_t instance_id;		/* the last packet's (the CPU) */
};

/* ---- sinks ---- */

static int relay_ready(struct ltt_sink *sink)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;
	struct relay_stream *st = rs->st;
	uint64_t n;
	int ret = 0;

	pthread_mutex_lock(&r->lock);
	if (st->woken) {	/* one read after a wakeup, none per packet */
		st->woken = false;
		if (read(sink->poll_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
			LTT_DBG("%s: wake eventfd: %s", r->label, strerror(errno));
	}
	if (!r->conn_error && !st->refused) {
		if (!rlink_packet_may_go(r, st))
			rlink_pump(r);
		/*
		 * Not before its ADD_STREAM is answered; one packet at most in
		 * the queue, the next waits for the socket; none while metadata
		 * is unanswered.
		 */
		if (!r->conn_error && !rlink_packet_may_go(r, st))
			ret = -EAGAIN;
	}
	if (ret) {
		st->waiting = true;	/* rlink_wake_sinks() writes its eventfd */
		rlink_nudge(r);
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

/*
 * The packet's index, or a beacon, on the control connection.  A
 * packet's (@packet) reply is awaited as its confirmation: the relay
 * answers once it wrote the packet.  Locked.  Returns 0 or the
 * connection's error (nothing awaited).
 */
static int queue_index(struct ltt_relay *r, struct relay_stream *st,
		       const struct ltt_relay_index *idx, bool packet, uint64_t events)
{
	struct expect *e = NULL;
	struct ltt_wbuf pl;
	int ret;

	ltt_wbuf_init(&pl);
	ltt_relay_put_index(&pl, idx);
	ret = rlink_queue_ctrl_e(r, LTT_RELAY_SEND_INDEX, &pl, st, &e);
	ltt_wbuf_fini(&pl);
	if (!ret) {
		e->packet = packet;
		e->events = events;
		e->packet_seq = idx->packet_seq_num;
	}
	return ret;
}

/*
 * Send header + the packet's first @content bytes (the padding after them
 * never travels: the relay writes it) with one sendmsg() (TLS: records) from the
 * packet's memory; copy what the socket did not take into the data
 * queue.  Locked, queue empty.
 */
static int send_packet(struct ltt_relay *r, const uint8_t *hdr, const struct ltt_sink_packet *pkt,
		       uint64_t content)
{
	struct iovec iov[LTT_SINK_MAX_IOV + 1];
	size_t total = LTT_RELAY_DATA_HDR_SIZE, done;
	ssize_t n;
	int i, cnt = 1, ret;

	iov[0].iov_base = (void *)hdr;
	iov[0].iov_len = LTT_RELAY_DATA_HDR_SIZE;
	for (i = 0; i < pkt->iovcnt && content; i++) {
		iov[cnt] = pkt->iov[i];
		if (iov[cnt].iov_len > content)
			iov[cnt].iov_len = (size_t)content;
		content -= iov[cnt].iov_len;
		total += iov[cnt++].iov_len;
	}
	n = ltt_xport_writev(r->data, iov, cnt);
	if (n < 0 && n != -EAGAIN) {
		rlink_fail(r, (int)n);
		return r->conn_error;
	}
	done = n > 0 ? (size_t)n : 0;
	if (done < total && !rlink_busy(r))
		r->progress_ms = ltt_relay_conn_now_ms();
	/* the rest, copied: the ring buffer gets its sub-buffer back now */
	for (i = 0; i < cnt && done < total; i++) {
		if (done >= iov[i].iov_len) {
			done -= iov[i].iov_len;
			total -= iov[i].iov_len;
			continue;
		}
		ret = rlink_q_append(&r->data_q, (uint8_t *)iov[i].iov_base + done,
				     iov[i].iov_len - done);
		if (ret) {
			rlink_fail(r, ret);	/* a packet cut in the middle: the stream is lost */
			return ret;
		}
		total -= iov[i].iov_len;
		done = 0;
	}
	return 0;
}

static int relay_write(struct ltt_sink *sink, struct ltt_sink_packet *pkt)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;
	struct relay_stream *st = rs->st;
	uint64_t content = ltt_sink_packet_content(pkt);
	uint8_t hdr[LTT_RELAY_DATA_HDR_SIZE];
	struct ltt_relay_data_hdr h = {
		.stream_handle = st->handle, .net_seq_num = st->next_seq,
		.data_size = (uint32_t)content, .padding_size = (uint32_t)(pkt->len - content),
	};
	struct ltt_relay_index idx = {
		.stream_handle = st->handle, .net_seq_num = st->next_seq,
		.packet_size = pkt->entry.packet_size, .content_size = pkt->entry.content_size,
		.timestamp_begin = pkt->entry.timestamp_begin,
		.timestamp_end = pkt->entry.timestamp_end,
		.events_discarded = pkt->entry.events_discarded,
		.stream_id = pkt->entry.stream_id,
		.stream_instance_id = pkt->entry.stream_instance_id,
		.packet_seq_num = pkt->entry.packet_seq_num,
	};
	struct ltt_wbuf hw;
	int ret;

	if (pkt->len > LTT_RELAY_MAX_PACKET)
		return -EFBIG;
	pkt->entry.offset = 0;	/* the relay knows where it writes */
	ltt_wbuf_init(&hw);
	ltt_relay_put_data_hdr(&hw, &h);
	if (hw.err || hw.len != sizeof(hdr)) {
		ltt_wbuf_fini(&hw);
		return -ENOMEM;
	}
	memcpy(hdr, hw.data, sizeof(hdr));
	ltt_wbuf_fini(&hw);
	pthread_mutex_lock(&r->lock);
	ret = r->conn_error;
	if (!ret && (st->refused || !st->ready))
		ret = -EPROTO;	/* refused: dropped and counted */
	if (!ret && !rlink_packet_may_go(r, st))
		rlink_pump(r);	/* ready() said yes: it can only have cleared since */
	if (!ret && !rlink_packet_may_go(r, st))
		ret = -EAGAIN;	/* not reached: ready() waits for it */
	if (!ret)
		ret = send_packet(r, hdr, pkt, content);
	if (ret) {
		r->stats.packets_lost++;
		pthread_mutex_unlock(&r->lock);
		return ret;
	}
	if (rlink_q_empty(&r->data_q)) {
		r->stats.packets_sent++;
		r->stats.bytes_sent += content;
	} else {
		r->q_packets++;
		r->q_bytes += content;
		st->queued = true;
	}
	st->next_seq++;
	r->gen++;
	st->wrote = true;
	st->last_end = pkt->entry.timestamp_end;
	rs->instance_id = pkt->entry.stream_instance_id;
	rlink_publish_streams(r);
	if (queue_index(r, st, &idx, true, pkt->events))
		rlink_packet_unconfirmed(r, st, pkt->events);	/* sent, never to be confirmed */
	rlink_send_queue(r, r->ctrl, &r->ctrl_q);
	rlink_nudge(r);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static void relay_idle(struct ltt_sink *sink, uint64_t now_ns, uint64_t stream_id)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;
	struct relay_stream *st = rs->st;
	struct ltt_relay_index beacon = {
		.stream_handle = st->handle,
		.net_seq_num = st->next_seq ? st->next_seq - 1 : UINT64_MAX,
		/*
		 * Never before the end of the packet sent last: a viewer
		 * read up to there (babeltrace2 fails on a time that goes
		 * back).  @now_ns was read before the switch that closed it.
		 */
		.timestamp_end = now_ns > st->last_end ? now_ns : st->last_end,
		.stream_id = stream_id,
		.stream_instance_id = rs->instance_id,
	};

	pthread_mutex_lock(&r->lock);
	rlink_publish_streams(r);
	/*
	 * ltt-relayd serves a beacon only after the packets whose indexes
	 * went before it are written: every stream gets one at each tick, so
	 * that a viewer knows at once that nothing follows a packet just
	 * sent (babeltrace2 prints its events only then).  Another relay
	 * could let the beacon overtake a packet of its stream still on its
	 * way: such a stream sends none (its packet is news enough), nor does
	 * one whose packet is still in the queue, nor one whose sink waits
	 * (for another stream's packet to leave the queue): it may hold a
	 * packet older than the beacon's time.  Each stream's own state: the
	 * queue holds one stream's packet, others may wait behind it.
	 */
	if (!r->conn_error && st->ready &&
	    (r->ltt_ext || (!st->wrote && !st->queued && !st->waiting)))
		queue_index(r, st, &beacon, false, 0);
	if (!r->conn_error && !rlink_q_empty(&r->ctrl_q)) {
		rlink_send_queue(r, r->ctrl, &r->ctrl_q);
		rlink_nudge(r);
	}
	st->wrote = false;
	pthread_mutex_unlock(&r->lock);
}

static bool relay_wants_packet(struct ltt_sink *sink)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;
	bool wants;

	pthread_mutex_lock(&r->lock);
	/* the data connection idle: an empty packet made now goes at once */
	wants = !r->conn_error && !r->ltt_ext && rs->st->next_seq == 0 &&
		rlink_q_empty(&r->data_q);
	pthread_mutex_unlock(&r->lock);
	return wants;
}

static void relay_lost(struct ltt_sink *sink, uint64_t *ret_packets, uint64_t *ret_events)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;

	if (!rs->st)
		return;
	pthread_mutex_lock(&r->lock);
	*ret_packets = rs->st->lost_packets;
	*ret_events = rs->st->lost_events;
	pthread_mutex_unlock(&r->lock);
}

/*
 * One removal's wait for a relay that took nothing is the last: the
 * channels removed after it (a per-PID trace's, a session's traces) are
 * closed at once, their packets counted lost, until it moves again.
 */
static bool relay_given_up(struct ltt_sink *sink, bool give_up)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;
	bool ret;

	pthread_mutex_lock(&r->lock);
	if (give_up) {
		r->given_up = true;
		r->given_up_gen = r->gen;
	}
	ret = r->given_up && r->gen == r->given_up_gen;
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static void relay_sink_destroy(struct ltt_sink *sink)
{
	struct relay_sink *rs = (struct relay_sink *)sink;
	struct ltt_relay *r = rs->relay;

	if (rs->st) {
		pthread_mutex_lock(&r->lock);
		rs->st->sink_open = false;
		rs->st->wake_fd = -1;
		rs->st->waiting = false;
		if (!r->conn_error)
			rlink_pump(r);	/* the stream's last packet first, if the socket takes it */
		rlink_close_stream(r, rs->st);
		pthread_mutex_unlock(&r->lock);
		rlink_kick(r);
	}
	ltt_fd_close(&sink->poll_fd);
	free(rs);
}

/* Until the sink may take a packet; the data thread does the relay's I/O meanwhile. */
static int relay_wait_ready(struct ltt_sink *sink)
{
	struct ltt_relay *r = ((struct relay_sink *)sink)->relay;
	int ret;

	while ((ret = relay_ready(sink)) == -EAGAIN) {
		ret = ltt_rlink_wait(r, 100);
		if (ret)
			break;
	}
	return ret;
}

static const struct ltt_sink_ops relay_sink_ops = {
	.name = "relay",
	.ready = relay_ready,
	.wait_ready = relay_wait_ready,
	.write = relay_write,
	.idle = relay_idle,
	.wants_packet = relay_wants_packet,
	.lost = relay_lost,
	.given_up = relay_given_up,
	.destroy = relay_sink_destroy,
};

static int relay_open_sink(const struct ltt_output *out, const char *name,
			   struct ltt_sink **ret_sink)
{
	const struct relay_output *ro = (const struct relay_output *)out;
	struct ltt_relay *r = ro->relay;
	struct relay_sink *rs;
	int ret;

	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	rs->base.ops = &relay_sink_ops;
	rs->relay = r;
	/* woken when its handle comes or the data queue empties */
	rs->base.poll_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	rs->base.poll_events = EPOLLIN;
	if (rs->base.poll_fd < 0) {
		ret = -errno;
		free(rs);
		return ret;
	}
	pthread_mutex_lock(&r->lock);
	ret = rlink_add_stream(r, ro->path, name, ro->tracefile_size, ro->tracefile_count, false,
			       &rs->st);
	if (ret && ret == r->conn_error) {
		ret = rlink_dead_stream(r, name, &rs->st);	/* the stream drops, counted */
	} else if (!ret) {
		rs->st->sink_open = true;
		rs->st->wake_fd = rs->base.poll_fd;
		/* viewers see it with its channel's other streams */
		rs->st->group = ro->group;
		rs->st->held = !ro->group->complete;
		r->publish = true;
		rlink_send_queue(r, r->ctrl, &r->ctrl_q);
		rlink_nudge(r);
	}
	pthread_mutex_unlock(&r->lock);
	if (ret) {
		relay_sink_destroy(&rs->base);
		return ret;
	}
	*ret_sink = &rs->base;
	return 0;
}

/* ---- outputs ---- */

static int relay_metadata(struct ltt_output *out, const void *packets, size_t len)
{
	struct relay_output *ro = (struct relay_output *)out;
	struct ltt_relay *r = ro->relay;
	struct relay_stream *st = ro->meta;
	int ret;

	if (!st)
		return -EOPNOTSUPP;
	pthread_mutex_lock(&r->lock);
	r->gen++;
	ret = r->conn_error;
	if (!ret && st->refused)
		ret = -EPROTO;
	else if (!ret && !st->ready)
		ret = rlink_q_append(&st->meta, packets, len);	/* sent with the handle */
	else if (!ret && st->meta_reset)
		ret = rlink_queue_reset_metadata(r, st, len);
	if (!ret && st->ready) {
		st->meta_reset = false;
		ret = rlink_queue_metadata(r, st, packets, len);
	}
	pthread_mutex_unlock(&r->lock);
	if (!ret)
		rlink_kick(r);
	return ret;
}

/* The channel's streams are all added: announce them (STREAMS_SENT). */
static void relay_streams_added(struct ltt_output *out)
{
	struct relay_output *ro = (struct relay_output *)out;
	struct ltt_relay *r = ro->relay;

	pthread_mutex_lock(&r->lock);
	ro->group->complete = true;
	rlink_release_streams(r, ro->group);
	rlink_publish_streams(r);
	pthread_mutex_unlock(&r->lock);
	rlink_kick(r);
}

static void relay_output_destroy(struct ltt_output *out)
{
	struct relay_output *ro = (struct relay_output *)out;
	struct ltt_relay *r = ro->relay;
	struct relay_stream *st;

	pthread_mutex_lock(&r->lock);
	if (ro->meta)
		rlink_close_stream(r, ro->meta);
	/* its streams outlive it (until the relay goes): none waits on it */
	for (st = r->streams; st; st = st->next) {
		if (st->group == ro->group) {
			st->group = NULL;
			st->held = false;
		}
	}
	rlink_publish_streams(r);
	pthread_mutex_unlock(&r->lock);
	rlink_kick(r);
	free(ro->group);
	free(ro);
}

/*
 * Regenerate metadata: the next metadata given is the whole text again;
 * the relay is told where it ends (RESET_METADATA's rewrite_size) so its
 * live viewers go on.  Before the relay gave the stream's handle nothing
 * was sent: what waits is dropped, the new text goes first.
 */
static int relay_reset_metadata(struct ltt_output *out)
{
	struct relay_output *ro = (struct relay_output *)out;
	struct ltt_relay *r = ro->relay;
	struct relay_stream *st = ro->meta;
	int ret;

	if (!st)
		return -EOPNOTSUPP;
	pthread_mutex_lock(&r->lock);
	ret = r->conn_error;
	if (!ret && r->minor < LTT_RELAY_MINOR_RESET_METADATA)
		ret = -EPROTONOSUPPORT;
	else if (!ret && st->refused)
		ret = -EPROTO;
	else if (!ret && !st->ready)
		st->meta.off = st->meta.len;
	else if (!ret)
		st->meta_reset = true;
	pthread_mutex_unlock(&r->lock);
	if (ret == -EPROTONOSUPPORT)
		LTT_ERR("%s: the relay speaks protocol 2.%u, replacing a trace's metadata needs 2.%u: upgrade ltt-relayd",
			r->label, r->minor, LTT_RELAY_MINOR_RESET_METADATA);
	return ret;
}

static const struct ltt_output_ops relay_output_ops = {
	.name = "relay",
	.open_sink = relay_open_sink,
	.metadata = relay_metadata,
	.reset_metadata = relay_reset_metadata,
	.streams_added = relay_streams_added,
	.destroy = relay_output_destroy,
};

int ltt_sink_relay_output_create(struct ltt_relay *r, const char *pathname,
				 uint64_t tracefile_size, uint64_t tracefile_count, bool metadata,
				 struct ltt_output **ret_out)
{
	struct relay_output *ro;
	int ret = 0;

	if (!r || !pathname || !ret_out || strlen(pathname) >= LTT_RELAY_PATH_MAX)
		return -EINVAL;
	ro = calloc(1, sizeof(*ro) + strlen(pathname) + 1);
	if (ro)
		ro->group = calloc(1, sizeof(*ro->group));
	if (!ro || !ro->group) {
		free(ro);
		return -ENOMEM;
	}
	ro->base.ops = &relay_output_ops;
	ro->relay = r;
	ro->tracefile_size = tracefile_size;
	ro->tracefile_count = tracefile_count;
	strcpy(ro->path, pathname);
	if (metadata) {
		pthread_mutex_lock(&r->lock);
		ret = rlink_add_stream(r, pathname, "metadata", 0, 0, true, &ro->meta);
		pthread_mutex_unlock(&r->lock);
		rlink_kick(r);
	}
	if (ret) {
		free(ro->group);
		free(ro);
		return ret;
	}
	*ret_out = &ro->base;
	return 0;
}

struct ltt_relay *ltt_sink_relay_of(const struct ltt_output *out)
{
	return out && out->ops == &relay_output_ops ? ((const struct relay_output *)out)->relay
						    : NULL;
}
