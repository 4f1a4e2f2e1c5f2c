// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay-queue.c - under the relay link (relay-link.h): its byte queues,
 * and what a lost connection does: the first error kept, what is queued
 * and awaited dropped, the packets awaited counted lost, the waiting
 * sinks woken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/net/xport.h"
#include "consumerd/relay/relay-link.h"

/* ---- byte queues ---- */

bool rlink_q_empty(const struct byteq *q)
{
	return q->off == q->len;
}

size_t rlink_q_size(const struct byteq *q)
{
	return q->len - q->off;
}

int rlink_q_append(struct byteq *q, const void *p, size_t len)
{
	uint8_t *buf;
	size_t cap;

	if (q->off && q->off == q->len)
		q->off = q->len = 0;
	if (len > q->cap - q->len && q->off) {
		memmove(q->buf, q->buf + q->off, q->len - q->off);
		q->len -= q->off;
		q->off = 0;
	}
	if (len > q->cap - q->len) {
		cap = q->cap ? q->cap : 4096;
		while (cap - q->len < len)
			cap *= 2;
		buf = realloc(q->buf, cap);
		if (!buf)
			return -ENOMEM;
		q->buf = buf;
		q->cap = cap;
	}
	if (len)	/* p may be NULL then (an empty message): memcpy wants non-NULL */
		memcpy(q->buf + q->len, p, len);
	q->len += len;
	return 0;
}

static void q_clear(struct byteq *q)
{
	q->off = q->len = 0;
}

/* ---- connection failure ---- */

/*
 * Wake the sinks that wait for their stream's handle or for the data
 * queue to empty, once they no longer need to.  Locked.
 */
bool rlink_packet_may_go(const struct ltt_relay *r, const struct relay_stream *st)
{
	return st->ready && rlink_q_empty(&r->data_q) && !r->meta_unanswered;
}

void rlink_wake_sinks(struct ltt_relay *r)
{
	struct relay_stream *st;
	uint64_t one = 1;

	for (st = r->streams; st; st = st->next) {
		if (!st->waiting || st->wake_fd < 0)
			continue;
		if (!r->conn_error && !st->refused && !rlink_packet_may_go(r, st))
			continue;
		st->waiting = false;
		st->woken = true;
		if (write(st->wake_fd, &one, sizeof(one)) < 0)
			LTT_DBG("%s: wake: %s", r->label, strerror(errno));
	}
}

/*
 * A packet the relay did not confirm written (its SEND_INDEX's reply
 * never came, or refused): lost, its events too; its channel counts them
 * (ltt_sink_lost()).  Locked.
 */
void rlink_packet_unconfirmed(struct ltt_relay *r, struct relay_stream *st, uint64_t events)
{
	r->stats.packets_lost++;
	if (st) {
		st->lost_packets++;
		st->lost_events += events;
	}
}

/* At most LTT_RELAY_RECONCILE_MAX, in order: a relay answers no more. */
void rlink_unconfirmed_add(struct relay_stream *st, uint64_t packet_seq, uint64_t events)
{
	struct relay_unconfirmed *v;
	uint32_t n = st->nr_unconfirmed, cap;

	if (st->unreconcilable)
		return;
	/* a number seen twice would be taken for the other packet */
	if (n == LTT_RELAY_RECONCILE_MAX || (n && st->unconfirmed[n - 1].packet_seq >= packet_seq)) {
		st->unreconcilable = true;
		return;
	}
	if (n == st->cap_unconfirmed) {
		cap = n ? 2 * n : 8;
		v = realloc(st->unconfirmed, cap * sizeof(*v));
		if (!v) {
			st->unreconcilable = true;
			return;
		}
		st->unconfirmed = v;
		st->cap_unconfirmed = cap;
	}
	st->unconfirmed[n] = (struct relay_unconfirmed){ packet_seq, events };
	st->nr_unconfirmed = n + 1;
}

/*
 * Record the first error, drop what is queued and awaited.  Each packet
 * handed to the sockets has its SEND_INDEX awaited until the relay wrote
 * it, so the packets awaited are exactly those the relay may not have:
 * counted lost here, once (a packet partly sent included).  Locked.
 */
void rlink_fail(struct ltt_relay *r, int err)
{
	struct expect *e;

	if (r->conn_error)
		return;
	r->conn_error = err;
	r->stats.conn_error = err;
	LTT_ERR("%s: connection lost: %s; its streams drop their packets from now on",
		r->label, strerror(-err));
	r->q_packets = r->q_bytes = 0;
	q_clear(&r->data_q);
	q_clear(&r->ctrl_q);
	while ((e = r->exp_head)) {
		r->exp_head = e->next;
		if (e->packet) {
			rlink_packet_unconfirmed(r, e->st, e->events);
			if (e->st)
				rlink_unconfirmed_add(e->st, e->packet_seq, e->events);
		}
		free(e);
	}
	r->exp_tail = &r->exp_head;
	r->meta_unanswered = 0;
	if (r->ctrl)
		shutdown(ltt_xport_fd(r->ctrl), SHUT_RDWR);
	if (r->data)
		shutdown(ltt_xport_fd(r->data), SHUT_RDWR);
	rlink_wake_sinks(r);
}
