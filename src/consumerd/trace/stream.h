/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream.h - one stream (one CPU of a channel): a source to read packets
 * from and a sink to write them to, and the loop that moves them.
 *
 * The stream knows neither where packets come from (source.h: user-space
 * shared memory, a kernel stream fd) nor where they go (sink.h: files,
 * later a relay): it asks the sink whether it can take a packet, takes
 * one from the source, writes it, puts it back, and counts what could not
 * be written.  Packets are written whole, padding included.
 *
 * Created, used and destroyed by its stream's data thread (the one that
 * runs the stream's part of its channel, data.h).
 */
#ifndef LTT_CONSUMERD_STREAM_H
#define LTT_CONSUMERD_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/proto/consumer-proto.h"
#include "consumerd/sink/sink.h"
#include "consumerd/source/source.h"

struct ltt_channel;
struct ltt_chan_part;

/* What a drain left behind. */
enum ltt_stream_state {
	LTT_STREAM_IDLE = 0,	/* nothing complete is left: the source signals the next */
	LTT_STREAM_BUSY = 1,	/* the budget ran out first: drain again, no signal will come */
	LTT_STREAM_BLOCKED = 2,	/* the sink would block: drain again once sink->poll_fd
				 * is writable */
	LTT_STREAM_FAILED = 3,	/* the output failed: nothing is read until a flush
				 * retries it (the writers drop and count meanwhile) */
};

struct ltt_stream {
	struct ltt_stream *next;	/* in its channel */
	const struct ltt_channel *chan;	/* borrowed: the channel owns us */
	struct ltt_chan_part *part;	/* the part of it that holds us (its data thread's) */
	uint32_t cpu;
	struct ltt_source *src;		/* owned */
	struct ltt_sink *sink;		/* owned */
	struct ltt_evloop_watch *src_watch;	/* src->poll_fd, or NULL */
	struct ltt_evloop_watch *sink_watch;	/* sink->poll_fd once it blocked, or NULL */
	bool busy;			/* stopped on its budget: read again soon */
	bool blocked;			/* its last drain found the sink blocked */
	bool ended;			/* the source hung up and is empty */
	uint64_t packets_failed;	/* got, but could not be written */
	uint64_t events_failed;		/* their events */
	uint64_t packets_discarded;	/* read without a try: closed, sink blocked */
	uint64_t events_discarded;	/* their events */
	uint64_t bytes_written;
	uint64_t packets_written;
	uint64_t packets_already;	/* handed out again, already in the output */
	uint64_t packets_cleared;	/* read and dropped by a clear (not lost) */
	uint64_t snap_floor;		/* a snapshot trace's: snapshots copy no packet
					 * before it (a clear's end of the buffers) */
	uint64_t events_cleared;	/* their events */
	uint64_t sinks_lost_packets;	/* what the sinks of earlier chunks lost */
	uint64_t sinks_lost_events;	/* (ltt_sink_lost()), carried over */
	/* the channel's statistics page (ADD_STREAM_STATS), or NULL */
	struct ltt_consumer_stream_stats *pub;	/* our slot in it */
	void *pub_map;
	size_t pub_len;
	struct ltt_consumer_stream_stats pub_base;	/* what earlier consumers counted */
	bool resumed;			/* its first sink went on with a dead consumer's files */
	uint64_t resumed_last;		/* whose last packet was numbered so */
	/*
	 * The output failed (a file system full, a directory removed, no fd
	 * left): with a sink that says retry_failed and a source that does
	 * not copy, the packet that failed is kept (held), nothing more is
	 * read, and the writers drop their events, counted in the ring
	 * buffer; a flush tries again.  Otherwise packets are dropped and
	 * counted until a write works again.
	 */
	int error;			/* 0, or the -errno of the failure now */
	int64_t error_since;		/* when it began (seconds since the Epoch) */
	uint64_t error_events_base;	/* the source's events_lost then */
	uint64_t error_events;		/* events dropped in failures now over */
	uint64_t error_packets;		/* packets dropped because of failures */
	bool held;			/* held_pkt: got, not written, not put */
	bool dropping;			/* final flush of a failed output: drop all */
	struct ltt_sink_packet held_pkt;
};

/**
 * ltt_stream_set_stats_page() - publish the stream's counters in @fd, a
 * channel's statistics page (consumer-proto.h), at slot stream->cpu
 * @fd: borrowed; must be sealed against shrinking and hold the slot
 *
 * Data thread, before the first drain.  A user-space stream adds to
 * what the page holds already (counted by a consumer that died); a
 * kernel-side stream's slot starts again (its source's counts are the
 * tracer's running totals, which it reads again).  Stores the counters
 * at once.  Returns 0, -EINVAL (too small, not a regular file), -EPERM (not
 * sealed), or mmap()'s error.
 */
int ltt_stream_set_stats_page(struct ltt_stream *stream, int fd);

/**
 * ltt_stream_publish() - store the stream's counters in its statistics
 * page, if it has one
 *
 * Data thread; after each drain and flush.
 */
void ltt_stream_publish(struct ltt_stream *stream);

/**
 * ltt_stream_create() - a stream of @chan reading @src, writing to a sink
 * of the channel's output named CHANNEL_CPU
 * @chan: the channel (borrowed for the stream's life)
 * @src: taken, even on failure
 * @ret_stream: to release with ltt_stream_destroy()
 *
 * Data thread.  A sink that can't be opened now in an output that says
 * retry_open (files: no room, no descriptor) gives a stream without a
 * sink, failed (see the error fields): it reads nothing until a flush
 * opens the sink.  Returns 0, -ENAMETOOLONG, -ENOMEM, or the output's
 * error (another output, or -EINVAL).
 */
int ltt_stream_create(const struct ltt_channel *chan, uint32_t cpu, struct ltt_source *src,
		      struct ltt_stream **ret_stream);

/**
 * ltt_stream_destroy() - close the sink and the source, free; no flush:
 * what the source still holds is counted lost (ltt_source_abandon())
 * before the last publish; accepts NULL and half-built streams
 */
void ltt_stream_destroy(struct ltt_stream *stream);

/**
 * ltt_stream_drain() - write the stream's complete packets, at most @budget
 * @scratch: the copy buffer for sources that copy, large enough for the
 *           stream's packets (borrowed)
 *
 * Data thread.  Packets the source skips are counted by it.  A snapshot
 * trace's stream writes nothing: its source keeps what is ready, if it
 * keeps packets itself (ltt_source_keep()).  Returns an enum
 * ltt_stream_state.
 */
enum ltt_stream_state ltt_stream_drain(struct ltt_stream *stream, struct ltt_scratch *scratch,
				       unsigned int budget);

/**
 * ltt_stream_switch() - close the stream's open packet, if it has
 * events, so the next drain can read it (the switch timer)
 *
 * Data thread.
 */
void ltt_stream_switch(struct ltt_stream *stream);

/**
 * ltt_stream_switch_empty() - close the stream's open packet even without
 * events, where its source can (ltt_source_switch_empty()): the first
 * packet a live reader through LTTng's relay waits for
 *
 * Data thread.
 */
void ltt_stream_switch_empty(struct ltt_stream *s);

/**
 * ltt_stream_flush() - switch, then write every packet complete now
 * @final: no writer remains: packets left incomplete by killed writers
 *         are given up (counted lost) rather than waited for
 *
 * Data thread.  A stream whose output failed tries again first (opens
 * its sink, writes the packet it holds); if the output still fails, a
 * final flush drops what the buffer holds (counted lost), another one
 * returns FAILED at once.  Returns IDLE, BUSY when writers kept the
 * stream busy beyond a lap of packets (what was complete at the call has
 * been written), BLOCKED when the sink would block, or FAILED.
 */
enum ltt_stream_state ltt_stream_flush(struct ltt_stream *stream, struct ltt_scratch *scratch,
				       bool final);

/**
 * ltt_stream_flush_stopped() - the flush of a stop (not final): as
 * ltt_stream_flush(), the open packet closed by ltt_source_span(), so
 * that a stream whose source covers the session ends at the stop
 *
 * Data thread.  Returns as ltt_stream_flush().
 */
enum ltt_stream_state ltt_stream_flush_stopped(struct ltt_stream *stream,
					       struct ltt_scratch *scratch);

/**
 * ltt_stream_new_chunk() - move the stream to its channel's output, just
 * replaced (a trace chunk rotation): the packets complete now go to the
 * old sink (written as a flush writes them; with @clear, read and dropped
 * without counting them lost, and the old sink's files deleted), then the
 * old sink is closed and a sink of the new output opened (the open packet
 * closed by ltt_source_span(): the stream covers the chunk).  A packet a
 * writer completes later goes to the new sink: none is lost or written
 * twice across the boundary.
 *
 * Data thread; the caller has stopped waiting on the old sink's fd.  A
 * sink that can't be opened leaves the stream failed (retried at the
 * next flush), as ltt_stream_create() does.  Returns the flush's state.
 */
enum ltt_stream_state ltt_stream_new_chunk(struct ltt_stream *stream, struct ltt_scratch *scratch,
					   bool clear);

/**
 * ltt_stream_discard() - the stream is about to be closed after its final
 * flush: read what is still in its buffer (the sink blocked: a stalled
 * relay) without writing it, give up what is incomplete, and count it all
 * lost with its events (logged), so that nothing vanishes uncounted
 *
 * Data thread; no writer may remain.  Does nothing for an ended stream.
 */
void ltt_stream_discard(struct ltt_stream *stream, struct ltt_scratch *scratch);

/**
 * ltt_stream_stats() - add the stream's counters to @stats, saturating:
 * the source's losses, and every packet read but never written (a write
 * that failed, a packet the sink dropped after taking it, a final flush
 * that found the sink blocked) in packets_lost, its events in events_lost
 */
void ltt_stream_stats(const struct ltt_stream *stream, struct ltt_channel_stats *stats);

#endif /* LTT_CONSUMERD_STREAM_H */
