// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - one stream: packets from its source to its sink, whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "consumerd/channel.h"
#include "consumerd/stream.h"

/* The events the stream's writers dropped so far (the ring buffer's count). */
static uint64_t events_lost(const struct ltt_stream *s)
{
	struct ltt_channel_stats st = { 0 };

	ltt_source_stats(s->src, &st);
	return st.events_lost;
}

/* The output failed with @err: say so once, remember when. */
static void fail(struct ltt_stream *s, int err, const char *what)
{
	if (s->error) {
		s->error = err;
		return;
	}
	s->error = err;
	s->error_since = (int64_t)time(NULL);
	s->error_events_base = events_lost(s);
	LTT_ERR("%s: %s: %s; what its writers record from now on is counted lost until the output works again ('lttctl start' tries again)",
		s->src->label, what, strerror(-err));
}

/* The output works again; nothing to do (no counter read) if it never failed. */
static void recover(struct ltt_stream *s)
{
	uint64_t now;

	if (!s->error)
		return;
	now = events_lost(s);
	if (now > s->error_events_base)
		ltt_source_add_sat(&s->error_events, now - s->error_events_base);
	s->error = 0;
	LTT_INFO("%s: writing again", s->src->label);
}

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
	if (ret && chan->output->retry_open && ret != -ENAMETOOLONG && ret != -EINVAL) {
		/* kept, failed: read nothing, count the writers' drops, retry at flush */
		fail(s, ret, "can't create its files");
		ret = 0;
	}
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

/*
 * Write one packet whole.  Returns 0 when it is written or dropped
 * (counted lost), or -EAGAIN when the output failed and the stream holds
 * the packet to write it again later: the caller must not put it back.
 */
static int write_packet(struct ltt_stream *s, struct ltt_sink_packet *pkt)
{
	int ret = s->dropping ? s->error : ltt_sink_write(s->sink, pkt);

	if (!ret) {
		s->bytes_written += pkt->len;
		recover(s);
		return 0;
	}
	if (!s->dropping && s->sink->retry_failed) {
		fail(s, ret, "can't write to its file");
		if (!s->src->copies) {
			s->held_pkt = *pkt;
			s->held = true;
			return -EAGAIN;
		}
	}
	if (!s->packets_failed && !s->error)
		LTT_ERR("%s: can't write packet %" PRIu64
			": %s (counted lost; further failures are not logged)",
			s->src->label, pkt->entry.packet_seq_num, strerror(-ret));
	s->packets_failed++;
	/* evcount: the packet's events go to the lost events here too */
	if (s->error)
		s->error_packets++;
	return 0;
}

/* A failed output holds the stream: nothing is read until a flush retries. */
static bool stalled(const struct ltt_stream *s)
{
	return s->error && !s->dropping && (s->held || !s->sink);
}

/* A flush: try the failed output again.  Data thread. */
static void retry(struct ltt_stream *s)
{
	int ret;

	if (!s->error || s->dropping)
		return;
	if (!s->sink) {
		ret = open_sink(s, s->chan);
		if (ret) {
			s->error = ret;
			return;
		}
	}
	if (s->held) {
		/* its bytes may have left a splice fd: from memory this time */
		s->held_pkt.splice_fd = -1;
		ret = ltt_sink_write(s->sink, &s->held_pkt);
		if (ret) {
			s->error = ret;
			return;
		}
		s->bytes_written += s->held_pkt.len;
		s->held = false;
		ret = ltt_source_put(s->src);
		if (ret)
			LTT_ERR("%s: can't release a packet: %s", s->src->label, strerror(-ret));
	}
	/* one that drops on failure tries its next packet: fails again if it must */
	recover(s);
}

/* A final flush and the output still fails: drop what is held, and the rest. */
static void drop_held(struct ltt_stream *s)
{
	int ret;

	s->dropping = true;
	LTT_ERR("%s: the output still fails (%s): the packets in its buffer are dropped, counted lost",
		s->src->label, strerror(-s->error));
	if (!s->held)
		return;
	s->held = false;
	s->packets_failed++;
	s->error_packets++;
	ret = ltt_source_put(s->src);
	if (ret)
		LTT_ERR("%s: can't release a packet: %s", s->src->label, strerror(-ret));
}

/* Drain at most @budget packets; *ret_used says how many were tried. */
static enum ltt_stream_state drain_n(struct ltt_stream *s, struct ltt_scratch *scratch,
				     uint64_t budget, uint64_t *ret_used)
{
	enum ltt_stream_state state = LTT_STREAM_IDLE;
	struct ltt_sink_packet pkt;
	uint64_t n;
	int ret;

	for (n = 0; n < budget; n++) {
		if (stalled(s)) {
			state = LTT_STREAM_FAILED;
			break;
		}
		if (!s->dropping && ltt_sink_ready(s->sink)) {
			state = LTT_STREAM_BLOCKED;
			break;
		}
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
		if (write_packet(s, &pkt)) {
			state = LTT_STREAM_FAILED;
			break;
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

	return drain_n(s, scratch, budget, &used);
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
						struct ltt_scratch *scratch)
{
	uint64_t left = 2 * s->src->nr_packets + 2, used;
	enum ltt_stream_state state;

	while (left) {
		if (ltt_source_give_up(s->src) == -ENODATA)
			return LTT_STREAM_IDLE;
		left--;
		/* given up, complete after all (-EBUSY), or raced (-EAGAIN) */
		state = drain_n(s, scratch, left, &used);
		if (state == LTT_STREAM_BLOCKED || state == LTT_STREAM_FAILED)
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

	retry(s);
	if (final && stalled(s))
		drop_held(s);
	ltt_stream_switch(s);
	state = ltt_stream_drain(s, scratch, budget);
	if (final && state != LTT_STREAM_BLOCKED && state != LTT_STREAM_FAILED) {
		left = give_up_incomplete(s, scratch);
		if (left != LTT_STREAM_IDLE)
			state = left;
	}
	return state;
}

void ltt_stream_stats(const struct ltt_stream *s, struct ltt_channel_stats *stats)
{
	uint64_t now = s->error ? events_lost(s) : 0;

	ltt_source_stats(s->src, stats);
	ltt_source_add_sat(&stats->packets_lost, s->packets_failed);
	ltt_source_add_sat(&stats->bytes_written, s->bytes_written);
	ltt_source_add_sat(&stats->error_events, s->error_events);
	if (s->error && now > s->error_events_base)
		ltt_source_add_sat(&stats->error_events, now - s->error_events_base);
	ltt_source_add_sat(&stats->error_packets, s->error_packets);
	/* the channel's: the failure that began first */
	if (s->error && (!stats->error || s->error_since < stats->error_since)) {
		stats->error = s->error;
		stats->error_since = s->error_since;
	}
}
