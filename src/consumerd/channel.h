/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * channel.h - one channel of a trace: its configuration and its streams
 * (one per CPU).
 *
 * The command thread creates a channel (ADD_CHANNEL), hands it to the data
 * thread (LTT_DATA_ADD_CHANNEL), and destroys it once the data thread has
 * let it go (LTT_DATA_REMOVE_CHANNEL).  The fields fall in three groups:
 * the configuration, immutable after ltt_channel_create() and read by both
 * threads without a lock; the command thread's registry links; and the
 * data thread's streams and timers, touched only by the data thread while
 * it holds the channel.
 */
#ifndef LTT_CONSUMERD_CHANNEL_H
#define LTT_CONSUMERD_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#include "common/context.h"
#include "consumerd/data.h"
#include "consumerd/sink-file.h"

struct ltt_relay;
struct ltt_stream;
struct ltt_tfs_events;
struct ltt_trace;

/* Streams per channel (one per possible CPU). */
#define LTT_CHANNEL_MAX_STREAMS 16384

/* Channel names (ltt-ctl-common.h) leave room for "_CPU" in a tracefile base name. */
_Static_assert(LTT_CHANNEL_NAME_MAX + 11 <= LTT_SINK_FILE_BASE_MAX,
	       "a channel name and _CPU fit a tracefile base name");

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
	uint8_t domain;		/* enum ltt_consumer_domain */
	uint64_t subbuf_size;	/* kernel: as the tracer was asked; user: 0 */
	uint64_t num_subbuf;
	uint32_t stream_id;	/* tracefs: its CTF stream class */
	uint32_t nr_ctx;	/* tracefs: the contexts its events carry */
	const struct ltt_ctx *ctx;	/* borrowed, copied */
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
	uint8_t domain;			/* enum ltt_consumer_domain */
	uint64_t subbuf_size, num_subbuf;	/* kernel channels: the geometry */
	uint32_t stream_id;		/* tracefs: its CTF stream class */
	uint32_t nr_ctx;		/* tracefs: its events' contexts */
	struct ltt_ctx ctx[LTT_CTX_MAX];
	uint8_t uuid[16];		/* the trace's */
	struct ltt_output *output;	/* owned: where the streams write; NULL in a
					 * snapshot trace (streams not read: snapshot.h) */
	struct ltt_relay *relay;	/* the trace's relay (live timer), or NULL */

	/* Command thread only. */
	struct ltt_trace *trace;	/* borrowed: counted in trace->nr_channels */
	struct ltt_channel *next;	/* in the command thread's registry */

	/* Data thread only, from ADD_CHANNEL to REMOVE_CHANNEL. */
	struct ltt_stream *streams;	/* owned, linked by stream->next */
	unsigned int nr_streams;
	struct ltt_evloop_timer *switch_timer, *read_timer;	/* NULL when off */
	/* a stop's flush: timers slowed until the streams get a packet past got */
	bool stopped;
	uint64_t stopped_got;
	struct ltt_data_thread *dt;	/* the one that added it */
	struct ltt_channel *data_next;	/* in the data thread's list */
	/* data thread: REMOVE_CHANNEL waiting for kernel streams to end */
	struct ltt_data_req *end_req;	/* NULL when not removing */
	struct ltt_evloop_timer *end_timer;	/* END_WAIT_MS deadline */
	/* tracefs: the event map's copy its sources share (source-tracefs.h) */
	struct ltt_tfs_events *tfs_events;	/* owned; NULL until the first stream */
};

/**
 * ltt_channel_create() - a channel of @trace, with no stream yet
 * @cfg: borrowed; the name must be valid (ltt_channel_name_valid()) and
 *       at most LTT_CHANNEL_NAME_MAX bytes
 * @trace: borrowed; the caller counts the channel in trace->nr_channels
 * @ret_chan: to release with ltt_channel_destroy()
 *
 * Command thread.  The channel's output is the trace's directory, or its
 * relay.  Returns 0, -EINVAL, -ENAMETOOLONG, -ENOMEM, or dup()'s negative
 * errno.
 */
int ltt_channel_create(const struct ltt_channel_cfg *cfg, struct ltt_trace *trace,
		       struct ltt_channel **ret_chan);

/**
 * ltt_channel_destroy() - free the channel, destroying any stream left
 * (closing without a flush); accepts NULL
 *
 * Command thread, once the data thread no longer holds the channel.
 */
void ltt_channel_destroy(struct ltt_channel *chan);

/**
 * ltt_channel_find_stream() - the stream of CPU @cpu, or NULL
 *
 * Data thread (or the channel's only user).
 */
struct ltt_stream *ltt_channel_find_stream(const struct ltt_channel *chan, uint32_t cpu);

/**
 * ltt_channel_add_stream() - the channel takes @stream
 *
 * Data thread (or the channel's only user).
 */
void ltt_channel_add_stream(struct ltt_channel *chan, struct ltt_stream *stream);

/**
 * ltt_channel_stats() - sum the counters of the channel's streams, with
 * saturation (the ring buffer's counters live in hostile memory)
 *
 * Data thread (or the channel's only user).
 */
void ltt_channel_stats(const struct ltt_channel *chan, struct ltt_channel_stats *ret_stats);

#endif /* LTT_CONSUMERD_CHANNEL_H */
