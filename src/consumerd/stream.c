// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - one stream: packets from its source to its sink, whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "consumerd/channel.h"
#include "consumerd/stream.h"

/* The stream's sink in its channel's output, named CHANNEL_CPU. */
static int open_sink(struct ltt_stream *s, const struct ltt_channel *chan)
{
	char name[LTT_SINK_FILE_BASE_MAX + 1];
	int n;

	n = snprintf(name, sizeof(name), "%s_%" PRIu32, chan->name, s->cpu);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	return ltt_output_open_sink(chan->output, name, &s->sink);
}

int ltt_stream_create(const struct ltt_channel *chan, uint32_t cpu, struct ltt_source *src,
		      struct ltt_stream **ret_stream)
{
	struct ltt_stream *s;
	int ret;

	if (!chan || !src || !ret_stream) {
		ltt_source_destroy(src);
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ltt_source_destroy(src);
		return -ENOMEM;
	}
	s->chan = chan;
	s->cpu = cpu;
	s->src = src;
	ret = open_sink(s, chan);
	if (ret) {
		ltt_stream_destroy(s);
		return ret;
	}
	*ret_stream = s;
	return 0;
}

void ltt_stream_destroy(struct ltt_stream *s)
{
	if (!s)
		return;
	ltt_sink_destroy(s->sink);
	ltt_source_destroy(s->src);
	free(s);
}

/* Write one packet whole; a failure counts it lost, with its events. */
static void write_packet(struct ltt_stream *s, struct ltt_sink_packet *pkt)
{
	int ret = ltt_sink_write(s->sink, pkt);

	if (ret) {
		if (!s->packets_failed)
			LTT_ERR("%s: can't write packet %" PRIu64
				": %s (counted lost; further failures are not logged)",
				s->src->label, pkt->entry.packet_seq_num, strerror(-ret));
		s->packets_failed++;
		ltt_source_add_sat(&s->events_failed, pkt->events);
		return;
	}
	s->bytes_written += pkt->len;
}

/*
 * Drain at most @budget packets; *ret_used says how many were tried.
 * @discard: read them without writing them, counted lost.
 */
static enum ltt_stream_state drain_n(struct ltt_stream *s, struct ltt_scratch *scratch,
				     uint64_t budget, bool discard, uint64_t *ret_used)
{
	enum ltt_stream_state state = LTT_STREAM_IDLE;
	struct ltt_sink_packet pkt;
	uint64_t n;
	int ret;

	for (n = 0; n < budget; n++) {
		if (!discard && ltt_sink_ready(s->sink)) {
			state = LTT_STREAM_BLOCKED;
			break;
		}
		memset(&pkt, 0, sizeof(pkt));
		ret = ltt_source_get(s->src, scratch, &pkt);
		if (ret == -EAGAIN)
			break;
		if (ret == -ENODATA) {
			s->ended = true;
			break;
		}
		if (ret == -EIO || ret == -ESTALE)
			continue;	/* skipped and counted by the source */
		if (ret) {
			LTT_ERR("%s: can't read: %s", s->src->label, strerror(-ret));
			break;
		}
		if (discard) {
			s->packets_discarded++;
			ltt_source_add_sat(&s->events_discarded, pkt.events);
		} else {
			write_packet(s, &pkt);
		}
		ret = ltt_source_put(s->src);
		if (ret) {
			LTT_ERR("%s: can't release a packet: %s", s->src->label, strerror(-ret));
			break;
		}
	}
	*ret_used = n;
	return n == budget ? LTT_STREAM_BUSY : state;
}

enum ltt_stream_state ltt_stream_drain(struct ltt_stream *s, struct ltt_scratch *scratch,
				       unsigned int budget)
{
	uint64_t used;

	return drain_n(s, scratch, budget, false, &used);
}

void ltt_stream_switch(struct ltt_stream *s)
{
	ltt_source_switch(s->src);
}

/*
 * No writer remains: give up on the packets they left incomplete, reading
 * whatever completes in between, until nothing is reserved past the read
 * position.  Bounded in total work: legitimately at most a lap of
 * packets is pending, each read or given up once; a region that lies,
 * or a writer still alive, runs into the bound.
 */
static enum ltt_stream_state give_up_incomplete(struct ltt_stream *s,
						struct ltt_scratch *scratch, bool discard)
{
	uint64_t left = 2 * s->src->nr_packets + 2, used;
	enum ltt_stream_state state;

	while (left) {
		if (ltt_source_give_up(s->src) == -ENODATA)
			return LTT_STREAM_IDLE;
		left--;
		/* given up, complete after all (-EBUSY), or raced (-EAGAIN) */
		state = drain_n(s, scratch, left, discard, &used);
		if (state == LTT_STREAM_BLOCKED)
			return state;
		left -= used;
	}
	return LTT_STREAM_BUSY;
}

enum ltt_stream_state ltt_stream_flush(struct ltt_stream *s, struct ltt_scratch *scratch,
				       bool final)
{
	/* at most a lap of packets is complete at any time (2^20 at most) */
	unsigned int budget = (unsigned int)s->src->nr_packets + 1;
	enum ltt_stream_state state, left;

	uint64_t packets = s->packets_discarded, events = s->events_discarded, used;
	bool discard;

	ltt_stream_switch(s);
	state = ltt_stream_drain(s, scratch, budget);
	if (!final)
		return state;
	/*
	 * The channel goes away after a final flush: what a blocked sink
	 * cannot take now is read and counted, or it would vanish uncounted.
	 */
	discard = state == LTT_STREAM_BLOCKED;
	if (discard)
		state = drain_n(s, scratch, budget, true, &used);
	left = give_up_incomplete(s, scratch, discard);
	if (left != LTT_STREAM_IDLE)
		state = left;
	if (s->packets_discarded != packets)
		LTT_ERR("%s: its output still blocks at the final flush: %" PRIu64
			" packets (%" PRIu64 " events) left unsent, counted lost",
			s->src->label, s->packets_discarded - packets,
			s->events_discarded - events);
	return state;
}

void ltt_stream_stats(const struct ltt_stream *s, struct ltt_channel_stats *stats)
{
	uint64_t packets = 0, events = 0;

	ltt_source_stats(s->src, stats);
	ltt_sink_lost(s->sink, &packets, &events);
	ltt_source_add_sat(&stats->packets_lost, s->packets_failed);
	ltt_source_add_sat(&stats->events_lost, s->events_failed);
	ltt_source_add_sat(&stats->packets_lost, s->packets_discarded);
	ltt_source_add_sat(&stats->events_lost, s->events_discarded);
	ltt_source_add_sat(&stats->packets_lost, packets);
	ltt_source_add_sat(&stats->events_lost, events);
	ltt_source_add_sat(&stats->bytes_written, s->bytes_written);
}
