/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data-req.h - what the command thread asks of the data threads (data.h):
 * the requests, and the answers they fill in.  What the channels,
 * streams, sources and snapshots count is theirs (source.h, snapshot.h):
 * the requests name them from above.
 */
#ifndef LTT_CONSUMERD_DATA_REQ_H
#define LTT_CONSUMERD_DATA_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "common/base/evloop.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/source/source.h"	/* struct ltt_channel_stats */
#include "consumerd/trace/channel.h"	/* LTT_DATA_THREADS_MAX */
#include "consumerd/trace/snapshot.h"	/* struct ltt_snapshot_counts */

struct ltt_chan_part;
struct ltt_channel;
struct ltt_data_thread;
struct ltt_output;
struct ltt_relay;

enum ltt_data_req_type {
	LTT_DATA_ADD_CHANNEL,	/* chan: start its timers; the threads now own its parts */
	LTT_DATA_ADD_STREAM,	/* chan, cpu, shm_fd, wakeup_fd: map and start reading */
	LTT_DATA_ADD_KERNEL_STREAM, /* chan, cpu, stream_fd: start reading */
	LTT_DATA_ADD_FTRACE_STREAM, /* chan, cpu, stream_fd (trace_pipe_raw), map_fd */
	LTT_DATA_FLUSH,		/* chan, final: close, write every complete packet */
	LTT_DATA_NEW_CHUNK,	/* chan, clear: its streams move to chan->output, just
				 * replaced (a trace chunk rotation) */
	LTT_DATA_STATS,		/* chan -> stats */
	LTT_DATA_REMOVE_CHANNEL, /* chan: final flush, close its streams and timers */
	LTT_DATA_ADD_RELAY,	/* relay: do its I/O, run its live timer */
	LTT_DATA_REMOVE_RELAY,	/* relay: close it and free it, later (its channels are gone) */
	LTT_DATA_STOP,		/* leave the loop (no channel may remain); internal */
	LTT_DATA_SNAPSHOT,	/* chan, snap_out, max_packets -> snap: copy its packets */
	LTT_DATA_RECLAIM,	/* chan -> reclaimed: give back what was consumed */
};

/*
 * One request, on the caller's stack.  The caller fills the inputs; the
 * data threads set the outputs (summed over a channel's parts), then
 * status (the first error of a part).
 */
struct ltt_data_req {
	enum ltt_data_req_type type;
	struct ltt_channel *chan;	/* borrowed */
	struct ltt_relay *relay;	/* ADD_RELAY, REMOVE_RELAY: borrowed */
	uint32_t cpu;			/* ADD_STREAM */
	int shm_fd, wakeup_fd;		/* ADD_STREAM: borrowed, dup'ed if kept */
	bool has_stats;			/* ADD_STREAM: stats_fd is the statistics page */
	int stats_fd;			/* borrowed (ltt_stream_set_stats_page()) */
	int stream_fd;			/* ADD_KERNEL_STREAM, ADD_FTRACE_STREAM: borrowed,
					 * dup'ed if kept */
	int map_fd;			/* ADD_FTRACE_STREAM: the event map, borrowed */
	bool has_bpf;			/* ADD_FTRACE_STREAM: the CPU's BPF ring and lost counts */
	int bpf_ring_fd, bpf_lost_fd;	/* borrowed */
	bool final;			/* FLUSH */
	bool stopped;			/* FLUSH: the writers are stopped (slow timers) */
	bool clear;			/* NEW_CHUNK: drop what the old chunk holds;
					 * SNAPSHOT: copy nothing, later snapshots
					 * start after what the buffers hold */
	struct ltt_channel_stats stats;	/* STATS: the result */
	const struct ltt_output *snap_out;	/* SNAPSHOT: where (borrowed) */
	uint64_t max_packets;		/* SNAPSHOT: per stream, 0: all */
	struct ltt_snapshot_counts snap;	/* SNAPSHOT: added to */
	uint64_t older_than;		/* RECLAIM: ns, 0: every consumed sub-buffer */
	uint64_t reclaimed;		/* RECLAIM: sub-buffers given back, added to */
	/* private to data.c and data-loop.c: one part's request, posted to its thread */
	struct ltt_chan_part *part;	/* the part it concerns, or NULL */
	unsigned int chan_streams;	/* ADD_*STREAM: the channel's streams, all parts */
	uint32_t stream_id;		/* ADD_*STREAM: theirs (when any); out: the new one's */
	int status;
	bool done;
	struct ltt_evloop_job job;	/* posted to the data thread's loop */
	struct ltt_data_thread *dt;
};

#endif /* LTT_CONSUMERD_DATA_REQ_H */
