// SPDX-License-Identifier: GPL-2.0-only
/*
 * data.c - the data connection: packet headers, then packet bytes,
 * gathered and written to their stream file in one call (data.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/proto/relay-proto.h"
#include "relayd/data.h"
#include "relayd/model.h"
#include "relayd/server.h"
#include "relayd/stream.h"

#define BUF_SIZE 65536
/* Reads per readable event, so one fast sender can't hog the loop. */
#define MAX_ROUNDS 16
/*
 * A packet up to WHOLE_MAX bytes is gathered in memory and written with
 * its padding in one system call, so that a relay stopped or killed at
 * any instant leaves only whole packets in its files (a partial one makes
 * the whole trace unreadable).  The gathering buffers of all connections
 * hold at most WHOLE_BUDGET; past it, or for a larger packet, the bytes
 * are written as they arrive.
 */
#define WHOLE_MAX ((size_t)8 << 20)
#define WHOLE_BUDGET ((size_t)256 << 20)

static atomic_size_t whole_held;	/* the gathering buffers' bytes, all connections */

struct data_state {
	uint8_t *buf;				/* BUF_SIZE bytes */
	size_t pos, len;			/* unconsumed: buf[pos, len) */
	bool in_packet;
	bool gather;				/* the packet goes through whole */
	struct ltt_relay_packet pkt;
	uint8_t *whole;				/* whole_cap bytes, counted in whole_held */
	size_t whole_cap, got;			/* got: the packet's bytes in whole */
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

/* A gathering buffer of at least @len bytes, within WHOLE_BUDGET. */
static bool make_room(struct data_state *ds, size_t len)
{
	size_t cap = ds->whole_cap, held;
	uint8_t *p;

	if (len <= cap)
		return true;
	if (cap < 65536)
		cap = 65536;
	while (cap < len)
		cap *= 2;
	held = atomic_fetch_add(&whole_held, cap - ds->whole_cap);
	if (held + (cap - ds->whole_cap) > WHOLE_BUDGET) {
		atomic_fetch_sub(&whole_held, cap - ds->whole_cap);
		return false;
	}
	p = realloc(ds->whole, cap);
	if (!p) {
		atomic_fetch_sub(&whole_held, cap - ds->whole_cap);
		return false;
	}
	ds->whole = p;
	ds->whole_cap = cap;
	return true;
}

static void drop_room(struct data_state *ds)
{
	atomic_fetch_sub(&whole_held, ds->whole_cap);
	free(ds->whole);
	ds->whole = NULL;
	ds->whole_cap = 0;
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
		LTT_WARN_RL("data connection from %s: malformed packet header: closed", conn->peer);
		return -EPROTO;
	}
	ds->pos += LTT_RELAY_DATA_HDR_SIZE;
	ret = ltt_relay_packet_begin(conn->server->model, &h, &ds->pkt);
	if (ret) {
		why = begin_error(ret);
		if (why)
			LTT_WARN_RL("data connection from %s: packet %" PRIu64 " of stream %" PRIu64
				 " (%u + %u bytes) %s: closed", conn->peer, h.net_seq_num,
				 h.stream_handle, h.data_size, h.padding_size, why);
		else
			LTT_ERR("data connection from %s: can't store packet %" PRIu64
				" of stream %" PRIu64 ": %s: closed", conn->peer, h.net_seq_num,
				h.stream_handle, strerror(-ret));
		return -EPROTO;
	}
	ds->in_packet = true;
	ds->got = 0;
	ds->gather = ds->pkt.len <= WHOLE_MAX && make_room(ds, (size_t)ds->pkt.len);
	return 0;
}

/* The packet's bytes are all written: it counts. */
static int packet_done(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	int ret;

	ds->in_packet = false;
	ds->packets++;
	ret = ltt_relay_packet_end(&ds->pkt);
	if (ret)
		LTT_ERR("data connection from %s: can't index a packet: %s", conn->peer,
			strerror(-ret));
	return 0;	/* the packet is on disk; its index was logged */
}

/* Write @len bytes of the current packet (all of it when gathered). */
static int packet_write(struct ltt_relay_conn *conn, const void *p, size_t len)
{
	struct data_state *ds = state(conn);
	int ret = ltt_relay_packet_write(&ds->pkt, p, len);

	if (ret)
		LTT_ERR("data connection from %s: can't write a packet of stream %" PRIu64
			": %s: closed", conn->peer, ds->pkt.stream->handle, strerror(-ret));
	return ret ? -EIO : 0;
}

/* Gathered bytes: when the packet is whole, write and end it. */
static int gathered(struct ltt_relay_conn *conn, size_t n)
{
	struct data_state *ds = state(conn);
	int ret;

	ds->got += n;
	if (ds->got < ds->pkt.len)
		return 0;
	ret = packet_write(conn, ds->whole, ds->got);
	return ret ? ret : packet_done(conn);
}

/* Take the buffered bytes of the current packet; end it when complete. */
static int feed(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	struct ltt_relay_packet *pkt = &ds->pkt;
	size_t n = ds->len - ds->pos;
	int ret;

	if (ds->gather) {
		if (n > pkt->len - ds->got)
			n = (size_t)(pkt->len - ds->got);
		memcpy(ds->whole + ds->got, ds->buf + ds->pos, n);
		ds->pos += n;
		return gathered(conn, n);
	}
	if (n > pkt->len - pkt->done)
		n = (size_t)(pkt->len - pkt->done);
	if (n) {
		ret = packet_write(conn, ds->buf + ds->pos, n);
		if (ret)
			return ret;
		ds->pos += n;
	}
	return pkt->done < pkt->len ? 0 : packet_done(conn);
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

/* Read the gathered packet's next bytes straight into its buffer. */
static int read_gathered(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	size_t want = (size_t)ds->pkt.len - ds->got, n;
	int ret;

	ret = ltt_relay_conn_read(conn, ds->whole + ds->got, want < BUF_SIZE ? want : BUF_SIZE, &n);
	if (ret == -ECONNRESET) {
		LTT_WARN_RL("data connection from %s: closed in the middle of a packet "
			 "(the packet is dropped)", conn->peer);
		return -EPIPE;
	}
	return ret ? ret : gathered(conn, n);
}

static int data_readable(struct ltt_relay_conn *conn)
{
	struct data_state *ds = state(conn);
	uint64_t before = ds->packets;
	size_t n;
	int i, ret;

	if (!ds->buf) {
		ds->buf = malloc(BUF_SIZE);
		if (!ds->buf)
			return -ENOMEM;
	}
	/*
	 * Back to the loop as soon as a packet is written: its SEND_INDEX is
	 * answered from there, and until then a relay killed would have it
	 * both in its file and counted lost by the consumer.
	 */
	for (i = 0; i < MAX_ROUNDS && ds->packets == before; i++) {
		if (ds->pos == ds->len)
			ds->pos = ds->len = 0;
		if (ds->in_packet && ds->gather && !ds->len) {
			ret = read_gathered(conn);
			if (ret == -EAGAIN)
				return 0;
			if (ret)
				return ret;
			continue;
		}
		ret = ltt_relay_conn_read(conn, ds->buf + ds->len, BUF_SIZE - ds->len, &n);
		if (ret == -EAGAIN)
			return 0;
		if (ret == -ECONNRESET && (ds->in_packet || ds->len)) {
			LTT_WARN_RL("data connection from %s: closed in the middle of a packet%s",
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
 * (each consumer session has one); past that they are closed.  Only
 * connections past their TLS handshake are asked (server.c): a stranger
 * who can't speak TLS to the relay takes no member's slot.
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
	drop_room(ds);
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
