// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay-reconcile.c - after the relay connection died: which of the
 * packets awaited then (counted lost at once, relay-queue.c) a relay
 * that answers again holds in its trace.  RECONCILE_STREAM on a
 * connection of its own, to ltt-relayd only (LTT_RELAY_CONFIG_RECONCILE);
 * those it holds are counted recorded, not lost (doc/relayd.md, "Exact
 * counts across a relay's death").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/net/relay-conn.h"
#include "common/net/xport.h"
#include "common/proto/relay-proto.h"
#include "consumerd/relay/relay-link.h"

/*
 * The whole exchange's deadline: the command thread waits that long at
 * most (the session daemon gives RELAY_DATA_PENDING 5 s).  After an ask
 * that failed, the next waits RETRY_FIRST_MS, twice that after a second
 * failure in a row, and so on up to RETRY_MS (at once RETRY_MS after a
 * relay that timed out), so that asking again and again (each stop,
 * destroy and wait for data) neither holds the thread nor hammers the
 * relay.  A relay that answers and refuses (a stream it can't say about,
 * or another relay there) is asked RECONCILE_REFUSALS times at most:
 * then the packets stay counted lost and a warning says so, once.  A
 * relay that does not answer (not back yet) is asked again, no more than
 * once every RETRY_MS.
 */
#define RECONCILE_MS 2000
#define RETRY_FIRST_MS 1000
#define RETRY_MS 30000
#define RECONCILE_REFUSALS 5

/* A stream to ask about, its request made under the lock. */
struct ask {
	struct relay_stream *st;
	struct ltt_relay_reconcile_stream req;
};

/* The streams with packets to ask about, into a new *ret_asks.  Locked. */
static size_t collect(const struct ltt_relay *r, struct ask **ret_asks, uint64_t *ret_packets)
{
	struct relay_stream *st;
	struct ask *asks;
	size_t n = 0;

	*ret_asks = NULL;
	for (st = r->streams; st; st = st->next)
		n += st->nr_unconfirmed && !st->unreconcilable;
	if (!n)
		return 0;
	asks = calloc(n, sizeof(*asks));
	if (!asks)
		return 0;
	n = 0;
	for (st = r->streams; st; st = st->next) {
		if (!st->nr_unconfirmed || st->unreconcilable)
			continue;
		asks[n].st = st;
		*ret_packets += st->nr_unconfirmed;
		asks[n].req.first_packet_seq = st->unconfirmed[0].packet_seq;
		asks[n].req.rotating = st->rotating;
		snprintf(asks[n].req.session_path, sizeof(asks[n].req.session_path), "%s",
			 r->out_path);
		snprintf(asks[n].req.pathname, sizeof(asks[n].req.pathname), "%s", st->path);
		snprintf(asks[n].req.channel_name, sizeof(asks[n].req.channel_name), "%s",
			 st->name);
		n++;
	}
	*ret_asks = asks;
	return n;
}

/*
 * The relay holds @seqs (ascending) of @st's stream: those of its
 * unconfirmed packets are recorded, not lost; the others are not in the
 * trace (the relay cut what no index covered).  Locked.
 */
static void apply(struct ltt_relay *r, struct relay_stream *st, const uint64_t *seqs,
		  uint32_t count, uint64_t *ret_packets, uint64_t *ret_events)
{
	const struct relay_unconfirmed *u;
	uint32_t i, j = 0;

	for (i = 0; i < st->nr_unconfirmed; i++) {
		u = &st->unconfirmed[i];
		while (j < count && seqs[j] < u->packet_seq)
			j++;
		if (j == count || seqs[j] != u->packet_seq)
			continue;
		if (st->lost_packets)
			st->lost_packets--;
		st->lost_events -= u->events <= st->lost_events ? u->events : st->lost_events;
		if (r->stats.packets_lost)
			r->stats.packets_lost--;
		(*ret_packets)++;
		*ret_events += u->events;
	}
	free(st->unconfirmed);
	st->unconfirmed = NULL;
	st->nr_unconfirmed = st->cap_unconfirmed = 0;
}

/*
 * Ask the relay on @x about each of @asks; 0 or the connection's error.
 * The streams it refuses keep their packets to ask about: *@ret_refused.
 */
static int ask_all(struct ltt_relay *r, struct ltt_xport *x, struct ask *asks, size_t n,
		   uint64_t deadline, uint64_t *ret_packets, uint64_t *ret_events,
		   uint32_t *ret_refused)
{
	uint64_t *seqs = malloc(LTT_RELAY_RECONCILE_MAX * sizeof(*seqs));
	uint32_t count, code;
	size_t i;
	int ret = seqs ? 0 : -ENOMEM;

	for (i = 0; i < n && !ret; i++) {
		ret = ltt_relay_conn_reconcile(x, &asks[i].req, deadline, seqs, &count, &code);
		if (ret)
			break;
		if (code != LTT_RELAY_OK) {
			LTT_INFO("%s: the relay can't say which packets of stream %s/%s it holds: %s; they stay counted lost for now",
				 r->label, asks[i].req.pathname, asks[i].req.channel_name,
				 ltt_relay_ret_str(code));
			*ret_refused = code;
			continue;
		}
		pthread_mutex_lock(&r->lock);
		apply(r, asks[i].st, seqs, count, ret_packets, ret_events);
		pthread_mutex_unlock(&r->lock);
	}
	free(seqs);
	return ret;
}

/*
 * The refusals are done: the streams still holding packets to ask about
 * are not asked again, their packets stay counted lost (as they are), and
 * the user is told, once.  Locked.
 */
static void give_up(struct ltt_relay *r, const char *why)
{
	struct relay_stream *st;
	uint64_t packets = 0;

	for (st = r->streams; st; st = st->next) {
		if (!st->nr_unconfirmed || st->unreconcilable)
			continue;
		packets += st->nr_unconfirmed;
		st->unreconcilable = true;
		free(st->unconfirmed);
		st->unconfirmed = NULL;
		st->nr_unconfirmed = st->cap_unconfirmed = 0;
	}
	LTT_WARN("%s: the relay refused %u times to say which of the %" PRIu64 " packets unconfirmed when the connection died it holds (last: %s): they stay counted lost, and it is not asked again; a relay restarted on the same output and control port answers this (doc/relayd.md)",
		 r->label, r->reconcile_refused, packets, why);
}

/*
 * An ask failed with @ret (-errno), or the relay refused @refused (a
 * relay code): the next waits; the last refusal gives up.
 */
static void failed(struct ltt_relay *r, int ret, uint32_t refused)
{
	uint64_t wait = RETRY_FIRST_MS;
	unsigned int i;
	char why[128];

	for (i = 0; i < r->reconcile_fails && wait < RETRY_MS; i++)
		wait *= 2;
	if (wait > RETRY_MS || ret == -ETIMEDOUT)
		wait = RETRY_MS;
	r->reconcile_fails++;
	r->reconcile_retry_ms = ltt_relay_conn_now_ms() + wait;
	if (!refused && ret != -EPROTONOSUPPORT)
		return;		/* no answer: the relay may come back */
	if (++r->reconcile_refused < RECONCILE_REFUSALS)
		return;
	snprintf(why, sizeof(why), "%s", refused ? ltt_relay_ret_str(refused) :
		 "another relay answers there");
	pthread_mutex_lock(&r->lock);
	give_up(r, why);
	pthread_mutex_unlock(&r->lock);
}

int ltt_rlink_reconcile(struct ltt_relay *r)
{
	uint64_t deadline, packets = 0, events = 0, flags = 0, asked = 0;
	struct ltt_xport *x = NULL;
	uint32_t minor = 0, refused = 0;
	struct ask *asks;
	size_t n;
	int ret;

	if (r->reconcile_retry_ms && ltt_relay_conn_now_ms() < r->reconcile_retry_ms)
		return 0;
	pthread_mutex_lock(&r->lock);
	n = r->conn_error && r->reconcile ? collect(r, &asks, &asked) : 0;
	pthread_mutex_unlock(&r->lock);
	if (!n)
		return 0;
	deadline = ltt_relay_conn_now_ms() + RECONCILE_MS;
	ret = ltt_relay_conn_open(r->addr.family, r->addr.host, r->addr.ctrl_port, r->tls, deadline,
				  r->label, &x);
	if (!ret)
		ret = ltt_relay_conn_version(x, deadline, r->label, &minor);
	if (!ret && minor >= LTT_RELAY_MINOR_CONFIG)
		ret = ltt_relay_conn_get_configuration(x, deadline, r->label, &flags);
	if (!ret && !((flags & LTT_RELAY_CONFIG_LTT) && (flags & LTT_RELAY_CONFIG_RECONCILE)))
		ret = -EPROTONOSUPPORT;
	if (!ret)
		ret = ask_all(r, x, asks, n, deadline, &packets, &events, &refused);
	ltt_xport_destroy(x);
	free(asks);
	if (ret || refused)
		failed(r, ret, refused);
	else
		r->reconcile_retry_ms = r->reconcile_fails = 0;
	if (ret) {
		LTT_INFO("%s: the relay can't be asked which unconfirmed packets it holds (%s): they stay counted lost for now",
			 r->label, ret == -EPROTONOSUPPORT ? "another relay answers there" :
			 strerror(-ret));
		return ret;
	}
	LTT_INFO("%s: the relay holds %" PRIu64 " of the %" PRIu64 " packets unconfirmed when the connection died (%" PRIu64 " events): counted recorded, not lost",
		 r->label, packets, asked, events);
	return packets ? 1 : 0;
}
