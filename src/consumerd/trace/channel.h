/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * channel.h - one channel of a trace: its configuration and its streams
 * (one per CPU), in parts: the streams one data thread runs.
 *
 * The command thread creates a channel (ADD_CHANNEL) with its parts (one,
 * or one per data thread: data.h says which channels are spread), hands
 * each part to its data thread (LTT_DATA_ADD_CHANNEL), and destroys the
 * channel once every data thread has let its part go
 * (LTT_DATA_REMOVE_CHANNEL).  The fields fall in four groups: the
 * configuration, immutable after ltt_channel_create() and read by every
 * thread without a lock; the output, replaced by the command thread only
 * between requests and read by a data thread only while it runs a request
 * of the channel; the command thread's registry links; and each part's
 * streams and timers, touched only by the part's data thread while it
 * holds the part.
 */
#ifndef LTT_CONSUMERD_CHANNEL_H
#define LTT_CONSUMERD_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#include "common/model/context.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/sink/sink-file.h"
#include "consumerd/source/source.h"	/* struct ltt_channel_stats */

/* The most data threads a consumer runs (--data-threads). */
#define LTT_DATA_THREADS_MAX LTT_CONSUMER_DATA_THREADS_MAX

struct ltt_data_req;
struct ltt_data_thread;
struct ltt_relay;
struct ltt_stream;
struct ltt_tfs_events;
struct ltt_trace;
struct ltt_trace_chunk;

/* Streams per channel (one per possible CPU). */
#define LTT_CHANNEL_MAX_STREAMS 16384

/* Channel names (ltt-ctl-common.h) leave room for "_CPU" in a tracefile base name. */
_Static_assert(LTT_CHANNEL_NAME_MAX + 11 <= LTT_SINK_FILE_BASE_MAX,
	       "a channel name and _CPU fit a tracefile base name");

/*
 * The share of a channel that one data thread runs: the streams of the
 * CPUs placed there (data.h) and their timers.  Data thread of the part
 * only, from its ADD_CHANNEL request to its REMOVE_CHANNEL request.
 */
struct ltt_chan_part {
	struct ltt_channel *chan;	/* the channel it is part of */
	unsigned int thread;		/* its data thread's index (immutable) */
	struct ltt_data_thread *dt;	/* that thread, once it added the part */
	struct ltt_stream *streams;	/* owned, linked by stream->next */
	unsigned int nr_streams;
	struct ltt_evloop_timer *switch_timer, *read_timer;	/* NULL when off */
	/* automatic reclaim by age: its timer, and the packets got at its last tick */
	struct ltt_evloop_timer *reclaim_timer;
	uint64_t reclaim_got;
	/* a stop's flush: timers slowed until the streams get a packet past got */
	bool stopped;
	uint64_t stopped_got;
	struct ltt_chan_part *data_next;	/* in the data thread's list */
	/* REMOVE_CHANNEL waiting for kernel streams to end */
	struct ltt_data_req *end_req;	/* NULL when not removing */
	struct ltt_evloop_timer *end_timer;	/* END_WAIT_MS deadline */
};

/* What ADD_CHANNEL says. */
struct ltt_channel_cfg {
	uint64_t key;
	const char *name;	/* borrowed, copied */
	uint64_t tracefile_size;
	uint64_t tracefile_count;
	uint32_t switch_timer_us;
	uint32_t read_timer_us;
	bool overwrite;
	bool fsync;		/* each packet synced before it counts written */
	bool auto_reclaim;	/* give back what was read, by itself */
	uint64_t auto_reclaim_ns;	/* 0: once read; else: closed that long ago */
	uint64_t auto_reclaim_counts;	/* that age in the buffers' clock units */
	uint8_t domain;		/* enum ltt_consumer_domain */
	uint64_t subbuf_size;	/* kernel: as the tracer was asked; user: 0 */
	uint64_t num_subbuf;
	uint32_t stream_id;	/* tracefs: its CTF stream class */
	uint32_t nr_ctx;	/* tracefs: the contexts its events carry */
	const struct ltt_ctx *ctx;	/* borrowed, copied */
	unsigned int nr_parts;	/* 1, or one per data thread (ltt_data_place()) */
	unsigned int first_thread;	/* the data thread of part 0 */
};

struct ltt_channel {
	/* Immutable after creation: any thread. */
	uint64_t key;
	uint64_t trace_key;
	char name[LTT_CHANNEL_NAME_MAX + 1];
	uint64_t tracefile_size, tracefile_count;
	uint32_t switch_timer_us, read_timer_us;
	bool overwrite;
	bool fsync;			/* each packet synced before it counts written */
	/* ADD_CHANNEL's automatic reclaim (doc/memory.md): after each read
	 * when auto_reclaim_ns is 0, else every auto_reclaim_ns / 2 those
	 * closed auto_reclaim_counts ago (the buffers' timestamps) */
	bool auto_reclaim;
	uint64_t auto_reclaim_ns, auto_reclaim_counts;
	uint8_t domain;			/* enum ltt_consumer_domain */
	uint64_t subbuf_size, num_subbuf;	/* kernel channels: the geometry */
	uint32_t stream_id;		/* tracefs: its CTF stream class */
	uint32_t nr_ctx;		/* tracefs: its events' contexts */
	struct ltt_ctx ctx[LTT_CTX_MAX];
	uint8_t uuid[16];		/* the trace's */
	bool snapshot;			/* a snapshot trace's: no output, its streams are
					 * never read but copied (snapshot.h) */
	struct ltt_relay *relay;	/* the trace's relay (live timer), or NULL */
	unsigned int nr_parts;		/* parts[]: 1, or one per data thread */
	struct ltt_chan_part *parts;	/* owned, nr_parts */

	/*
	 * Replaced by the command thread between requests (a rotation), read
	 * by a data thread while it runs a request of this channel.
	 */
	struct ltt_output *output;	/* owned: where the streams write; NULL in a
					 * snapshot trace */

	/* Command thread only. */
	struct ltt_trace *trace;	/* borrowed: counted in trace->nr_channels */
	struct ltt_channel *next;	/* in the command thread's registry */
	unsigned int nr_streams;	/* added, over every part */
	uint32_t added_stream_id;	/* theirs (the sources' CTF stream id), once one was */

	/*
	 * tracefs (one part): the event map's copy its sources share
	 * (source-tracefs.h); that part's data thread only.
	 */
	struct ltt_tfs_events *tfs_events;	/* owned; NULL until the first stream */
};

/**
 * ltt_channel_create() - a channel of @trace, with no stream yet
 * @cfg: borrowed; the name must be valid (ltt_channel_name_valid()) and
 *       at most LTT_CHANNEL_NAME_MAX bytes; nr_parts at least 1 (parts
 *       on data threads first_thread, first_thread + 1..., each below
 *       LTT_DATA_THREADS_MAX)
 * @trace: borrowed; the caller counts the channel in trace->nr_channels
 * @ret_chan: to release with ltt_channel_destroy()
 *
 * Command thread.  The channel's output is the trace's directory, or its
 * relay.  Returns 0, -EINVAL (a bad argument, parts on threads past
 * LTT_DATA_THREADS_MAX), -ENAMETOOLONG, -ENOMEM, or dup()'s negative
 * errno.  Whether those threads run is ltt_data_call()'s to check.
 */
int ltt_channel_create(const struct ltt_channel_cfg *cfg, struct ltt_trace *trace,
		       struct ltt_channel **ret_chan);

/**
 * ltt_channel_destroy() - free the channel, destroying any stream left
 * (closing without a flush); accepts NULL
 *
 * Command thread, once no data thread holds a part of it (each part's
 * REMOVE_CHANNEL answered), or before any was handed over.
 */
void ltt_channel_destroy(struct ltt_channel *chan);

/**
 * ltt_channel_part_of() - the part that runs (or will run) CPU @cpu's
 * stream: cpu modulo the number of parts
 */
struct ltt_chan_part *ltt_channel_part_of(const struct ltt_channel *chan, uint32_t cpu);

/**
 * ltt_chan_part_find_stream() - the stream of CPU @cpu in @part, or NULL
 *
 * The part's data thread (or the channel's only user).
 */
struct ltt_stream *ltt_chan_part_find_stream(const struct ltt_chan_part *part, uint32_t cpu);

/**
 * ltt_chan_part_add_stream() - @part takes @stream (stream->part is set)
 *
 * The part's data thread (or the channel's only user).
 */
void ltt_chan_part_add_stream(struct ltt_chan_part *part, struct ltt_stream *stream);

/**
 * ltt_chan_part_stats() - add the counters of @part's streams to @stats,
 * with saturation (the ring buffer's counters live in hostile memory);
 * the failure that began first is kept
 *
 * The part's data thread (or the channel's only user).
 */
void ltt_chan_part_stats(const struct ltt_chan_part *part, struct ltt_channel_stats *stats);

/**
 * ltt_channel_stats_add() - add @from (one part's counters) to @to, as
 * ltt_chan_part_stats() adds a stream's: saturating sums, the earliest
 * failure
 */
void ltt_channel_stats_add(struct ltt_channel_stats *to, const struct ltt_channel_stats *from);

/**
 * ltt_channel_output_create() - the output of @c, one of @t's channels: to
 * @t's relay, or files in @chunk (NULL: the trace's current directory)
 * with @c's tracefile limits, synced after the chunk's metadata when
 * @c->fsync
 * @resume: continue the files a dead consumer wrote (sink-file.h)
 * @ret_out: to release with ltt_output_destroy()
 *
 * Command thread.  Returns 0 or ltt_sink_file_output_create()'s or
 * ltt_sink_relay_output_create()'s error.
 */
int ltt_channel_output_create(const struct ltt_trace *t, const struct ltt_trace_chunk *chunk,
			      const struct ltt_channel *c, bool resume, struct ltt_output **ret_out);

#endif /* LTT_CONSUMERD_CHANNEL_H */
