// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - one stream: packets from its source to its sink, whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>

#include "common/base/log.h"
#include "common/trace/tclock.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/stream.h"

/* The events the stream's writers dropped so far (the ring buffer's count). */
static uint64_t events_lost(const struct ltt_stream *s)
{
	struct ltt_channel_stats st = { 0 };

	ltt_source_stats(s->src, &st);
	return st.events_lost;
}

/*
 * The output failed with @err: say so once, remember when.  -ENOENT (the
 * files no longer have a name: ltt_sink_write()) is for good: the stream
 * drops from now on, every packet counted lost as it is read, rather than
 * holding what can never be written (nothing would count it).
 */
static void fail(struct ltt_stream *s, int err, const char *what)
{
	bool was = s->error != 0;

	s->error = err;
	if (!was) {
		s->error_since = (int64_t)time(NULL);
		s->error_events_base = events_lost(s);
	}
	if (err == -ENOENT && !s->dropping) {
		s->dropping = true;
		LTT_ERR("%s: %s: its files were removed (the trace's directory, or they): every packet from now on is dropped, counted lost",
			s->src->label, what);
	} else if (!was) {
		LTT_ERR("%s: %s: %s; what its writers record from now on is counted lost until the output works again ('lttctl start' tries again)",
			s->src->label, what, strerror(-err));
	}
}

/* The output works again; nothing to do (no counter read) if it never failed. */
static void recover(struct ltt_stream *s)
{
	uint64_t now;

	if (!s->error)
		return;
	now = events_lost(s);
	if (now > s->error_events_base)
		ltt_add_sat(&s->error_events, now - s->error_events_base);
	s->error = 0;
	LTT_INFO("%s: writing again", s->src->label);
}

/* The stream's sink in its channel's output, named CHANNEL_CPU. */
static int open_sink(struct ltt_stream *s, const struct ltt_channel *chan)
{
	char name[LTT_SINK_FILE_BASE_MAX + 1];
	uint64_t last;
	int n, ret;

	n = snprintf(name, sizeof(name), "%s_%" PRIu32, chan->name, s->cpu);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	ret = ltt_output_open_sink(chan->output, name, &s->sink);
	/* a dead consumer's files go on: so do their packets' numbers (the sink takes no lower) */
	if (!ret && ltt_sink_resumed(s->sink, &last)) {
		ltt_source_continue_seq(s->src, last + 1);
		s->resumed = true;
		s->resumed_last = last;
	}
	return ret;
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
	if (chan->snapshot) {
		/* a snapshot trace's: never read here, no sink (snapshot.h) */
		*ret_stream = s;
		return 0;
	}
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

/* The stream closes: @events its source held were counted lost (ltt_source_abandon()). */
static void abandoned(const struct ltt_stream *s, uint64_t events)
{
	if (events)
		LTT_ERR("%s: closed before it was read to its end: %" PRIu64
			" events its source still held counted lost", s->src->label, events);
}

void ltt_stream_destroy(struct ltt_stream *s)
{
	if (!s)
		return;
	/* what its source still holds is lost: counted before the last publish */
	if (!s->chan->snapshot)
		abandoned(s, ltt_source_abandon(s->src));
	ltt_stream_publish(s);
	if (s->pub_map)
		munmap(s->pub_map, s->pub_len);
	ltt_sink_destroy(s->sink);
	ltt_source_destroy(s->src);
	free(s);
}

/*
 * A packet read but not written: lost, its events too (committed =
 * recorded + counted); part of the output's failure while there is one.
 */
static void drop_packet(struct ltt_stream *s, const struct ltt_sink_packet *pkt)
{
	s->packets_failed++;
	ltt_add_sat(&s->events_failed, pkt->events);
	if (s->error) {
		s->error_packets++;
		ltt_add_sat(&s->error_events, pkt->events);
	}
}

/*
 * The sink writes @pkt, the source's ledger following: in the files
 * (or there already), its events are out of it; not, they stay.
 */
static int sink_write(struct ltt_stream *s, struct ltt_sink_packet *pkt)
{
	int ret;

	ltt_source_ledger_pending(s->src, pkt->entry.packet_seq_num, pkt->events);
	ret = ltt_sink_write(s->sink, pkt);
	ltt_source_ledger_done(s->src, !ret || ret == -EALREADY ? pkt->events : 0);
	return ret;
}

/*
 * Write one packet whole.  Returns 0 when it is written or dropped
 * (counted lost, with its events), or -EAGAIN when the output failed and
 * the stream holds the packet to write it again later: the caller must
 * not put it back.
 */
static int write_packet(struct ltt_stream *s, struct ltt_sink_packet *pkt)
{
	int ret = s->dropping ? s->error : sink_write(s, pkt);

	if (ret == -EALREADY) {
		/* a dead consumer wrote it and died before releasing it */
		s->packets_already++;
		return 0;
	}
	if (!ret) {
		s->bytes_written += pkt->len;
		s->packets_written++;
		recover(s);
		return 0;
	}
	if (!s->dropping && s->sink->retry_failed) {
		fail(s, ret, "can't write to its file");
		if (!s->dropping && !s->src->copies) {
			s->held_pkt = *pkt;
			s->held = true;
			return -EAGAIN;
		}
	}
	if (!s->packets_failed && !s->error)
		LTT_ERR("%s: can't write packet %" PRIu64
			": %s (counted lost; further failures are not logged)",
			s->src->label, pkt->entry.packet_seq_num, strerror(-ret));
	drop_packet(s, pkt);
	return 0;
}

/* A failed output holds the stream: nothing is read until a flush retries. */
static bool stalled(const struct ltt_stream *s)
{
	return s->error && !s->dropping && (s->held || !s->sink);
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
	drop_packet(s, &s->held_pkt);
	ret = ltt_source_put(s->src);
	if (ret)
		LTT_ERR("%s: can't release a packet: %s", s->src->label, strerror(-ret));
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
			fail(s, ret, "can't create its files");
			return;
		}
	}
	if (s->held) {
		/* its bytes may have left a splice fd: from memory this time */
		s->held_pkt.splice_fd = -1;
		ret = sink_write(s, &s->held_pkt);
		if (ret && ret != -EALREADY) {
			fail(s, ret, "can't write to its file");
			if (s->dropping)
				drop_held(s);	/* for good: counted lost now */
			return;
		}
		if (ret == -EALREADY) {
			s->packets_already++;
		} else {
			s->bytes_written += s->held_pkt.len;
			s->packets_written++;
		}
		s->held = false;
		ret = ltt_source_put(s->src);
		if (ret)
			LTT_ERR("%s: can't release a packet: %s", s->src->label, strerror(-ret));
	}
	/* one that drops on failure tries its next packet: fails again if it must */
	recover(s);
}

/* What drain_n() does with the packets it reads. */
enum drain_mode {
	DRAIN_WRITE,		/* write them to the sink */
	DRAIN_DISCARD,		/* read them without writing them, counted lost */
	DRAIN_CLEAR,		/* read them without writing them: a clear, not a loss */
};

/*
 * Drain at most @budget packets; *ret_used says how many were tried.
 */
static enum ltt_stream_state drain_n(struct ltt_stream *s, struct ltt_scratch *scratch,
				     uint64_t budget, enum drain_mode mode, uint64_t *ret_used)
{
	bool discard = mode != DRAIN_WRITE;
	enum ltt_stream_state state = LTT_STREAM_IDLE;
	struct ltt_sink_packet pkt;
	uint64_t n, skipped;
	int ret;

	*ret_used = 0;
	skipped = ltt_source_events_skipped(s->src);
	if (s->chan->snapshot)	/* its packets stay (or are kept) */
		return ltt_source_keep(s->src) == -EBUSY ? LTT_STREAM_BUSY : LTT_STREAM_IDLE;
	if (s->ended)
		return LTT_STREAM_IDLE;	/* read empty, and its sink may be gone (a new chunk) */

	for (n = 0; n < budget; n++) {
		if (!discard && stalled(s)) {
			state = LTT_STREAM_FAILED;
			break;
		}
		if (!discard && !s->dropping && ltt_sink_ready(s->sink)) {
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
		if (mode == DRAIN_CLEAR) {
			s->packets_cleared++;
			ltt_add_sat(&s->events_cleared, pkt.events);
			ltt_source_ledger_done(s->src, pkt.events);	/* dropped on purpose */
		} else if (discard) {
			s->packets_discarded++;
			ltt_add_sat(&s->events_discarded, pkt.events);
		} else if (write_packet(s, &pkt)) {
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
	/* a failed output: its drops keep counting; a packet given up, its events */
	if (n || state == LTT_STREAM_FAILED || ltt_source_events_skipped(s->src) != skipped)
		ltt_stream_publish(s);
	return n == budget ? LTT_STREAM_BUSY : state;
}

enum ltt_stream_state ltt_stream_drain(struct ltt_stream *s, struct ltt_scratch *scratch,
				       unsigned int budget)
{
	uint64_t used;

	return drain_n(s, scratch, budget, DRAIN_WRITE, &used);
}

void ltt_stream_switch(struct ltt_stream *s)
{
	ltt_source_switch(s->src);
}

void ltt_stream_switch_empty(struct ltt_stream *s)
{
	ltt_source_switch_empty(s->src);
}

/*
 * No writer remains: give up on the packets they left incomplete, reading
 * whatever completes in between, until nothing is reserved past the read
 * position.  Bounded in total work: legitimately at most a lap of
 * packets is pending, each read or given up once; a region that lies,
 * or a writer still alive, runs into the bound.
 */
static enum ltt_stream_state give_up_incomplete(struct ltt_stream *s,
						struct ltt_scratch *scratch, enum drain_mode mode)
{
	uint64_t left = 2 * s->src->nr_packets + 2, used;
	enum ltt_stream_state state;

	while (left) {
		if (ltt_source_give_up(s->src) == -ENODATA)
			return LTT_STREAM_IDLE;
		left--;
		/* given up, complete after all (-EBUSY), or raced (-EAGAIN) */
		state = drain_n(s, scratch, left, mode, &used);
		if (state == LTT_STREAM_BLOCKED || state == LTT_STREAM_FAILED)
			return state;
		left -= used;
	}
	return LTT_STREAM_BUSY;
}

/* A flush; @span: the open packet closed by ltt_source_span() (a stop's, a chunk's end). */
static enum ltt_stream_state flush(struct ltt_stream *s, struct ltt_scratch *scratch, bool final,
				   bool span)
{
	/* at most a lap of packets is complete at any time (2^20 at most) */
	unsigned int budget = (unsigned int)s->src->nr_packets + 1;
	enum ltt_stream_state state, left;

	if (s->chan->snapshot)
		return LTT_STREAM_IDLE;	/* nothing is written */
	retry(s);
	if (final && stalled(s))
		drop_held(s);
	if (span)
		ltt_source_span(s->src);
	else
		ltt_stream_switch(s);
	state = ltt_stream_drain(s, scratch, budget);
	if (final && state != LTT_STREAM_BLOCKED && state != LTT_STREAM_FAILED) {
		left = give_up_incomplete(s, scratch, DRAIN_WRITE);
		if (left != LTT_STREAM_IDLE)
			state = left;
	}
	ltt_stream_publish(s);
	return state;
}

enum ltt_stream_state ltt_stream_flush(struct ltt_stream *s, struct ltt_scratch *scratch,
				       bool final)
{
	return flush(s, scratch, final, false);
}

enum ltt_stream_state ltt_stream_flush_stopped(struct ltt_stream *s, struct ltt_scratch *scratch)
{
	return flush(s, scratch, false, true);
}

void ltt_stream_discard(struct ltt_stream *s, struct ltt_scratch *scratch)
{
	uint64_t packets = s->packets_discarded, events = s->events_discarded, used;

	if (s->ended || s->chan->snapshot)
		return;
	if (s->held)
		drop_held(s);
	drain_n(s, scratch, s->src->nr_packets + 1, DRAIN_DISCARD, &used);
	/* packets a live writer still holds: neither read nor given up, lost */
	if (give_up_incomplete(s, scratch, DRAIN_DISCARD) != LTT_STREAM_IDLE)
		abandoned(s, ltt_source_abandon(s->src));
	if (s->packets_discarded != packets)
		LTT_ERR("%s: closed while its output still blocked: %" PRIu64 " packets (%" PRIu64
			" events) never sent, counted lost", s->src->label,
			s->packets_discarded - packets, s->events_discarded - events);
	ltt_stream_publish(s);	/* the session daemon reads them once the channel is gone */
}

/* A clear: what the stream holds is dropped on purpose, not lost. */
static void clear_held(struct ltt_stream *s)
{
	int ret;

	if (!s->held)
		return;
	s->held = false;
	s->packets_cleared++;
	ltt_add_sat(&s->events_cleared, s->held_pkt.events);
	ltt_source_ledger_done(s->src, s->held_pkt.events);
	ret = ltt_source_put(s->src);
	if (ret)
		LTT_ERR("%s: can't release a packet: %s", s->src->label, strerror(-ret));
}

/* What the stream's sinks lost after taking it: this chunk's and the earlier ones'. */
static void sink_lost(const struct ltt_stream *s, uint64_t *ret_packets, uint64_t *ret_events)
{
	uint64_t packets = 0, events = 0;

	ltt_sink_lost(s->sink, &packets, &events);
	*ret_packets = s->sinks_lost_packets;
	*ret_events = s->sinks_lost_events;
	ltt_add_sat(ret_packets, packets);
	ltt_add_sat(ret_events, events);
}

enum ltt_stream_state ltt_stream_new_chunk(struct ltt_stream *s, struct ltt_scratch *scratch,
					   bool clear)
{
	enum ltt_stream_state state = LTT_STREAM_IDLE;
	uint64_t used, packets, events;
	int ret;

	if (clear) {
		clear_held(s);
		ltt_stream_switch(s);
		drain_n(s, scratch, s->src->nr_packets + 1, DRAIN_CLEAR, &used);
		if (s->sink)
			ltt_sink_remove(s->sink);
	} else {
		/*
		 * Packets complete now go to the chunk that ends: a relay's
		 * sink that can't take one yet (its socket, metadata sent
		 * before) is waited for, within the relay's stall deadline.
		 */
		state = flush(s, scratch, false, true);
		while (state == LTT_STREAM_BLOCKED &&
		       !ltt_sink_wait_ready(s->sink))
			state = ltt_stream_drain(s, scratch, (unsigned int)s->src->nr_packets + 1);
	}
	sink_lost(s, &packets, &events);	/* the new sink counts from 0 */
	s->sinks_lost_packets = packets;
	s->sinks_lost_events = events;
	ltt_sink_destroy(s->sink);
	s->sink = NULL;
	if (s->ended) {
		/* a finalized stream writes nothing more: no files in the new chunk */
		ltt_stream_publish(s);
		return LTT_STREAM_IDLE;
	}
	/* files of their own in the new chunk: those removed no longer matter */
	if (s->dropping && s->error == -ENOENT) {
		s->dropping = false;
		recover(s);
	}
	ret = open_sink(s, s->chan);
	if (ret)
		fail(s, ret, "can't create its files in the new trace chunk");
	else
		retry(s);	/* a packet held by a failed output goes here */
	ltt_stream_publish(s);
	return stalled(s) ? LTT_STREAM_FAILED : state;
}

/* The counts a dead consumer left in @s's slot: this one continues them. */
static void load_base(struct ltt_stream *s)
{
	/* one load per word: the page is shared, the base is ours */
	s->pub_base.packets_lost = __atomic_load_n(&s->pub->packets_lost, __ATOMIC_RELAXED);
	s->pub_base.bytes_written = __atomic_load_n(&s->pub->bytes_written, __ATOMIC_RELAXED);
	s->pub_base.events_lost = __atomic_load_n(&s->pub->events_lost, __ATOMIC_RELAXED);
	s->pub_base.packets_written = __atomic_load_n(&s->pub->packets_written,
						      __ATOMIC_RELAXED);
	s->pub_base.error_events = __atomic_load_n(&s->pub->error_events, __ATOMIC_RELAXED);
	s->pub_base.error_packets = __atomic_load_n(&s->pub->error_packets, __ATOMIC_RELAXED);
}

int ltt_stream_set_stats_page(struct ltt_stream *s, int fd)
{
	uint64_t need = ((uint64_t)s->cpu + 1) * LTT_CONSUMER_STATS_SLOT;
	struct stat st;
	int seals;
	void *map;

	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK))
		return -EPERM;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size < 0 || (uint64_t)st.st_size < need ||
	    (uint64_t)st.st_size > SIZE_MAX)
		return -EINVAL;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (s->pub_map)
		munmap(s->pub_map, s->pub_len);
	s->pub_map = map;
	s->pub_len = (size_t)st.st_size;
	s->pub = (struct ltt_consumer_stream_stats *)((uintptr_t)map +
						     (uintptr_t)s->cpu * LTT_CONSUMER_STATS_SLOT);
	memset(&s->pub_base, 0, sizeof(s->pub_base));
	/*
	 * A kernel-side stream's slot starts again with each consumer, as its
	 * CHANNEL_STATS did: the tracer's running totals (which a new consumer
	 * reads again) are in its source's counts, which a base would count
	 * twice; a dead consumer's own counts are not carried over, but for
	 * what its source discarded itself and, where reading emptied the
	 * tracer's buffer, what it held (the source's ledger): the new source
	 * starts from them (the packets' events_discarded never steps back).
	 */
	if (s->chan->domain == LTT_CONSUMER_DOMAIN_USER)
		load_base(s);
	else
		ltt_source_take_over(s->src, s->pub, s->resumed, s->resumed_last);
	ltt_stream_publish(s);	/* no dead consumer's failure left showing */
	return 0;
}

/*
 * Events of packets read here but never written: failed writes, packets
 * read without a try at close, packets the sink lost after taking them,
 * and packets the source skipped or gave up (corrupt, or incomplete for
 * good).  Beyond the ring buffer's own count: the page's events_lost.
 */
static uint64_t own_events_lost(const struct ltt_stream *s)
{
	uint64_t packets, events, sum = s->events_failed;

	sink_lost(s, &packets, &events);
	ltt_add_sat(&sum, ltt_source_events_skipped(s->src));
	ltt_add_sat(&sum, s->events_discarded);
	ltt_add_sat(&sum, events);
	return sum;
}

static void store_sum(uint64_t *word, uint64_t base, uint64_t v)
{
	ltt_add_sat(&base, v);
	__atomic_store_n(word, base, __ATOMIC_RELAXED);
}

void ltt_stream_publish(struct ltt_stream *s)
{
	struct ltt_channel_stats st = { 0 };
	const struct ltt_consumer_stream_stats *b = &s->pub_base;

	if (!s->pub)
		return;
	ltt_stream_stats(s, &st);
	store_sum(&s->pub->packets_lost, b->packets_lost, st.packets_lost);
	store_sum(&s->pub->bytes_written, b->bytes_written, st.bytes_written);
	store_sum(&s->pub->events_lost, b->events_lost, own_events_lost(s));
	store_sum(&s->pub->packets_written, b->packets_written, s->packets_written);
	/* the failure now: its drops as the ring buffer's count grows (base) */
	store_sum(&s->pub->error_events, b->error_events, s->error_events);
	__atomic_store_n(&s->pub->error_rb_base, s->error ? s->error_events_base : 0,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&s->pub->source_events_lost, events_lost(s), __ATOMIC_RELAXED);
	__atomic_store_n(&s->pub->source_own_discarded, ltt_source_own_discarded(s->src),
			 __ATOMIC_RELAXED);
	store_sum(&s->pub->error_packets, b->error_packets, st.error_packets);
	__atomic_store_n(&s->pub->error_since, st.error ? st.error_since : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->pub->error, (int64_t)st.error, __ATOMIC_RELAXED);
	__atomic_store_n(&s->pub->updated_ns, ltt_tclock_mono(), __ATOMIC_RELEASE);
}

void ltt_stream_stats(const struct ltt_stream *s, struct ltt_channel_stats *stats)
{
	uint64_t packets, events;
	uint64_t now = s->error ? events_lost(s) : 0;

	ltt_source_stats(s->src, stats);
	sink_lost(s, &packets, &events);
	ltt_add_sat(&stats->packets_lost, s->packets_failed);
	ltt_add_sat(&stats->packets_lost, s->packets_discarded);
	ltt_add_sat(&stats->packets_lost, packets);
	ltt_add_sat(&stats->events_lost, own_events_lost(s));
	ltt_add_sat(&stats->bytes_written, s->bytes_written);
	ltt_add_sat(&stats->error_events, s->error_events);
	if (s->error && now > s->error_events_base)
		ltt_add_sat(&stats->error_events, now - s->error_events_base);
	ltt_add_sat(&stats->error_packets, s->error_packets);
	/* the channel's: the failure that began first */
	if (s->error && (!stats->error || s->error_since < stats->error_since)) {
		stats->error = s->error;
		stats->error_since = s->error_since;
	}
}
