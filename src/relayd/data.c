// SPDX-License-Identifier: GPL-2.0-only
/*
 * data.c - the data connection: packet headers, then packet bytes
 * written to their stream file as they arrive (data.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/relay-proto.h"
#include "relayd/data.h"
#include "relayd/server.h"
#include "relayd/stream.h"

#define BUF_SIZE 65536
/* Reads per readable event, so one fast sender can't hog the loop. */
#define MAX_ROUNDS 16

struct data_state {
	uint8_t *buf;				/* BUF_SIZE bytes */
	size_t pos, len;			/* unconsumed: buf[pos, len) */
	bool in_packet;
	struct ltt_relay_packet pkt;
	uint64_t packets;			/* received, for the log */
};

static struct data_state *state(const struct ltt_relay_conn *conn)
{
	return conn->state;
}

static const char *begin_error(int err)
{
	switch (err) {
	case -ENOENT:
		return "for an unknown stream";
	case -EBUSY:
		return "for a stream receiving another packet on another connection";
	case -EINVAL:
		return "out of sequence, of a bad size, or for a closed or metadata stream";
	default:
		return NULL;
	}
}

/* A whole header is buffered: begin its packet. */
static int begin(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	struct ltt_relay_data_hdr h;
	struct ltt_rbuf r;
	const char *why;
	int ret;

	ltt_rbuf_init(&r, ds->buf + ds->pos, LTT_RELAY_DATA_HDR_SIZE);
	if (ltt_relay_get_data_hdr(&r, &h)) {
		LTT_WARN("data connection from %s: malformed packet header: closed", conn->peer);
		return -EPROTO;
	}
	ds->pos += LTT_RELAY_DATA_HDR_SIZE;
	ret = ltt_relay_packet_begin(conn->server->model, &h, &ds->pkt);
	if (ret) {
		why = begin_error(ret);
		if (why)
			LTT_WARN("data connection from %s: packet %" PRIu64 " of stream %" PRIu64
				 " (%u + %u bytes) %s: closed", conn->peer, h.net_seq_num,
				 h.stream_handle, h.data_size, h.padding_size, why);
		else
			LTT_ERR("data connection from %s: can't store packet %" PRIu64
				" of stream %" PRIu64 ": %s: closed", conn->peer, h.net_seq_num,
				h.stream_handle, strerror(-ret));
		return -EPROTO;
	}
	ds->in_packet = true;
	return 0;
}

/* Write the buffered bytes of the current packet; end it when complete. */
static int feed(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	struct ltt_relay_packet *pkt = &ds->pkt;
	size_t n = ds->len - ds->pos;
	int ret;

	if (n > pkt->len - pkt->done)
		n = (size_t)(pkt->len - pkt->done);
	if (n) {
		ret = ltt_relay_packet_write(pkt, ds->buf + ds->pos, n);
		if (ret) {
			LTT_ERR("data connection from %s: can't write a packet of stream %" PRIu64
				": %s: closed", conn->peer, pkt->stream->handle, strerror(-ret));
			return -EIO;
		}
		ds->pos += n;
	}
	if (pkt->done < pkt->len)
		return 0;
	ds->in_packet = false;
	ds->packets++;
	ret = ltt_relay_packet_end(pkt);
	if (ret)
		LTT_ERR("data connection from %s: can't index a packet: %s", conn->peer,
			strerror(-ret));
	return 0;	/* the packet is on disk; its index was logged */
}

/* Consume what is buffered: headers and packet bytes. */
static int consume(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	int ret;

	for (;;) {
		if (ds->in_packet) {
			ret = feed(conn);
			if (ret || ds->in_packet)
				return ret;
		} else if (ds->len - ds->pos >= LTT_RELAY_DATA_HDR_SIZE) {
			ret = begin(conn);
			if (ret)
				return ret;
		} else {
			break;
		}
	}
	/* keep a partial header at the front */
	memmove(ds->buf, ds->buf + ds->pos, ds->len - ds->pos);
	ds->len -= ds->pos;
	ds->pos = 0;
	return 0;
}

static int data_readable(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	size_t n;
	int i, ret;

	if (!ds->buf) {
		ds->buf = malloc(BUF_SIZE);
		if (!ds->buf)
			return -ENOMEM;
	}
	for (i = 0; i < MAX_ROUNDS; i++) {
		if (ds->pos == ds->len)
			ds->pos = ds->len = 0;
		ret = ltt_relay_conn_read(conn, ds->buf + ds->len, BUF_SIZE - ds->len, &n);
		if (ret == -EAGAIN)
			return 0;
		if (ret == -ECONNRESET && (ds->in_packet || ds->len)) {
			LTT_WARN("data connection from %s: closed in the middle of a packet%s",
				 conn->peer, ds->in_packet ? " (the packet is dropped)" : " header");
			return -EPIPE;
		}
		if (ret)
			return ret;
		ds->len += n;
		ret = consume(conn);
		if (ret)
			return ret;
	}
	return 0;
}

static bool data_busy(const struct ltt_relay_conn *conn)
{
	const struct data_state *ds = state(conn);

	return ds->in_packet || ds->len > ds->pos;
}

/* A packet header was accepted: the peer knows a stream handle. */
static bool data_established(const struct ltt_relay_conn *conn)
{
	const struct data_state *ds = state(conn);

	return ds->packets || ds->in_packet;
}

/*
 * A consumer opens its data connection with its session, and sends its
 * first packet only once tracing starts, maybe much later.  So silent data
 * connections may wait as long as they are no more than the open sessions
 * (each consumer session has one); past that they are closed.
 */
static bool data_may_wait(struct ltt_relay_conn *conn)
{
	unsigned int open = ltt_relay_model_open_sessions(conn->server->model);

	return conn->server->waiting_count + !conn->waiting <= open;
}

static void data_closed(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);

	if (ds->in_packet)
		ltt_relay_packet_abort(&ds->pkt);
	ds->in_packet = false;
	LTT_DBG("data connection from %s: %" PRIu64 " packets received", conn->peer,
		ds->packets);
	free(ds->buf);
	ds->buf = NULL;
}

const struct ltt_relay_proto_ops ltt_relay_data_ops = {
	.name = "data",
	.state_size = sizeof(struct data_state),
	.readable = data_readable,
	.busy = data_busy,
	.established = data_established,
	.first = "packet",
	.may_wait = data_may_wait,
	.closed = data_closed,
};
